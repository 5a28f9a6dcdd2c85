/*
 * json_check.h - a strict, non-allocating check of a reply or event line, used to
 * pass over the lines a reader does not need without building them. It accepts only
 * what json-c's tokener (default flags) also accepts and sees alike: anything unusual
 * (a number that is not a short integer, a \u escape of a surrogate, a control byte,
 * deep nesting, a second "type" member, whitespace after the last brace) is "unsure",
 * and the caller then parses the line with json-c, so a line is judged exactly as
 * json-c judges it.
 */
#ifndef REPLAY_JSON_CHECK_H
#define REPLAY_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* true: the line is a reply or event object json-c takes; false: unsure. */
bool json_check_move_line(const char *text, size_t len);

#endif
