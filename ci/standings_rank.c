/* standings_rank.c - standings_finish: fit the ratings, sort the table, give ranks (standings.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ci/rating.h"
#include "ci/standings.h"

static int name_cmp(const struct ci_player *x, const struct ci_player *y)
{
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    return c ? c : (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

/* qsort has no context argument; the table being sorted is set just before each sort. */
static const struct ci_player *sort_players;

static int by_name(const void *x, const void *y)
{
    return name_cmp(&sort_players[*(const uint32_t *)x], &sort_players[*(const uint32_t *)y]);
}

static int by_pair(const void *x, const void *y)
{
    const struct bt_pair *p = x, *q = y;
    return p->a != q->a ? (p->a > q->a) - (p->a < q->a) : (p->b > q->b) - (p->b < q->b);
}

/* Players with a match, by name, so the fit sees the same input whatever order replays came in. */
static int fit_ratings(struct standings *st, struct ci_error *err)
{
    uint32_t *rated = malloc((st->n + 1) * sizeof *rated), *slot = calloc(st->n + 1, sizeof *slot);
    struct bt_pair *pairs = malloc((st->n_pairs + 1) * sizeof *pairs);
    double *theta = malloc((st->n + 1) * sizeof *theta), *se = malloc((st->n + 1) * sizeof *se);
    int rc = -1;
    if (!rated || !slot || !pairs || !theta || !se) {
        ci_fail_oom(err);
        goto out;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->n; i++)
        if (st->players[i].matches)
            rated[n++] = i;
    sort_players = st->players;
    qsort(rated, n, sizeof *rated, by_name);
    for (uint32_t k = 0; k < n; k++)
        slot[rated[k]] = k;
    size_t m = 0;
    for (size_t i = 0; i < st->pair_cap; i++) {
        const struct ci_pair *p = &st->pairs[i];
        if (!p->matches)
            continue;
        uint32_t a = slot[p->a], b = slot[p->b];
        bool swap = a > b;
        pairs[m++] =
            (struct bt_pair){swap ? b : a, swap ? a : b, (double)(swap ? p->b_units : p->a_units) / CI_UNITS,
                             (double)(swap ? p->a_units : p->b_units) / CI_UNITS};
    }
    qsort(pairs, m, sizeof *pairs, by_pair);
    struct bt_options opt = BT_DEFAULT_OPTIONS;
    struct bt_fit info;
    if (bt_fit(n, pairs, m, &opt, theta, se, &info, err) < 0)
        goto out;
    for (uint32_t i = 0; i < st->n; i++)
        st->players[i].rating = st->players[i].rating_se = NAN;
    for (uint32_t k = 0; k < n; k++) {
        st->players[rated[k]].rating = bt_elo(theta[k]);
        st->players[rated[k]].rating_se = bt_elo_se(se[k]);
    }
    st->rating_converged = info.converged;
    st->se_exact = info.se_exact;
    st->rating_iterations = info.iterations;
    rc = 0;
out:
    free(rated);
    free(slot);
    free(pairs);
    free(theta);
    free(se);
    return rc;
}

static int cmp_desc_double(double x, double y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);
    return (x < y) - (x > y);
}

/* Points per match of p against q's: <0 when p's is higher (exact: no division). */
static int cmp_per_match(const struct ci_player *p, const struct ci_player *q)
{
    if ((p->matches > 0) != (q->matches > 0))
        return p->matches ? -1 : 1;
    __int128 x = (__int128)p->points * (__int128)q->matches, y = (__int128)q->points * (__int128)p->matches;
    return (x < y) - (x > y);
}

/* The class before the reference bots; in each, compiled players first; then points per match (a measure
 * that does not grow with the number of matches played), the rating, wins; then the name. */
static int by_standing(const void *x, const void *y)
{
    const struct ci_player *p = &sort_players[*(const uint32_t *)x], *q = &sort_players[*(const uint32_t *)y];
    if (p->reference != q->reference)
        return p->reference - q->reference;
    if (standings_not_played(p) != standings_not_played(q))
        return standings_not_played(p) - standings_not_played(q);
    int c = cmp_per_match(p, q);
    if (c)
        return c;
    c = cmp_desc_double(p->rating, q->rating);
    if (c)
        return c;
    if (p->wins != q->wins)
        return p->wins > q->wins ? -1 : 1;
    return name_cmp(p, q);
}

static bool same_standing(const struct ci_player *p, const struct ci_player *q)
{
    bool same_rating = (isnan(p->rating) && isnan(q->rating)) || fabs(p->rating - q->rating) < 1e-6;
    return p->reference == q->reference && standings_not_played(p) == standings_not_played(q) &&
           !cmp_per_match(p, q) && same_rating;
}

/* Ranks within each group (class, references), ties sharing one (1, 2, 2, 4), and where each tie ends. */
static void give_ranks(struct standings *st)
{
    st->n_class = 0;
    uint32_t group_start = 0;
    for (uint32_t k = 0, end; k < st->n_order; k = end) {
        const struct ci_player *first = &st->players[st->order[k]];
        if (k > 0 && first->reference != st->players[st->order[k - 1]].reference)
            group_start = k;
        for (end = k + 1; end < st->n_order && same_standing(first, &st->players[st->order[end]]); end++)
            ;
        for (uint32_t j = k; j < end; j++) {
            st->players[st->order[j]].rank = (int)(k - group_start) + 1;
            st->players[st->order[j]].rank_last = (int)(end - group_start);
        }
        if (!first->reference)
            st->n_class = end;
    }
}

int standings_finish(struct standings *st, struct ci_error *err)
{
    if (fit_ratings(st, err) < 0)
        return -1;
    free(st->order);
    st->order = malloc((st->n + 1) * sizeof *st->order);
    if (!st->order)
        return ci_fail_oom(err);
    st->n_order = 0;
    for (uint32_t i = 0; i < st->n; i++)
        if (st->players[i].matches || st->players[i].has_compile || st->players[i].smoke_failed)
            st->order[st->n_order++] = i;
    sort_players = st->players;
    qsort(st->order, st->n_order, sizeof *st->order, by_standing);
    give_ranks(st);
    return 0;
}
