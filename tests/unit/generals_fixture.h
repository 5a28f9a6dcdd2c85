/* generals_fixture.h - shared set-up for the generals unit tests: a map, a game, replies. */
#ifndef TESTS_GENERALS_FIXTURE_H
#define TESTS_GENERALS_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "engine/generals.h"
#include "engine/rng.h"

/* The 2 x 3 map of generals.md §3. */
#define SPEC_MAP "2 3 2\n3\n1\n2 40\n4\n1\n3\n"

struct fixture {
    int64_t params[GP_COUNT];
    struct game_map *map;
    struct game *g;
    struct strbuf text;   /* the last outbox or prompt read */
};

static inline void fx_init(struct fixture *f)
{
    memset(f, 0, sizeof *f);
    game_params_defaults(&generals_rules, f->params);
}

/* The first seed whose "generals/order" shuffle of 1..k is the given order. */
static inline uint64_t fx_seed_for_order(const int *order, int k)
{
    for (uint64_t seed = 0;; seed++) {
        int a[GAME_MAX_PLAYERS];
        for (int x = 0; x < k; x++)
            a[x] = x + 1;
        struct rng r = rng_stream(seed, "generals/order");
        rng_shuffle_int(&r, a, (size_t)k);
        if (!memcmp(a, order, (size_t)k * sizeof *a))
            return seed;
    }
}

static inline void fx_start_seed(struct fixture *f, const char *map_text, uint64_t seed)
{
    struct game_error err;
    ck_assert_msg(generals_rules.map_parse(map_text, strlen(map_text), f->params, &f->map, &err) == 0,
                  "map: %s", err.msg);
    struct game_setup setup = {f->map, f->params, seed, generals_rules.map_players(f->map)};
    ck_assert_msg(generals_rules.create(&setup, &f->g, &err) == 0, "create: %s", err.msg);
}

/* Starts a game on map_text whose turn order is 1, 2, ..., k. */
static inline void fx_start(struct fixture *f, const char *map_text)
{
    struct game_error err;
    struct game_map *probe;
    ck_assert(generals_rules.map_parse(map_text, strlen(map_text), f->params, &probe, &err) == 0);
    int k = generals_rules.map_players(probe), order[GAME_MAX_PLAYERS];
    generals_rules.map_free(probe);
    for (int x = 0; x < k; x++)
        order[x] = x + 1;
    fx_start_seed(f, map_text, fx_seed_for_order(order, k));
}

static inline void fx_free(struct fixture *f)
{
    if (f->g)
        generals_rules.destroy(f->g);
    if (f->map)
        generals_rules.map_free(f->map);
    sb_free(&f->text);
}

static inline int fx_pending(const struct fixture *f)
{
    int p[GAME_MAX_PLAYERS];
    return generals_rules.pending(f->g, p, GAME_MAX_PLAYERS) == 1 ? p[0] : 0;
}

/* The pending player's reply; checks whose turn it is. Returns the verdict's kind. */
static inline enum violation_kind fx_reply(struct fixture *f, int player, const char *line)
{
    ck_assert_int_eq(fx_pending(f), player);
    struct game_verdict v;
    const char *lines[1] = {line};
    ck_assert_int_eq(generals_rules.submit(f->g, player, lines, 1, &v), 0);
    return v.kind;
}

static inline const char *fx_outbox(struct fixture *f, int player)
{
    sb_reset(&f->text);
    ck_assert_int_eq(generals_rules.outbox(f->g, player, &f->text), 0);
    return f->text.data ? f->text.data : "";
}

static inline const char *fx_prompt(struct fixture *f, int player)
{
    sb_reset(&f->text);
    ck_assert_int_eq(generals_rules.prompt(f->g, player, &f->text), 0);
    return f->text.data;
}

/* The events since the last call, as JSON lines. */
static inline const char *fx_events(struct fixture *f)
{
    sb_reset(&f->text);
    ck_assert_int_eq(generals_rules.take_events(f->g, &f->text), 0);
    return f->text.data ? f->text.data : "";
}

/* Starts a game on a generated map (f->params as set), with seed for the map and the game. */
static inline void fx_start_generated(struct fixture *f, const struct game_option *opts,
                                      size_t n_opts, uint64_t seed)
{
    struct game_error err;
    struct strbuf notes = STRBUF_INIT;
    ck_assert_msg(generals_rules.map_generate(opts, n_opts, seed, &f->map, &notes, &err) == 0,
                  "generate: %s", err.msg);
    sb_free(&notes);
    struct game_setup setup = {f->map, f->params, seed, generals_rules.map_players(f->map)};
    ck_assert_msg(generals_rules.create(&setup, &f->g, &err) == 0, "create: %s", err.msg);
}

static inline const struct generals_board *fx_board(const struct fixture *f)
{
    return generals_board_of(f->g);
}

static inline size_t fx_cell(const struct fixture *f, int i, int j)
{
    return (size_t)(i - 1) * (size_t)fx_board(f)->m + (size_t)(j - 1);
}

/* A random move of player p along the board, or now and then an invalid one. */
static inline void fx_random_reply(const struct generals_board *b, int p, struct rng *r,
                                   char *line, size_t size)
{
    static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    size_t from = (size_t)rng_uniform(r, b->cells);
    while (b->owner[from] != p)
        from = (from + 1) % b->cells;
    int i = (int)from / b->m, j = (int)from % b->m, d = (int)rng_uniform(r, 4);
    int ti = i + di[d], tj = j + dj[d];
    bool open = ti >= 0 && tj >= 0 && ti < b->n && tj < b->m &&
                b->type[(size_t)ti * (size_t)b->m + (size_t)tj] != CELL_MOUNTAIN;
    if (rng_uniform(r, 1000) == 0 || (open && rng_uniform(r, 10) != 0))
        snprintf(line, size, "%d %d %d %d %d", 1 + (int)rng_uniform(r, 2), i + 1, j + 1, ti + 1,
                 tj + 1);
    else
        snprintf(line, size, "-1");
}

/* Asserts cell (i, j) holds type, owner and units. */
#define ck_cell(f, i, j, t, o, u)                                                              \
    do {                                                                                       \
        const struct generals_board *b_ = fx_board(f);                                         \
        size_t c_ = fx_cell(f, i, j);                                                          \
        ck_assert_msg(b_->type[c_] == (t) && b_->owner[c_] == (o) && b_->units[c_] == (u),     \
                      "cell (%d, %d) is %d %d %lld, expected %d %d %d", i, j, b_->type[c_],    \
                      b_->owner[c_], (long long)b_->units[c_], t, o, u);                       \
    } while (0)

#endif
