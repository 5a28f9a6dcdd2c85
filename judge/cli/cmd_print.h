/*
 * cmd_print.h - how the command line prints text that a bot, a compiler run on a
 * submission or a player name controls: through ci/escape.h's esc_terminal, so no
 * control sequence reaches a terminal and no line is a CI runner's command.
 */
#ifndef JUDGE_CMD_PRINT_H
#define JUDGE_CMD_PRINT_H

#include <stddef.h>
#include <stdio.h>

/* Writes n bytes of untrusted text to f, escaped. */
void print_untrusted(FILE *f, const char *s, size_t n);
/* printf to f, the whole formatted text escaped (the judge's own words are unchanged by it). */
void print_escaped(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
