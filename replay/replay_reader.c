/* replay_reader.c - stream a .jsonl.gz replay back, one json-c object per line. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "replay/inflate_whole.h"
#include "replay/json_check.h"
#include "replay/replay.h"

/* A file held in memory is inflated at once when it promises at most this much (a 1000-turn
 * 50x50 match: about 400 KB); a larger one is streamed through buf. */
#define WHOLE_MAX (4u << 20)

struct replay_reader {
    char *path;
    gzFile gz;          /* the file, or: */
    z_stream zs;        /* its bytes in memory (replay_reader_open_bytes) */
    bool in_memory, memory_ended;
    char *whole;        /* or all of its bytes, inflated at once (inflate_whole.h) */
    size_t whole_len;
    const char *chunk;  /* the bytes lines are cut from: buf or whole */
    size_t pos, len;
    struct strbuf line; /* a line that spans two chunks */
    const char *text;   /* the last line: in chunk, or line.data */
    size_t text_len;
    int line_no;
    bool saw_result, finished;
    bool skip_moves; /* reply and event lines are checked, not built (replay_reader_skip_moves) */
    json_tokener *tok;
    char buf[65536]; /* last: not zeroed at open */
};

static int fail(struct replay_reader *r, struct replay_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct replay_reader *r, struct replay_error *err, const char *fmt, ...)
{
    size_t size = sizeof err->msg;
    int n = snprintf(err->msg, size, "%s: ", r->path);
    if (n < 0 || (size_t)n >= size)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, size - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static bool starts_like_gzip(int fd)
{
    unsigned char magic[2];
    return pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

static struct replay_reader *new_reader(const char *name)
{
    struct replay_reader *r = malloc(sizeof *r);
    if (r)
        memset(r, 0, offsetof(struct replay_reader, buf));
    if (r && (!(r->path = strdup(name)) || !(r->tok = json_tokener_new()))) {
        replay_reader_close(r);
        return NULL;
    }
    return r;
}

int replay_reader_open(const char *path, struct replay_reader **out, struct replay_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!starts_like_gzip(fd)) {
        close(fd);
        snprintf(err->msg, sizeof err->msg, "%s: not gzip", path);
        return -1;
    }
    struct replay_reader *r = new_reader(path);
    if (!r) {
        close(fd);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    r->gz = gzdopen(fd, "rb");
    if (r->gz)
        gzbuffer(r->gz, 32768); /* reads of 32 KiB (8 by default); still below the 64 KiB gzread fills directly */
    if (!r->gz) {
        close(fd);
        replay_reader_close(r);
        snprintf(err->msg, sizeof err->msg, "%s: cannot read gzip", path);
        return -1;
    }
    *out = r;
    return 0;
}

int replay_reader_open_bytes(const void *data, size_t len, const char *name, struct replay_reader **out,
                             struct replay_error *err)
{
    const unsigned char *bytes = data;
    if (len < 2 || bytes[0] != 0x1f || bytes[1] != 0x8b) {
        snprintf(err->msg, sizeof err->msg, "%s: not gzip", name);
        return -1;
    }
    struct replay_reader *r = new_reader(name);
    if (r && inflate_whole(bytes, len, WHOLE_MAX, &r->whole, &r->whole_len)) {
        *out = r;
        return 0;
    }
    if (r && inflateInit2(&r->zs, 15 + 16) == Z_OK) { /* gzip only */
        r->in_memory = true;
        r->zs.next_in = (Bytef *)bytes;
        r->zs.avail_in = (uInt)len;
        *out = r;
        return 0;
    }
    replay_reader_close(r);
    snprintf(err->msg, sizeof err->msg, "%s: out of memory", name);
    return -1;
}

void replay_reader_close(struct replay_reader *r)
{
    if (!r)
        return;
    if (r->in_memory)
        inflateEnd(&r->zs);
    if (r->gz)
        gzclose(r->gz);
    if (r->tok)
        json_tokener_free(r->tok);
    sb_free(&r->line);
    free(r->whole);
    free(r->path);
    free(r);
}

/* refill from memory: as gzread does, members follow one another, and bytes after the last
 * that do not start another are ignored. */
static int refill_from_memory(struct replay_reader *r, struct replay_error *err)
{
    z_stream *zs = &r->zs;
    zs->next_out = (Bytef *)r->buf;
    zs->avail_out = sizeof r->buf;
    while (zs->avail_out == sizeof r->buf && !r->memory_ended) {
        int rc = inflate(zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            bool another = zs->avail_in >= 2 && zs->next_in[0] == 0x1f && zs->next_in[1] == 0x8b;
            r->memory_ended = !another;
            if (another && inflateReset(zs) != Z_OK)
                return fail(r, err, "corrupt at line %d (%s)", r->line_no + 1, "inflateReset");
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && !zs->avail_in && zs->avail_out == sizeof r->buf)) {
            return fail(r, err, "truncated at line %d", r->line_no + 1);
        } else if (rc != Z_OK) {
            return fail(r, err, "corrupt at line %d (%s)", r->line_no + 1, zs->msg ? zs->msg : zError(rc));
        }
    }
    r->chunk = r->buf;
    r->pos = 0;
    r->len = sizeof r->buf - zs->avail_out;
    return r->len > 0;
}

/* The inflated bytes are one chunk, served once. */
static int refill_whole(struct replay_reader *r)
{
    if (r->chunk == r->whole)
        return 0;
    r->chunk = r->whole;
    r->pos = 0;
    r->len = r->whole_len;
    return r->len > 0;
}

/* 1: more bytes in chunk; 0: clean end of the gzip stream; -1: error (reported). */
static int refill(struct replay_reader *r, struct replay_error *err)
{
    if (r->whole)
        return refill_whole(r);
    if (r->in_memory)
        return refill_from_memory(r, err);
    int n = gzread(r->gz, r->buf, sizeof r->buf);
    if (n > 0) {
        r->chunk = r->buf;
        r->pos = 0;
        r->len = (size_t)n;
        return 1;
    }
    int zerr;
    const char *why = gzerror(r->gz, &zerr);
    if (n == 0 && zerr == Z_OK)
        return 0;
    if (zerr == Z_BUF_ERROR)   /* zlib ends a cut-off stream as EOF + Z_BUF_ERROR */
        return fail(r, err, "truncated at line %d", r->line_no + 1);
    return fail(r, err, "corrupt at line %d (%s)", r->line_no + 1, zerr == Z_ERRNO ? strerror(errno) : why);
}

/* Read the next raw line into r->text (in place when chunk holds it whole). 1: a line; 0: the end; -1: error. */
static int read_raw_line(struct replay_reader *r, struct replay_error *err)
{
    sb_reset(&r->line);
    r->text = "";
    r->text_len = 0;
    for (;;) {
        if (r->pos == r->len) {
            int rc = refill(r, err);
            if (rc < 0)
                return -1;
            if (rc == 0)
                return r->line.len ? fail(r, err, "truncated at line %d", r->line_no + 1) : 0;
        }
        const char *start = r->chunk + r->pos;
        const char *nl = memchr(start, '\n', r->len - r->pos);
        size_t take = nl ? (size_t)(nl - start) : r->len - r->pos;
        if (nl && !r->line.len && take <= REPLAY_MAX_LINE) { /* the whole line is in chunk */
            r->pos += take + 1;
            r->line_no++;
            r->text = start;
            r->text_len = take;
            return 1;
        }
        if (r->line.len + take > REPLAY_MAX_LINE)
            return fail(r, err, "line %d: too long", r->line_no + 1);
        if (sb_append(&r->line, start, take) < 0)
            return fail(r, err, "line %d: out of memory", r->line_no + 1);
        r->pos += take + (nl ? 1 : 0);
        if (nl) {
            r->line_no++;
            r->text = r->line.data;
            r->text_len = r->line.len;
            return 1;
        }
    }
}

/* The line's object, or NULL with the column (from 1, in bytes) where it goes wrong and why. */
static struct json_object *parse_line(struct replay_reader *r, size_t *column, const char **why)
{
    json_tokener_reset(r->tok);
    struct json_object *obj = json_tokener_parse_ex(r->tok, r->text, (int)r->text_len);
    enum json_tokener_error jerr = json_tokener_get_error(r->tok);
    size_t end = json_tokener_get_parse_end(r->tok);
    if (jerr == json_tokener_success && end == r->text_len)
        return obj;
    json_object_put(obj);
    *column = end + 1;
    *why = jerr == json_tokener_continue ? "the line ends inside a value" :
           jerr == json_tokener_success  ? "text after the value" : json_tokener_error_desc(jerr);
    return NULL;
}

void replay_reader_skip_moves(struct replay_reader *r)
{
    r->skip_moves = true;
}

static const char *line_type(struct json_object *obj)
{
    struct json_object *t;
    if (!json_object_is_type(obj, json_type_object) || !json_object_object_get_ex(obj, "type", &t) ||
        !json_object_is_type(t, json_type_string))
        return NULL;
    return json_object_get_string(t);
}

int replay_reader_next(struct replay_reader *r, struct json_object **obj, struct replay_error *err)
{
    *obj = NULL;
    if (r->finished)
        return 0;
    int rc = read_raw_line(r, err);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        if (!r->saw_result)
            return fail(r, err, "%s", r->line_no ? "no result line" : "empty replay");
        r->finished = true;
        return 0;
    }
    if (r->saw_result)
        return fail(r, err, "line %d: a line after the result line", r->line_no);
    if (r->skip_moves && r->line_no > 1 && json_check_move_line(r->text, r->text_len))
        return 1;
    size_t column = 0;
    const char *why = "";
    struct json_object *o = parse_line(r, &column, &why);
    if (!o)
        return fail(r, err, "line %d, column %zu: invalid JSON (%s)", r->line_no, column, why);
    const char *type = line_type(o);
    const char *problem = !type ? "no \"type\"" :
                          r->line_no == 1 && strcmp(type, "header") ? "not a replay header" :
                          r->line_no > 1 && !strcmp(type, "header") ? "a second header" : NULL;
    if (problem) {
        json_object_put(o);
        return fail(r, err, "line %d: %s", r->line_no, problem);
    }
    r->saw_result = !strcmp(type, "result");
    *obj = o;
    return 1;
}

int replay_reader_line_no(const struct replay_reader *r)
{
    return r->line_no;
}

const char *replay_reader_text(const struct replay_reader *r, size_t *len)
{
    *len = r->text_len;
    return r->text ? r->text : "";
}
