/*
 * A generals starter bot (docs/games/generals.md): it reads every state and makes a legal
 * move, from the cell of its own with the most units into a neighbour that is not a
 * mountain, or passes when it has no such cell. Copy it and make it clever.
 */
#include <stdio.h>

#define MAX_CELLS (50 * 50)

static int n, m, k, me;
static int type[MAX_CELLS], owner[MAX_CELLS], units[MAX_CELLS]; /* type 0: not seen */

/* Reads one state after its "1" line; 0 when the game is over ("0") or stdin ended. */
static int read_state(void)
{
    int flag;
    if (scanf("%d", &flag) != 1 || flag == 0)
        return 0;
    for (int p = 0; p < k; p++) {
        int army, cells;
        scanf("%d %d", &army, &cells); /* every player's total units and cells */
    }
    for (int c = 0; c < n * m; c++) {
        int visible, t;
        scanf("%d %d", &visible, &t);
        type[c] = visible ? t : 0;
        owner[c] = units[c] = 0;
        if (visible && t != 4)
            scanf("%d %d", &owner[c], &units[c]);
    }
    return 1;
}

int main(void)
{
    static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    if (scanf("%d %d %d %d", &n, &m, &k, &me) != 4)
        return 0;
    while (read_state()) {
        int best = -1;
        for (int c = 0; c < n * m; c++)
            if (owner[c] == me && units[c] >= 2 && (best < 0 || units[c] > units[best]))
                best = c;
        int from_i = best / m, from_j = best % m, to = -1;
        for (int d = 0; best >= 0 && d < 4 && to < 0; d++) {
            int i = from_i + di[d], j = from_j + dj[d];
            if (i >= 0 && i < n && j >= 0 && j < m && type[i * m + j] != 4 && type[i * m + j] != 0)
                to = i * m + j;
        }
        if (to < 0)
            printf("-1\n"); /* pass */
        else /* opt 1: all units but one; rows and columns count from 1 */
            printf("1 %d %d %d %d\n", from_i + 1, from_j + 1, to / m + 1, to % m + 1);
        fflush(stdout); /* a pipe is fully buffered: without this the judge sees nothing */
    }
    return 0;
}
