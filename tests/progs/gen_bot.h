/*
 * gen_bot.h - what the misbehaving generals test bots (tests/progs/gen_*.c) share.
 * Each one plays correctly, passing, until its GEN_BAD_REPLY-th reply, where it
 * calls its own misbehave(), and exits on the judge's `0` (generals.md §5).
 */
#ifndef GEN_BOT_H
#define GEN_BOT_H

#include <stdio.h>
#include <stdlib.h>

#define GEN_BAD_REPLY 3

enum { GEN_EMPTY = 1, GEN_CITY = 2, GEN_CAPITAL = 3, GEN_MOUNTAIN = 4 };
struct gen_cell { int visible, type, owner, units; };

static int gen_rows, gen_cols, gen_players, gen_id;
static struct gen_cell *gen_board;  /* row-major, gen_rows * gen_cols */

static inline struct gen_cell *gen_at(int i, int j) { return &gen_board[(i - 1) * gen_cols + (j - 1)]; }

/* Reads one state; 0 when the judge wrote `0` (or the input ended). */
static inline int gen_read_state(void)
{
    int alive;
    if (scanf("%d", &alive) != 1 || alive == 0)
        return 0;
    for (int p = 0; p < gen_players; p++) {
        long long army, cells;
        if (scanf("%lld %lld", &army, &cells) != 2)
            return 0;
    }
    for (int c = 0; c < gen_rows * gen_cols; c++) {
        struct gen_cell *cell = &gen_board[c];
        cell->owner = -1;
        cell->units = 0;
        if (scanf("%d %d", &cell->visible, &cell->type) != 2)
            return 0;
        if (cell->visible && cell->type != GEN_MOUNTAIN &&
            scanf("%d %d", &cell->owner, &cell->units) != 2)
            return 0;
    }
    return 1;
}

static inline void gen_reply(const char *line)
{
    printf("%s\n", line);
    fflush(stdout);
}

/* Reads the judge's first line and makes the board; 0 on success. */
static inline int gen_begin(void)
{
    if (scanf("%d %d %d %d", &gen_rows, &gen_cols, &gen_players, &gen_id) != 4)
        return 1;
    gen_board = calloc((size_t)gen_rows * (size_t)gen_cols, sizeof *gen_board);
    return gen_board ? 0 : 1;
}

static inline int gen_play(void (*misbehave)(void))
{
    if (gen_begin() != 0)
        return 1;
    for (int reply = 1; gen_read_state(); reply++) {
        if (reply == GEN_BAD_REPLY)
            misbehave();
        else
            gen_reply("-1");
    }
    free(gen_board);
    return 0;
}

#endif
