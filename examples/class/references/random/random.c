/*
 * random.c - a generals bot that moves a random owned cell in a random open
 * direction, sending all but one unit (opt 1) or half (opt 2) at random.
 *
 * The random numbers come from a fixed seed mixed with our player id, so the
 * same match always plays the same way (the judge's determinism tests rely on
 * that). A move from a cell holding 0 or 1 unit is legal and does nothing (G8).
 * Protocol: generals.md §5 (see pass.c for a summary).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { EMPTY = 1, CITY = 2, CAPITAL = 3, MOUNTAIN = 4 };
struct cell { int visible, type, owner, units; };

static int n, m, k, id;
static struct cell *board; /* row-major: cell (i, j), 1-based, is board[(i-1)*m + (j-1)] */
static uint64_t rng_state;

/* xorshift64*: small and good enough for a bot. */
static uint64_t next_random(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static int random_below(int bound)
{
    return (int)(next_random() % (uint64_t)bound);
}

static int read_state(void)
{
    int alive;
    if (scanf("%d", &alive) != 1 || alive == 0)
        return 0;
    for (int p = 0; p < k; p++) {
        long long army, cells;
        if (scanf("%lld %lld", &army, &cells) != 2)
            return 0;
    }
    for (int c = 0; c < n * m; c++) {
        struct cell *cell = &board[c];
        cell->owner = -1;
        cell->units = 0;
        if (scanf("%d %d", &cell->visible, &cell->type) != 2)
            return 0;
        if (cell->visible && cell->type != MOUNTAIN && scanf("%d %d", &cell->owner, &cell->units) != 2)
            return 0;
    }
    return 1;
}

/* A cell we may move into: on the board and surely not a mountain
 * (a hidden "0 2" is a city or a mountain, so it is avoided). */
static int open_cell(int i, int j)
{
    if (i < 1 || i > n || j < 1 || j > m)
        return 0;
    const struct cell *c = &board[(i - 1) * m + (j - 1)];
    return c->visible ? c->type != MOUNTAIN : c->type != CITY;
}

static void move_randomly(void)
{
    static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    int owned = 0;
    for (int c = 0; c < n * m; c++)
        owned += board[c].owner == id;
    for (int tries = 0; owned > 0 && tries < 64; tries++) {
        int pick = random_below(owned), c = 0;
        for (;; c++)
            if (board[c].owner == id && pick-- == 0)
                break;
        int i = c / m + 1, j = c % m + 1, d = random_below(4);
        if (open_cell(i + di[d], j + dj[d])) {
            printf("%d %d %d %d %d\n", 1 + random_below(2), i, j, i + di[d], j + dj[d]);
            return;
        }
    }
    printf("-1\n");
}

int main(void)
{
    if (scanf("%d %d %d %d", &n, &m, &k, &id) != 4)
        return 1;
    board = calloc((size_t)n * (size_t)m, sizeof *board);
    if (!board)
        return 1;
    rng_state = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)id * 0xD1B54A32D192ED03ULL);
    while (read_state()) {
        move_randomly();
        fflush(stdout);
    }
    free(board);
    return 0;
}
