/* generals_mapgen.c - the generals map generator, exactly as generals.md §4 describes it. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/generals.h"
#include "engine/rng.h"

struct mapgen_options {
    int64_t rows, cols, players, mountains, cities, city_army_min, city_army_max;
    int64_t min_capital_dist, symmetric;
};

enum { OPTIONAL = 0, REQUIRED = 1 };

static const struct option_spec {
    const char *name;
    size_t offset;
    int64_t min, max;
    int required;
} option_specs[] = {
    {"rows", offsetof(struct mapgen_options, rows), 1, GENERALS_MAX_SIDE, REQUIRED},
    {"cols", offsetof(struct mapgen_options, cols), 1, GENERALS_MAX_SIDE, REQUIRED},
    {"players", offsetof(struct mapgen_options, players), 2, GAME_MAX_PLAYERS, REQUIRED},
    {"mountains", offsetof(struct mapgen_options, mountains), 0, 100, OPTIONAL},
    {"cities", offsetof(struct mapgen_options, cities), 0,
     GENERALS_MAX_SIDE * GENERALS_MAX_SIDE, OPTIONAL},
    {"city_army_min", offsetof(struct mapgen_options, city_army_min), 0, GENERALS_MAX_CITY_ARMY,
     OPTIONAL},
    {"city_army_max", offsetof(struct mapgen_options, city_army_max), 0, GENERALS_MAX_CITY_ARMY,
     OPTIONAL},
    {"min_capital_dist", offsetof(struct mapgen_options, min_capital_dist), 1,
     2 * GENERALS_MAX_SIDE, OPTIONAL},
    {"symmetric", offsetof(struct mapgen_options, symmetric), 0, 1, OPTIONAL},
};
#define N_OPTION_SPECS (sizeof option_specs / sizeof option_specs[0])
#define UNSET INT64_MIN

__attribute__((format(printf, 2, 3)))
static int option_error(struct game_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->line = err->col = 0;
    return -1;
}

static int64_t *option_field(struct mapgen_options *o, const struct option_spec *spec)
{
    return (int64_t *)((char *)o + spec->offset);
}

static const struct option_spec *find_spec(const char *name)
{
    for (size_t i = 0; i < N_OPTION_SPECS; i++)
        if (!strcmp(option_specs[i].name, name))
            return &option_specs[i];
    return NULL;
}

static int set_options(const struct game_option *opts, size_t n_opts, struct mapgen_options *o,
                       struct game_error *err)
{
    for (size_t i = 0; i < N_OPTION_SPECS; i++)
        *option_field(o, &option_specs[i]) = UNSET;
    for (size_t i = 0; i < n_opts; i++) {
        const struct option_spec *spec = find_spec(opts[i].name);
        if (!spec)
            return option_error(err, "unknown generals map option '%s' (known: rows, cols, "
                                     "players, mountains, cities, city_army_min, city_army_max, "
                                     "min_capital_dist, symmetric)", opts[i].name);
        int64_t *field = option_field(o, spec);
        if (*field != UNSET)
            return option_error(err, "map option '%s' is given twice", spec->name);
        if (opts[i].value < spec->min || opts[i].value > spec->max) {
            err->line = err->col = 0;
            snprintf(err->msg, sizeof err->msg, "map option %s = %lld is out of range %lld..%lld",
                     spec->name, (long long)opts[i].value, (long long)spec->min,
                     (long long)spec->max);
            return -1;
        }
        *field = opts[i].value;
    }
    for (size_t i = 0; i < N_OPTION_SPECS; i++)
        if (option_specs[i].required && *option_field(o, &option_specs[i]) == UNSET)
            return option_error(err, "map option '%s' is required", option_specs[i].name);
    return 0;
}

static int64_t or_default(int64_t v, int64_t def)
{
    return v == UNSET ? def : v;
}

/* The defaults of §4, which depend on the size and the number of players. */
static int complete_options(struct mapgen_options *o, struct game_error *err)
{
    int64_t cells = o->rows * o->cols;
    int64_t dist = (o->rows + o->cols) / (o->players + 1);
    o->mountains = or_default(o->mountains, 20);
    o->cities = or_default(o->cities, cells / 10);
    o->city_army_min = or_default(o->city_army_min, 35);
    o->city_army_max = or_default(o->city_army_max, 55);
    o->min_capital_dist = or_default(o->min_capital_dist, dist > 2 ? dist : 2);
    o->symmetric = or_default(o->symmetric, 0);
    err->line = err->col = 0;
    if (o->players > cells) {
        snprintf(err->msg, sizeof err->msg, "players = %lld is more than rows*cols = %lld",
                 (long long)o->players, (long long)cells);
        return -1;
    }
    if (o->city_army_min > o->city_army_max) {
        snprintf(err->msg, sizeof err->msg, "city_army_min = %lld is above city_army_max = %lld",
                 (long long)o->city_army_min, (long long)o->city_army_max);
        return -1;
    }
    if (o->symmetric && o->players != 2) {
        snprintf(err->msg, sizeof err->msg, "symmetric = 1 needs players = 2, not %lld",
                 (long long)o->players);
        return -1;
    }
    return 0;
}

