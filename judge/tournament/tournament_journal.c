/*
 * tournament_journal.c - OUT/journal.jsonl, one line per finished match, and
 * what a resumed run learns from it (judge/tournament/tournament.h).
 *
 * A match is finished when its replay exists (replays are renamed into place
 * complete, so one that exists is whole) and a journal line names it. The
 * line is appended after the replay is committed; a judge killed between the
 * two leaves a replay without a line, and the line is rebuilt here from the
 * replay's result, so a finished match is never lost nor played twice.
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
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "replay/replay.h"

#define REPLAY_SUFFIX ".jsonl.gz"

struct resume {
    const struct tournament_outdir *od;
    const struct tournament_config *cfg;
    const struct tournament_plan *plan;
    struct tournament_shard shard;
    struct tournament_journal *j;
    struct strbuf kept; /* the journal as it will be */
    bool changed;       /* kept differs from the file */
};

static int fail(struct tournament_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct tournament_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- the journal line ------------------------------------------------------------ */

static json_object *member(json_object *o, const char *key, json_type type)
{
    json_object *m;
    return json_object_object_get_ex(o, key, &m) && json_object_is_type(m, type) ? m : NULL;
}

static int put_player(struct strbuf *out, json_object *p)
{
    json_object *name = member(p, "name", json_type_string), *place = member(p, "place", json_type_int),
                *points = member(p, "points", json_type_int),
                *verdict = member(p, "verdict", json_type_string);
    if (!name || !place || !points || !verdict) return -1;
    int rc = sb_puts(out, "{\"name\":");
    rc |= sb_json_string(out, json_object_get_string(name), (size_t)json_object_get_string_len(name));
    rc |= sb_printf(out, ",\"place\":%d,\"points\":%lld,\"verdict\":", json_object_get_int(place),
                    (long long)json_object_get_int64(points));
    rc |= sb_json_string(out, json_object_get_string(verdict), (size_t)json_object_get_string_len(verdict));
    return rc | sb_putc(out, '}');
}

int tournament_result_line(const char *id, json_object *result, struct strbuf *out)
{
    json_object *type = member(result, "type", json_type_string),
                *winner = member(result, "winner", json_type_int),
                *draw = member(result, "draw", json_type_boolean),
                *rounds = member(result, "rounds", json_type_int),
                *players = member(result, "players", json_type_array);
    if (!type || strcmp(json_object_get_string(type), "result") != 0 || !winner || !draw || !rounds ||
        !players)
        return -1;
    int w = json_object_get_int(winner);
    size_t n = json_object_array_length(players);
    json_object *wname = w >= 1 && (size_t)w <= n ? member(json_object_array_get_idx(players, (size_t)w - 1),
                                                           "name", json_type_string)
                                                  : NULL;
    int rc = sb_puts(out, "{\"id\":");
    rc |= sb_json_string(out, id, strlen(id));
    rc |= sb_printf(out, ",\"replay\":\"replays/%s" REPLAY_SUFFIX "\",\"winner\":", id);
    rc |= wname
              ? sb_json_string(out, json_object_get_string(wname), (size_t)json_object_get_string_len(wname))
              : sb_puts(out, "null");
    rc |= sb_printf(out, ",\"draw\":%s,\"rounds\":%d,\"players\":[",
                    json_object_get_boolean(draw) ? "true" : "false", json_object_get_int(rounds));
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = (i ? sb_putc(out, ',') : 0) | put_player(out, json_object_array_get_idx(players, i));
    return rc | sb_puts(out, "]}");
}

/* ---- what the journal and the replays say ------------------------------------------ */

/* The plan index of id when it is a match of this shard, else -1. */
static long match_of(const struct resume *r, const char *id)
{
    long idx = tournament_id_index(id);
    if (idx < 0 || (size_t)idx >= r->plan->n || !tournament_in_shard(&r->plan->matches[idx], r->shard))
        return -1;
    char want[TOURNAMENT_ID_MAX];
    tournament_match_id(r->cfg, r->plan, &r->plan->matches[idx], want);
    return strcmp(want, id) != 0 ? -1 : idx;
}

/* The journal line a whole replay of match id gives, from its header (which
 * must name id) and its result; -1 when there is no such replay. */
static int line_from_replay(const struct resume *r, const char *id, struct strbuf *out)
{
    char path[PATH_MAX];
    struct replay_reader *rd;
    struct replay_error rerr;
    json_object *o, *header = NULL, *last = NULL, *match_id;
    int got = -1;
    if (tournament_replay_path(r->od, id, path, sizeof path) < 0 || replay_reader_open(path, &rd, &rerr) < 0)
        return -1;
    while ((got = replay_reader_next(rd, &o, &rerr)) == 1) {
        if (!header) {
            header = o;
            continue;
        }
        json_object_put(last);
        last = o;
    }
    replay_reader_close(rd);
    bool ours = header && (match_id = member(header, "match_id", json_type_string)) &&
                strcmp(json_object_get_string(match_id), id) == 0;
    size_t before = out->len;
    int rc = got == 0 && ours ? tournament_result_line(id, last, out) : -1;
    json_object_put(header);
    json_object_put(last);
    if (rc < 0) {
        out->len = before;
        if (out->data) out->data[before] = '\0';
    }
    return rc;
}

static int note(struct resume *r, const char *id, const char *what)
{
    return sb_printf(&r->j->notes, "%s: %s\n", id, what);
}

/* A replay file that cannot stand for its match (damaged, or another match's) is kept under a
 * name judge results does not read (ID.jsonl.gz.damaged, .damaged-2, ...) before the match is
 * played again into its name: nothing is lost. *kept is that name, or "" when nothing was there. */
static void set_aside(const struct resume *r, const char *id, char *kept, size_t size)
{
    char path[PATH_MAX];
    struct stat st;
    kept[0] = '\0';
    if (tournament_replay_path(r->od, id, path, sizeof path) < 0 || lstat(path, &st) < 0 ||
        !S_ISREG(st.st_mode))
        return;
    for (int n = 1; n < 1000; n++) {
        if (n == 1)
            snprintf(kept, size, "%s.damaged", path);
        else
            snprintf(kept, size, "%s.damaged-%d", path, n);
        if (renameat2(AT_FDCWD, path, AT_FDCWD, kept, RENAME_NOREPLACE) == 0) return;
        if (errno != EEXIST) break;
    }
    kept[0] = '\0';
}

/* The id a line names: false when it is no JSON object with a string "id". */
static bool id_of_line(const char *line, char id[TOURNAMENT_ID_MAX])
{
    json_object *o = json_tokener_parse(line), *id_obj = o ? member(o, "id", json_type_string) : NULL;
    if (id_obj) snprintf(id, TOURNAMENT_ID_MAX, "%s", json_object_get_string(id_obj));
    json_object_put(o);
    return id_obj != NULL;
}

/* Why match_of found no match of this shard for id. */
static const char *not_ours(const struct resume *r, const char *id)
{
    long idx = tournament_id_index(id);
    char want[TOURNAMENT_ID_MAX];
    if (idx < 0 || (size_t)idx >= r->plan->n) return "no match of this tournament";
    tournament_match_id(r->cfg, r->plan, &r->plan->matches[idx], want);
    return strcmp(want, id) != 0 ? "no match of this tournament" : "a match of another shard";
}

/* Drops line `number`, kept in j->ignored for the caller to show while there is room. */
static void ignore(struct resume *r, size_t number, const char *why, const char *text, size_t len)
{
    struct tournament_journal *j = r->j;
    r->changed = true;
    j->n_dropped++;
    if (j->n_ignored++ >= TOURNAMENT_IGNORED_MAX) return;
    struct tournament_ignored_line *l = &j->ignored[j->n_ignored - 1];
    l->line = number;
    l->why = why;
    l->text_len = len < sizeof l->text ? len : sizeof l->text;
    memcpy(l->text, text, l->text_len);
    l->cut = len > l->text_len;
}

/* Keep complete line `number` if it names an unfinished match of ours and agrees
 * with the match's replay; a line that does not is rebuilt from the replay,
 * one whose replay is missing, damaged or another match's is dropped, and one
 * that names no match of ours, or one already finished, is ignored. */
static int take_line(struct resume *r, const char *line, size_t len, size_t number)
{
    char id[TOURNAMENT_ID_MAX];
    if (!id_of_line(line, id)) {
        ignore(r, number, "not a journal line", line, len);
        return 0;
    }
    long idx = match_of(r, id);
    if (idx < 0 || r->j->done[idx]) {
        ignore(r, number, idx < 0 ? not_ours(r, id) : "a second line for its match", id, strlen(id));
        return 0;
    }
    size_t before = r->kept.len;
    if (line_from_replay(r, id, &r->kept) < 0) {
        r->changed = true;
        r->j->n_dropped++;
        char kept[PATH_MAX + 32], what[PATH_MAX + 160];
        set_aside(r, id, kept, sizeof kept);
        snprintf(what, sizeof what, "its replay is %s: the line is dropped, the match played again%s%s",
                 kept[0] ? "damaged or another match's" : "missing", kept[0] ? "; the file is kept as " : "",
                 kept);
        return note(r, id, what);
    }
    r->j->done[idx] = true;
    r->j->n_done++;
    bool agrees = r->kept.len - before == len && memcmp(r->kept.data + before, line, len) == 0;
    if (!agrees) {
        r->changed = true;
        r->j->n_fixed++;
        if (note(r, id, "the line disagreed with its replay: rebuilt from the replay") < 0) return -1;
    }
    return sb_putc(&r->kept, '\n');
}

static int read_journal(struct resume *r, struct tournament_error *err)
{
    FILE *f = fopen(r->j->path, "re");
    if (!f && errno == ENOENT) r->changed = true; /* created through atomic_file.h, its directory fsynced */
    if (!f) return errno == ENOENT ? 0 : fail(err, "%.500s: %s", r->j->path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    size_t number = 0;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        number++;
        if (line[len - 1] != '\n') { /* torn by a kill mid-write */
            r->changed = true;
            r->j->n_dropped++;
            break;
        }
        line[len - 1] = '\0';
        rc = take_line(r, line, (size_t)len - 1, number);
    }
    bool read_error = ferror(f);
    free(line);
    fclose(f);
    if (rc < 0) return fail(err, "out of memory");
    return read_error ? fail(err, "%.500s: read error", r->j->path) : 0;
}

/* The journal line of a replay that has none: from its header and result. */
static int recover(struct resume *r, const char *id, long idx)
{
    if (line_from_replay(r, id, &r->kept) < 0) { /* not a replay this judge wrote whole: play the match */
        char kept[PATH_MAX + 32], what[PATH_MAX + 160];
        set_aside(r, id, kept, sizeof kept);
        snprintf(what, sizeof what, "its replay (with no journal line) is damaged or another match's: the "
                 "match played again; the file is kept as %s", kept);
        return kept[0] ? note(r, id, what) : 0;
    }
    r->j->done[idx] = true;
    r->j->n_done++;
    r->j->n_recovered++;
    r->changed = true;
    return sb_putc(&r->kept, '\n');
}

static int scan_replays(struct resume *r, struct tournament_error *err)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/replays", r->od->path);
    DIR *d = opendir(dir);
    if (!d) return fail(err, "%.500s: %s", dir, strerror(errno));
    int rc = 0;
    size_t suffix = strlen(REPLAY_SUFFIX);
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= suffix || len - suffix >= TOURNAMENT_ID_MAX ||
            strcmp(e->d_name + len - suffix, REPLAY_SUFFIX) != 0)
            continue;
        char id[TOURNAMENT_ID_MAX];
        snprintf(id, sizeof id, "%.*s", (int)(len - suffix), e->d_name);
        long idx = match_of(r, id);
        if (idx >= 0 && !r->j->done[idx]) rc = recover(r, id, idx);
    }
    closedir(d);
    return rc < 0 ? fail(err, "out of memory") : 0;
}

