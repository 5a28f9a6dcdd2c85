/* cmd_print.c - untrusted text printed escaped (judge/cli/cmd_print.h). */
#include "judge/cli/cmd_print.h"

#include <stdarg.h>

#include "ci/escape.h"
#include "engine/strbuf.h"

void print_untrusted(FILE *f, const char *s, size_t n)
{
    struct strbuf sb = STRBUF_INIT;
    if (esc_terminal(&sb, s, n) == 0 && sb.data)
        fwrite(sb.data, 1, sb.len, f);
    else if (n)
        fputs("(text not shown: out of memory)\n", f);
    sb_free(&sb);
}

void print_escaped(FILE *f, const char *fmt, ...)
{
    struct strbuf text = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    int rc = sb_vprintf(&text, fmt, ap);
    va_end(ap);
    if (rc == 0 && text.data)
        print_untrusted(f, text.data, text.len);
    else
        fputs("(text not shown: out of memory)\n", f);
    sb_free(&text);
}
