/* strbuf.c - the growable byte buffer of strbuf.h. */
#include "engine/strbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_reserve(struct strbuf *sb, size_t extra)
{
    if (extra > SIZE_MAX - sb->len - 1)
        return -1;
    size_t need = sb->len + extra + 1;
    if (sb->data && need <= sb->cap)
        return 0;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *data = realloc(sb->data, cap);
    if (!data)
        return -1;
    if (!sb->data)
        data[0] = '\0';
    sb->data = data;
    sb->cap = cap;
    return 0;
}

int sb_append(struct strbuf *sb, const void *p, size_t n)
{
    if (sb_reserve(sb, n) < 0)
        return -1;
    if (n)
        memcpy(sb->data + sb->len, p, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
    return 0;
}

int sb_puts(struct strbuf *sb, const char *s)
{
    return sb_append(sb, s, strlen(s));
}

int sb_putc(struct strbuf *sb, char c)
{
    return sb_append(sb, &c, 1);
}

int sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0 || sb_reserve(sb, (size_t)n) < 0) {
        va_end(again);
        return -1;
    }
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, again);
    va_end(again);
    sb->len += (size_t)n;
    return 0;
}

int sb_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sb_vprintf(sb, fmt, ap);
    va_end(ap);
    return rc;
}

int sb_put_i64(struct strbuf *sb, long long v)
{
    char buf[24];
    char *end = buf + sizeof buf, *p = end;
    /* Work on the magnitude as unsigned so LLONG_MIN needs no special case. */
    unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        *--p = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag);
    if (v < 0)
        *--p = '-';
    return sb_append(sb, p, (size_t)(end - p));
}

size_t utf8_sequence_length(const unsigned char *s, size_t n)
{
    size_t len;
    uint32_t cp;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        len = 2;
        cp = s[0] & 0x1fu;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        cp = s[0] & 0x0fu;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    bool surrogate = cp >= 0xd800 && cp <= 0xdfff;
    if (overlong || surrogate || cp > 0x10ffff)
        return 0;
    return len;
}

static int sb_json_escape_byte(struct strbuf *sb, unsigned char c)
{
    switch (c) {
    case '"': return sb_append(sb, "\\\"", 2);
    case '\\': return sb_append(sb, "\\\\", 2);
    case '\n': return sb_append(sb, "\\n", 2);
    case '\r': return sb_append(sb, "\\r", 2);
    case '\t': return sb_append(sb, "\\t", 2);
    default: return sb_printf(sb, "\\u%04x", c);
    }
}

bool utf8_is_c1_control(const unsigned char *u, size_t len)
{
    return len == 2 && u[0] == 0xc2 && u[1] < 0xa0;
}

/* Bytes that are not valid UTF-8 become U+FFFD, so the output is always valid JSON; control
 * characters, C1 ones too, are \u escapes, so the JSON shown on a terminal holds none raw. */
int sb_json_string(struct strbuf *sb, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (sb_putc(sb, '"') < 0)
        return -1;
    size_t i = 0;
    while (i < n) {
        unsigned char c = u[i];
        int rc;
        size_t step = 1;
        if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) {
            rc = sb_json_escape_byte(sb, c);
        } else if (c < 0x80) {
            rc = sb_putc(sb, (char)c);
        } else if ((step = utf8_sequence_length(u + i, n - i)) > 0) {
            rc = utf8_is_c1_control(u + i, step) ? sb_printf(sb, "\\u%04x", u[i + 1])
                                                 : sb_append(sb, u + i, step);
        } else {
            step = 1;
            rc = sb_append(sb, "\\ufffd", 6);
        }
        if (rc < 0)
            return -1;
        i += step;
    }
    return sb_putc(sb, '"');
}

/* A byte of a JSON string's text, after its opening quote: 1 when it was the closing one. */
static int strict_string_byte(struct strbuf *sb, const unsigned char *u, size_t n, size_t *i)
{
    unsigned char c = u[*i];
    if (c == '\\' && *i + 1 < n) { /* an escape, kept whole: its second byte is no quote */
        *i += 1;
        return sb_putc(sb, '\\') < 0 || sb_putc(sb, (char)u[*i]) < 0 ? -1 : 0;
    }
    if (c < 0x20 || c == 0x7f)
        return sb_printf(sb, "\\u%04x", c) < 0 ? -1 : 0;
    if (*i + 1 < n && utf8_is_c1_control(u + *i, 2)) {
        *i += 1;
        return sb_printf(sb, "\\u%04x", u[*i]) < 0 ? -1 : 0;
    }
    return sb_putc(sb, (char)c) < 0 ? -1 : c == '"';
}

int sb_json_text_strict(struct strbuf *sb, const char *json, size_t n)
{
    const unsigned char *u = (const unsigned char *)json;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        int rc = in_string ? strict_string_byte(sb, u, n, &i) : sb_putc(sb, json[i]);
        if (rc < 0)
            return -1;
        in_string = in_string ? rc == 0 : json[i] == '"';
    }
    return 0;
}

void sb_reset(struct strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

void sb_free(struct strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

char *sb_steal(struct strbuf *sb)
{
    char *s = sb->data ? sb->data : calloc(1, 1);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return s;
}
