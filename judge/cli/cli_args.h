/*
 * cli_args.h - what every subcommand does with its arguments the same way: a
 * usage error ("judge CMD: what is wrong", exit 2) and a plain unsigned number.
 */
#ifndef JUDGE_CLI_ARGS_H
#define JUDGE_CLI_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/* Prints "judge COMMAND: " then the message then hint (may be "") to stderr;
 * returns EXIT_USAGE. */
int cli_usage_error(const char *command, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Decimal digits only (no sign, no space), fitting 64 bits. */
bool cli_parse_u64(const char *text, uint64_t *out);

#endif
