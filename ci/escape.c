/* escape.c - user text made safe for XML, Markdown, JSON-adjacent text, shells and annotations. */
#include "ci/escape.h"

#include <stdint.h>
#include <string.h>

#include "engine/strbuf.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

size_t esc_utf8_len(const unsigned char *s, size_t n)
{
    size_t len = utf8_sequence_length(s, n);
    /* U+FFFE and U+FFFF (EF BF BE, EF BF BF) are valid UTF-8 but not allowed in XML. */
    if (len == 3 && s[0] == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf)) return 0;
    return len;
}

/* The units of a string: one ASCII byte, one valid multi-byte sequence, a C1 control, or one
 * invalid byte. */
enum unit { U_ASCII, U_CONTROL, U_MULTI, U_C1, U_INVALID };

static enum unit next_unit(const unsigned char *s, size_t n, size_t *len)
{
    if (s[0] < 0x20 || s[0] == 0x7f) {
        *len = 1;
        return U_CONTROL;
    }
    if (s[0] < 0x80) {
        *len = 1;
        return U_ASCII;
    }
    *len = esc_utf8_len(s, n);
    if (utf8_is_c1_control(s, *len))
        return U_C1;
    if (*len)
        return U_MULTI;
    *len = 1;
    return U_INVALID;
}

static int put_hex(struct strbuf *sb, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char out[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    return sb_append(sb, out, 4);
}

/* A C1 control (C2 xx) as its two bytes, \xc2\xHH, as a C0 control is one \xHH. */
static int put_c1(struct strbuf *sb, const unsigned char *u)
{
    return put_hex(sb, u[0]) < 0 ? -1 : put_hex(sb, u[1]);
}

/* The common loop: ascii() handles printable ASCII and control bytes, c1() a C1 control; the rest
 * is kept or replaced. */
typedef int (*ascii_fn)(struct strbuf *sb, unsigned char c);
typedef int (*c1_fn)(struct strbuf *sb, const unsigned char *u);

static int escape_c1_with(struct strbuf *sb, const char *s, size_t n, ascii_fn ascii, c1_fn c1)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len;
        enum unit kind = next_unit(u + i, n - i, &len);
        int rc = kind == U_MULTI     ? sb_append(sb, u + i, len)
                 : kind == U_C1      ? c1(sb, u + i)
                 : kind == U_INVALID ? sb_puts(sb, REPLACEMENT)
                                     : ascii(sb, u[i]);
        if (rc < 0)
            return -1;
        i += len;
    }
    return 0;
}

static int escape_with(struct strbuf *sb, const char *s, size_t n, ascii_fn ascii)
{
    return escape_c1_with(sb, s, n, ascii, put_c1);
}

static int ascii_visible(struct strbuf *sb, unsigned char c)
{
    return c < 0x20 || c == 0x7f ? put_hex(sb, c) : sb_putc(sb, (char)c);
}

int esc_visible(struct strbuf *sb, const char *s, size_t n)
{
    return escape_with(sb, s, n, ascii_visible);
}

static int ascii_xml(struct strbuf *sb, unsigned char c)
{
    switch (c) {
    case '&':
        return sb_puts(sb, "&amp;");
    case '<':
        return sb_puts(sb, "&lt;");
    case '>':
        return sb_puts(sb, "&gt;");
    case '"':
        return sb_puts(sb, "&quot;");
    case '\'':
        return sb_puts(sb, "&apos;");
    case '\t':
        return sb_puts(sb, "&#9;");
    case '\n':
        return sb_puts(sb, "&#10;");
    case '\r':
        return sb_puts(sb, "&#13;");
    default:
        return ascii_visible(sb, c);
    }
}

int esc_xml(struct strbuf *sb, const char *s, size_t n)
{
    return escape_with(sb, s, n, ascii_xml);
}

static int ascii_md(struct strbuf *sb, unsigned char c)
{
    switch (c) {
    case '&':
        return sb_puts(sb, "&amp;");
    case '<':
        return sb_puts(sb, "&lt;");
    case '>':
        return sb_puts(sb, "&gt;");
    case '|':
        return sb_puts(sb, "&#124;");
    default:
        if (strchr("\\`*_[]~$!@", c) && c)
            return sb_putc(sb, '\\') < 0 ? -1 : sb_putc(sb, (char)c);
        return ascii_visible(sb, c);
    }
}

int esc_md_inline(struct strbuf *sb, const char *s, size_t n)
{
    return escape_with(sb, s, n, ascii_md);
}

static int ascii_block(struct strbuf *sb, unsigned char c)
{
    return c == '\n' || c == '\t' ? sb_putc(sb, (char)c) : ascii_visible(sb, c);
}

