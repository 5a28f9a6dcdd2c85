/*
 * cmd_exec_relay.h - what `judge exec`'s command writes, on its way to the judge's own
 * stdout or stderr: escaped as every untrusted text is (cmd_print.h), and only as whole
 * lines, each ending in a newline, so that nothing the command writes to one stream can
 * complete a line begun on the other where a terminal or a CI log merges them. A line
 * longer than EXEC_RELAY_LINE_MAX bytes is cut there (between UTF-8 characters) and goes
 * on on the next line; the last line gets a newline if it has none.
 */
#ifndef JUDGE_CMD_EXEC_RELAY_H
#define JUDGE_CMD_EXEC_RELAY_H

#include <stddef.h>
#include <stdio.h>

#include "engine/strbuf.h"

#define EXEC_RELAY_LINE_MAX 4096

struct exec_relay {
    FILE *out;
    size_t len; /* bytes of a line not yet whole */
    char line[EXEC_RELAY_LINE_MAX];
    struct strbuf text; /* the escaped lines of one write */
};

void exec_relay_init(struct exec_relay *r, FILE *out);
/* A jail_writer's write (sandbox/jail.h): relay takes the exec_relay. 0, or -1 with errno set. */
int exec_relay_write(void *relay, const char *data, size_t len);
/* The last line, if the command left it without a newline; frees r. 0, or -1 with errno set. */
int exec_relay_finish(struct exec_relay *r);

#endif
