/*
 * escape.h - user text (player names, bot output, stderr, compiler messages)
 * made safe for each output format. Every escaper takes bytes that may be
 * anything (invalid UTF-8, NULs, ANSI escapes) and appends valid UTF-8:
 * an invalid byte becomes U+FFFD, a control byte a visible "\xHH" where the
 * format cannot hold it, and a C1 control (U+0080..U+009F, which a terminal
 * obeys as it does ESC sequences: U+009B is CSI) its two bytes "\xc2\xHH" in
 * every format (YAML: its own escape "\xHH"). Each returns 0, or -1 when out of memory.
 */
#ifndef CI_ESCAPE_H
#define CI_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/strbuf.h"

/* One-line printable text: every control byte (newlines too) as \xHH. */
int esc_visible(struct strbuf *sb, const char *s, size_t n);
/* XML 1.0 text or attribute value (both quotes escaped; \t \n \r as character references). */
int esc_xml(struct strbuf *sb, const char *s, size_t n);
/* Markdown inline text, safe inside a table cell: no HTML, no emphasis, no pipes, one line. */
int esc_md_inline(struct strbuf *sb, const char *s, size_t n);
/* A fenced Markdown code block holding s (lines kept), fence longer than any backtick run in s. */
int esc_md_block(struct strbuf *sb, const char *s, size_t n);
/* Inline code: `s`, one line, backticks in s made harmless. */
int esc_md_code(struct strbuf *sb, const char *s, size_t n);
/* A GitHub Actions workflow command's message (property = false) or property value. */
int esc_annotation(struct strbuf *sb, const char *s, size_t n, bool property);
/* Lines for a terminal or a CI log (newlines and tabs kept): every other control
 * byte as \xHH (no ANSI sequence), and nothing a CI runner takes for a command:
 * the first ':' of a line that starts, after blanks (Unicode ones included), with
 * "::" (GitHub Actions) and the '[' of "##[" / "##vso[" anywhere as \xHH. */
int esc_terminal(struct strbuf *sb, const char *s, size_t n);
/* A POSIX shell word: as is when made only of safe characters, else single-quoted. */
int esc_shell(struct strbuf *sb, const char *s, size_t n);
/* A YAML double-quoted scalar, quotes included. */
int esc_yaml(struct strbuf *sb, const char *s, size_t n);

/* The length of the valid UTF-8 sequence at s (1 for ASCII), or 0 when s[0] starts none. */
size_t esc_utf8_len(const unsigned char *s, size_t n);

#endif
