/* test_ci_rating.c - Bradley-Terry by MM: the likelihood's stationary point, known values, order, errors. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "ci/rating.h"

/* d(log-likelihood + prior)/d theta_i at theta (not centred): zero at the maximum. */
static double gradient(const struct bt_pair *pairs, size_t m, double prior, const double *theta, size_t i)
{
    double g = prior / 2 - prior / (1 + exp(-theta[i]));
    for (size_t k = 0; k < m; k++) {
        double p = 1 / (1 + exp(theta[pairs[k].b] - theta[pairs[k].a])),
               games = pairs[k].a_score + pairs[k].b_score;
        if (pairs[k].a == i)
            g += pairs[k].a_score - games * p;
        if (pairs[k].b == i)
            g += pairs[k].b_score - games * (1 - p);
    }
    return g;
}

static const struct bt_pair three[] = {{0, 1, 7, 3}, {1, 2, 6, 4}, {0, 2, 8.5, 1.5}};

/* bt_fit centres theta; the prior fixes the level: the shift c with sum sigmoid(theta + c) = n / 2. */
static void uncentre(size_t n, double *theta)
{
    double lo = -50, hi = 50;
    for (int it = 0; it < 200; it++) {
        double c = (lo + hi) / 2, sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += 1 / (1 + exp(-(theta[i] + c)));
        if (sum > (double)n / 2)
            hi = c;
        else
            lo = c;
    }
    for (size_t i = 0; i < n; i++)
        theta[i] += (lo + hi) / 2;
}

START_TEST(maximises_the_likelihood)
{
    double theta[3], se[3];
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    struct bt_fit info;
    struct ci_error err;
    ck_assert_int_eq(bt_fit(3, three, 3, &opt, theta, se, &info, &err), 0);
    ck_assert(info.converged);
    ck_assert(info.se_exact);
    ck_assert_double_eq_tol(theta[0] + theta[1] + theta[2], 0, 1e-12);
    uncentre(3, theta);
    for (size_t i = 0; i < 3; i++)
        ck_assert_double_eq_tol(gradient(three, 3, 1.0, theta, i), 0, 1e-8);
    ck_assert(theta[0] > theta[1] && theta[1] > theta[2]);
}
END_TEST

START_TEST(two_players_without_prior_give_the_odds)
{
    const struct bt_pair p[] = {{0, 1, 3, 1}};
    double theta[2], se[2];
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    opt.prior_games = 1e-9;
    struct bt_fit info;
    struct ci_error err;
    ck_assert_int_eq(bt_fit(2, p, 1, &opt, theta, se, &info, &err), 0);
    ck_assert_double_eq_tol(theta[0] - theta[1], log(3.0), 1e-6);
    /* Elo-like points: 400 log10(3) apart. */
    ck_assert_double_eq_tol(bt_elo(theta[0]) - bt_elo(theta[1]), 400 * log10(3.0), 1e-3);
    ck_assert_double_eq_tol(bt_elo(0), 1500, 1e-12);
}
END_TEST

START_TEST(a_player_who_always_wins_stays_finite)
{
    const struct bt_pair p[] = {{0, 1, 10, 0}};
    double theta[2], se[2];
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    struct bt_fit info;
    struct ci_error err;
    ck_assert_int_eq(bt_fit(2, p, 1, &opt, theta, se, &info, &err), 0);
    ck_assert(isfinite(theta[0]) && isfinite(se[0]) && theta[0] > 0);
    ck_assert_double_eq_tol(theta[0], -theta[1], 1e-9); /* centred */
}
END_TEST

START_TEST(the_order_of_pairs_does_not_matter)
{
    const struct bt_pair shuffled[] = {{1, 2, 6, 4}, {0, 2, 8.5, 1.5}, {0, 1, 7, 3}};
    const struct bt_pair renamed[] = {
        {2, 1, 7, 3}, {1, 0, 6, 4}, {2, 0, 8.5, 1.5}}; /* players 0 and 2 swapped */
    double a[3], b[3], c[3], se[3];
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    struct bt_fit info;
    struct ci_error err;
    ck_assert_int_eq(bt_fit(3, three, 3, &opt, a, se, &info, &err), 0);
    ck_assert_int_eq(bt_fit(3, shuffled, 3, &opt, b, se, &info, &err), 0);
    ck_assert_int_eq(bt_fit(3, renamed, 3, &opt, c, se, &info, &err), 0);
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq_tol(a[i], b[i], 1e-9);
        ck_assert_double_eq_tol(a[i], c[2 - i], 1e-9);
    }
}
END_TEST

