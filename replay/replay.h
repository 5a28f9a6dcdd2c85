/*
 * replay/ - the replay format, the layer every other one reads and writes
 * matches through (docs/replay-format.md). A replay is one gzip-compressed
 * JSON Lines file: a header line, then one line per reply, engine event and
 * violation, then the result line. This layer knows the format, not games or
 * jails: judge/ writes matches into it (judge/match/match_replay.c formats the
 * header, violation and result lines from a match) and verifies them
 * (judge/verify/), ci/ only reads.
 *
 *   replay_writer.c   writes it to a temporary name, fsyncs and renames it
 *   replay_reader.c   streams it back (from the file, or its bytes in memory), one json-c object per line
 *   replay_lines.c    the lines that need nothing of a match: reply, event,
 *                     and the JSON key/value helpers the other lines use
 */
#ifndef REPLAY_REPLAY_H
#define REPLAY_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"

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

int replay_record_reply(struct strbuf *sb, const struct replay_reply *r);
int replay_record_event(struct strbuf *sb, const char *engine_json, size_t len);

/* Key/value writers for a JSON object being built in sb: each puts the comma
 * a previous member needs. 0 or -1, like every sb_* call. */
int replay_put_key(struct strbuf *sb, const char *key);
int replay_put_kv_str(struct strbuf *sb, const char *key, const char *v); /* NULL: null */
int replay_put_kv_i64(struct strbuf *sb, const char *key, int64_t v);
int replay_put_kv_u64(struct strbuf *sb, const char *key, uint64_t v);
int replay_put_kv_bool(struct strbuf *sb, const char *key, bool v);

/* ---- reading ------------------------------------------------------------------ */

struct json_object;
struct replay_reader;
/* Errors name the file: "FILE: not gzip", "FILE: truncated at line N",
 * "FILE: line N: invalid JSON", "FILE: no result line", ... */
int replay_reader_open(const char *path, struct replay_reader **out, struct replay_error *err);
/* The same over the file's bytes, already in memory (they must outlive the reader); name is
 * the file's, for the messages, which are the same. */
int replay_reader_open_bytes(const void *data, size_t len, const char *name, struct replay_reader **out,
                             struct replay_error *err);
/* 1: *obj is the next line's object (the caller json_object_put()s it);
 * 0: the end of a complete replay (the last line was the result); -1: error. */
int replay_reader_next(struct replay_reader *r, struct json_object **obj, struct replay_error *err);
/* From now on a reply or event line is checked as JSON but not built: next()
 * returns 1 with *obj NULL for it (a line json-c alone can judge is still parsed). */
void replay_reader_skip_moves(struct replay_reader *r);
int replay_reader_line_no(const struct replay_reader *r);       /* of the last line returned */
const char *replay_reader_text(const struct replay_reader *r, size_t *len); /* its raw text */
void replay_reader_close(struct replay_reader *r);

#endif
