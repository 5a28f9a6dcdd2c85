/*
 * cmd_help_man.c - judge(1) in roff, from one source: each command's --help text (captured
 * by running it with stdout on a temporary file) and the command table of main.c. The
 * Makefile writes it to build/judge.1; `make install` installs it.
 */
#include "judge/cli/cmd_help_man.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HELP_MAX (64 * 1024)

/* cmd's --help output, NUL-terminated, in buf; its length or -1. */
static long capture_help(const struct man_command *cmd, char *buf, size_t size)
{
    FILE *tmp = tmpfile();
    int saved = dup(STDOUT_FILENO);
    if (!tmp || saved < 0) {
        if (tmp) fclose(tmp);
        if (saved >= 0) close(saved);
        return -1;
    }
    fflush(stdout);
    long n = -1;
    if (dup2(fileno(tmp), STDOUT_FILENO) >= 0) {
        char name[64], flag[] = "--help";
        snprintf(name, sizeof name, "%s", cmd->name);
        char *argv[] = {name, flag, NULL};
        optind = 0; /* a fresh getopt for each command */
        int rc = cmd->run(2, argv);
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        rewind(tmp);
        n = rc == 0 ? (long)fread(buf, 1, size - 1, tmp) : -1;
    }
    close(saved);
    fclose(tmp);
    if (n >= 0) buf[n] = '\0';
    return n;
}

/* Text as roff: backslashes escaped, a line starting with '.' or '\'' kept literal. */
static void put_roff(FILE *out, const char *text)
{
    bool line_start = true;
    for (const char *c = text; *c; c++) {
        if (line_start && (*c == '.' || *c == '\'')) fputs("\\&", out);
        if (*c == '\\')
            fputs("\\e", out);
        else if (*c == '-')
            fputs("\\-", out);
        else
            fputc(*c, out);
        line_start = *c == '\n';
    }
    if (!line_start) fputc('\n', out);
}

int man_page_write(FILE *out, const struct man_command *cmds, size_t n, const char *version)
{
    char *help = malloc(HELP_MAX);
    if (!help) return -1;
    fprintf(out, ".\\\" judge(1): written by `judge help --man` from the commands' --help texts; do not edit.\n"
                 ".TH JUDGE 1 \"\" \"judge %s\" \"User Commands\"\n"
                 ".SH NAME\njudge \\- run bot-programming contests in a sandbox and grade them\n"
                 ".SH SYNOPSIS\n.B judge\n.I COMMAND\n[\\fIOPTIONS\\fR]\n.br\n.B judge help\n[\\fICOMMAND\\fR]\n"
                 ".SH DESCRIPTION\nA containerised, sandboxed grading pipeline for bot-programming contests. "
                 "Every bot runs in a jail; the judge talks to it one move at a time, records every move "
                 "and every rule violation in a replay, and grades the results.\n.SH COMMANDS\n",
            version);
    for (size_t i = 0; i < n; i++) {
        if (capture_help(&cmds[i], help, HELP_MAX) < 0) {
            free(help);
            return -1;
        }
        fprintf(out, ".SS %s\n", cmds[i].name);
        put_roff(out, cmds[i].summary);
        fputs(".PP\n.nf\n", out);
        put_roff(out, help);
        fputs(".fi\n", out);
    }
    fputs(".SH EXIT STATUS\n0: done (a loss or a violation is a result, not a failure); 1: a result asked to "
          "fail (a submission that did not compile, a grade below \\-\\-fail\\-under); 2: a usage or input "
          "error, named as FILE:LINE:COL where there is a file; 3: an internal error of the judge.\n"
          ".SH FILES\nLanguage profiles: share/judge/containers beside the installed binary, or "
          "$JUDGE_PROFILES. Documentation and examples: share/doc/judge.\n"
          ".SH SEE ALSO\nThe documentation installed in share/doc/judge: README.md, docs/games/ (each game's "
          "protocol), docs/tournaments.md, docs/results.md, docs/class.md.\n",
          out);
    free(help);
    return ferror(out) ? -1 : 0;
}
