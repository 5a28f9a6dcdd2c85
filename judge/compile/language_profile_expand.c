/* language_profile_expand.c - a profile command's words with their ${NAME} variables filled in. */
#include "judge/compile/language_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"

#define MAX_EXPANDED 1024 /* words after expansion */

static const char *lookup(const char *const *vars, const char *name, size_t len)
{
    for (size_t i = 0; vars && vars[i]; i++)
        if (!strncmp(vars[i], name, len) && vars[i][len] == '=') return vars[i] + len + 1;
    return NULL;
}

static const struct lp_list *whole_word_list(const char *word, const struct lp_list *lists, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(lists[i].name);
        if (!strncmp(word, "${", 2) && !strncmp(word + 2, lists[i].name, len) && !strcmp(word + 2 + len, "}"))
            return &lists[i];
    }
    return NULL;
}

/* One word with every ${NAME} replaced; NULL with err on an unknown name or no memory. */
static char *expand_word(const char *word, const char *const *vars, struct lp_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = 0;
    const char *s = word;
    for (const char *v; rc == 0 && (v = strstr(s, "${"));) {
        const char *end = strchr(v, '}');
        const char *value = end ? lookup(vars, v + 2, (size_t)(end - v - 2)) : NULL;
        if (!value) {
            snprintf(err->msg, sizeof err->msg, "no value for the variable in '%.200s'", word);
            sb_free(&sb);
            return NULL;
        }
        rc = sb_append(&sb, s, (size_t)(v - s)) < 0 || sb_puts(&sb, value) < 0 ? -1 : 0;
        s = end + 1;
    }
    if (rc == 0 && sb_puts(&sb, s) == 0) {
        char *out = sb_steal(&sb);
        if (out || (out = strdup(""))) return out;
    }
    sb_free(&sb);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return NULL;
}

static int push(char **out, size_t *n, char *word, struct lp_error *err)
{
    if (!word) return -1;
    if (*n >= MAX_EXPANDED) {
        free(word);
        snprintf(err->msg, sizeof err->msg, "a command expands to more than %d words", MAX_EXPANDED);
        return -1;
    }
    out[(*n)++] = word;
    return 0;
}

char **lp_expand(const char *const *words, const char *const *vars, const struct lp_list *lists,
                 size_t n_lists, struct lp_error *err)
{
    char **out = calloc(MAX_EXPANDED + 1, sizeof *out);
    if (!out) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; words[i]; i++) {
        const struct lp_list *list = whole_word_list(words[i], lists, n_lists);
        int rc = 0;
        for (size_t j = 0; list && j < list->n && rc == 0; j++) {
            char *copy = strdup(list->words[j]);
            if (!copy) snprintf(err->msg, sizeof err->msg, "out of memory");
            rc = push(out, &n, copy, err);
        }
        if (!list) rc = push(out, &n, expand_word(words[i], vars, err), err);
        if (rc < 0) {
            lp_words_free(out);
            return NULL;
        }
    }
    return out;
}

void lp_words_free(char **words)
{
    for (size_t i = 0; words && words[i]; i++) free(words[i]);
    free(words);
}
