/*
 * seabattle_mapgen.c - a random valid sea battle board (S3) for `judge mapgen seabattle`.
 *
 * Ships are placed longest first. For each ship every placement that keeps it off the
 * cells of, and the cells around, the ships already placed is listed in a fixed order
 * (rows top to bottom, then columns, horizontal before vertical; a one-cell ship has one
 * direction), and one is drawn with uniform() from rng_stream(seed, "seabattle/board").
 * When a ship has no place left the board is started again, drawing on from the same
 * stream; after MAX_ATTEMPTS the fleet is taken not to fit.
 */
#include <stdio.h>
#include <string.h>

#include "engine/rng.h"
#include "engine/seabattle.h"

#define MAX_ATTEMPTS 1000

struct grid {
    bool ship[SEA_CELLS];
    bool blocked[SEA_CELLS];  /* a ship cell or a neighbour of one, corners included */
};

struct placement { int x, y; bool vertical; };

static bool fits(const struct grid *g, int x, int y, int len, bool vertical)
{
    for (int i = 0; i < len; i++) {
        int cx = vertical ? x : x + i, cy = vertical ? y + i : y;
        if (cx > SEA_SIDE || cy > SEA_SIDE || g->blocked[(cy - 1) * SEA_SIDE + cx - 1])
            return false;
    }
    return true;
}

static void place(struct grid *g, const struct placement *p, int len)
{
    for (int i = 0; i < len; i++) {
        int cx = p->vertical ? p->x : p->x + i, cy = p->vertical ? p->y + i : p->y;
        g->ship[(cy - 1) * SEA_SIDE + cx - 1] = true;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (cx + dx >= 1 && cx + dx <= SEA_SIDE && cy + dy >= 1 && cy + dy <= SEA_SIDE)
                    g->blocked[(cy + dy - 1) * SEA_SIDE + cx + dx - 1] = true;
    }
}

/* Every free placement of a ship of length len, in the fixed order; returns the count. */
static int list_placements(const struct grid *g, int len, struct placement *out)
{
    int n = 0;
    for (int y = 1; y <= SEA_SIDE; y++)
        for (int x = 1; x <= SEA_SIDE; x++)
            for (int v = 0; v <= (len > 1); v++)
                if (fits(g, x, y, len, v))
                    out[n++] = (struct placement){x, y, v};
    return n;
}

static bool try_board(const struct sea_fleet *fleet, struct rng *r, struct grid *g)
{
    struct placement options[2 * SEA_CELLS];
    memset(g, 0, sizeof *g);
    for (int len = SEA_MAX_LEN; len >= 1; len--) {
        for (int k = 0; k < fleet->count[len]; k++) {
            int n = list_placements(g, len, options);
            if (n == 0)
                return false;
            place(g, &options[rng_uniform(r, (uint64_t)n)], len);
        }
    }
    return true;
}

static int gen_error(struct game_error *err, const char *msg)
{
    err->line = err->col = 0;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return -1;
}

static int write_board(const struct grid *g, struct strbuf *out)
{
    char line[SEA_SIDE + 1];
    for (int y = 0; y < SEA_SIDE; y++) {
        for (int x = 0; x < SEA_SIDE; x++)
            line[x] = g->ship[y * SEA_SIDE + x] ? '#' : '_';
        line[SEA_SIDE] = '\n';
        if (sb_append(out, line, sizeof line) < 0)
            return -1;
    }
    return 0;
}

int sea_board_generate(const struct sea_fleet *fleet, uint64_t seed, struct strbuf *out,
                       struct game_error *err)
{
    int ships = 0;
    for (int len = 1; len <= SEA_MAX_LEN; len++) {
        _Static_assert(SEA_MAX_SHIPS == 25, "the message below names the limit");
        if (fleet->count[len] < 0 || fleet->count[len] > SEA_MAX_SHIPS)
            return gen_error(err, "each ship count must be in 0..25");
        ships += fleet->count[len];
    }
    if (ships == 0)
        return gen_error(err, "the fleet has no ship");
    struct rng r = rng_stream(seed, SEA_BOARD_LABEL);
    struct grid g;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        if (try_board(fleet, &r, &g))
            return write_board(&g, out) < 0 ? gen_error(err, "out of memory") : 0;
    return gen_error(err, "the fleet does not fit on a 10x10 board without ships touching");
}
