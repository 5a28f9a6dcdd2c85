/* violation_text.c - a violation in words (violation_text.h). */
#include "ci/violation_text.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <string.h>

#include "ci/json_fields.h"

int vt_sent(struct strbuf *sb, const struct mr_violation *v)
{
    size_t len;
    const char *line = jf_string(v->evidence, "line", &len);
    if (line)
        return sb_append(sb, line, len < VT_TEXT_MAX ? len : VT_TEXT_MAX) < 0 ||
                       (len > VT_TEXT_MAX && sb_puts(sb, "...") < 0)
                   ? -1
                   : 1;
    struct json_object *call = jf_member(v->evidence, "syscall");
    const char *name = jf_string(call, "name", NULL), *arch = jf_string(call, "arch", NULL);
    if (!name)
        return 0;
    size_t n_args = 0;
    struct json_object *args = jf_array(call, "args", &n_args);
    if (sb_printf(sb, "%s(", name) < 0)
        return -1;
    for (size_t i = 0; i < n_args; i++) {
        struct json_object *a = json_object_array_get_idx(args, i);
        if (sb_printf(sb, "%s%s", i ? ", " : "", json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN)) <
            0)
            return -1;
    }
    int64_t nr;
    if (sb_putc(sb, ')') < 0 || (arch && sb_printf(sb, " %s", arch) < 0) ||
        (jf_int(call, "nr", &nr) && sb_printf(sb, " #%" PRId64, nr) < 0))
        return -1;
    return 1;
}

static int put_ns(struct strbuf *sb, const char *what, uint64_t ns)
{
    if (ns % 1000000 == 0)
        return sb_printf(sb, "%s %" PRIu64 " ms", what, ns / 1000000);
    return sb_printf(sb, "%s %.3f ms", what, (double)ns / 1e6);
}

static int put_bytes(struct strbuf *sb, const char *what, uint64_t bytes)
{
    return sb_printf(sb, "%s %.1f MiB (%" PRIu64 " bytes)", what, (double)bytes / (1 << 20), bytes);
}

static bool is_wall(const struct mr_violation *v)
{
    return !strcmp(v->verdict, "WALL_LIMIT");
}

static int measure(struct strbuf *sb, const struct mr_violation *v, bool limit)
{
    uint64_t x;
    if (jf_uint(v->evidence, limit ? "limit_ns" : "figure_ns", &x)) {
        const char *what = is_wall(v) ? (limit ? "wall limit" : "waited") : (limit ? "CPU budget" : "CPU");
        return put_ns(sb, what, x) < 0 ? -1 : 1;
    }
    if (jf_uint(v->evidence, limit ? "limit_bytes" : "figure_bytes", &x))
        return put_bytes(sb, limit ? "memory limit" : "peak", x) < 0 ? -1 : 1;
    return 0;
}

int vt_limit(struct strbuf *sb, const struct mr_violation *v)
{
    return measure(sb, v, true);
}

int vt_figure(struct strbuf *sb, const struct mr_violation *v)
{
    return measure(sb, v, false);
}

const char *vt_reason(const struct mr_violation *v, size_t *len)
{
    const char *reason = jf_string(v->evidence, "reason", len);
    if (reason && *len > VT_TEXT_MAX)
        *len = VT_TEXT_MAX;
    return reason;
}

const char *vt_stderr_tail(const struct mr_violation *v, size_t *len)
{
    if (!v->stderr_tail) {
        *len = 0;
        return "";
    }
    *len = v->stderr_len < VT_STDERR_MAX ? v->stderr_len : VT_STDERR_MAX;
    return v->stderr_tail + (v->stderr_len - *len);
}

/* Appends prefix and what fn writes; takes the prefix back when fn writes nothing. 1, 0 or -1. */
static int optional_part(struct strbuf *sb, const char *prefix,
                         int (*fn)(struct strbuf *, const struct mr_violation *),
                         const struct mr_violation *v)
{
    size_t mark = sb->len;
    int rc = sb_puts(sb, prefix) < 0 ? -1 : fn(sb, v);
    if (rc == 0) {
        sb->len = mark;
        sb->data[mark] = '\0';
    }
    return rc;
}

int vt_one_line(struct strbuf *sb, const struct mr_violation *v)
{
    if (sb_printf(sb, "%s (%s) in round %" PRId64 ", reply %" PRId64, v->kind, v->verdict, v->round,
                  v->reply) < 0)
        return -1;
    size_t len;
    const char *reason = vt_reason(v, &len);
    if (reason && (sb_puts(sb, ": ") < 0 || sb_append(sb, reason, len) < 0))
        return -1;
    int rc = optional_part(sb, "; ", vt_limit, v);
    if (rc == 1)
        rc = optional_part(sb, ", ", vt_figure, v);
    if (rc < 0)
        return -1;
    const char *verb = jf_member(v->evidence, "line") ? "; sent \"" : "; called \"";
    rc = optional_part(sb, verb, vt_sent, v);
    return rc < 0 || (rc == 1 && sb_putc(sb, '"') < 0) ? -1 : 0;
}
