/* gen_wrong_cell.c - a generals bot that moves from a cell it does not own at its 3rd reply (invalid move). */
#include "gen_bot.h"

static int is_mine(const struct gen_cell *c)
{
    return c->visible && c->type != GEN_MOUNTAIN && c->owner == gen_id;
}

static int open_cell(int i, int j)
{
    if (i < 1 || i > gen_rows || j < 1 || j > gen_cols)
        return 0;
    const struct gen_cell *c = gen_at(i, j);
    return c->visible ? c->type != GEN_MOUNTAIN : c->type != GEN_CITY; /* hidden `0 2` may be a mountain */
}

/* The first cell, in row-major order, that is not a mountain, not ours, and has an open neighbour:
 * moving from it breaks only G7's ownership rule. */
static void misbehave(void)
{
    static const int di[] = {-1, 1, 0, 0}, dj[] = {0, 0, -1, 1};
    for (int i = 1; i <= gen_rows; i++) {
        for (int j = 1; j <= gen_cols; j++) {
            if (!open_cell(i, j) || is_mine(gen_at(i, j)))
                continue;
            for (int d = 0; d < 4; d++) {
                if (open_cell(i + di[d], j + dj[d])) {
                    printf("1 %d %d %d %d\n", i, j, i + di[d], j + dj[d]);
                    fflush(stdout);
                    return;
                }
            }
        }
    }
    gen_reply("1 1 1 1 1"); /* no such cell: a move that is invalid anyway */
}

int main(void)
{
    return gen_play(misbehave);
}
