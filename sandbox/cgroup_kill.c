/*
 * cgroup_kill.c - empty a cgroup without cgroup.kill: freeze it (so nothing
 * forks between reading the member list and signalling), SIGKILL every
 * member, thaw (frozen tasks do not die), wait, and repeat until a frozen
 * read finds nobody. Bounded: a cgroup that never empties is an error.
 */
#include "sandbox/cgroup_internal.h"

#include <signal.h>
#include <time.h>

#define EMPTY_POLL_FIRST_NS 50000u
#define EMPTY_POLL_MAX_NS 5000000u

static void sigkill_member(pid_t pid, void *ctx)
{
    kill(pid, SIGKILL);
    (*(int *)ctx)++;
}

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
    nanosleep(&ts, NULL);
}

static int wait_empty_until(struct cgroup *cg, uint64_t deadline, struct jail_error *err)
{
    const struct cgroup_dir *procs = cg->ops->procs_dir(cg);
    uint64_t pause = EMPTY_POLL_FIRST_NS;
    for (;;) {
        int left = cgroup_file_count_lines(procs, "cgroup.procs", err);
        if (left <= 0)
            return left;
        if (cgroup_now_ns() >= deadline)
            return cgroup_fail(err, "cgroup %s: %d process(es) still in it after %llu ms",
                               procs->path, left, CGROUP_WAIT_NS / 1000000ull);
        sleep_ns(pause);
        if (pause < EMPTY_POLL_MAX_NS)
            pause *= 2;
    }
}

/* One round: returns how many members were signalled, or -1. *proven is set
 * when the list was read while frozen, so an empty list means empty for good. */
static int signal_round(struct cgroup *cg, cgroup_freeze_fn *freeze, bool *proven,
                        struct jail_error *freeze_err, struct jail_error *err)
{
    *proven = freeze(cg, true, freeze_err) == 0;
    int signalled = 0;
    int listed = cgroup_file_for_each_pid(cg->ops->procs_dir(cg), "cgroup.procs", sigkill_member,
                                          &signalled, err);
    /* Thaw even when freezing timed out: a half-frozen cgroup must not stay so. */
    int thawed = freeze(cg, false, err);
    return listed < 0 || thawed < 0 ? -1 : signalled;
}

int cgroup_kill_by_signal(struct cgroup *cg, struct jail_error *err)
{
    return cgroup_kill_by_signal_with(cg, cg->ops->freeze, err);
}

int cgroup_kill_by_signal_with(struct cgroup *cg, cgroup_freeze_fn *freeze, struct jail_error *err)
{
    /* Nobody inside means nobody can fork inside: no freeze needed (the
     * common case at release, and a freeze/thaw costs milliseconds on v1). */
    int members = cgroup_file_count_lines(cg->ops->procs_dir(cg), "cgroup.procs", err);
    if (members <= 0)
        return members;
    uint64_t deadline = cgroup_now_ns() + CGROUP_WAIT_NS;
    for (;;) {
        bool proven;
        struct jail_error freeze_err;
        int signalled = signal_round(cg, freeze, &proven, &freeze_err, err);
        if (signalled < 0)
            return -1;
        if (signalled == 0 && proven)
            return 0;
        if (cgroup_now_ns() >= deadline)
            return cgroup_fail(err, "cannot empty cgroup %s: %s", cgroup_path(cg),
                               proven ? "members keep appearing" : freeze_err.msg);
        if (!proven)
            sleep_ns(EMPTY_POLL_MAX_NS);
        if (wait_empty_until(cg, deadline, err) < 0)
            return -1;
    }
}
