/* main.c - bin/judge: one binary, one subcommand per concern. */
#include <stdio.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/cli/cmd_help_man.h"
#include "common/suggest.h"

struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct subcommand subcommands[] = {
    {"run", cmd_run, "play one match from a match file, write its replay"},
    {"exec", cmd_exec, "run one command in the jail and report on it (like isolate --run)"},
    {"doctor", cmd_doctor, "check every isolation layer on this machine"},
    {"mapgen", cmd_mapgen, "generate a map for a game"},
    {"replay", cmd_replay, "verify a replay, or export it to a game's original log format"},
    {"tournament", cmd_tournament, "play many matches in parallel, resumable and shardable"},
    {"results", cmd_results, "read replays, write standings, JUnit, summary, audit and grades"},
    {"compile", cmd_compile, "compile a submission in the jail from a language profile"},
    {"serve", cmd_serve, "serve sea battle over the network (WAMP) and the human page"},
    {"view", cmd_view, "write a self-contained HTML page that shows a replay in the browser"},
};

#define N_SUBCOMMANDS (sizeof subcommands / sizeof subcommands[0])

static const struct subcommand *find(const char *name)
{
    for (size_t i = 0; i < N_SUBCOMMANDS; i++)
        if (!strcmp(name, subcommands[i].name))
            return &subcommands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    const char *names[N_SUBCOMMANDS + 1];
    for (size_t i = 0; i < N_SUBCOMMANDS; i++)
        names[i] = subcommands[i].name;
    names[N_SUBCOMMANDS] = "help";
    const char *near = suggest_nearest(name, names, N_SUBCOMMANDS + 1);
    fprintf(stderr, "judge: unknown command '%s'%s%s%s (see judge help)\n", name, near ? "; did you mean '" : "",
            near ? near : "", near ? "'?" : "");
    return EXIT_USAGE;
}

static void usage(FILE *out);

/* `judge help [COMMAND]`, and `judge help --man`: the manual page, from the same help texts. */
static int help(int argc, char **argv)
{
    if (argc < 3)
        return usage(stdout), EXIT_OK;
    if (!strcmp(argv[2], "--man")) {
        struct man_command cmds[N_SUBCOMMANDS];
        for (size_t i = 0; i < N_SUBCOMMANDS; i++)
            cmds[i] = (struct man_command){subcommands[i].name, subcommands[i].summary, subcommands[i].run};
        return man_page_write(stdout, cmds, N_SUBCOMMANDS, JUDGE_VERSION) < 0 ? EXIT_INTERNAL : EXIT_OK;
    }
    const struct subcommand *c = find(argv[2]);
    if (!c)
        return unknown_command(argv[2]);
    char *args[] = {argv[2], "--help", NULL};
    return c->run(2, args);
}

static void usage(FILE *out)
{
    fprintf(out, "usage: judge COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < N_SUBCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n'judge help COMMAND' (or 'judge COMMAND --help') describes a command; 'man judge' all of them.\n"
                 "judge %s\n", JUDGE_VERSION);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "help"))
        return help(argc, argv);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("judge %s\n", JUDGE_VERSION);
        return EXIT_OK;
    }
    const struct subcommand *c = find(argv[1]);
    return c ? c->run(argc - 1, argv + 1) : unknown_command(argv[1]);
}