/* The information matrix by finite differences of the gradient, inverted by cofactors; the
 * variance of theta_i - mean(theta) from the full inverse. */
START_TEST(standard_errors_invert_the_fisher_information)
{
    double theta[3], se[3];
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    struct bt_fit info;
    struct ci_error err;
    ck_assert_int_eq(bt_fit(3, three, 3, &opt, theta, se, &info, &err), 0);
    uncentre(3, theta);
    double h[3][3], d = 1e-5;
    for (size_t j = 0; j < 3; j++) {
        double up[3] = {theta[0], theta[1], theta[2]}, down[3] = {theta[0], theta[1], theta[2]};
        up[j] += d;
        down[j] -= d;
        for (size_t i = 0; i < 3; i++)
            h[i][j] = -(gradient(three, 3, 1.0, up, i) - gradient(three, 3, 1.0, down, i)) / (2 * d);
    }
    double det = h[0][0] * (h[1][1] * h[2][2] - h[1][2] * h[2][1]) -
                 h[0][1] * (h[1][0] * h[2][2] - h[1][2] * h[2][0]) +
                 h[0][2] * (h[1][0] * h[2][1] - h[1][1] * h[2][0]);
    double inv[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
            inv[i][j] = (h[r0][c0] * h[r1][c1] - h[r0][c1] * h[r1][c0]) / det;
        }
    double total = 0, row[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            row[i] += inv[i][j];
            total += inv[i][j];
        }
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(se[i], sqrt(inv[i][i] - 2 * row[i] / 3 + total / 9), 1e-5);

    /* The diagonal approximation (many players) ignores correlations. */
    double approx[3];
    opt.exact_se_max_players = 2;
    ck_assert_int_eq(bt_fit(3, three, 3, &opt, theta, approx, &info, &err), 0);
    ck_assert(!info.se_exact);
    for (int i = 0; i < 3; i++)
        ck_assert(approx[i] > 0 && isfinite(approx[i]));
}
END_TEST

START_TEST(more_games_less_uncertainty)
{
    const struct bt_pair few[] = {{0, 1, 2, 2}}, many[] = {{0, 1, 200, 200}};
    double theta[2], se_few[2], se_many[2];
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    struct bt_fit info;
    struct ci_error err;
    ck_assert_int_eq(bt_fit(2, few, 1, &opt, theta, se_few, &info, &err), 0);
    ck_assert_int_eq(bt_fit(2, many, 1, &opt, theta, se_many, &info, &err), 0);
    ck_assert(se_many[0] < se_few[0] / 5);
    ck_assert_double_eq_tol(theta[0], 0, 1e-9);
}
END_TEST

START_TEST(no_players_and_a_bad_prior)
{
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    struct bt_fit info;
    struct ci_error err;
    ck_assert_int_eq(bt_fit(0, NULL, 0, &opt, NULL, NULL, &info, &err), 0);
    opt.prior_games = 0;
    double theta[1], se[1];
    ck_assert_int_eq(bt_fit(1, NULL, 0, &opt, theta, se, &info, &err), -1);
}
END_TEST

static Suite *rating_suite(void)
{
    Suite *s = suite_create("rating");
    TCase *t = tcase_create("rating");
    tcase_add_test(t, maximises_the_likelihood);
    tcase_add_test(t, two_players_without_prior_give_the_odds);
    tcase_add_test(t, a_player_who_always_wins_stays_finite);
    tcase_add_test(t, the_order_of_pairs_does_not_matter);
    tcase_add_test(t, standard_errors_invert_the_fisher_information);
    tcase_add_test(t, more_games_less_uncertainty);
    tcase_add_test(t, no_players_and_a_bad_prior);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(rating_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
