/*
 * cgroup_v2.c - the unified-hierarchy backend: one directory per jail under
 * caps.root. Meters: cpu.stat usage_usec (present even without the cpu
 * controller), memory.peak, memory.events oom_kill, pids.events max.
 * Freezing and emptying wait on cgroup.events with poll(POLLPRI).
 */
#include "sandbox/cgroup_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static int v2_destroy(struct cgroup *cg, struct jail_error *err)
{
    close_fd(&cg->cpu_fd);
    close_fd(&cg->peak_fd);
    close_fd(&cg->events_fd);
    close_fd(&cg->freeze_fd);
    cgroup_dir_close(&cg->dirs[0]);
    struct cgroup_dir root;
    if (cgroup_dir_open_path(&root, cg->caps.root, err) < 0)
        return -1;
    int rc = unlinkat(root.fd, cg->name, AT_REMOVEDIR);
    if (rc < 0)
        cgroup_fail_errno(err, errno, "rmdir", root.path, cg->name);
    cgroup_dir_close(&root);
    return rc;
}

int cgroup_v2_open_freezer(const struct cgroup_dir *d, int *freeze_fd, int *events_fd,
                           struct jail_error *err)
{
    *events_fd = -1;
    if ((*freeze_fd = cgroup_file_open(d, "cgroup.freeze", O_WRONLY, err)) < 0)
        return -1;
    *events_fd = cgroup_file_open(d, "cgroup.events", O_RDONLY, err);
    return *events_fd < 0 ? -1 : 0;
}

static int open_kept_files(struct cgroup *cg, struct jail_error *err)
{
    const struct cgroup_dir *d = &cg->dirs[0];
    if ((cg->cpu_fd = cgroup_file_open(d, "cpu.stat", O_RDONLY, err)) < 0
        || cgroup_v2_open_freezer(d, &cg->freeze_fd, &cg->events_fd, err) < 0)
        return -1;
    /* memory.peak appeared in 5.19 (without it the peak is unknown: 0), and
     * became writable in 6.12 (before, caps.reusable is false: never pooled). */
    if (!cg->caps.memory || !cgroup_file_exists(d, "memory.peak"))
        return 0;
    cg->peak_fd = cgroup_file_open(d, "memory.peak", O_RDWR, err);
    if (cg->peak_fd < 0)
        cg->peak_fd = cgroup_file_open(d, "memory.peak", O_RDONLY, err);
    return cg->peak_fd < 0 ? -1 : 0;
}

static int v2_create(struct cgroup *cg, const char *name, struct jail_error *err)
{
    struct cgroup_dir root;
    if (cgroup_dir_open_path(&root, cg->caps.root, err) < 0)
        return -1;
    if (mkdirat(root.fd, name, 0755) < 0 && !(cg->adopted && errno == EEXIST)) {
        cgroup_fail_errno(err, errno, "mkdir", root.path, name);
        cgroup_dir_close(&root);
        return -1;
    }
    cg->ndirs = 1;
    int rc = cgroup_dir_open(&cg->dirs[0], root.fd, root.path, name, err);
    cgroup_dir_close(&root);
    if (rc == 0)
        rc = open_kept_files(cg, err);
    if (rc < 0)
        v2_destroy(cg, NULL);
    return rc;
}

static int write_limit(const struct cgroup_dir *d, const char *name, uint64_t value,
                       struct jail_error *err)
{
    return value ? cgroup_file_write_u64(d, name, value, err) : cgroup_file_write(d, name, "max", err);
}

static int v2_set_limits(struct cgroup *cg, const struct cgroup_limits *lim, struct jail_error *err)
{
    const struct cgroup_dir *d = &cg->dirs[0];
    if (cg->caps.memory && write_limit(d, "memory.max", lim->memory_bytes, err) < 0)
        return -1;
    if (cg->caps.memory_swap && cgroup_file_write(d, "memory.swap.max", "0", err) < 0)
        return -1;
    if (cg->caps.pids && write_limit(d, "pids.max", lim->pids, err) < 0)
        return -1;
    return 0;
}

static int user_pages(const struct cgroup_dir *d, uint64_t *bytes, struct jail_error *err)
{
    char stat[4096];
    uint64_t anon, file;
    *bytes = 0;
    if (cgroup_file_read(d, "memory.stat", stat, sizeof stat, err) < 0)
        return -1;
    if (!cgroup_parse_keyed(stat, "anon", &anon) || !cgroup_parse_keyed(stat, "file", &file))
        return cgroup_fail(err, "%s/memory.stat: no anon or file line", d->path);
    *bytes = anon + file;
    return 0;
}

/* User pages still charged (tmpfs files, page cache) would count against the
 * next jail: reclaim them, and refuse reuse if too much stays. Kernel memory
 * of the dead (stacks, page tables) is freed a little later on its own. */
