/*
 * cgroup.c - the backend-neutral face of struct cgroup: meters and actions
 * dispatched through the ops table, counters made relative to acquire time.
 * Creation, reuse and removal live in cgroup_pool.c.
 */
#include "sandbox/cgroup_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const cgroup_v1_ctrl_names[CG_V1_COUNT] = { "memory", "cpuacct", "pids", "freezer" };

int cgroup_fail(struct jail_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void cgroup_text(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

int cgroup_fail_errno(struct jail_error *err, int errnum, const char *what, const char *dir,
                      const char *name)
{
    cgroup_fail(err, "%s %s/%s: %s", what, dir, name, strerror(errnum));
    errno = errnum; /* callers may still branch on it (EBUSY, ENOENT) */
    return -1;
}

uint64_t cgroup_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int cgroup_attach(struct cgroup *cg, pid_t pid, struct jail_error *err)
{
    return cg->ops->attach(cg, pid, err);
}

int cgroup_attach_rest(struct cgroup *cg, pid_t pid, bool cloned_into, struct jail_error *err)
{
    return cloned_into ? 0 : cg->ops->attach_rest(cg, pid, err);
}

/* No allocation, no error text: it runs in a child between clone and exec. */
int cgroup_enter_self(const struct cgroup *cg)
{
    for (int i = 0; i < CG_V1_COUNT; i++)
        if (cg->tasks_fd[i] >= 0 && pwrite(cg->tasks_fd[i], "0", 1, 0) != 1)
            return -errno;
    return 0;
}

/* Newer kernels (seen on 6.18, not on 6.1) SIGKILL a child cloned with
 * CLONE_INTO_CGROUP into a cgroup that ever went through cgroup.kill, long
 * after the kill: such a cgroup gets its members by attach, never by clone3.
 * The hybrid backend's twin is a cgroup2 directory like any other. */
int cgroup_dir_fd(const struct cgroup *cg)
{
    if (cg->killed) return -1;
    return cg->caps.version == CGROUP_V2 ? cg->dirs[0].fd : cg->twin.fd;
}

const char *cgroup_path(const struct cgroup *cg)
{
    return cg->dirs[0].path;
}

uint64_t cgroup_cpu_ns(struct cgroup *cg)
{
    uint64_t raw = cg->ops->cpu_ns_raw(cg);
    return raw > cg->cpu_base_ns ? raw - cg->cpu_base_ns : 0;
}

/* A reused cgroup's residue (cgroup_internal.h) is not the bot's. A mark
 * that never rose above it (the counter moves in per-CPU batches, and the
 * dead's pages may still be leaving) means the bot fitted in it: the mark
 * itself bounds its use. Never 0 for a known peak, which would read as
 * "unknown". */
uint64_t cgroup_memory_peak(struct cgroup *cg)
{
    uint64_t peak = cg->ops->memory_peak(cg);
    return peak > cg->residue ? peak - cg->residue : peak;
}

bool cgroup_oom_killed(struct cgroup *cg)
{
    struct cgroup_counters now;
    return cg->ops->counters(cg, &now, NULL) == 0 && now.oom_kills > cg->base.oom_kills;
}

bool cgroup_pids_limit_hit(struct cgroup *cg)
{
    struct cgroup_counters now;
    return cg->ops->counters(cg, &now, NULL) == 0 && now.pids_max_hits > cg->base.pids_max_hits;
}

int cgroup_freeze(struct cgroup *cg, bool frozen, struct jail_error *err)
{
    if (cg->ops->freeze(cg, frozen, err) < 0)
        return -1;
    cg->frozen = frozen;
    return 0;
}

int cgroup_kill_all(struct cgroup *cg, struct jail_error *err)
{
    return cg->ops->kill_all(cg, err);
}

int cgroup_count_procs(struct cgroup *cg)
{
    return cgroup_file_count_lines(cg->ops->procs_dir(cg), "cgroup.procs", NULL);
}