/* ---- the board under construction ---------------------------------------- */

struct builder {
    struct generals_map *map;
    struct rng rng;
    size_t cells;
    size_t *queue;   /* scratch for the connectivity search */
    uint8_t *seen;
};

static int manhattan(const struct generals_map *map, size_t a, size_t b)
{
    int ai = (int)a / map->m, aj = (int)a % map->m, bi = (int)b / map->m, bj = (int)b % map->m;
    return abs(ai - bi) + abs(aj - bj);
}

static size_t mirror(const struct builder *b, size_t c)
{
    return b->cells - 1 - c;
}

/* Step 2: take cells in list order at distance >= d from all taken ones, up to k. */
static int take_capitals(const struct builder *b, const size_t *list, size_t len, int d, int k,
                         size_t *caps)
{
    int taken = 0;
    for (size_t x = 0; x < len && taken < k; x++) {
        bool far = true;
        for (int t = 0; t < taken && far; t++)
            far = manhattan(b->map, list[x], caps[t]) >= d;
        if (far)
            caps[taken++] = list[x];
    }
    return taken;
}

static int place_capitals(struct builder *b, const size_t *list, size_t len, int k, int max_d)
{
    size_t caps[GAME_MAX_PLAYERS];
    int d = max_d;
    while (d > 1 && take_capitals(b, list, len, d, k, caps) < k)
        d--;
    if (d == 1)
        take_capitals(b, list, len, 1, k, caps);
    for (int t = 0; t < k; t++)
        b->map->type[caps[t]] = CELL_CAPITAL;
    return d;
}

/* The first representative whose mirror is at distance >= d, trying d downwards. */
static int place_symmetric_capitals(struct builder *b, const size_t *reps, size_t len, int max_d)
{
    for (int d = max_d; d >= 1; d--) {
        for (size_t x = 0; x < len; x++) {
            if (manhattan(b->map, reps[x], mirror(b, reps[x])) >= d) {
                b->map->type[reps[x]] = CELL_CAPITAL;
                b->map->type[mirror(b, reps[x])] = CELL_CAPITAL;
                return d;
            }
        }
    }
    return 0; /* unreachable: a representative differs from its mirror, so d = 1 succeeds */
}

/* Drops the capitals from the list, keeping its order. */
static size_t without_capitals(const struct builder *b, size_t *list, size_t len)
{
    size_t out = 0;
    for (size_t x = 0; x < len; x++)
        if (b->map->type[list[x]] != CELL_CAPITAL)
            list[out++] = list[x];
    return out;
}

static void set_cell(struct builder *b, size_t c, bool symmetric, uint8_t type, int32_t army)
{
    b->map->type[c] = type;
    b->map->army[c] = army;
    if (symmetric) {
        b->map->type[mirror(b, c)] = type;
        b->map->army[mirror(b, c)] = army;
    }
}

/* Adds the open neighbours of cell c to out[0..*n), each once. */
static void add_open_neighbours(const struct builder *b, size_t c, size_t *out, int *n)
{
    const struct generals_map *map = b->map;
    int i = (int)c / map->m, j = (int)c % map->m;
    static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; d++) {
        int ni = i + di[d], nj = j + dj[d];
        if (ni < 0 || nj < 0 || ni >= map->n || nj >= map->m)
            continue;
        size_t nc = (size_t)ni * (size_t)map->m + (size_t)nj;
        bool listed = map->type[nc] == CELL_MOUNTAIN;
        for (int k = 0; k < *n && !listed; k++)
            listed = out[k] == nc;
        if (!listed)
            out[(*n)++] = nc;
    }
}

static bool among(const size_t *cells, int n, size_t c)
{
    for (int k = 0; k < n; k++)
        if (cells[k] == c)
            return true;
    return false;
}

