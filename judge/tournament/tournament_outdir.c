/*
 * tournament_outdir.c - the output directory of a tournament (shard):
 *
 *   OUT/.lock              flock'ed by the judge using OUT, so two never share it
 *   OUT/tournament.json    the definition's fingerprint and the shard, written first; again
 *                          when "complete" changes (every playable match of the shard finished)
 *   OUT/journal.jsonl      one line per finished match (tournament_journal.c)
 *   OUT/replays/ID.jsonl.gz
 *
 * Every file is written through common/atomic_file.h, so a killed judge leaves
 * at most temporary ".NAME.tmp-XXXXXXXX" files, removed here on the next start.
 */
#include "judge/tournament/tournament.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/make_dirs.h"

#define STATE_FILE   "tournament.json"
#define STATE_FORMAT "judge-tournament"

static int fail(struct tournament_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct tournament_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* "PATH: reason" for a system call's failure; err->storage when the disk is full, read-only or failing. */
static int fail_errno(struct tournament_error *err, const char *path, int errnum)
{
    err->storage = atomic_file_storage_errno(errnum);
    return fail(err, "%.400s: %s", path, strerror(errnum));
}

static bool is_temp_name(const char *name)
{
    return name[0] == '.' && strstr(name, ".tmp-") != NULL;
}

/* Removes what atomic_file.c names its temporary files in dir: all of
 * them, or with prefix non-NULL those of one file (".NAME.tmp-"). */
static int remove_temp_files_of(const char *dir, const char *prefix, struct tournament_error *err)
{
    DIR *d = opendir(dir);
    if (!d) return fail(err, "%.400s: %s", dir, strerror(errno));
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));)
        if (is_temp_name(e->d_name) && (!prefix || !strncmp(e->d_name, prefix, strlen(prefix))) &&
            unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT) {
            err->storage = atomic_file_storage_errno(errno);
            rc = fail(err, "%.300s/%.200s: %s", dir, e->d_name, strerror(errno));
        }
    closedir(d);
    return rc;
}

static int remove_temp_files(const char *dir, struct tournament_error *err)
{
    return remove_temp_files_of(dir, NULL, err);
}

int tournament_outdir_remove_temps(const struct tournament_outdir *od, const char *id, struct tournament_error *err)
{
    char dir[PATH_MAX], prefix[TOURNAMENT_ID_MAX + 32];
    snprintf(dir, sizeof dir, "%s/replays", od->path);
    snprintf(prefix, sizeof prefix, ".%s.jsonl.gz.tmp-", id);
    return remove_temp_files_of(dir, prefix, err);
}

static int take_lock(struct tournament_outdir *od, struct tournament_error *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/.lock", od->path);
    od->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (od->lock_fd < 0) return fail_errno(err, path, errno);
    if (flock(od->lock_fd, LOCK_EX | LOCK_NB) < 0)
        return fail(err, "%.400s: %s", od->path,
                    errno == EWOULDBLOCK ? "another judge tournament is using this directory"
                                         : strerror(errno));
    return 0;
}

static int write_state(const char *path, const struct tournament_outdir *od, struct tournament_error *err)
{
    char text[512];
    int n = snprintf(text, sizeof text,
                     "{\"format\":\"" STATE_FORMAT "\",\"version\":1,\"fingerprint\":\"%s\","
                     "\"shard\":[%u,%u],\"matches\":%zu,\"matches_in_shard\":%zu,\"complete\":%s}\n",
                     od->fingerprint, od->shard.index, od->shard.count, od->n_matches, od->n_in_shard,
                     od->complete ? "true" : "false");
    if (atomic_file_write_whole(path, text, (size_t)n, err->msg, sizeof err->msg) < 0) {
        err->storage = atomic_file_storage_errno(errno);
        return -1;
    }
    return 0;
}

/* A journal where no state was written is not one this judge wrote (it writes the state first):
 * resuming would rewrite it without the lines it does not know, so it is left alone. */
