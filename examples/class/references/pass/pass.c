/*
 * pass.c - the simplest generals bot: it reads every state and always passes.
 *
 * Protocol (generals.md §5): the judge first writes "n m k id". Then, before
 * each of our turns, a state: "1", k lines "army cells", and n*m cell lines
 * "visible type [owner units]" (owner and units only for a visible cell that
 * is not a mountain). We answer one line: "-1" to pass. "0" means the game is
 * over for us: exit at once.
 */
#include <stdio.h>

/* Reads one state, keeping nothing; 0 when the judge wrote "0" or input ended. */
static int skip_state(int n, int m, int k)
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
        int visible, type, owner, units;
        if (scanf("%d %d", &visible, &type) != 2)
            return 0;
        if (visible && type != 4 && scanf("%d %d", &owner, &units) != 2)
            return 0;
    }
    return 1;
}

int main(void)
{
    int n, m, k, id;
    if (scanf("%d %d %d %d", &n, &m, &k, &id) != 4)
        return 1;
    while (skip_state(n, m, k)) {
        printf("-1\n");
        fflush(stdout); /* the judge waits for this line: never leave it in the buffer */
    }
    return 0;
}
