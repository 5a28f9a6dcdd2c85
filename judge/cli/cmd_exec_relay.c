/* cmd_exec_relay.c - the command's output relayed escaped, line by line (cmd_exec_relay.h). */
#include "judge/cli/cmd_exec_relay.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "ci/escape.h"

void exec_relay_init(struct exec_relay *r, FILE *out)
{
    r->out = out;
    r->len = 0;
    r->text = (struct strbuf)STRBUF_INIT;
}

/* Where the first n bytes of s may be cut without splitting a UTF-8 character. */
static size_t whole_characters(const char *s, size_t n)
{
    for (size_t back = 1; back <= 3 && back <= n; back++) {
        unsigned char c = (unsigned char)s[n - back];
        if (c < 0x80) return n;
        if (c >= 0xc0) { /* the lead byte of the last character: is all of it there? */
            size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
            return need > back ? n - back : n;
        }
    }
    return n;
}

/* The first n bytes of the line, escaped into text as a whole line. */
static int take_line(struct exec_relay *r, size_t n)
{
    bool whole = r->line[n - 1] == '\n';
    if (esc_terminal(&r->text, r->line, n) < 0 || (!whole && sb_putc(&r->text, '\n') < 0))
        return (errno = ENOMEM), -1;
    memmove(r->line, r->line + n, r->len - n);
    r->len -= n;
    return 0;
}

static int flush_text(struct exec_relay *r)
{
    bool written = r->text.len == 0 || fwrite(r->text.data, 1, r->text.len, r->out) == r->text.len;
    sb_reset(&r->text);
    return written && fflush(r->out) == 0 ? 0 : -1;
}

int exec_relay_write(void *relay, const char *data, size_t len)
{
    struct exec_relay *r = relay;
    for (;;) {
        size_t room = sizeof r->line - r->len, n = len < room ? len : room;
        const char *newline = memchr(data, '\n', n);
        if (newline) n = (size_t)(newline - data) + 1;
        memcpy(r->line + r->len, data, n);
        r->len += n;
        data += n;
        len -= n;
        int rc = 0;
        if (newline)
            rc = take_line(r, r->len);
        else if (r->len == sizeof r->line)
            rc = take_line(r, whole_characters(r->line, r->len));
        else
            break; /* all taken; the rest of the line comes later */
        if (rc < 0) return -1;
    }
    return flush_text(r);
}

int exec_relay_finish(struct exec_relay *r)
{
    int rc = r->len > 0 ? take_line(r, r->len) : 0;
    if (rc == 0) rc = flush_text(r);
    sb_free(&r->text);
    return rc;
}
