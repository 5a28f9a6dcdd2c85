/* cli_interrupt.c - one line on SIGINT, SIGTERM or SIGHUP, then the default action (cli_interrupt.h). */
#include "judge/cli/cli_interrupt.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LINE_BYTES 8192

static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
static const char *const names[] = {"SIGINT", "SIGTERM", "SIGHUP"};
#define N_SIGNALS (sizeof signals / sizeof signals[0])

static char lines[N_SIGNALS][LINE_BYTES];
static size_t lens[N_SIGNALS];
static pid_t owner;

/* Async-signal-safe: signal, sigprocmask, raise, _exit. The signal raised again, unblocked, ends
 * the process as it would have; but a namespace's init (the judge as a container's PID 1: `docker
 * run`, a pod) never gets a signal its default action would take, so it exits. */
void cli_die_of_signal(int sig)
{
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* Async-signal-safe: getpid and write, then cli_die_of_signal. */
static void on_signal(int sig)
{
    for (size_t i = 0; i < N_SIGNALS && getpid() == owner; i++)
        if (signals[i] == sig) {
            ssize_t ignored = write(STDERR_FILENO, lines[i], lens[i]);
            (void)ignored;
        }
    cli_die_of_signal(sig);
}

void cli_interrupt_say(const char *command, const char *text)
{
    /* On a terminal the progress bar holds the line: the note starts a new one. */
    const char *lead = isatty(STDERR_FILENO) ? "\n" : "";
    for (size_t i = 0; i < N_SIGNALS; i++) {
        int n = snprintf(lines[i], LINE_BYTES, "%sjudge %s: interrupted by %s: %s\n", lead, command, names[i],
                         text);
        lens[i] = n < 0 ? 0 : (size_t)n < LINE_BYTES ? (size_t)n : LINE_BYTES - 1;
    }
    owner = getpid();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_SIGNALS; i++)
        sigaction(signals[i], &sa, NULL);
}