static size_t longest_backtick_run(const char *s, size_t n)
{
    size_t best = 0, run = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

static int put_fence(struct strbuf *sb, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (sb_putc(sb, '`') < 0)
            return -1;
    return sb_putc(sb, '\n');
}

int esc_md_block(struct strbuf *sb, const char *s, size_t n)
{
    size_t fence = longest_backtick_run(s, n) + 1;
    if (fence < 3)
        fence = 3;
    if (put_fence(sb, fence) < 0 || escape_with(sb, s, n, ascii_block) < 0)
        return -1;
    if ((n == 0 || s[n - 1] != '\n') && sb_putc(sb, '\n') < 0)
        return -1;
    return put_fence(sb, fence);
}

static int ascii_code(struct strbuf *sb, unsigned char c)
{
    return c == '`' ? sb_putc(sb, '\'') : ascii_visible(sb, c);
}

int esc_md_code(struct strbuf *sb, const char *s, size_t n)
{
    if (sb_putc(sb, '`') < 0 || escape_with(sb, s, n, ascii_code) < 0)
        return -1;
    return sb_putc(sb, '`');
}

static int ascii_annotation_message(struct strbuf *sb, unsigned char c)
{
    switch (c) {
    case '%':
        return sb_puts(sb, "%25");
    case '\r':
        return sb_puts(sb, "%0D");
    case '\n':
        return sb_puts(sb, "%0A");
    default:
        return ascii_visible(sb, c);
    }
}

static int ascii_annotation_property(struct strbuf *sb, unsigned char c)
{
    switch (c) {
    case ':':
        return sb_puts(sb, "%3A");
    case ',':
        return sb_puts(sb, "%2C");
    default:
        return ascii_annotation_message(sb, c);
    }
}

int esc_annotation(struct strbuf *sb, const char *s, size_t n, bool property)
{
    return escape_with(sb, s, n, property ? ascii_annotation_property : ascii_annotation_message);
}

/* Unicode white space other than ASCII's, which .NET's TrimStart (the Actions runner) also trims
 * (U+0085 too, a C1 control: shown as \xc2\x85). */
static bool unicode_blank(const unsigned char *u, size_t len)
{
    static const char *const blanks[] = {"\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\xa8",
                                         "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80"};
    if (len == 3 && u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x80 && u[2] <= 0x8a) return true; /* U+2000..200A */
    for (size_t i = 0; i < sizeof blanks / sizeof *blanks; i++)
        if (strlen(blanks[i]) == len && !memcmp(blanks[i], u, len)) return true;
    return false;
}

static bool starts_with(const unsigned char *u, size_t n, const char *word)
{
    size_t len = strlen(word);
    return n >= len && !memcmp(u, word, len);
}

int esc_terminal(struct strbuf *sb, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    bool line_start = true; /* only blanks so far on this line */
    for (size_t i = 0; i < n;) {
        size_t len;
        enum unit kind = next_unit(u + i, n - i, &len);
        int rc;
        if (kind == U_MULTI) {
            rc = sb_append(sb, u + i, len);
            line_start &= unicode_blank(u + i, len);
        } else if (kind == U_C1) {
            rc = put_c1(sb, u + i);
            line_start = false;
        } else if (kind == U_INVALID) {
            rc = sb_puts(sb, REPLACEMENT);
            line_start = false;
        } else if (u[i] == '\n' || u[i] == '\t' || u[i] == ' ') {
            rc = sb_putc(sb, (char)u[i]);
            line_start |= u[i] == '\n';
        } else if ((line_start && starts_with(u + i, n - i, "::")) ||
                   (u[i] == '[' && i >= 2 && u[i - 1] == '#' && u[i - 2] == '#') ||
                   (u[i] == '[' && i >= 5 && !memcmp(u + i - 5, "##vso", 5))) {
            rc = put_hex(sb, u[i]);
            line_start = false;
        } else {
            rc = ascii_visible(sb, u[i]);
            line_start = false;
        }
        if (rc < 0)
            return -1;
        i += len;
    }
    return 0;
}

static bool shell_safe(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:+,@%", s[i]) ||
            !s[i])
            return false;
    return true;
}

int esc_shell(struct strbuf *sb, const char *s, size_t n)
{
    if (shell_safe(s, n))
        return sb_append(sb, s, n);
    if (sb_putc(sb, '\'') < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int rc = s[i] == '\'' ? sb_puts(sb, "'\\''") : sb_putc(sb, s[i]);
        if (rc < 0)
            return -1;
    }
    return sb_putc(sb, '\'');
}

static int ascii_yaml(struct strbuf *sb, unsigned char c)
{
    if (c == '"' || c == '\\')
        return sb_putc(sb, '\\') < 0 ? -1 : sb_putc(sb, (char)c);
    return ascii_visible(sb, c); /* \xHH is also YAML's own escape */
}

/* YAML allows no C1 control raw (NEL aside): its escape \xHH is the code point, the same text. */
static int c1_yaml(struct strbuf *sb, const unsigned char *u)
{
    return put_hex(sb, u[1]);
}

int esc_yaml(struct strbuf *sb, const char *s, size_t n)
{
    if (sb_putc(sb, '"') < 0 || escape_c1_with(sb, s, n, ascii_yaml, c1_yaml) < 0)
        return -1;
    return sb_putc(sb, '"');
}
