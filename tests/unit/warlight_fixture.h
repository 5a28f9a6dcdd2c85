/* warlight_fixture.h - shared set-up for the warlight unit tests: a game, replies, a board. */
#ifndef TESTS_WARLIGHT_FIXTURE_H
#define TESTS_WARLIGHT_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "engine/warlight.h"

struct wfix {
    int64_t params[WP_COUNT];
    struct game *g;
    struct strbuf text, log;
    struct game_verdict verdict;
};

static inline void wf_init(struct wfix *f)
{
    memset(f, 0, sizeof *f);
    game_params_defaults(&warlight_rules, f->params);
}

static inline void wf_set(struct wfix *f, const char *name, int64_t v)
{
    struct game_error err;
    ck_assert_msg(game_param_set(&warlight_rules, f->params, name, v, &err) == 0, "%s", err.msg);
}

static inline void wf_create(struct wfix *f, uint64_t seed, int players)
{
    struct game_setup s = {.map = NULL, .params = f->params, .seed = seed, .players = players};
    struct game_error err = {0};
    ck_assert_msg(warlight_rules.create(&s, &f->g, &err) == 0, "%s", err.msg);
}

static inline void wf_free(struct wfix *f)
{
    if (f->g)
        warlight_rules.destroy(f->g);
    sb_free(&f->text);
    sb_free(&f->log);
    f->g = NULL;
}

/* Hands in player p's raw output; returns the verdict kind. */
static inline enum violation_kind wf_out(struct wfix *f, int p, const char *bytes, size_t len)
{
    memset(&f->verdict, 0, sizeof f->verdict);
    ck_assert_int_eq(warlight_rules.submit_output(f->g, p, bytes, len, &f->verdict), 0);
    return f->verdict.kind;
}

static inline enum violation_kind wf_say(struct wfix *f, int p, const char *text)
{
    return wf_out(f, p, text, strlen(text));
}

static inline int wf_pending(struct wfix *f, int *players)
{
    return warlight_rules.pending(f->g, players, GAME_MAX_PLAYERS);
}

/* Everything the engine logged or recorded since the last call, in f->text. */
static inline const char *wf_events(struct wfix *f)
{
    sb_reset(&f->text);
    ck_assert_int_eq(warlight_rules.take_events(f->g, &f->text), 0);
    return f->text.data ? f->text.data : "";
}

/* A board with every territory neutral (armies 2) and bonus b = row b when rows = bonus_count. */
static inline void wf_board(struct warlight_board *b, int rows, int cols, int bonus_count, int k)
{
    ck_assert_int_eq(wl_board_init(b, rows, cols, bonus_count, k), 0);
    for (int t = 0; t < b->n; t++) {
        b->armies[t] = 2;
        b->bonus[t] = (t / cols) % bonus_count;
    }
    for (int x = 0; x < bonus_count; x++)
        b->bonus_size[x] = 0;
    for (int t = 0; t < b->n; t++)
        b->bonus_size[b->bonus[t]]++;
}

static inline void wf_own(struct warlight_board *b, int r, int c, int id, int64_t armies)
{
    wl_board_set(b, r * b->cols + c, id, armies);
}

#endif
