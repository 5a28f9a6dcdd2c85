/* strbuf.h - a growable byte buffer, the one string builder every layer uses. */
#ifndef ENGINE_STRBUF_H
#define ENGINE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf { char *data; size_t len, cap; };  /* data is always NUL-terminated when non-NULL */
#define STRBUF_INIT {NULL, 0, 0}

int sb_reserve(struct strbuf *sb, size_t extra);      /* 0, or -1 when out of memory */
int sb_append(struct strbuf *sb, const void *p, size_t n);
int sb_puts(struct strbuf *sb, const char *s);
int sb_putc(struct strbuf *sb, char c);
int sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
int sb_put_i64(struct strbuf *sb, long long v);      /* fast decimal, README C2 */
int sb_json_string(struct strbuf *sb, const char *s, size_t n); /* quoted, escaped JSON string */
/* A JSON text that parsed (json-c takes raw control bytes in strings) as strict JSON with no
 * control character raw: every control byte and C1 control (U+0080..U+009F) inside its strings
 * as a \u escape, the same value. */
int sb_json_text_strict(struct strbuf *sb, const char *json, size_t n);
/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0 if it is not one
 * (overlong forms, surrogates and code points above U+10FFFF are not). */
size_t utf8_sequence_length(const unsigned char *s, size_t n);
/* Whether the sequence of len bytes at s is a C1 control (U+0080..U+009F, C2 80..C2 9F): valid
 * UTF-8, but a terminal obeys it (U+009B as CSI, U+009D as OSC, U+0085 as a new line). */
bool utf8_is_c1_control(const unsigned char *s, size_t len);
void sb_reset(struct strbuf *sb);                     /* len = 0, keeps memory */
void sb_free(struct strbuf *sb);
char *sb_steal(struct strbuf *sb);                    /* caller frees; sb becomes empty */

#endif
