/* source_player.c - a compiled source player -> the match player that runs it
 * (judge/compile/source_player.h). */
#include "judge/compile/source_player.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int source_fail(struct compile_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->request = false;
    err->storage = false;
    return -1;
}

static int copy_argv(struct match_player *mp, char *const *argv)
{
    int n = 0;
    while (argv[n]) n++;
    mp->argv = calloc((size_t)n + 1, sizeof *mp->argv);
    if (!mp->argv) return -1;
    for (mp->argc = 0; mp->argc < n; mp->argc++)
        if (!(mp->argv[mp->argc] = strdup(argv[mp->argc]))) return -1;
    return 0;
}

int source_player_resolve(const struct player_config *pc, const struct match_limits *limits,
                          struct match_player *mp, char *msg, size_t size)
{
    if (!pc->bot_dir) {
        snprintf(msg, size,
                 pc->compile_failed ? "player '%s' did not compile" : "player '%s' is not compiled",
                 pc->name);
        return -1;
    }
    struct compile_error cerr;
    struct compiled_bot *b = calloc(1, sizeof *b);
    if (!b) return snprintf(msg, size, "out of memory"), -1;
    if (compiled_bot_load(pc->language, pc->bot_dir, limits->memory_limit_mb << 20, limits->pids, b, &cerr) <
        0) {
        free(b);
        snprintf(msg, size, "player '%s': %s", pc->name, cerr.msg);
        return -1;
    }
    mp->compiled = b;
    mp->name = strdup(pc->name);
    mp->dir = strdup(b->dir);
    mp->profile = strdup(b->seccomp);
    if (!mp->name || !mp->dir || !mp->profile || copy_argv(mp, b->argv) < 0)
        return snprintf(msg, size, "out of memory"), -1;
    return 0;
}

void source_player_free(struct match_player *mp)
{
    if (!mp->compiled) return;
    compiled_bot_free(mp->compiled);
    free(mp->compiled);
    mp->compiled = NULL;
}
