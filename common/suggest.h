/* suggest.h - "did you mean": the known word nearest a misspelt one, when it is near enough. */
#ifndef JUDGE_SUGGEST_H
#define JUDGE_SUGGEST_H

#include <stddef.h>

/* The candidate at the smallest edit distance from word (insertions, deletions, substitutions and
 * swaps of neighbours), if that distance is at most 1 for words of up to 4 characters, 2 up to 8, 3
 * beyond; else NULL. The first of equally near candidates wins. */
const char *suggest_nearest(const char *word, const char *const *candidates, size_t n);

#endif
