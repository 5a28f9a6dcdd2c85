/*
 * replay.h - the replay file: one gzip-compressed JSON Lines file
 * (docs/replay-format.md). A header line, then one line per reply, engine
 * event and violation, then the result line.
 *
 *   replay_writer.c   writes it to a temporary name, fsyncs and renames it
 *   replay_records.c  formats each kind of line
 *   replay_reader.c   streams it back, one json-c object per line
 *   replay_verify.c   replays the recorded replies through the engine
 *   replay_export.c   the game's original log format, from a verified replay
 */
#ifndef JUDGE_REPLAY_H
#define JUDGE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"
#include "judge/match.h"
#include "judge/sysinfo.h"

#define REPLAY_FORMAT          "judge-replay"
#define REPLAY_VERSION         1
#define REPLAY_MAX_LINE        (64u << 20)  /* a longer line is corruption */
#define REPLAY_STDERR_TAIL_MAX 4096

struct replay_error { char msg[640]; };

/* What the writer returns instead of -1 when the disk is full, read-only or broken. */
#define REPLAY_STORAGE_FAILED (-2)

/* ---- writing ---------------------------------------------------------------- */

struct replay_writer;
/* Creates a temporary file next to path (O_EXCL, mode 0644) and sets space aside for it. */
int replay_writer_open(const char *path, struct replay_writer **out, struct replay_error *err);
/* One JSON object, without the newline. A write error is kept for
 * replay_writer_commit to report (the match goes on): always 0. */
int replay_writer_put(struct replay_writer *w, const char *json, size_t len, struct replay_error *err);
/* Finish the gzip stream, fsync, rename to the final path, fsync the directory, free w.
 * -1 (or REPLAY_STORAGE_FAILED) with the first write error ("PATH: write: No space left on device"). */
int replay_writer_commit(struct replay_writer *w, struct replay_error *err);
bool replay_writer_failed(const struct replay_writer *w); /* a write has failed */

enum replay_commit_mode {
    REPLAY_REPLACE,       /* the path was named by the user: an existing file is replaced */
    REPLAY_KEEP_EXISTING, /* an existing file is kept: the replay takes the name with "-2", "-3"... */
};
struct replay_committed {
    char path[4096 + 256]; /* where the replay is */
    bool replaced;         /* REPLAY_REPLACE found a file there and replaced it */
};
int replay_writer_commit_as(struct replay_writer *w, enum replay_commit_mode mode, struct replay_committed *done,
                            struct replay_error *err);
/* Remove the temporary file and free w. */
void replay_writer_abort(struct replay_writer *w);
const char *replay_writer_temp_path(const struct replay_writer *w);

/* ---- lines (each appends one JSON object, no newline, to sb) ------------------ */

struct replay_reply {
    int n, player, round, reply;
    const char *line;
    size_t len;
    uint64_t cpu_ns, wall_ns;
};

/* isolation[p - 1] is player p's report (jail_isolation); NULL entries are skipped. */
int replay_record_header(struct strbuf *sb, const struct match_setup *s,
                         const struct isolation_report *const *isolation,
                         const struct host_info *host, int64_t started_unix);
int replay_record_reply(struct strbuf *sb, const struct replay_reply *r);
int replay_record_violation(struct strbuf *sb, int player, const struct match_violation *v,
                            const char *stderr_tail);
int replay_record_event(struct strbuf *sb, const char *engine_json, size_t len);
int replay_record_result(struct strbuf *sb, const struct match_setup *s,
                         const struct match_outcome *o, uint64_t wall_ns);
/* The isolation report as `judge exec` shapes it (judge/run_report.h). */
int replay_record_isolation(struct strbuf *sb, const struct isolation_report *iso);

/* ---- reading ------------------------------------------------------------------ */

struct json_object;
struct replay_reader;
/* Errors name the file: "FILE: not gzip", "FILE: truncated at line N",
 * "FILE: line N: invalid JSON", "FILE: no result line", ... */
int replay_reader_open(const char *path, struct replay_reader **out, struct replay_error *err);
/* 1: *obj is the next line's object (the caller json_object_put()s it);
 * 0: the end of a complete replay (the last line was the result); -1: error. */
int replay_reader_next(struct replay_reader *r, struct json_object **obj, struct replay_error *err);
int replay_reader_line_no(const struct replay_reader *r);       /* of the last line returned */
const char *replay_reader_text(const struct replay_reader *r, size_t *len); /* its raw text */
void replay_reader_close(struct replay_reader *r);

/* ---- verifying and exporting ---------------------------------------------------- */

struct replay_verify_report { int replies, lines; };
/* Rebuild the game from the header alone and feed it every recorded reply and
 * violation; compare what the engine gives with every recorded event,
 * violation and the result. 0 when all match; -1 with the first difference
 * ("FILE: line 57: recorded ... but the engine gives ...") or the reading
 * error. With log non-NULL, the engine writes its original log there. */
int replay_verify(const char *path, struct strbuf *log, struct replay_verify_report *rep,
                  struct replay_error *err);

/* `--format NAME`: "GAME-log" is the game's original log (engine set_log).
 * Writes to out_path (temporary name, fsync, rename) or, when out_path is
 * NULL, appends to *to_stdout. */
int replay_export(const char *path, const char *format, const char *out_path,
                  struct strbuf *to_stdout, struct replay_error *err);

#endif
