/* warlight_setup.c - the board of round R from stream "warlight/setup/R" (W4, W5, D11). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/warlight.h"

/* The bonus members so far, each bonus's list in order of assignment. */
struct layout {
    int32_t *members;   /* bonus x holds members[x * size .. x * size + count[x]) */
    int32_t *count;
    int32_t *cand;      /* candidates of one step */
    int size;
};

static int cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* F of W4 for bonus x: unassigned neighbours of its territories in row-major order, else
 * every unassigned territory. stamp[] marks territories already taken as candidates. */
static int candidates(struct warlight_board *b, struct layout *l, int x, int32_t *stamp, int32_t mark)
{
    int nf = 0;
    for (int m = 0; m < l->count[x]; m++) {
        int t = l->members[(size_t)x * (size_t)l->size + (size_t)m];
        for (int i = 0; i < 8; i++) {
            int u = wl_board_neighbour(b, t, i);
            if (b->bonus[u] < 0 && stamp[u] != mark) {
                stamp[u] = mark;
                l->cand[nf++] = u;
            }
        }
    }
    if (nf > 0) {
        qsort(l->cand, (size_t)nf, sizeof *l->cand, cmp_int32);
        return nf;
    }
    for (int t = 0; t < b->n; t++)
        if (b->bonus[t] < 0)
            l->cand[nf++] = t;
    return nf;
}

static void assign(struct warlight_board *b, struct layout *l, int x, int t)
{
    b->bonus[t] = x;
    l->members[(size_t)x * (size_t)l->size + (size_t)l->count[x]++] = t;
}

/* W4. */
static int lay_out_bonuses(struct warlight_board *b, int size, struct rng *r, const int *order)
{
    struct layout l = {.size = size};
    int32_t *stamp = calloc((size_t)b->n, sizeof *stamp);
    l.members = malloc((size_t)b->n * sizeof *l.members);
    l.count = calloc((size_t)b->bonus_count, sizeof *l.count);
    l.cand = malloc((size_t)b->n * sizeof *l.cand);
    int rc = stamp && l.members && l.count && l.cand ? 0 : -1;
    for (int t = 0; rc == 0 && t < b->n; t++)
        b->bonus[t] = -1;
    for (int x = 0; rc == 0 && x < b->bonus_count; x++)
        assign(b, &l, x, order[x]);
    int32_t mark = 0;
    for (int s = 2; rc == 0 && s <= size; s++) {
        for (int x = 0; x < b->bonus_count; x++) {
            int nf = candidates(b, &l, x, stamp, ++mark);
            assign(b, &l, x, l.cand[rng_uniform(r, (uint64_t)nf)]);
        }
    }
    for (int x = 0; rc == 0 && x < b->bonus_count; x++)
        b->bonus_size[x] = l.count[x];
    free(stamp);
    free(l.members);
    free(l.count);
    free(l.cand);
    return rc;
}

static void shuffled_territories(const struct warlight_board *b, struct rng *r, int *order)
{
    for (int t = 0; t < b->n; t++)
        order[t] = t;
    rng_shuffle_int(r, order, (size_t)b->n);
}

int wl_setup_round(struct warlight_board *b, const int64_t *params, uint64_t seed, int64_t round)
{
    char label[48];
    snprintf(label, sizeof label, "warlight/setup/%" PRId64, round);
    struct rng r = rng_stream(seed, label);
    int *order = b->scratch;
    shuffled_territories(b, &r, order);
    if (lay_out_bonuses(b, (int)params[WP_BONUS_SIZE], &r, order) < 0)
        return -1;
    for (int x = 0; x < b->bonus_count; x++)
        b->bonus_value[x] = rng_range(&r, params[WP_BONUS_VALUE_MIN], params[WP_BONUS_VALUE_MAX]);
    shuffled_territories(b, &r, order);  /* W5, D11: from a fresh row-major list */
    memset(b->land, 0, sizeof b->land);
    for (int t = 0; t < b->n; t++) {
        b->owner[t] = -1;
        b->armies[t] = params[WP_NEUTRAL_ARMIES];
    }
    for (int id = 0; id < b->k; id++) {
        b->start[id] = order[id];
        b->owner[order[id]] = id;
        b->armies[order[id]] = params[WP_START_ARMIES];
        b->land[id] = 1;
    }
    const int32_t *none;
    wl_board_take_changes(b, &none);
    return 0;
}
