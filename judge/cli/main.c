/* main.c - bin/judge: one binary, one subcommand per concern. */
#include <stdio.h>
#include <string.h>

#include "judge/cli/commands.h"

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

static void usage(FILE *out)
{
    fprintf(out, "usage: judge COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(out, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n'judge COMMAND --help' describes a command. judge %s\n", JUDGE_VERSION);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("judge %s\n", JUDGE_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (!strcmp(argv[1], subcommands[i].name))
            return subcommands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "judge: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
