/* yaml_reader.c - typed access to a one-document YAML file, errors at libyaml marks. */
#include "common/yaml_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct yr_mark mark_of(yaml_mark_t m)
{
    struct yr_mark out = {(int)m.line + 1, (int)m.column + 1};
    return out;
}

static int fail_plain(struct yr_error *err, const char *path, const char *what)
{
    snprintf(err->msg, sizeof err->msg, "%s: %s", path, what);
    return -1;
}

int yr_fail(const struct yr_file *f, struct yr_mark at, struct yr_error *err, const char *fmt, ...)
{
    int n = snprintf(err->msg, sizeof err->msg, "%s:%d:%d: ", f->path, at.line, at.col);
    if (n < 0 || (size_t)n >= sizeof err->msg)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- reading the file ------------------------------------------------- */

static int read_whole_file(const char *path, char **out, size_t *len, struct yr_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail_plain(err, path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail_plain(err, path, "not a regular file");
    }
    if (st.st_size > (off_t)YR_MAX_FILE_BYTES) {
        close(fd);
        return fail_plain(err, path, "file too large (over 1 MiB)");
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    ssize_t r = 0;
    while (buf && got <= (size_t)st.st_size &&
           (r = read(fd, buf + got, (size_t)st.st_size + 1 - got)) > 0)
        got += (size_t)r;
    int saved = errno;
    close(fd);
    if (!buf)
        return fail_plain(err, path, "out of memory");
    if (r < 0 || got > (size_t)st.st_size) {
        free(buf);
        return fail_plain(err, path, r < 0 ? strerror(saved) : "file changed while being read");
    }
    *out = buf;
    *len = got;
    return 0;
}

/* Reader errors (bad encoding, control bytes) carry a byte offset, not a mark. */
static struct yr_mark mark_at_offset(const char *text, size_t len, size_t offset)
{
    struct yr_mark m = {1, 1};
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n') {
            m.line++;
            m.col = 1;
        } else {
            m.col++;
        }
    }
    return m;
}

static int fail_parser(const struct yr_file *f, const yaml_parser_t *p, const char *text, size_t len,
                       struct yr_error *err)
{
    if (p->error == YAML_MEMORY_ERROR)
        return fail_plain(err, f->path, "out of memory");
    const char *problem = p->problem ? p->problem : "invalid YAML";
    if (p->error == YAML_READER_ERROR) {
        struct yr_mark at = mark_at_offset(text, len, p->problem_offset);
        if (p->problem_value != -1)
            return yr_fail(f, at, err, "%s (byte 0x%X)", problem, (unsigned)p->problem_value);
        return yr_fail(f, at, err, "%s", problem);
    }
    struct yr_mark at = mark_of(p->problem_mark);
    if (p->problem_mark.index < len && text[p->problem_mark.index] == '\t')
        return yr_fail(f, at, err, "a tab character: YAML indents with spaces only, never tabs; replace it "
                                   "with spaces");
    if (p->context)
        return yr_fail(f, at, err, "%s (%s at line %d)", problem, p->context,
                       mark_of(p->context_mark).line);
    return yr_fail(f, at, err, "%s", problem);
}

/* A file holds one document: a second one is an error, as is a syntax error in it. */
static int expect_no_second_document(struct yr_file *f, yaml_parser_t *p, const char *text, size_t len,
                                     struct yr_error *err)
{
    yaml_document_t next;
    if (!yaml_parser_load(p, &next))
        return fail_parser(f, p, text, len, err);
    bool more = yaml_document_get_root_node(&next) != NULL;
    struct yr_mark at = mark_of(next.start_mark);
    yaml_document_delete(&next);
    if (more)
        return yr_fail(f, at, err, "only one YAML document is allowed");
    return 0;
}

/* libyaml's scanner slows down quadratically with flow nesting depth, so the
 * events are walked first and the file is refused past YR_MAX_DEPTH levels. */
static int check_depth(struct yr_file *f, const char *text, size_t len, struct yr_error *err)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return fail_plain(err, f->path, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int depth = 0, rc = 0;
    for (bool done = false; !done && rc == 0;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            rc = fail_parser(f, &parser, text, len, err);
            break;
        }
        if (event.type == YAML_SEQUENCE_START_EVENT || event.type == YAML_MAPPING_START_EVENT)
            depth++;
        else if (event.type == YAML_SEQUENCE_END_EVENT || event.type == YAML_MAPPING_END_EVENT)
            depth--;
        if (depth > YR_MAX_DEPTH)
            rc = yr_fail(f, mark_of(event.start_mark), err, "nesting deeper than %d levels", YR_MAX_DEPTH);
        done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    return rc;
}

