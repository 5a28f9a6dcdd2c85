/*
 * judge/cli/ - the command line: main.c's table of subcommands and one
 * cmd_NAME.c per subcommand. It sits on every other layer (ci/ included) and
 * is the only code in the project that prints or exits.
 *
 * commands.h - the subcommands of bin/judge. Each returns the process exit status.
 */
#ifndef JUDGE_CLI_COMMANDS_H
#define JUDGE_CLI_COMMANDS_H

/* Exit statuses shared by every subcommand. */
enum { EXIT_OK = 0, EXIT_FAILURE_RESULT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3,
       EXIT_IO = 4 /* an output could not be written: disk full, read-only, no permission */ };

int cmd_exec(int argc, char **argv);    /* judge/cli/cmd_exec.c */
int cmd_doctor(int argc, char **argv);  /* judge/cli/cmd_doctor.c */
int cmd_run(int argc, char **argv);     /* judge/cli/cmd_run.c */
int cmd_mapgen(int argc, char **argv);  /* judge/cli/cmd_mapgen.c */
int cmd_replay(int argc, char **argv);  /* judge/cli/cmd_replay.c: verify, export, dump */
int cmd_tournament(int argc, char **argv); /* judge/cli/cmd_tournament.c */
int cmd_results(int argc, char **argv);    /* judge/cli/cmd_results.c: the results stage (ci/) */
int cmd_compile(int argc, char **argv);    /* judge/cli/cmd_compile.c */
int cmd_serve(int argc, char **argv);      /* judge/cli/cmd_serve.c: sea battle over WAMP */
int cmd_view(int argc, char **argv);       /* judge/cli/cmd_view.c: a replay's HTML page (viewer/) */

#endif
