/*
 * greedy.c - a simple greedy generals bot.
 *
 * Each turn it takes its owned cell with the most units and
 *   1. attacks the best adjacent cell it can take: not ours, not a mountain,
 *      holding fewer units than it sends (all but one, opt 1); a capital is
 *      best, then a city, then an empty cell, then the one with fewer units;
 *   2. else moves that army one step, through its own cells, toward the
 *      nearest cell it could take from there;
 *   3. else lets any other cell make the best capture it can;
 *   4. else passes, while its cities and capital grow.
 * Protocol: generals.md §5 (see pass.c for a summary).
 */
#include <stdio.h>
#include <stdlib.h>

enum { EMPTY = 1, CITY = 2, CAPITAL = 3, MOUNTAIN = 4 };
struct cell { int visible, type, owner, units; };

static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
static int n, m, k, id;
static struct cell *board;   /* row-major: cell (i, j), 1-based, is board[(i-1)*m + (j-1)] */
static int *dist, *parent, *queue;

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

/* The index of the neighbour of c in direction d, or -1 off the board. */
static int neighbour(int c, int d)
{
    int i = c / m + di[d], j = c % m + dj[d];
    return (i < 0 || i >= n || j < 0 || j >= m) ? -1 : i * m + j;
}

static int is_mine(int c)
{
    return board[c].owner == id;
}

/* A cell an army of `army` units can take: visible, ours not, no mountain, fewer units. */
static int can_take(int target, int army)
{
    const struct cell *t = &board[target];
    return t->visible && t->type != MOUNTAIN && t->owner != id && t->units < army - 1;
}

/* Is target a better capture than best (-1 = none yet)? */
static int better_target(int target, int best)
{
    if (best < 0)
        return 1;
    const struct cell *t = &board[target], *b = &board[best];
    int tv = t->type == CAPITAL ? 3 : t->type == CITY ? 2 : 1;
    int bv = b->type == CAPITAL ? 3 : b->type == CITY ? 2 : 1;
    return tv != bv ? tv > bv : t->units < b->units;
}

static int best_capture(int from, int army)
{
    int best = -1;
    for (int d = 0; d < 4; d++) {
        int t = neighbour(from, d);
        if (t >= 0 && can_take(t, army) && better_target(t, best))
            best = t;
    }
    return best;
}

static void print_move(int from, int to)
{
    printf("1 %d %d %d %d\n", from / m + 1, from % m + 1, to / m + 1, to % m + 1);
}

/* The first step from `from`, over our own cells, toward the nearest cell from
 * which the army (one unit poorer per step) can take something; -1 if none. */
static int step_toward_target(int from)
{
    int army = board[from].units, head = 0, tail = 0;
    for (int c = 0; c < n * m; c++)
        dist[c] = -1;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        int c = queue[head++];
        if (c != from && best_capture(c, army - dist[c]) >= 0) {
            while (parent[c] != from)
                c = parent[c];
            return c;
        }
        for (int d = 0; d < 4; d++) {
            int next = neighbour(c, d);
            if (next >= 0 && is_mine(next) && dist[next] < 0) {
                dist[next] = dist[c] + 1;
                parent[next] = c;
                queue[tail++] = next;
            }
        }
    }
    return -1;
}

static int biggest_army(void)
{
    int best = -1;
    for (int c = 0; c < n * m; c++)
        if (is_mine(c) && (best < 0 || board[c].units > board[best].units))
            best = c;
    return best;
}

/* Step 3: the best capture any of our cells can make. */
static int any_capture(int *from)
{
    int best = -1;
    for (int c = 0; c < n * m; c++) {
        if (!is_mine(c))
            continue;
        int t = best_capture(c, board[c].units);
        if (t >= 0 && better_target(t, best)) {
            best = t;
            *from = c;
        }
    }
    return best;
}

static void play_turn(void)
{
    int from = biggest_army(), to = -1;
    if (from >= 0 && board[from].units >= 2) {
        to = best_capture(from, board[from].units);
        if (to < 0)
            to = step_toward_target(from);
    }
    if (to < 0)
        to = any_capture(&from);
    if (to < 0)
        printf("-1\n");
    else
        print_move(from, to);
}

int main(void)
{
    if (scanf("%d %d %d %d", &n, &m, &k, &id) != 4 || n < 1 || m < 1)
        return 1;
    size_t cells = (size_t)n * (size_t)m;
    board = calloc(cells, sizeof *board);
    dist = calloc(cells, sizeof *dist);
    parent = calloc(cells, sizeof *parent);
    queue = calloc(cells, sizeof *queue);
    if (!board || !dist || !parent || !queue)
        return 1;
    while (read_state()) {
        play_turn();
        fflush(stdout);
    }
    free(board);
    free(dist);
    free(parent);
    free(queue);
    return 0;
}