/* ---- opening and appending ------------------------------------------------------------ */

static int open_for_append(struct tournament_journal *j, struct tournament_error *err)
{
    j->fd = open(j->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (j->fd < 0) {
        err->storage = atomic_file_storage_errno(errno);
        return fail(err, "%.500s: %s", j->path, strerror(errno));
    }
    return 0;
}

int tournament_journal_open(const struct tournament_outdir *od, const struct tournament_config *cfg,
                            const struct tournament_plan *plan, struct tournament_shard shard,
                            struct tournament_journal *out, struct tournament_error *err)
{
    memset(out, 0, sizeof *out);
    out->fd = -1;
    err->storage = false;
    struct resume r = {od, cfg, plan, shard, out, STRBUF_INIT, false};
    out->done = calloc(plan->n ? plan->n : 1, sizeof *out->done);
    if (!out->done || asprintf(&out->path, "%s/" TOURNAMENT_JOURNAL_FILE, od->path) < 0) {
        out->path = NULL;
        tournament_journal_close(out);
        return fail(err, "out of memory");
    }
    int rc = read_journal(&r, err);
    if (rc == 0) rc = scan_replays(&r, err);
    if (rc == 0 && r.changed &&
        (rc = atomic_file_write_whole(out->path, r.kept.data ? r.kept.data : "", r.kept.len, err->msg,
                                      sizeof err->msg)) < 0)
        err->storage = atomic_file_storage_errno(errno);
    if (rc == 0) rc = open_for_append(out, err);
    sb_free(&r.kept);
    if (rc < 0) tournament_journal_close(out);
    return rc;
}

/* Writes all of text at the end; on failure the file is cut back to end, so no line is torn. */
static int append_whole(struct tournament_journal *j, off_t end, const char *text, size_t len,
                        struct tournament_error *err)
{
    /* Space set aside first: a full disk fails here, before any byte is written. */
    if (fallocate(j->fd, FALLOC_FL_KEEP_SIZE, end, (off_t)len) < 0 && errno != EOPNOTSUPP && errno != ENOSYS)
        return fail(err, "%.500s: %s", j->path, strerror(errno));
    for (size_t done = 0; done < len;) {
        ssize_t n = write(j->fd, text + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int saved = n < 0 ? errno : EIO;
            if (ftruncate(j->fd, end) < 0)
                return fail(err, "%.500s: %s, and the part written could not be removed: %s", j->path,
                            strerror(saved), strerror(errno));
            return fail(err, "%.500s: %s", j->path, strerror(saved));
        }
        done += (size_t)n;
    }
    return 0;
}

int tournament_journal_write(struct tournament_journal *j, const char *line, struct tournament_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    if (sb_puts(&sb, line) < 0 || sb_putc(&sb, '\n') < 0) {
        sb_free(&sb);
        return fail(err, "out of memory");
    }
    off_t end = lseek(j->fd, 0, SEEK_END);
    int rc = end < 0 ? fail(err, "%.500s: %s", j->path, strerror(errno)) : append_whole(j, end, sb.data, sb.len, err);
    sb_free(&sb);
    return rc;
}

int tournament_journal_sync(struct tournament_journal *j, struct tournament_error *err)
{
    return fsync(j->fd) < 0 ? fail(err, "%.500s: fsync: %s", j->path, strerror(errno)) : 0;
}

int tournament_journal_append(struct tournament_journal *j, const char *line, struct tournament_error *err)
{
    return tournament_journal_write(j, line, err) < 0 ? -1 : tournament_journal_sync(j, err);
}

void tournament_journal_close(struct tournament_journal *j)
{
    if (j->fd >= 0) close(j->fd);
    free(j->done);
    free(j->path);
    sb_free(&j->notes);
    memset(j, 0, sizeof *j);
    j->fd = -1;
}
