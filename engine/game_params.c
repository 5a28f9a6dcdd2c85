/* game_params.c - a game's named defaults (README C5) and the violation names of C9. */
#include <stdio.h>
#include <string.h>

#include "engine/game.h"

static const char *const violation_names[] = {
    [VIOLATION_NONE] = "none",
    [VIOLATION_MEMORY] = "memory_limit",
    [VIOLATION_SYSCALL] = "forbidden_syscall",
    [VIOLATION_TIME] = "time",
    [VIOLATION_CRASH] = "crash",
    [VIOLATION_INVALID_OUTPUT] = "invalid_output",
    [VIOLATION_INVALID_MOVE] = "invalid_move",
};
#define N_VIOLATION_NAMES (sizeof violation_names / sizeof violation_names[0])

const char *violation_name(enum violation_kind k)
{
    if ((unsigned)k >= N_VIOLATION_NAMES)
        return "unknown";
    return violation_names[k];
}

int violation_parse(const char *name, enum violation_kind *out)
{
    for (size_t i = 0; i < N_VIOLATION_NAMES; i++) {
        if (!strcmp(name, violation_names[i])) {
            *out = (enum violation_kind)i;
            return 0;
        }
    }
    return -1;
}

int game_param_index(const struct game_rules *r, const char *name)
{
    for (size_t i = 0; i < r->n_params; i++)
        if (!strcmp(r->params[i].name, name))
            return (int)i;
    return -1;
}

void game_params_defaults(const struct game_rules *r, int64_t *values)
{
    for (size_t i = 0; i < r->n_params; i++)
        values[i] = r->params[i].def;
}

int game_param_set(const struct game_rules *r, int64_t *values, const char *name, int64_t v,
                   struct game_error *err)
{
    int i = game_param_index(r, name);
    if (i < 0) {
        snprintf(err->msg, sizeof err->msg, "%s has no parameter '%s'", r->name, name);
        err->line = err->col = 0;
        return -1;
    }
    const struct game_param *p = &r->params[i];
    if (v < p->min || v > p->max) {
        snprintf(err->msg, sizeof err->msg, "parameter %s = %lld is out of range %lld..%lld",
                 name, (long long)v, (long long)p->min, (long long)p->max);
        err->line = err->col = 0;
        return -1;
    }
    values[i] = v;
    return 0;
}

int64_t game_param(const struct game_rules *r, const int64_t *values, const char *name)
{
    int i = game_param_index(r, name);
    if (i < 0)
        return 0;
    return values ? values[i] : r->params[i].def;
}
