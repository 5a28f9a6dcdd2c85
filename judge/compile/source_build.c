/*
 * source_build.c - `judge run` with source players: each compiled in the jail
 * into a fresh temporary directory ($TMPDIR/judge-run-XXXXXX/N, N its place in
 * the file, as names need not be file names), removed after the match. No
 * compile record is kept: `judge compile --record` and tournaments keep them.
 */
#include "judge/compile/source_player.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/fs_safe.h"

static bool has_source_player(const struct match_config *cfg)
{
    for (int i = 0; i < cfg->n_players; i++)
        if (cfg->players[i].source) return true;
    return false;
}

static int make_tmp_dir(struct source_build *b, struct compile_error *err)
{
    const char *tmp = getenv("TMPDIR");
    if (asprintf(&b->tmp_dir, "%s/judge-run-XXXXXX", tmp && tmp[0] ? tmp : "/tmp") < 0) {
        b->tmp_dir = NULL;
        return source_fail(err, "out of memory");
    }
    if (mkdtemp(b->tmp_dir)) return 0;
    int rc = source_fail(err, "%s: %s", b->tmp_dir, strerror(errno));
    free(b->tmp_dir);
    b->tmp_dir = NULL;
    return rc;
}

/* 0 compiled, 1 it did not (b->failed), -1 err. */
static int compile_one(struct source_build *b, struct player_config *p, int index, enum isolation_mode mode,
                       struct compile_error *err)
{
    if (asprintf(&p->bot_dir, "%s/%d", b->tmp_dir, index) < 0) {
        p->bot_dir = NULL;
        return source_fail(err, "out of memory");
    }
    struct compile_request req = {p->language, p->source, p->bot_dir, mode};
    if (compile_submission(&req, b->result, err) < 0) return -1;
    if (b->result->verdict == COMPILE_INTERNAL_ERROR)
        return source_fail(err, "compiling player '%s': internal error: %s", p->name, b->result->note);
    if (b->result->verdict == COMPILE_OK) return 0;
    free(p->bot_dir);
    p->bot_dir = NULL;
    p->compile_failed = true;
    b->failed = p;
    return 1;
}

int source_build_temp(struct match_config *cfg, enum isolation_mode mode, struct source_build *b,
                      struct compile_error *err)
{
    memset(b, 0, sizeof *b);
    if (!has_source_player(cfg)) return 0;
    struct isolation_report probe;
    struct jail_error jerr;
    if (jail_global_init(mode, &probe, &jerr) < 0) return source_fail(err, "%s", jerr.msg);
    if (!(b->result = malloc(sizeof *b->result))) return source_fail(err, "out of memory");
    if (make_tmp_dir(b, err) < 0) return -1;
    for (int i = 0; i < cfg->n_players; i++) {
        int rc = cfg->players[i].source ? compile_one(b, &cfg->players[i], i + 1, mode, err) : 0;
        if (rc) return rc < 0 ? -1 : 0;
    }
    return 0;
}

void source_build_remove(struct source_build *b)
{
    if (b->tmp_dir) {
        struct jail_error jerr;
        char *slash = strrchr(b->tmp_dir, '/');
        *slash = '\0';
        int fd = open(b->tmp_dir[0] ? b->tmp_dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            fs_safe_remove_tree(fd, slash + 1, &jerr);
            close(fd);
        }
    }
    free(b->tmp_dir);
    free(b->result);
    memset(b, 0, sizeof *b);
}