static int parse_text(struct yr_file *f, const char *text, size_t len, struct yr_error *err)
{
    if (check_depth(f, text, len, err) < 0)
        return -1;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return fail_plain(err, f->path, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int rc = 0;
    if (!yaml_parser_load(&parser, &f->doc)) {
        rc = fail_parser(f, &parser, text, len, err);
    } else {
        f->loaded = true;
        if (yaml_document_get_root_node(&f->doc))
            rc = expect_no_second_document(f, &parser, text, len, err);
    }
    yaml_parser_delete(&parser);
    return rc;
}

int yr_load(const char *path, struct yr_file *out, struct yr_error *err)
{
    memset(out, 0, sizeof *out);
    out->path = strdup(path);
    if (!out->path)
        return fail_plain(err, path, "out of memory");
    char *text = NULL;
    size_t len = 0;
    int rc = read_whole_file(path, &text, &len, err);
    if (rc == 0)
        rc = parse_text(out, text, len, err);
    free(text);
    if (rc < 0)
        yr_free(out);
    return rc;
}

void yr_free(struct yr_file *f)
{
    if (f->loaded)
        yaml_document_delete(&f->doc);
    f->loaded = false;
    free(f->path);
    f->path = NULL;
}

/* ---- nodes ------------------------------------------------------------ */

static const yaml_node_t *node_at(const struct yr_file *f, int index)
{
    if (index < 1 || index > f->doc.nodes.top - f->doc.nodes.start)
        return NULL;
    return f->doc.nodes.start + index - 1;
}

const yaml_node_t *yr_root(const struct yr_file *f)
{
    return f->loaded ? node_at(f, 1) : NULL;
}

struct yr_mark yr_document_mark(const struct yr_file *f)
{
    return mark_of(f->doc.start_mark);
}

struct yr_mark yr_node_mark(const yaml_node_t *node)
{
    return mark_of(node->start_mark);
}

bool yr_is_scalar(const yaml_node_t *node)
{
    return node->type == YAML_SCALAR_NODE;
}

static const char *scalar_text(const yaml_node_t *node)
{
    return (const char *)node->data.scalar.value;
}

static bool scalar_is_plain(const yaml_node_t *node)
{
    return node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static bool scalar_is_null(const yaml_node_t *node)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    if (!scalar_is_plain(node))
        return false;
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        if (!strcmp(scalar_text(node), nulls[i]))
            return true;
    return false;
}

void yr_quote(const char *s, size_t len, char *out, size_t cap)
{
    if (cap < 5) {
        if (cap)
            out[0] = '\0';
        return;
    }
    size_t keep = len < cap ? len : cap - 4;
    for (size_t i = 0; i < keep; i++)
        out[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (keep < len)
        memcpy(out + keep, "...", 4);
    else
        out[keep] = '\0';
}

/* What a node is, for "expected X, got Y" messages. */
static void describe(const yaml_node_t *node, char *out, size_t cap)
{
    if (node->type == YAML_MAPPING_NODE) {
        snprintf(out, cap, "a mapping");
    } else if (node->type == YAML_SEQUENCE_NODE) {
        snprintf(out, cap, "a sequence");
    } else if (scalar_is_null(node)) {
        snprintf(out, cap, "nothing");
    } else {
        char text[YR_QUOTE_SIZE];
        yr_quote(scalar_text(node), node->data.scalar.length, text, sizeof text);
        snprintf(out, cap, "%s\"%s\"", scalar_is_plain(node) ? "" : "a quoted string ", text);
    }
}

static int fail_expected(const struct yr_file *f, const yaml_node_t *node, const char *expected,
                         struct yr_error *err)
{
    char got[96];
    describe(node, got, sizeof got);
    return yr_fail(f, yr_node_mark(node), err, "expected %s, got %s", expected, got);
}

int yr_string(const struct yr_file *f, const yaml_node_t *node, const char **out, struct yr_error *err)
{
    if (node->type != YAML_SCALAR_NODE || scalar_is_null(node))
        return fail_expected(f, node, "a string", err);
    if (strlen(scalar_text(node)) != node->data.scalar.length)
        return yr_fail(f, yr_node_mark(node), err, "a string must not contain a NUL byte");
    *out = scalar_text(node);
    return 0;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Decimal digits into a value no larger than max; false on overflow. */
static bool digits_to_u64(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    for (; *s; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

int yr_uint64(const struct yr_file *f, const yaml_node_t *node, uint64_t *out, struct yr_error *err)
{
    static const char expected[] = "an unsigned 64-bit integer";
    if (node->type != YAML_SCALAR_NODE || !scalar_is_plain(node) || !all_digits(scalar_text(node)))
        return fail_expected(f, node, expected, err);
    if (!digits_to_u64(scalar_text(node), UINT64_MAX, out))
        return fail_expected(f, node, expected, err);
    return 0;
}

int yr_int64(const struct yr_file *f, const yaml_node_t *node, int64_t *out, struct yr_error *err)
{
    if (node->type != YAML_SCALAR_NODE || !scalar_is_plain(node))
        return fail_expected(f, node, "an integer", err);
    const char *s = scalar_text(node);
    bool negative = *s == '-';
    if (!all_digits(s + negative))
        return fail_expected(f, node, "an integer", err);
    uint64_t magnitude;
    uint64_t max = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (!digits_to_u64(s + negative, max, &magnitude))
        return yr_fail(f, yr_node_mark(node), err, "integer out of range: %.40s", s);
    *out = negative ? (int64_t)(0 - magnitude) : (int64_t)magnitude;
    return 0;
}

int yr_bool(const struct yr_file *f, const yaml_node_t *node, bool *out, struct yr_error *err)
{
    static const char *const truths[] = {"true", "True", "TRUE", "1"};
    static const char *const falsehoods[] = {"false", "False", "FALSE", "0"};
    if (node->type == YAML_SCALAR_NODE && scalar_is_plain(node)) {
        for (size_t i = 0; i < sizeof truths / sizeof truths[0]; i++) {
            if (!strcmp(scalar_text(node), truths[i]) || !strcmp(scalar_text(node), falsehoods[i])) {
                *out = !strcmp(scalar_text(node), truths[i]);
                return 0;
            }
        }
    }
    return fail_expected(f, node, "true or false", err);
}

/* ---- collections ------------------------------------------------------ */

int yr_expect_mapping(const struct yr_file *f, const yaml_node_t *node, const char *what,
                      struct yr_error *err)
{
    if (node->type == YAML_MAPPING_NODE)
        return 0;
    char expected[96];
    snprintf(expected, sizeof expected, "a mapping for %s", what);
    return fail_expected(f, node, expected, err);
}

int yr_expect_sequence(const struct yr_file *f, const yaml_node_t *node, const char *what,
                       struct yr_error *err)
{
    if (node->type == YAML_SEQUENCE_NODE)
        return 0;
    char expected[96];
    snprintf(expected, sizeof expected, "a sequence for %s", what);
    return fail_expected(f, node, expected, err);
}

size_t yr_mapping_size(const yaml_node_t *map)
{
    return (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

size_t yr_sequence_size(const yaml_node_t *seq)
{
    return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

const yaml_node_t *yr_sequence_item(const struct yr_file *f, const yaml_node_t *seq, size_t i)
{
    return node_at(f, seq->data.sequence.items.start[i]);
}

static bool same_scalar(const yaml_node_t *a, const yaml_node_t *b)
{
    return a && b && a->type == YAML_SCALAR_NODE && b->type == YAML_SCALAR_NODE &&
           a->data.scalar.length == b->data.scalar.length &&
           !memcmp(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length);
}

int yr_mapping_entry(const struct yr_file *f, const yaml_node_t *map, size_t i, struct yr_entry *out,
                     struct yr_error *err)
{
    const yaml_node_pair_t *pairs = map->data.mapping.pairs.start;
    const yaml_node_t *key = node_at(f, pairs[i].key);
    out->value = node_at(f, pairs[i].value);
    if (!key || !out->value)
        return yr_fail(f, yr_node_mark(map), err, "malformed mapping");
    out->key_mark = yr_node_mark(key);
    if (key->type != YAML_SCALAR_NODE || scalar_is_null(key))
        return fail_expected(f, key, "a string key", err);
    if (yr_string(f, key, &out->key, err) < 0)
        return -1;
    for (size_t j = 0; j < i; j++) {
        if (same_scalar(node_at(f, pairs[j].key), key)) {
            char text[YR_QUOTE_SIZE];
            yr_quote(out->key, key->data.scalar.length, text, sizeof text);
            return yr_fail(f, out->key_mark, err, "duplicate key '%s'", text);
        }
    }
    return 0;
}
