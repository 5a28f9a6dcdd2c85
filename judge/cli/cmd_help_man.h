/* cmd_help_man.h - `judge help --man`: the manual page, made from the commands' own --help texts. */
#ifndef JUDGE_CMD_HELP_MAN_H
#define JUDGE_CMD_HELP_MAN_H

#include <stddef.h>
#include <stdio.h>

struct man_command {
    const char *name, *summary;
    int (*run)(int argc, char **argv); /* run(2, {name, "--help"}) prints its help on stdout */
};

/* Writes judge(1) in roff to out; -1 when a command's help could not be captured. */
int man_page_write(FILE *out, const struct man_command *cmds, size_t n, const char *version);

#endif
