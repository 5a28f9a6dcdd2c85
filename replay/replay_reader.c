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

#include "replay/replay.h"

struct replay_reader {
    char *path;
    gzFile gz;          /* the file, or: */
    z_stream zs;        /* its bytes in memory (replay_reader_open_bytes) */
    bool in_memory, memory_ended;
    size_t pos, len;
    struct strbuf line; /* a line that spans two reads of buf */
    const char *text;   /* the last line: in buf, or line.data */
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
    r->pos = 0;
    r->len = sizeof r->buf - zs->avail_out;
    return r->len > 0;
}

/* 1: more bytes in buf; 0: clean end of the gzip stream; -1: error (reported). */
static int refill(struct replay_reader *r, struct replay_error *err)
{
    if (r->in_memory)
        return refill_from_memory(r, err);
    int n = gzread(r->gz, r->buf, sizeof r->buf);
    if (n > 0) {
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

/* Read the next raw line into r->text (in place when buf holds it whole). 1: a line; 0: the end; -1: error. */
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
        const char *start = r->buf + r->pos;
        const char *nl = memchr(start, '\n', r->len - r->pos);
        size_t take = nl ? (size_t)(nl - start) : r->len - r->pos;
        if (nl && !r->line.len && take <= REPLAY_MAX_LINE) { /* the whole line is in buf */
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

static struct json_object *parse_line(struct replay_reader *r)
{
    json_tokener_reset(r->tok);
    struct json_object *obj = json_tokener_parse_ex(r->tok, r->text, (int)r->text_len);
    if (json_tokener_get_error(r->tok) != json_tokener_success || json_tokener_get_parse_end(r->tok) != r->text_len) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

/*
 * A strict, non-allocating check of a JSON text, used to pass over the lines a
 * caller does not need without building them. It accepts only what json-c's
 * tokener (default flags) also accepts and sees alike: anything unusual (a
 * number that is not a short integer, a \u escape of a surrogate, a control
 * byte, deep nesting, a second "type" member) is "unsure", and the line is
 * then parsed by json-c as before, so a line is judged exactly as json-c
 * judges it.
 */
#define CHECK_MAX_DEPTH 16 /* json-c's own limit is 32 */

struct check {
    const unsigned char *p, *end;
};

/* The bytes that end a run of plain string bytes: '"', '\\' and the control bytes. */
static const bool string_stop[256] = {[0 ... 0x1f] = true, ['"'] = true, ['\\'] = true};
static const bool digit[256] = {['0' ... '9'] = true};

static bool check_value(struct check *c, int depth);

static void skip_ws(struct check *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

static bool is_hex(unsigned char ch)
{
    return digit[ch] || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f');
}

/* After a backslash at p: the escape, and where it ends (NULL: not one taken here). */
static const unsigned char *check_escape(const unsigned char *p, const unsigned char *end)
{
    if (++p == end)
        return NULL;
    if (*p != 'u')
        return *p && strchr("\"\\/bfnrt", *p) ? p + 1 : NULL;
    if (end - p < 5 || !is_hex(p[1]) || !is_hex(p[2]) || !is_hex(p[3]) || !is_hex(p[4]))
        return NULL;
    if ((p[1] | 0x20) == 'd' && p[2] >= '8') /* a surrogate: json-c's pairing rules decide */
        return NULL;
    return p + 5;
}

/* A string at c->p ('"'); *escaped tells whether it held a backslash. */
static bool check_string(struct check *c, bool *escaped)
{
    const unsigned char *p = c->p + 1, *end = c->end;
    *escaped = false;
    for (;;) {
        while (end - p >= 4 && !(string_stop[p[0]] | string_stop[p[1]] | string_stop[p[2]] | string_stop[p[3]]))
            p += 4;
        while (p < end && !string_stop[*p])
            p++;
        if (p == end || *p < 0x20)
            return false;
        if (*p == '"') {
            c->p = p + 1;
            return true;
        }
        *escaped = true;
        if (!(p = check_escape(p, end)))
            return false;
    }
}

/* An integer of at most 18 digits, the only numbers taken here. */
static bool check_number(struct check *c)
{
    const unsigned char *p = c->p, *end = c->end;
    if (*p == '-')
        p++;
    const unsigned char *digits = p;
    while (p < end && digit[*p])
        p++;
    size_t n = (size_t)(p - digits);
    c->p = p;
    if (n == 0 || n > 18 || (n > 1 && *digits == '0'))
        return false;
    return p == end || (*p != '.' && *p != 'e' && *p != 'E');
}

static bool check_word(struct check *c, const char *word, size_t len)
{
    if ((size_t)(c->end - c->p) < len || memcmp(c->p, word, len))
        return false;
    c->p += len;
    return true;
}

/* The members of an object after its '{' (and, at the top, after the "type" member). */
static bool check_members(struct check *c, int depth, bool first, bool top)
{
    skip_ws(c);
    if (first && c->p < c->end && *c->p == '}') {
        c->p++;
        return true;
    }
    for (;;) {
        if (!first) {
            if (c->p == c->end || *c->p != ',')
                return false;
            c->p++;
            skip_ws(c);
        }
        first = false;
        const unsigned char *key = c->p;
        bool escaped;
        if (c->p == c->end || *c->p != '"' || !check_string(c, &escaped))
            return false;
        if (top && (escaped || (c->p - key == 6 && !memcmp(key, "\"type\"", 6))))
            return false;
        skip_ws(c);
        if (c->p == c->end || *c->p != ':')
            return false;
        c->p++;
        if (!check_value(c, depth))
            return false;
        skip_ws(c);
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            return true;
        }
    }
}

static bool check_elements(struct check *c, int depth)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        return true;
    }
    for (;;) {
        if (!check_value(c, depth))
            return false;
        skip_ws(c);
        if (c->p == c->end)
            return false;
        if (*c->p++ == ']')
            return true;
        if (c->p[-1] != ',')
            return false;
    }
}

static bool check_value(struct check *c, int depth)
{
    skip_ws(c);
    if (c->p == c->end)
        return false;
    bool escaped;
    switch (*c->p) {
    case '{':
        c->p++;
        return depth < CHECK_MAX_DEPTH && check_members(c, depth + 1, true, false);
    case '[':
        c->p++;
        return depth < CHECK_MAX_DEPTH && check_elements(c, depth + 1);
    case '"':
        return check_string(c, &escaped);
    case 't':
        return check_word(c, "true", 4);
    case 'f':
        return check_word(c, "false", 5);
    case 'n':
        return check_word(c, "null", 4);
    default:
        return (*c->p == '-' || (*c->p >= '0' && *c->p <= '9')) && check_number(c);
    }
}

/* A reply or event line that json-c would take, seen without building it. */
static bool plain_move_line(const char *text, size_t len)
{
    static const char reply[] = "{\"type\":\"reply\",", event[] = "{\"type\":\"event\",";
    size_t prefix = sizeof reply - 1;
    if (len <= prefix || (memcmp(text, reply, prefix) && memcmp(text, event, prefix)))
        return false;
    struct check c = {(const unsigned char *)text + prefix - 1, (const unsigned char *)text + len};
    return check_members(&c, 1, false, true) && c.p == c.end;
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
    if (r->skip_moves && r->line_no > 1 && plain_move_line(r->text, r->text_len))
        return 1;
    struct json_object *o = parse_line(r);
    if (!o)
        return fail(r, err, "line %d: invalid JSON", r->line_no);
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
