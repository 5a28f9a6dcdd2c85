/*
 * text_quote.h - text that came from a file (a replay's "type", a game name,
 * a parameter name, a bot's reply) made safe for a one-line error message: no
 * control byte, no byte that is not UTF-8, no C1 control reaches a terminal or
 * a CI log raw. Control bytes become \n, \t, \r or \xHH, every other unsafe
 * byte \xHH. A low layer (beside strbuf) so every layer's messages can use it;
 * ci/escape.c does the same for its output formats.
 */
#ifndef ENGINE_TEXT_QUOTE_H
#define ENGINE_TEXT_QUOTE_H

#include <stddef.h>

#include "engine/strbuf.h"

#define TEXT_QUOTE_MAX 64 /* bytes of input a quote shows before "..." */

/* Appends s escaped; with quoted, between double quotes (" and \ escaped too)
 * and shortened to its first max bytes (a UTF-8 sequence is never cut), then "...". */
int sb_escape_text(struct strbuf *sb, const char *s, size_t n, int quoted, size_t max);
/* "s", escaped and shortened to TEXT_QUOTE_MAX, in buf (always terminated): for printf's %s. */
const char *text_quote(char *buf, size_t size, const char *s);
/* Escapes msg in place (as much as fits in size): a whole message made one safe line. */
void text_escape_in_place(char *msg, size_t size);

#endif
