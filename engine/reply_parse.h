/*
 * reply_parse.h - reading one line of bot output or of a map file (games/README.md C3, C4).
 *
 * A line is given without its '\n'. One '\r' at its end is removed; any other control
 * byte (0x00-0x1F, 0x7F) or non-ASCII byte (0x80 and above) rejects the line. Runs of
 * spaces separate tokens; leading and trailing spaces are ignored. A number is
 * -?[0-9]{1,18}, leading zeros accepted. Columns are 1-based byte positions in the line.
 */
#ifndef ENGINE_REPLY_PARSE_H
#define ENGINE_REPLY_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

#define REPLY_NUMBER_MAX_DIGITS 18

struct reply_token { const char *text; size_t len; int col; };

/* Checks the bytes and splits the line. Stores at most max tokens; *count is the number of
 * tokens in the line, even beyond max. On a bad byte: -1, err->msg and err->col set. */
int reply_tokens(const char *line, size_t len, struct reply_token *tokens, int max, int *count,
                 struct game_error *err);

/* README C4: true, with *value set, when the token is a number. */
bool reply_number(const struct reply_token *t, int64_t *value);

/* reply_tokens, then every token read as a number; stores at most max values, *count is the
 * number of tokens. A token that is not a number is an error at its column. */
int reply_numbers(const char *line, size_t len, int64_t *values, int max, int *count,
                  struct game_error *err);

#endif
