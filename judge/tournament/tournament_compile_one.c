/*
 * tournament_compile_one.c - one source player of a tournament: where its bot,
 * record and state live in OUT, whether an earlier run's compile can be
 * reused, and the compile itself (run in a process of its own).
 * The state file is written last, atomically: a compile killed half-way leaves
 * no state, so the next run compiles again.
 */
#include "judge/tournament/tournament_compile_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "judge/compile/source_player.h"
#include "sandbox/fs_safe.h"

#define STATE_MAX 256

static int out_path(const struct tournament_outdir *od, const char *fmt, const char *name, char *out)
{
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, fmt, name);
    int n = snprintf(out, PATH_MAX, "%s/%s", od->path, rel);
    return n < 0 || n >= PATH_MAX ? -1 : 0;
}

static int read_state(const char *path, struct build_state *st)
{
    char text[STATE_MAX + 1];
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, STATE_MAX);
    close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    return sscanf(text, "judge-build 1\nkey %16[0-9a-f]\nverdict %31[A-Z_]\n", st->key, st->verdict) == 2
               ? 0
               : -1;
}

static bool exists(const char *path, mode_t type)
{
    struct stat st;
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

int build_reuse(const struct tournament_outdir *od, struct player_config *p, const char *key,
                struct build_state *st)
{
    char state[PATH_MAX], record[PATH_MAX], bot[PATH_MAX];
    if (out_path(od, TOURNAMENT_BOTS_DIR "/" TOURNAMENT_BUILD_DIR "/%s", p->name, state) < 0 ||
        out_path(od, "compile/%s.jsonl.gz", p->name, record) < 0 ||
        out_path(od, TOURNAMENT_BOTS_DIR "/%s", p->name, bot) < 0 || read_state(state, st) < 0 ||
        strcmp(st->key, key) != 0 || !exists(record, S_IFREG))
        return 0;
    if (strcmp(st->verdict, "OK") != 0) {
        p->compile_failed = true;
        return 1;
    }
    if (!exists(bot, S_IFDIR)) return 0;
    p->bot_dir = realpath(bot, NULL);
    return p->bot_dir ? 1 : -1;
}

bool build_key_changed(const struct tournament_outdir *od, const struct player_config *p, const char *key)
{
    char state[PATH_MAX];
    struct build_state st;
    return out_path(od, TOURNAMENT_BOTS_DIR "/" TOURNAMENT_BUILD_DIR "/%s", p->name, state) == 0 &&
           read_state(state, &st) == 0 && strcmp(st.key, key) != 0;
}

/* OUT/bots and OUT/bots/.build made, and the player's old bot and state removed. */
static int clear_old(const struct tournament_outdir *od, const char *name, struct compile_error *err)
{
    char bots[PATH_MAX], builds[PATH_MAX];
    struct jail_error jerr;
    if (out_path(od, "%s", TOURNAMENT_BOTS_DIR, bots) < 0 ||
        out_path(od, "%s", TOURNAMENT_BOTS_DIR "/" TOURNAMENT_BUILD_DIR, builds) < 0)
        return source_fail(err, "the output directory's path is too long");
    if ((mkdir(bots, 0755) < 0 && errno != EEXIST) || (mkdir(builds, 0755) < 0 && errno != EEXIST)) {
        int saved = errno;
        source_fail(err, "%s: %s", builds, strerror(saved));
        err->storage = atomic_file_storage_errno(saved);
        return -1;
    }
    int bots_fd = fs_safe_open_dir(bots, &jerr), builds_fd = fs_safe_open_dir(builds, &jerr);
    int rc = bots_fd >= 0 && builds_fd >= 0 && fs_safe_remove_tree(builds_fd, name, &jerr) == 0 &&
                     fs_safe_remove_tree(bots_fd, name, &jerr) == 0
                 ? 0
                 : source_fail(err, "clearing the old bot of '%s': %s", name, jerr.msg);
    if (bots_fd >= 0) close(bots_fd);
    if (builds_fd >= 0) close(builds_fd);
    return rc;
}

static int write_state(const struct tournament_outdir *od, const char *name, const char *key,
                       const char *verdict, struct compile_error *err)
{
    char path[PATH_MAX], text[STATE_MAX], why[512];
    int n = snprintf(text, sizeof text, "judge-build 1\nkey %s\nverdict %s\n", key, verdict);
    if (out_path(od, TOURNAMENT_BOTS_DIR "/" TOURNAMENT_BUILD_DIR "/%s", name, path) < 0)
        return source_fail(err, "the output directory's path is too long");
    if (atomic_file_write_whole(path, text, (size_t)n, why, sizeof why) < 0) {
        int saved = errno;
        source_fail(err, "%s", why);
        err->storage = atomic_file_storage_errno(saved);
        return -1;
    }
    return 0;
}

int build_compile(const struct tournament_outdir *od, const struct player_config *p, const char *key,
                  enum isolation_mode mode, struct compile_error *err)
{
    char bot[PATH_MAX];
    struct isolation_report probe;
    struct jail_error jerr;
    if (out_path(od, TOURNAMENT_BOTS_DIR "/%s", p->name, bot) < 0)
        return source_fail(err, "the output directory's path is too long");
    if (clear_old(od, p->name, err) < 0) return -1;
    if (jail_global_init(mode, &probe, &jerr) < 0) return source_fail(err, "%s", jerr.msg);
    struct compile_result *r = malloc(sizeof *r);
    if (!r) return source_fail(err, "out of memory");
    struct compile_request req = {p->language, p->source, bot, mode};
    struct compile_record rec = {p->name, p->language->name, p->source, r};
    int rc = compile_submission(&req, r, err);
    if (rc == 0 && r->verdict == COMPILE_INTERNAL_ERROR)
        rc = source_fail(err, "compiling '%s': internal error: %s", p->name, r->note);
    if (rc == 0) rc = compile_record_write(od->path, &rec, err);
    if (rc == 0) rc = write_state(od, p->name, key, compile_verdict_name(r->verdict), err);
    free(r);
    return rc;
}
