/* rating.c - Bradley-Terry by MM with a weak prior; standard errors from the Fisher information. */
#include "ci/rating.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ELO_BASE  1500.0
#define ELO_SCALE (400.0 / M_LN10)

double bt_elo(double theta)
{
    return ELO_BASE + ELO_SCALE * theta;
}

double bt_elo_se(double se)
{
    return ELO_SCALE * se;
}

/* One MM step for every player at once (Jacobi: each uses the previous gamma only). */
static double mm_step(size_t n, const struct bt_pair *pairs, size_t n_pairs, double prior,
                      const double *gamma, double *wins, double *denom, double *next)
{
    for (size_t i = 0; i < n; i++) {
        wins[i] = prior / 2;
        denom[i] = prior / (gamma[i] + 1.0);
    }
    for (size_t k = 0; k < n_pairs; k++) {
        const struct bt_pair *p = &pairs[k];
        double games = p->a_score + p->b_score, share = games / (gamma[p->a] + gamma[p->b]);
        wins[p->a] += p->a_score;
        wins[p->b] += p->b_score;
        denom[p->a] += share;
        denom[p->b] += share;
    }
    double moved = 0;
    for (size_t i = 0; i < n; i++) {
        next[i] = wins[i] / denom[i];
        double d = fabs(log(next[i]) - log(gamma[i]));
        if (d > moved)
            moved = d;
    }
    return moved;
}

static void fisher_information(size_t n, const struct bt_pair *pairs, size_t n_pairs, double prior,
                               const double *theta, double *info)
{
    for (size_t i = 0; i < n; i++) {
        double p = 1.0 / (1.0 + exp(-theta[i]));
        info[i * n + i] = prior * p * (1 - p);
    }
    for (size_t k = 0; k < n_pairs; k++) {
        const struct bt_pair *q = &pairs[k];
        double p = 1.0 / (1.0 + exp(theta[q->b] - theta[q->a]));
        double w = (q->a_score + q->b_score) * p * (1 - p);
        info[q->a * n + q->a] += w;
        info[q->b * n + q->b] += w;
        info[q->a * n + q->b] -= w;
        info[q->b * n + q->a] -= w;
    }
}

/* In place: the lower triangle of m becomes L with m = L L^T. -1 if not positive definite. */
static int cholesky(size_t n, double *m)
{
    for (size_t j = 0; j < n; j++) {
        double d = m[j * n + j];
        for (size_t k = 0; k < j; k++)
            d -= m[j * n + k] * m[j * n + k];
        if (!(d > 0))
            return -1;
        m[j * n + j] = sqrt(d);
        for (size_t i = j + 1; i < n; i++) {
            double s = m[i * n + j];
            for (size_t k = 0; k < j; k++)
                s -= m[i * n + k] * m[j * n + k];
            m[i * n + j] = s / m[j * n + j];
        }
    }
    return 0;
}

/* diag((L L^T)^-1)_i = sum over rows k of (L^-1)[k][i]^2; column i of L^-1 by forward substitution. */
static void inverse_diagonal(size_t n, const double *l, double *col, double *out)
{
    for (size_t i = 0; i < n; i++) {
        double sum = 0;
        for (size_t k = i; k < n; k++) {
            double s = k == i ? 1.0 : 0.0;
            for (size_t m = i; m < k; m++)
                s -= l[k * n + m] * col[m];
            col[k] = s / l[k * n + k];
            sum += col[k] * col[k];
        }
        out[i] = sum;
    }
}

/* s = (L L^T)^-1 * 1, by forward then backward substitution. */
static void solve_ones(size_t n, const double *l, double *s)
{
    for (size_t i = 0; i < n; i++) {
        double v = 1.0;
        for (size_t k = 0; k < i; k++)
            v -= l[i * n + k] * s[k];
        s[i] = v / l[i * n + i];
    }
    for (size_t i = n; i-- > 0;) {
        double v = s[i];
        for (size_t k = i + 1; k < n; k++)
            v -= l[k * n + i] * s[k];
        s[i] = v / l[i * n + i];
    }
}