static int reclaim_leftovers(struct cgroup *cg, struct jail_error *err)
{
    const struct cgroup_dir *d = &cg->dirs[0];
    uint64_t charged;
    if (user_pages(d, &charged, err) < 0)
        return -1;
    if (charged > CGROUP_REUSE_MAX_CHARGE && cgroup_file_exists(d, "memory.reclaim")) {
        struct jail_error ignored; /* EAGAIN when not all of it could go */
        cgroup_file_write_u64(d, "memory.reclaim", charged, &ignored);
        if (user_pages(d, &charged, err) < 0)
            return -1;
    }
    if (charged > CGROUP_REUSE_MAX_CHARGE)
        return cgroup_fail(err, "cgroup %s: %" PRIu64 " bytes of pages still charged", d->path, charged);
    /* memory.current: kernel memory too (the inodes and dentries of a data directory) */
    uint64_t current;
    if (cgroup_file_read_u64(d, "memory.current", &current, err) < 0)
        return -1;
    if (current > CGROUP_REUSE_MAX_CHARGE)
        return cgroup_fail(err, "cgroup %s: %" PRIu64 " bytes still charged", d->path, current);
    cg->residue = current;
    return 0;
}

/* Writing memory.peak resets it for this fd only (Linux 6.12+); where it is
 * read-only the pool keeps no cgroup (caps.reusable) and each jail gets a
 * fresh one. */
static int v2_reset(struct cgroup *cg, struct jail_error *err)
{
    if (cg->caps.memory && reclaim_leftovers(cg, err) < 0)
        return -1;
    if (cg->peak_fd >= 0 && pwrite(cg->peak_fd, "reset\n", 6, 0) != 6)
        return cgroup_fail_errno(err, errno, "reset", cg->dirs[0].path, "memory.peak");
    return 0;
}

static int v2_attach(struct cgroup *cg, pid_t pid, struct jail_error *err)
{
    return cgroup_file_write_u64(&cg->dirs[0], "cgroup.procs", (uint64_t)pid, err);
}

static uint64_t v2_cpu_ns_raw(struct cgroup *cg)
{
    char buf[512];
    uint64_t usec;
    if (cgroup_fd_pread(cg->cpu_fd, buf, sizeof buf) < 0 || !cgroup_parse_keyed(buf, "usage_usec", &usec))
        return 0;
    return usec * 1000u;
}

static uint64_t v2_memory_peak(struct cgroup *cg)
{
    char buf[32];
    uint64_t peak;
    if (cg->peak_fd < 0 || cgroup_fd_pread(cg->peak_fd, buf, sizeof buf) < 0 || !cgroup_parse_u64(buf, &peak))
        return 0;
    return peak;
}

static int v2_counters(struct cgroup *cg, struct cgroup_counters *out, struct jail_error *err)
{
    const struct cgroup_dir *d = &cg->dirs[0];
    *out = (struct cgroup_counters){ 0, 0 };
    if (cg->caps.memory && cgroup_file_read_keyed(d, "memory.events", "oom_kill", &out->oom_kills, err) < 0)
        return -1;
    if (cg->caps.pids && cgroup_file_read_keyed(d, "pids.events", "max", &out->pids_max_hits, err) < 0)
        return -1;
    return 0;
}

int cgroup_v2_freeze_at(const struct cgroup_dir *d, int freeze_fd, int events_fd, bool frozen,
                        struct jail_error *err)
{
    if (cgroup_fd_write(freeze_fd, frozen ? "1" : "0", d->path, "cgroup.freeze", err) < 0)
        return -1;
    if (!frozen)   /* the kernel clears "frozen" before the write returns: nothing to wait for */
        return 0;
    return cgroup_wait_keyed(events_fd, d->path, "cgroup.events", "frozen", 1, CGROUP_FREEZE_SPIN_NS, err);
}

int cgroup_v2_kill_at(const struct cgroup_dir *d, int events_fd, struct jail_error *err)
{
    if (cgroup_file_write(d, "cgroup.kill", "1", err) < 0)
        return -1;
    return cgroup_wait_keyed(events_fd, d->path, "cgroup.events", "populated", 0, 0, err);
}

static int v2_freeze(struct cgroup *cg, bool frozen, struct jail_error *err)
{
    return cgroup_v2_freeze_at(&cg->dirs[0], cg->freeze_fd, cg->events_fd, frozen, err);
}

int cgroup_v2_populated(int events_fd)
{
    char events[256];
    uint64_t populated;
    if (cgroup_fd_pread(events_fd, events, sizeof events) < 0 || !cgroup_parse_keyed(events, "populated", &populated))
        return -1;
    return populated != 0;
}

/* Nobody inside means nobody can fork inside: an empty cgroup (the usual
 * case at release) is left unkilled, so it may still be cloned into. */
static int v2_kill_all(struct cgroup *cg, struct jail_error *err)
{
    if (cgroup_v2_populated(cg->events_fd) == 0)
        return 0;
    if (!cg->caps.kill)
        return cgroup_kill_by_signal(cg, err);
    cg->killed = true;
    return cgroup_v2_kill_at(&cg->dirs[0], cg->events_fd, err);
}

static const struct cgroup_dir *v2_procs_dir(const struct cgroup *cg)
{
    return &cg->dirs[0];
}

const struct cgroup_ops cgroup_v2_ops = {
    .create = v2_create,
    .destroy = v2_destroy,
    .set_limits = v2_set_limits,
    .reset = v2_reset,
    .attach = v2_attach,
    .attach_rest = v2_attach,
    .cpu_ns_raw = v2_cpu_ns_raw,
    .memory_peak = v2_memory_peak,
    .counters = v2_counters,
    .freeze = v2_freeze,
    .kill_all = v2_kill_all,
    .procs_dir = v2_procs_dir,
};
