/*
 * jail_freeze.c - stop and resume every process of a jail: the cgroup
 * freezer when there is one; otherwise SIGSTOP/SIGCONT to the command
 * (pid 2) and the init (pid 1), which reaches those two only (the command's
 * children keep running: the isolation report says the freezer is degraded).
 */
#include "sandbox/jail_internal.h"
#include "sandbox/proc_stat.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/pidfd.h>
#include <time.h>
#include <unistd.h>

#define STOP_WAIT_NS 100000000u
#define STOP_POLL_NS 20000u

/* The state letter of /proc/PID/stat ("T" when stopped), or 0. */
static char process_state(pid_t pid)
{
    char buf[512];
    const char *fields = proc_stat_fields(pid, buf, sizeof buf);
    return fields ? fields[0] : 0;
}

static bool stopped_or_gone(pid_t pid)
{
    char state = process_state(pid);
    return state == 'T' || state == 't' || state == 'Z' || state == 'X' || state == 0;
}

/* A process that has already exited (ESRCH) needs no stopping. */
static int send_stop(int pidfd, pid_t pid, int sig, struct jail_error *err)
{
    if (pidfd_send_signal(pidfd, sig, NULL, 0) < 0 && errno != ESRCH)
        return jail_fail_errno(err, errno, "%s pid %d", sig == SIGSTOP ? "SIGSTOP" : "SIGCONT", (int)pid);
    return 0;
}

/* The command first: it is what runs bot code. */
static int stop_processes(struct jail *j, struct jail_error *err)
{
    if (send_stop(j->cmd_pidfd, j->cmd_pid, SIGSTOP, err) < 0 ||
        send_stop(j->pidfd, j->pid, SIGSTOP, err) < 0)
        return -1;
    uint64_t deadline = monotonic_ns() + STOP_WAIT_NS;
    struct timespec pause = ns_to_timespec(STOP_POLL_NS);
    for (;;) {
        if (stopped_or_gone(j->cmd_pid) && stopped_or_gone(j->pid)) return 0;
        if (monotonic_ns() >= deadline)
            return jail_fail(err, "pids %d and %d did not stop within %u ms", (int)j->cmd_pid, (int)j->pid,
                             STOP_WAIT_NS / 1000000u);
        nanosleep(&pause, NULL);
    }
}

static int continue_processes(struct jail *j, struct jail_error *err)
{
    if (send_stop(j->pidfd, j->pid, SIGCONT, err) < 0) return -1;
    return send_stop(j->cmd_pidfd, j->cmd_pid, SIGCONT, err);
}

/* A held jail: the freeze asked again (a no-op for the kernel), waiting this time. */
static int settle(struct jail *j, struct jail_error *err)
{
    if (!j->hold_unsettled || j->reaped) return 0;
    if (cgroup_freeze(j->cg, true, err) < 0) return -1;
    j->hold_unsettled = false;
    return 0;
}

int jail_freeze(struct jail *j, struct jail_error *err)
{
    if (j->frozen) return settle(j, err);
    if (j->reaped) return jail_fail(err, "freeze: the jail has ended");
    int rc = j->cgroup_freezer ? cgroup_freeze(j->cg, true, err) : stop_processes(j, err);
    if (rc == 0) j->frozen = true;
    return rc;
}

int jail_hold(struct jail *j, struct jail_error *err)
{
    if (j->frozen || !j->cgroup_freezer) return jail_freeze(j, err);
    if (j->reaped) return jail_fail(err, "freeze: the jail has ended");
    if (cgroup_freeze_request(j->cg, err) < 0) return -1;
    j->frozen = j->hold_unsettled = true;
    return 0;
}

int jail_thaw(struct jail *j, struct jail_error *err)
{
    if (!j->frozen) return 0;
    int rc = 0;
    if (j->cgroup_freezer)
        rc = cgroup_freeze(j->cg, false, err);
    else if (!j->reaped)
        rc = continue_processes(j, err);
    if (rc == 0) j->frozen = j->hold_unsettled = false;
    return rc;
}

bool jail_is_frozen(const struct jail *j)
{
    return j->frozen;
}