/* Whether all non-mountain cells form one group under adjacency (G1) now that cell c (and its
 * mirror) became mountains, given that they did before: every open cell then reached one of
 * their open neighbours, so the open cells are still one group exactly when those neighbours
 * still reach each other, which a search from one of them shows after a few cells, where a
 * search of the whole board (as §4 words it) would walk every cell for every candidate. */
static bool still_connected(struct builder *b, size_t c, bool symmetric)
{
    const struct generals_map *map = b->map;
    size_t around[8];
    int n = 0, found = 1;
    add_open_neighbours(b, c, around, &n);
    if (symmetric)
        add_open_neighbours(b, mirror(b, c), around, &n);
    if (n <= 1)
        return true;
    memset(b->seen, 0, b->cells);
    size_t head = 0, tail = 0;
    b->queue[tail++] = around[0];
    b->seen[around[0]] = 1;
    while (head < tail) {
        size_t at = b->queue[head++];
        int i = (int)at / map->m, j = (int)at % map->m;
        static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
        for (int d = 0; d < 4; d++) {
            int ni = i + di[d], nj = j + dj[d];
            if (ni < 0 || nj < 0 || ni >= map->n || nj >= map->m)
                continue;
            size_t nc = (size_t)ni * (size_t)map->m + (size_t)nj;
            if (b->seen[nc] || map->type[nc] == CELL_MOUNTAIN)
                continue;
            b->seen[nc] = 1;
            b->queue[tail++] = nc;
            if (among(around, n, nc) && ++found == n)
                return true;
        }
    }
    return false;
}

/* Steps 3 and 4 on the list L (the representatives when symmetric). */
static void place_cities_and_mountains(struct builder *b, const size_t *list, size_t len,
                                       const struct mapgen_options *o, int64_t cities,
                                       int64_t mountains)
{
    bool sym = o->symmetric != 0;
    size_t n_cities = (size_t)cities < len ? (size_t)cities : len;
    for (size_t x = 0; x < n_cities; x++)
        set_cell(b, list[x], sym, CELL_CITY,
                 (int32_t)rng_range(&b->rng, o->city_army_min, o->city_army_max));
    int64_t placed = 0;
    for (size_t x = n_cities; x < len && placed < mountains; x++) {
        set_cell(b, list[x], sym, CELL_MOUNTAIN, 0);
        if (still_connected(b, list[x], sym))
            placed++;
        else
            set_cell(b, list[x], sym, CELL_EMPTY, 0);
    }
}

static int generate(struct builder *b, const struct mapgen_options *o)
{
    size_t len = 0;
    for (size_t c = 0; c < b->cells; c++)
        if (!o->symmetric || c < mirror(b, c))
            b->queue[len++] = c;
    size_t *list = malloc(len * sizeof *list);
    if (!list)
        return -1;
    memcpy(list, b->queue, len * sizeof *list);
    rng_shuffle_size(&b->rng, list, len);
    int64_t target = (int64_t)b->cells * o->mountains / 100;
    int d;
    if (o->symmetric) {
        d = place_symmetric_capitals(b, list, len, (int)o->min_capital_dist);
        len = without_capitals(b, list, len);
        place_cities_and_mountains(b, list, len, o, o->cities / 2, target / 2);
    } else {
        d = place_capitals(b, list, len, (int)o->players, (int)o->min_capital_dist);
        len = without_capitals(b, list, len);
        place_cities_and_mountains(b, list, len, o, o->cities, target);
    }
    free(list);
    b->map->k = (int)o->players;
    return d;
}

int generals_map_generate(const struct game_option *opts, size_t n_opts, uint64_t seed,
                          struct game_map **out, struct strbuf *notes, struct game_error *err)
{
    struct mapgen_options o;
    if (set_options(opts, n_opts, &o, err) < 0 || complete_options(&o, err) < 0)
        return -1;
    struct builder b = {generals_map_new((int)o.rows, (int)o.cols),
                        rng_stream(seed, "generals/mapgen"), (size_t)(o.rows * o.cols), NULL,
                        NULL};
    b.queue = malloc(b.cells * sizeof *b.queue);
    b.seen = malloc(b.cells);
    int d = b.map && b.queue && b.seen ? generate(&b, &o) : -1;
    free(b.queue);
    free(b.seen);
    if (d < 0) {
        free(b.map);
        *err = (struct game_error){"out of memory", 0, 0};
        return -1;
    }
    if (d < o.min_capital_dist && notes)
        sb_printf(notes, "min_capital_dist lowered to %d\n", d);
    *out = (struct game_map *)b.map;
    return 0;
}
