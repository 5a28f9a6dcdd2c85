/* bomberman_fixture.h - shared set-up for the bomberman unit tests: the source's map, a bare
 * board to arrange by hand, a game driven tick by tick. */
#ifndef TESTS_BOMBERMAN_FIXTURE_H
#define TESTS_BOMBERMAN_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bomberman.h"
#include "engine/game.h"

/* The example map of bomberman.md §3. */
#define CLASSIC_MAP                                                                                          \
    "1..+++++++++..3\n.#.#+#+#+#+#.#.\n..+++a+++r+++..\n+#+#+#+#+#+#+#+\n+++++++++++++++\n"                  \
    "+#+#+#r#a#+#+#+\n+++++++.+++++++\n+#+#+#...#+#+#+\n+++++++.+++++++\n+#+#+#a#r#+#+#+\n"                  \
    "+++++++++++++++\n+#+#+#+#+#+#+#+\n..+++r+++a+++..\n.#.#+#+#+#+#.#.\n2..+++++++++..4\n"

/* Every cell free, starts in the four corners. */
#define OPEN_MAP                                                                                             \
    "1.............3\n...............\n...............\n...............\n...............\n"                  \
    "...............\n...............\n...............\n...............\n...............\n"                  \
    "...............\n...............\n...............\n...............\n2.............4\n"

struct bm_fixture {
    int64_t params[BP_COUNT];
    struct game_map *map;
    struct game *g;
    struct bm_board board; /* for the board-level tests */
    struct bm_step_record *rec;
    struct strbuf text;
};

static inline void bfx_init(struct bm_fixture *f)
{
    memset(f, 0, sizeof *f);
    game_params_defaults(&bomberman_rules, f->params);
    f->rec = malloc(sizeof *f->rec);
    ck_assert_ptr_nonnull(f->rec);
}

static inline void bfx_free(struct bm_fixture *f)
{
    if (f->g) bomberman_rules.destroy(f->g);
    if (f->map) bomberman_rules.map_free(f->map);
    free(f->rec);
    sb_free(&f->text);
}

static inline void bfx_map(struct bm_fixture *f, const char *text)
{
    struct game_error err = {0};
    ck_assert_msg(bomberman_rules.map_parse(text, strlen(text), f->params, &f->map, &err) == 0,
                  "map: %d:%d: %s", err.line, err.col, err.msg);
}

/* A bare board of `players` on the open map, to arrange by hand. */
static inline struct bm_board *bfx_board(struct bm_fixture *f, int players)
{
    bfx_map(f, OPEN_MAP);
    bm_board_init(&f->board, (const struct bomberman_map *)f->map, f->params, players);
    return &f->board;
}

static inline void bfx_put(struct bm_board *b, int p, int x, int y)
{
    b->occupant[b->p[p].cell] = 0;
    b->p[p].cell = bm_cell(x, y);
    b->occupant[b->p[p].cell] = (uint8_t)p;
}

static inline void bfx_bomb(struct bm_board *b, int owner, int x, int y, int64_t radius, int64_t timer)
{
    b->bomb[bm_cell(x, y)] = (struct bm_bomb){owner, radius, timer};
    b->p[owner].bombs_left--;
}

/* One step with commands for players 1..players (the rest WAIT), run in increasing order. */
static inline void bfx_step(struct bm_fixture *f, enum bm_command c1, enum bm_command c2, enum bm_command c3,
                            enum bm_command c4)
{
    enum bm_command cmds[BM_MAX_PLAYERS + 1] = {BM_WAIT, c1, c2, c3, c4};
    int order[BM_MAX_PLAYERS], n = 0;
    for (int p = 1; p <= f->board.players; p++)
        if (f->board.p[p].alive) order[n++] = p;
    bm_board_step(&f->board, order, n, cmds, f->rec);
}

static inline void bfx_wait(struct bm_fixture *f, int steps)
{
    for (int i = 0; i < steps; i++) bfx_step(f, BM_WAIT, BM_WAIT, BM_WAIT, BM_WAIT);
}

/* ---- a whole game ---------------------------------------------------------------------------- */

static inline void bfx_game(struct bm_fixture *f, const char *map, int players, uint64_t seed)
{
    bfx_map(f, map);
    struct game_error err = {0};
    struct game_setup setup = {f->map, f->params, seed, players};
    ck_assert_msg(bomberman_rules.create(&setup, &f->g, &err) == 0, "create: %s", err.msg);
}

/* Every pending player answers its line of replies[] (indexed by player; NULL: WAIT). */
static inline void bfx_tick(struct bm_fixture *f, const char *const *replies)
{
    int pending[GAME_MAX_PLAYERS];
    int n = bomberman_rules.pending(f->g, pending, GAME_MAX_PLAYERS);
    ck_assert_int_gt(n, 0);
    for (int i = 0; i < n; i++) {
        const char *line = replies && replies[pending[i]] ? replies[pending[i]] : "WAIT";
        struct game_verdict v;
        ck_assert_int_eq(bomberman_rules.submit(f->g, pending[i], &line, 1, &v), 0);
    }
}

static inline const char *bfx_prompt(struct bm_fixture *f, int player)
{
    sb_reset(&f->text);
    ck_assert_int_eq(bomberman_rules.prompt(f->g, player, &f->text), 0);
    return f->text.data;
}

static inline const char *bfx_events(struct bm_fixture *f)
{
    sb_reset(&f->text);
    ck_assert_int_eq(bomberman_rules.take_events(f->g, &f->text), 0);
    return f->text.data ? f->text.data : "";
}

#endif
