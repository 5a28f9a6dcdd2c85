/*
 * compile_record.c - the compile record the results stage shows a student:
 * one JSON line, gzip, written atomically (a temporary name, fsync, rename:
 * the replay writer, replay/replay.h), at compile/PLAYER.jsonl.gz of a
 * tournament or wherever `judge compile --record FILE` says. Format in
 * docs/compile.md.
 */
#include "judge/compile/compile_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/make_dirs.h"
#include "engine/strbuf.h"
#include "replay/replay.h"

static int put_string(struct strbuf *sb, const char *key, const char *value, size_t len)
{
    return sb_printf(sb, ",\"%s\":", key) < 0 || sb_json_string(sb, value, len) < 0 ? -1 : 0;
}

static int put_fields(struct strbuf *sb, const struct compile_record *rec)
{
    const struct compile_result *r = rec->result;
    if (sb_printf(sb, "{\"type\":\"compile\",\"format\":\"%s\",\"version\":%d", COMPILE_RECORD_FORMAT,
                  COMPILE_RECORD_VERSION) < 0 ||
        put_string(sb, "player", rec->player, strlen(rec->player)) < 0 ||
        put_string(sb, "profile", rec->profile, strlen(rec->profile)) < 0 ||
        put_string(sb, "source", rec->source, strlen(rec->source)) < 0 ||
        sb_printf(sb, ",\"verdict\":\"%s\",\"exit_code\":%d", compile_verdict_name(r->verdict),
                  r->exit_code) < 0 ||
        put_string(sb, "messages", r->messages, r->messages_len) < 0 ||
        put_string(sb, "note", r->note, strlen(r->note)) < 0)
        return -1;
    if (r->has_syscall && put_string(sb, "syscall", r->syscall.name, strlen(r->syscall.name)) < 0) return -1;
    return sb_printf(sb,
                     ",\"cpu_ns\":%" PRIu64 ",\"wall_ns\":%" PRIu64 ",\"memory_peak_bytes\":%" PRIu64
                     ",\"judge_version\":\"%s\"}",
                     r->cpu_ns, r->wall_ns, r->memory_peak_bytes, JUDGE_VERSION);
}

char *compile_record_format(const struct compile_record *rec)
{
    struct strbuf sb = STRBUF_INIT;
    if (put_fields(&sb, rec) < 0) {
        sb_free(&sb);
        return NULL;
    }
    return sb_steal(&sb);
}

int compile_record_open(const char *path, struct replay_writer **w, struct compile_error *err)
{
    char why[512];
    if (make_parent_dirs(path, 0755, why, sizeof why) < 0) {
        compile_fail(err, "compile record: %s", why);
        return (err->request = true), -1;
    }
    struct replay_error rerr;
    int rc = replay_writer_open(path, w, &rerr);
    if (rc == 0) return 0;
    compile_fail(err, "compile record: %s", rerr.msg);
    err->storage = rc == REPLAY_STORAGE_FAILED;
    return (err->request = rc != REPLAY_STORAGE_FAILED), -1;
}

int compile_record_commit(struct replay_writer *w, const struct compile_record *rec, bool *replaced,
                          struct compile_error *err)
{
    *replaced = false;
    char *json = compile_record_format(rec);
    if (!json) {
        replay_writer_abort(w);
        return compile_fail(err, "compile record: out of memory");
    }
    struct replay_error rerr;
    replay_writer_put(w, json, strlen(json), &rerr); /* a write error comes back from the commit */
    free(json);
    struct replay_committed done;
    int rc = replay_writer_commit_as(w, REPLAY_REPLACE, &done, &rerr);
    if (rc < 0) {
        compile_fail(err, "compile record: %s", rerr.msg);
        err->storage = rc == REPLAY_STORAGE_FAILED;
        return -1;
    }
    *replaced = done.replaced;
    return 0;
}

int compile_record_write_file(const char *path, const struct compile_record *rec, struct compile_error *err)
{
    struct replay_writer *w;
    if (compile_record_open(path, &w, err) < 0) return -1;
    bool replaced;
    return compile_record_commit(w, rec, &replaced, err);
}

/* A player's name as a file name: not empty, no '/', not "." or "..", not hidden. */
static bool usable_file_name(const char *name)
{
    return name[0] && name[0] != '.' && !strchr(name, '/');
}

int compile_record_write(const char *dir, const struct compile_record *rec, struct compile_error *err)
{
    if (!usable_file_name(rec->player))
        return compile_fail(err, "compile record: player name '%.64s' cannot be a file name", rec->player);
    char path[4200];
    if ((size_t)snprintf(path, sizeof path, "%s/compile/%s.jsonl.gz", dir, rec->player) >= sizeof path)
        return compile_fail(err, "compile record: directory name too long");
    int rc = compile_record_write_file(path, rec, err);
    err->request = false; /* the tournament's own directory: never the request's fault */
    return rc;
}