static int refuse_stray_journal(const char *path, struct tournament_error *err)
{
    char journal[PATH_MAX];
    struct stat st;
    snprintf(journal, sizeof journal, "%s/" TOURNAMENT_JOURNAL_FILE, path);
    if (lstat(journal, &st) < 0)
        return errno == ENOENT ? 0 : fail(err, "%.400s: %s", journal, strerror(errno));
    return fail(err,
                "%.400s: a journal without " STATE_FILE " beside it, so not a judge tournament's: left as it "
                "is; use another output directory",
                journal);
}

/* The state written by an earlier run must name the same definition and shard. */
static int check_state(const char *path, struct tournament_outdir *od, struct tournament_error *err)
{
    const char *fingerprint = od->fingerprint;
    struct tournament_shard shard = od->shard;
    json_object *o = json_object_from_file(path), *v;
    const char *had = NULL;
    unsigned had_i = 0, had_n = 0;
    if (o && json_object_object_get_ex(o, "fingerprint", &v) && json_object_is_type(v, json_type_string))
        had = json_object_get_string(v);
    if (o && json_object_object_get_ex(o, "shard", &v) && json_object_is_type(v, json_type_array) &&
        json_object_array_length(v) == 2) {
        had_i = (unsigned)json_object_get_int(json_object_array_get_idx(v, 0));
        had_n = (unsigned)json_object_get_int(json_object_array_get_idx(v, 1));
    }
    od->complete = o && json_object_object_get_ex(o, "complete", &v) && json_object_get_boolean(v);
    int rc = 0;
    if (!had)
        rc = fail(err, "%.400s: not a judge tournament state file", path);
    else if (strcmp(had, fingerprint) != 0)
        rc = fail(err,
                  "%.400s: this directory holds another tournament (fingerprint %.16s, the file gives "
                  "%s): the file (or --isolation) changed since; use another output directory",
                  path, had, fingerprint);
    else if (had_i != shard.index || had_n != shard.count)
        rc = fail(err, "%.400s: this directory holds shard %u/%u, not %u/%u", path, had_i, had_n, shard.index,
                  shard.count);
    json_object_put(o);
    return rc;
}

int tournament_outdir_open(const char *path, const char *fingerprint, struct tournament_shard shard,
                           size_t n_matches, size_t n_in_shard, struct tournament_outdir *out,
                           struct tournament_error *err)
{
    memset(out, 0, sizeof *out);
    out->lock_fd = -1;
    err->storage = false;
    snprintf(out->fingerprint, sizeof out->fingerprint, "%s", fingerprint);
    out->shard = shard;
    out->n_matches = n_matches;
    out->n_in_shard = n_in_shard;
    char replays[PATH_MAX], state[PATH_MAX];
    out->path = strdup(path);
    if (!out->path) return fail(err, "out of memory");
    snprintf(replays, sizeof replays, "%s/replays", path);
    snprintf(state, sizeof state, "%s/" STATE_FILE, path);
    int rc = make_dirs(replays, 0755, err->msg, sizeof err->msg);
    if (rc < 0) err->storage = atomic_file_storage_errno(errno);
    if (rc == 0) rc = take_lock(out, err);
    bool resuming = access(state, F_OK) == 0;
    if (rc == 0 && !resuming) rc = refuse_stray_journal(path, err);
    if (rc == 0) rc = remove_temp_files(path, err);
    if (rc == 0) rc = remove_temp_files(replays, err);
    if (rc == 0)
        rc = resuming ? check_state(state, out, err) : write_state(state, out, err);
    if (rc < 0) tournament_outdir_close(out);
    return rc;
}

void tournament_outdir_close(struct tournament_outdir *od)
{
    if (od->lock_fd >= 0) close(od->lock_fd);
    free(od->path);
    od->path = NULL;
    od->lock_fd = -1;
}

int tournament_outdir_set_complete(struct tournament_outdir *od, bool complete, struct tournament_error *err)
{
    if (od->complete == complete) return 0;
    char state[PATH_MAX];
    snprintf(state, sizeof state, "%s/" STATE_FILE, od->path);
    od->complete = complete;
    err->storage = false;
    return write_state(state, od, err);
}

int tournament_replay_path(const struct tournament_outdir *od, const char *id, char *out, size_t size)
{
    int n = snprintf(out, size, "%s/replays/%s.jsonl.gz", od->path, id);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}