/* Variances of theta_i - mean(theta): the common level, which only the prior pins down, drops out. */
static int centred_variances(size_t n, double *info, double *var)
{
    if (cholesky(n, info) < 0)
        return -1;
    double *col = calloc(n, sizeof *col), *sums = calloc(n, sizeof *sums);
    if (!col || !sums) {
        free(col);
        free(sums);
        return -1;
    }
    inverse_diagonal(n, info, col, var);
    solve_ones(n, info, sums);
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += sums[i];
    for (size_t i = 0; i < n; i++) {
        var[i] += -2 * sums[i] / (double)n + total / ((double)n * (double)n);
        if (var[i] < 0)
            var[i] = 0;
    }
    free(col);
    free(sums);
    return 0;
}

/* Each player's games alone, as if every opponent were known exactly: for very many players. */
static void diagonal_variances(size_t n, const struct bt_pair *pairs, size_t n_pairs, double prior,
                               const double *theta, double *var)
{
    for (size_t i = 0; i < n; i++) {
        double p = 1.0 / (1.0 + exp(-theta[i]));
        var[i] = prior * p * (1 - p);
    }
    for (size_t k = 0; k < n_pairs; k++) {
        const struct bt_pair *q = &pairs[k];
        double p = 1.0 / (1.0 + exp(theta[q->b] - theta[q->a]));
        var[q->a] += (q->a_score + q->b_score) * p * (1 - p);
        var[q->b] += (q->a_score + q->b_score) * p * (1 - p);
    }
    for (size_t i = 0; i < n; i++)
        var[i] = 1.0 / var[i];
}

static int standard_errors(size_t n, const struct bt_pair *pairs, size_t n_pairs,
                           const struct bt_options *opt, const double *theta, double *se, bool *exact,
                           struct ci_error *err)
{
    *exact = n > 0 && n <= opt->exact_se_max_players;
    if (*exact) {
        double *info = calloc(n * n, sizeof *info);
        if (!info)
            return ci_fail_oom(err);
        fisher_information(n, pairs, n_pairs, opt->prior_games, theta, info);
        *exact = centred_variances(n, info, se) == 0;
        free(info);
    }
    if (!*exact)
        diagonal_variances(n, pairs, n_pairs, opt->prior_games, theta, se);
    for (size_t i = 0; i < n; i++)
        se[i] = sqrt(se[i]);
    return 0;
}

int bt_fit(size_t n, const struct bt_pair *pairs, size_t n_pairs, const struct bt_options *opt, double *theta,
           double *se, struct bt_fit *info, struct ci_error *err)
{
    memset(info, 0, sizeof *info);
    if (!(opt->prior_games > 0))
        return ci_fail(err, "rating: the prior must be positive");
    double *work = calloc(n ? 4 * n : 1, sizeof *work);
    if (!work)
        return ci_fail_oom(err);
    double *gamma = work, *wins = work + n, *denom = work + 2 * n, *next = work + 3 * n;
    for (size_t i = 0; i < n; i++)
        gamma[i] = 1.0;
    while (info->iterations < opt->max_iterations && !info->converged) {
        double moved = mm_step(n, pairs, n_pairs, opt->prior_games, gamma, wins, denom, next);
        memcpy(gamma, next, n * sizeof *gamma);
        info->iterations++;
        info->converged = moved < opt->tolerance;
    }
    for (size_t i = 0; i < n; i++)
        theta[i] = log(gamma[i]);
    free(work);
    int rc = standard_errors(n, pairs, n_pairs, opt, theta, se, &info->se_exact, err);
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += theta[i] / (double)n;
    for (size_t i = 0; i < n; i++)
        theta[i] -= mean;
    return rc;
}
