/*
 * jail_cpus.c - the CPUs a jail's tasks run on. A match keeps its bots on the
 * judge thread's CPU while their replies are cheap (judge/match/match_pin.c):
 * a prompt then wakes its bot on the CPU that wrote it, where waking a sleeping
 * CPU would cost an inter-processor interrupt (tens of microseconds on a VM).
 */
#include "sandbox/jail_internal.h"

#include <errno.h>

struct moving {
    const cpu_set_t *cpus;
    int moved, failed, first_errno;
};

static void move_thread(pid_t tid, void *ctx)
{
    struct moving *m = ctx;
    if (sched_setaffinity(tid, sizeof *m->cpus, m->cpus) == 0) {
        m->moved++;
    } else if (errno != ESRCH) { /* a thread that has just exited is no failure */
        if (m->failed++ == 0) m->first_errno = errno;
    }
}

int jail_set_cpus(struct jail *j, const cpu_set_t *cpus, struct jail_error *err)
{
    if (!j->cg) return jail_fail(err, "CPU placement: the jail has no cgroup to list its threads");
    struct moving m = {cpus, 0, 0, 0};
    if (cgroup_for_each_thread(j->cg, move_thread, &m, err) < 0) return -1;
    if (m.failed && !m.moved) return jail_fail_errno(err, m.first_errno, "sched_setaffinity");
    return 0;
}
