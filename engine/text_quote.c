/* text_quote.c - file text made safe for one-line messages (text_quote.h). */
#include "engine/text_quote.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int put_hex(struct strbuf *sb, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char out[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    return sb_append(sb, out, 4);
}

static int put_ascii(struct strbuf *sb, unsigned char c, bool quoted)
{
    switch (c) {
    case '\n': return sb_puts(sb, "\\n");
    case '\t': return sb_puts(sb, "\\t");
    case '\r': return sb_puts(sb, "\\r");
    case '"':
    case '\\': return quoted ? sb_putc(sb, '\\') | sb_putc(sb, (char)c) : sb_putc(sb, (char)c);
    default: return c < 0x20 || c == 0x7f ? put_hex(sb, c) : sb_putc(sb, (char)c);
    }
}

int sb_escape_text(struct strbuf *sb, const char *s, size_t n, int quoted, size_t max)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t limit = quoted && n > max ? max : n;
    int rc = quoted ? sb_putc(sb, '"') : 0;
    size_t i = 0;
    while (rc == 0 && i < limit) {
        size_t len = u[i] < 0x80 ? 1 : utf8_sequence_length(u + i, n - i);
        if (len > 1 && i + len > limit)
            break; /* a sequence is shown whole or not at all */
        if (len == 1 && u[i] < 0x80)
            rc = put_ascii(sb, u[i], quoted);
        else if (len == 0 || utf8_is_c1_control(u + i, len))
            for (size_t k = 0; k < (len ? len : 1) && rc == 0; k++)
                rc = put_hex(sb, u[i + k]);
        else
            rc = sb_append(sb, u + i, len);
        i += len ? len : 1;
    }
    if (rc == 0 && quoted)
        rc = sb_putc(sb, '"') | (i < n ? sb_puts(sb, "...") : 0);
    return rc;
}

const char *text_quote(char *buf, size_t size, const char *s)
{
    struct strbuf sb = STRBUF_INIT;
    if (size == 0)
        return "";
    if (sb_escape_text(&sb, s ? s : "", s ? strlen(s) : 0, 1, TEXT_QUOTE_MAX) < 0)
        snprintf(buf, size, "\"?\"");
    else
        snprintf(buf, size, "%s", sb.data);
    sb_free(&sb);
    return buf;
}

void text_escape_in_place(char *msg, size_t size)
{
    struct strbuf sb = STRBUF_INIT;
    if (size == 0)
        return;
    if (sb_escape_text(&sb, msg, strnlen(msg, size - 1), 0, 0) < 0) {
        msg[strcspn(msg, "\n\r")] = '\0'; /* out of memory: at least one line */
        sb_free(&sb);
        return;
    }
    size_t len = sb.len < size - 1 ? sb.len : size - 1;
    while (len > 0 && len < sb.len && ((unsigned char)sb.data[len] & 0xc0) == 0x80)
        len--; /* never cut a UTF-8 sequence */
    memcpy(msg, sb.data ? sb.data : "", len);
    msg[len] = '\0';
    sb_free(&sb);
}
