/* commands.h - the subcommands of bin/judge. Each returns the process exit status. */
#ifndef JUDGE_COMMANDS_H
#define JUDGE_COMMANDS_H

/* Exit statuses shared by every subcommand. */
enum { EXIT_OK = 0, EXIT_FAILURE_RESULT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

int cmd_exec(int argc, char **argv);    /* judge/cmd_exec.c */
int cmd_doctor(int argc, char **argv);  /* judge/cmd_doctor.c */
int cmd_run(int argc, char **argv);     /* judge/cmd_run.c */
int cmd_mapgen(int argc, char **argv);  /* judge/cmd_mapgen.c */
int cmd_replay(int argc, char **argv);  /* judge/cmd_replay.c: verify, export, dump */
int cmd_tournament(int argc, char **argv); /* judge/cmd_tournament.c */
int cmd_results(int argc, char **argv);    /* judge/cmd_results.c: the results stage (ci/) */
int cmd_compile(int argc, char **argv);    /* judge/cmd_compile.c */
int cmd_view(int argc, char **argv);       /* judge/cmd_view.c: a replay's HTML page (viewer/) */

#endif
