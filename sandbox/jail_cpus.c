/*
 * jail_cpus.c - the CPUs a jail's tasks run on. A match keeps its bots on the
 * judge thread's CPU while their replies are cheap (judge/match/match_pin.c):
 * a prompt then wakes its bot on the CPU that wrote it, where waking a sleeping
 * CPU would cost an inter-processor interrupt (tens of microseconds on a VM).
 * And how many CPUs a jail's tasks could use at once, which the CPU limit's
 * sleeps are divided by.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <string.h>

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

/* A bot may widen its affinity (sched_setaffinity is allowed) to every CPU of
 * its cpuset, which the judge's own mask (taskset) may not show: the kernel
 * gives the calling thread the widest mask its cpuset allows, and it is put back. */
long jail_usable_cpus(void)
{
    cpu_set_t own, widest;
    if (sched_getaffinity(0, sizeof own, &own) < 0) return 1;
    long n = CPU_COUNT(&own);
    memset(&widest, 0xff, sizeof widest);
    if (sched_setaffinity(0, sizeof widest, &widest) == 0) {
        if (sched_getaffinity(0, sizeof widest, &widest) == 0 && CPU_COUNT(&widest) > n) n = CPU_COUNT(&widest);
        sched_setaffinity(0, sizeof own, &own);
    }
    return n > 0 ? n : 1;
}
