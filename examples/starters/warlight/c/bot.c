/*
 * A warlight starter bot (docs/games/warlight.md): it reads its turn's state and answers
 * with a legal deployment, all its income on its strongest territory, and one attack from
 * there on the weakest territory beside it that it does not own, when it outnumbers it.
 * Copy it and make it clever.
 *
 * Per-turn mode: the state is argv, "ID INCOME TERRITORIES BONUSES [X]", a new process each
 * turn. Persistent mode: the same words, one line a turn on stdin, until END.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 4096

struct territory {
    long row, col, bonus, owner, armies; /* rows and columns from 0 */
};

static struct territory list[MAX_WORDS];

/* The two answer lines for one turn's words. */
static void play(char **words, int n)
{
    if (n < 2) {
        printf("\n\n");
        return;
    }
    long me = atol(words[0]), income = atol(words[1]);
    int count = 0, best = -1, target = -1;
    for (int i = 2; i < n && count < MAX_WORDS; i++) {
        struct territory t;
        if (sscanf(words[i], "%ld,%ld,%ld,%ld,%ld", &t.row, &t.col, &t.bonus, &t.owner, &t.armies) == 5)
            list[count++] = t;
    }
    for (int i = 0; i < count; i++)
        if (list[i].owner == me && (best < 0 || list[i].armies > list[best].armies))
            best = i;
    if (best < 0) {
        printf("\n\n");
        return;
    }
    struct territory *b = &list[best];
    long armies = b->armies + income;
    for (int i = 0; i < count; i++) { /* neighbours: the 8 territories around, diagonals too */
        long dr = labs(list[i].row - b->row), dc = labs(list[i].col - b->col);
        if (list[i].owner != me && dr <= 1 && dc <= 1 && (target < 0 || list[i].armies < list[target].armies))
            target = i;
    }
    printf("%ld,%ld,%ld\n", b->row, b->col, income);
    if (target >= 0 && armies - 1 > list[target].armies)
        printf("%ld,%ld,%ld,%ld,%ld", b->row, b->col, list[target].row, list[target].col, armies - 1);
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        char *words[MAX_WORDS];
        int n = 0;
        for (int i = 1; i < argc; i++) /* the territories and bonuses are one argument each */
            for (char *w = strtok(argv[i], " "); w && n < MAX_WORDS; w = strtok(NULL, " "))
                words[n++] = w;
        play(words, n);
        return 0;
    }
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin) && strncmp(line, "END", 3) != 0) {
        char *words[MAX_WORDS];
        int n = 0;
        for (char *w = strtok(line, " \n"); w && n < MAX_WORDS; w = strtok(NULL, " \n"))
            words[n++] = w;
        play(words, n);
        fflush(stdout); /* a pipe is fully buffered: without this the judge sees nothing */
    }
    return 0;
}
