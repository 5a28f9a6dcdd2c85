/* bomberman_mapgen.c - a random valid bomberman map (`judge mapgen bomberman`), stream
 * `bomberman/mapgen`. Walls stand on every cell with both x and y even, so once the blocks are
 * gone every free cell reaches every other. Starts are the corners (1 top-left, 2 bottom-right,
 * 3 top-right, 4 bottom-left); the seven cells of each corner's L stay free, so a player can
 * bomb its way out and step aside (with the default radius 2 and timer 5). Blocks fill each
 * other cell with probability `blocks` percent; `bonuses` of them hide an A or an R.
 * `symmetric` mirrors blocks and bonuses in both axes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bomberman.h"
#include "engine/rng.h"

#define DEFAULT_PLAYERS 4
#define DEFAULT_BLOCKS  70
#define DEFAULT_BONUSES 8

struct gen_options {
    int64_t players, blocks, bonuses, symmetric;
};

static int gen_error(struct game_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int gen_error(struct game_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->line = err->col = 0;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int read_options(const struct game_option *opts, size_t n, struct gen_options *o,
                        struct game_error *err)
{
    *o = (struct gen_options){DEFAULT_PLAYERS, DEFAULT_BLOCKS, DEFAULT_BONUSES, 0};
    for (size_t i = 0; i < n; i++) {
        const char *name = opts[i].name;
        int64_t v = opts[i].value;
        int64_t *slot = !strcmp(name, "players")     ? &o->players
                        : !strcmp(name, "blocks")    ? &o->blocks
                        : !strcmp(name, "bonuses")   ? &o->bonuses
                        : !strcmp(name, "symmetric") ? &o->symmetric
                                                     : NULL;
        if (!slot)
            return gen_error(
                err, "bomberman's generator has no option '%s' (players, blocks, bonuses, symmetric)", name);
        *slot = v;
    }
    if (o->players < 2 || o->players > BM_MAX_PLAYERS)
        return gen_error(err, "players must be 2 to %d, not %lld", BM_MAX_PLAYERS, (long long)o->players);
    if (o->blocks < 0 || o->blocks > 100)
        return gen_error(err, "blocks is a percentage (0 to 100), not %lld", (long long)o->blocks);
    if (o->bonuses < 0 || o->bonuses > BM_CELLS)
        return gen_error(err, "bonuses must be 0 to %d, not %lld", BM_CELLS, (long long)o->bonuses);
    if (o->symmetric < 0 || o->symmetric > 1)
        return gen_error(err, "symmetric is 0 or 1, not %lld", (long long)o->symmetric);
    return 0;
}

/* The cell mirrored in x (mx) and/or y (my). */
static int mirror(int x, int y, bool mx, bool my)
{
    return bm_cell(mx ? BM_SIDE + 1 - x : x, my ? BM_SIDE + 1 - y : y);
}

/* The cells of (x, y)'s orbit under the mirrors (1, 2 or 4 of them); the first is (x, y). */
static int orbit(int x, int y, bool symmetric, int *cells)
{
    int n = 0;
    for (int k = 0; k < (symmetric ? 4 : 1); k++) {
        int c = mirror(x, y, k & 1, k & 2);
        bool seen = false;
        for (int i = 0; i < n; i++) seen = seen || cells[i] == c;
        if (!seen) cells[n++] = c;
    }
    return n;
}

static void lay_walls_and_corners(struct bomberman_map *m, bool *reserved, int players)
{
    static const int corner_l[7][2] = {{1, 1}, {2, 1}, {3, 1}, {1, 2}, {3, 2}, {1, 3}, {2, 3}};
    static const bool corner_mirror[BM_MAX_PLAYERS + 1][2] = {{0, 0}, {0, 0}, {1, 1}, {1, 0}, {0, 1}};
    for (int c = 0; c < BM_CELLS; c++)
        m->terrain[c] = bm_x(c) % 2 == 0 && bm_y(c) % 2 == 0 ? BM_WALL : BM_FREE;
    for (int p = 1; p <= BM_MAX_PLAYERS; p++)
        for (int i = 0; i < 7; i++)
            reserved[mirror(corner_l[i][0], corner_l[i][1], corner_mirror[p][0], corner_mirror[p][1])] = true;
    for (int p = 1; p <= players; p++) m->start[p] = mirror(1, 1, corner_mirror[p][0], corner_mirror[p][1]);
    m->starts = players;
}

/* Blocks, orbit by orbit in row-major order of each orbit's first cell; returns the orbits. */
static int lay_blocks(struct bomberman_map *m, const bool *reserved, const struct gen_options *o,
                      struct rng *r, int *orbit_first)
{
    bool done[BM_CELLS] = {false};
    int n_orbits = 0, cells[4];
    for (int c = 0; c < BM_CELLS; c++) {
        if (done[c] || m->terrain[c] != BM_FREE || reserved[c]) continue;
        int n = orbit(bm_x(c), bm_y(c), o->symmetric, cells);
        bool block = (int64_t)rng_uniform(r, 100) < o->blocks;
        for (int i = 0; i < n; i++) {
            done[cells[i]] = true;
            m->terrain[cells[i]] = block ? BM_BLOCK : BM_FREE;
        }
        if (block) orbit_first[n_orbits++] = c;
    }
    return n_orbits;
}

/* Bonuses under blocks, a whole orbit at a time; returns how many were hidden. */
static int64_t hide_bonuses(struct bomberman_map *m, const struct gen_options *o, struct rng *r,
                            int *orbit_first, int n_orbits)
{
    int64_t hidden = 0;
    int cells[4];
    for (int i = 0; i < n_orbits && hidden < o->bonuses; i++) {
        int j = i + (int)rng_uniform(r, (uint64_t)(n_orbits - i));
        int c = orbit_first[j];
        orbit_first[j] = orbit_first[i];
        orbit_first[i] = c;
        int n = orbit(bm_x(c), bm_y(c), o->symmetric, cells);
        if (hidden + n > o->bonuses) continue;
        char type = rng_uniform(r, 2) ? 'R' : 'A';
        for (int k = 0; k < n; k++) m->hidden[cells[k]] = type;
        hidden += n;
    }
    return hidden;
}

int bomberman_map_generate(const struct game_option *opts, size_t n_opts, uint64_t seed,
                           struct game_map **out, struct strbuf *notes, struct game_error *err)
{
    struct gen_options o;
    if (read_options(opts, n_opts, &o, err) < 0) return -1;
    struct bomberman_map *m = calloc(1, sizeof *m);
    if (!m) return gen_error(err, "out of memory");
    bool reserved[BM_CELLS] = {false};
    int orbit_first[BM_CELLS];
    struct rng r = rng_stream(seed, "bomberman/mapgen");
    lay_walls_and_corners(m, reserved, (int)o.players);
    int n_orbits = lay_blocks(m, reserved, &o, &r, orbit_first);
    int64_t hidden = hide_bonuses(m, &o, &r, orbit_first, n_orbits);
    if (hidden < o.bonuses && notes &&
        sb_printf(notes, "hid %lld bonuses, not %lld: %s\n", (long long)hidden, (long long)o.bonuses,
                  o.symmetric ? "not enough blocks, or no mirrored set of blocks fits the rest"
                              : "not enough blocks") < 0) {
        free(m);
        return gen_error(err, "out of memory");
    }
    *out = (struct game_map *)m;
    return 0;
}
