/* suggest.c - the nearest known word to a misspelt one (suggest.h). */
#include "common/suggest.h"

#include <string.h>

#define WORD_MAX 64

/* Optimal string alignment distance, capped: words longer than WORD_MAX are never near. */
static size_t distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > WORD_MAX || m > WORD_MAX)
        return (size_t)-1;
    size_t d[WORD_MAX + 1][WORD_MAX + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *suggest_nearest(const char *word, const char *const *candidates, size_t n)
{
    size_t len = strlen(word), limit = len <= 4 ? 1 : len <= 8 ? 2 : 3, best_d = limit + 1;
    const char *best = NULL;
    for (size_t i = 0; i < n; i++) {
        size_t d = candidates[i] ? distance(word, candidates[i]) : (size_t)-1;
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best;
}
