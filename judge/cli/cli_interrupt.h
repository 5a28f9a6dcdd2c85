/*
 * cli_interrupt.h - what a long command tells the user when SIGINT (Ctrl-C),
 * SIGTERM (a cancelled CI job, an evicted pod) or SIGHUP ends it: one line on stderr
 * saying what was kept and how to go on, then the signal's own default
 * action, so the exit status stays the shell's 130 or 143.
 */
#ifndef JUDGE_CLI_INTERRUPT_H
#define JUDGE_CLI_INTERRUPT_H

/* From now on, SIGINT, SIGTERM or SIGHUP to this process (not to the children it forks, which
 * inherit the handler) prints "judge COMMAND: interrupted by SIG: TEXT" and ends it. */
void cli_interrupt_say(const char *command, const char *text);

/* From a signal handler: end this process as SIG's default action would, a container's PID 1 too
 * (exit status 128 + SIG). */
void cli_die_of_signal(int sig);

#endif
