/*
 * cgroup_v1.c - the legacy backend: one directory of the same name in each
 * of the memory, cpuacct, pids and freezer hierarchies (parents in
 * caps.v1_root). Swap is excluded by setting memory.memsw.limit_in_bytes to
 * the memory limit. There is no cgroup.kill: kill_all freezes and signals
 * (cgroup_kill.c). The hybrid backend (cgroup_hybrid.c) shares all of this
 * but freezing and killing.
 */
#include "sandbox/cgroup_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct cgroup_dir *dir_of(const struct cgroup *cg, enum cgroup_v1_ctrl c)
{
    return &cg->dirs[c];
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

int cgroup_v1_destroy(struct cgroup *cg, struct jail_error *err)
{
    int rc = 0;
    close_fd(&cg->cpu_fd);
    close_fd(&cg->freeze_fd);
    for (int i = 0; i < CG_V1_COUNT; i++)
        close_fd(&cg->tasks_fd[i]);
    for (int i = 0; i < cg->ndirs; i++) {
        cgroup_dir_close(&cg->dirs[i]);
        struct cgroup_dir parent;
        if (cgroup_dir_open_path(&parent, cg->caps.v1_root[i], err) < 0) {
            rc = -1;
            continue;
        }
        if (unlinkat(parent.fd, cg->name, AT_REMOVEDIR) < 0 && errno != ENOENT)
            rc = cgroup_fail_errno(err, errno, "rmdir", parent.path, cg->name);
        cgroup_dir_close(&parent);
    }
    return rc;
}

static int make_one(struct cgroup *cg, int ctrl, const char *name, struct jail_error *err)
{
    return cgroup_dir_make(&cg->dirs[ctrl], cg->caps.v1_root[ctrl], name, cg->adopted, err);
}

/* Opened here, by the judge: a jail's first process, already in its own user
 * namespace, could not open them itself (cgroup_enter_self writes them). */
static int open_tasks_files(struct cgroup *cg, struct jail_error *err)
{
    for (int i = 0; i < CG_V1_COUNT; i++)
        if ((cg->tasks_fd[i] = cgroup_file_open(&cg->dirs[i], "tasks", O_WRONLY, err)) < 0)
            return -1;
    return 0;
}

int cgroup_v1_make_dirs(struct cgroup *cg, const char *name, struct jail_error *err)
{
    for (cg->ndirs = 0; cg->ndirs < CG_V1_COUNT; cg->ndirs++)
        if (make_one(cg, cg->ndirs, name, err) < 0)
            break;
    if (cg->ndirs == CG_V1_COUNT
        && (cg->cpu_fd = cgroup_file_open(dir_of(cg, CG_V1_CPUACCT), "cpuacct.usage", O_RDONLY, err)) >= 0
        && open_tasks_files(cg, err) == 0)
        return 0;
    cgroup_v1_destroy(cg, NULL);
    return -1;
}

static int v1_create(struct cgroup *cg, const char *name, struct jail_error *err)
{
    if (cgroup_v1_make_dirs(cg, name, err) < 0)
        return -1;
    cg->freeze_fd = cgroup_file_open(dir_of(cg, CG_V1_FREEZER), "freezer.state", O_RDWR, err);
    if (cg->freeze_fd >= 0)
        return 0;
    cgroup_v1_destroy(cg, NULL);
    return -1;
}

/* memsw must never drop below the memory limit: open it up, set, then close it. */
static int v1_set_memory(struct cgroup *cg, uint64_t bytes, struct jail_error *err)
{
    const struct cgroup_dir *d = dir_of(cg, CG_V1_MEMORY);
    const char *swap = "memory.memsw.limit_in_bytes";
    bool swap_ok = cg->caps.memory_swap;
    if (swap_ok && cgroup_file_write(d, swap, "-1", err) < 0)
        return -1;
    if (!bytes)
        return cgroup_file_write(d, "memory.limit_in_bytes", "-1", err);
    if (cgroup_file_write_u64(d, "memory.limit_in_bytes", bytes, err) < 0)
        return -1;
    return swap_ok ? cgroup_file_write_u64(d, swap, bytes, err) : 0;
}

int cgroup_v1_set_limits(struct cgroup *cg, const struct cgroup_limits *lim, struct jail_error *err)
{
    if (v1_set_memory(cg, lim->memory_bytes, err) < 0)
        return -1;
    const struct cgroup_dir *pids = dir_of(cg, CG_V1_PIDS);
    return lim->pids ? cgroup_file_write_u64(pids, "pids.max", lim->pids, err)
                     : cgroup_file_write(pids, "pids.max", "max", err);
}

/* Everything charged: memory.usage_in_bytes (user pages and kernel memory) and,
 * where the kernel keeps it apart, memory.kmem.usage_in_bytes (inodes, dentries). */
static int charged_bytes(const struct cgroup_dir *d, uint64_t *usage, uint64_t *kmem, struct jail_error *err)
{
    *kmem = 0;
    if (cgroup_file_read_u64(d, "memory.usage_in_bytes", usage, err) < 0)
        return -1;
    return cgroup_file_exists(d, "memory.kmem.usage_in_bytes")
               ? cgroup_file_read_u64(d, "memory.kmem.usage_in_bytes", kmem, err)
               : 0;
}

/* Memory still charged (tmpfs files, page cache, the inodes of a data
 * directory) would count against the next jail: force_empty (slow: ~2 ms)
 * reclaims what it can; refuse reuse if more than the dead's residue stays
 * (CGROUP_REUSE_MAX_CHARGE). Then the high-water marks restart. */
int cgroup_v1_reset(struct cgroup *cg, struct jail_error *err)
{
    const struct cgroup_dir *d = dir_of(cg, CG_V1_MEMORY);
    uint64_t usage, kmem;
    if (charged_bytes(d, &usage, &kmem, err) < 0)
        return -1;
    if (usage > CGROUP_REUSE_MAX_CHARGE || kmem > CGROUP_REUSE_MAX_CHARGE) {
        struct jail_error ignored; /* best effort: the check below decides */
        cgroup_file_write(d, "memory.force_empty", "0", &ignored);
        if (charged_bytes(d, &usage, &kmem, err) < 0)
            return -1;
    }
    if (usage > CGROUP_REUSE_MAX_CHARGE || kmem > CGROUP_REUSE_MAX_CHARGE)
        return cgroup_fail(err, "cgroup %s: %" PRIu64 " bytes (%" PRIu64 " of kernel memory) still charged",
                           d->path, usage, kmem);
    cg->residue = usage;
    if (cgroup_file_write(d, "memory.max_usage_in_bytes", "0", err) < 0)
        return -1;
    return cg->caps.memory_swap ? cgroup_file_write(d, "memory.memsw.max_usage_in_bytes", "0", err) : 0;
}

int cgroup_v1_attach(struct cgroup *cg, pid_t pid, struct jail_error *err)
{
    for (int i = 0; i < CG_V1_COUNT; i++)
        if (cgroup_file_write_u64(&cg->dirs[i], "cgroup.procs", (uint64_t)pid, err) < 0)
            return -1;
    return 0;
}

/* The jail's first process enters every v1 hierarchy itself (cgroup_enter_self). */
static int v1_attach_rest(struct cgroup *cg, pid_t pid, struct jail_error *err)
{
    (void)cg, (void)pid, (void)err;
    return 0;
}

uint64_t cgroup_v1_cpu_ns_raw(struct cgroup *cg)
{
    char buf[32];
    uint64_t ns;
    if (cgroup_fd_pread(cg->cpu_fd, buf, sizeof buf) < 0 || !cgroup_parse_u64(buf, &ns))
        return 0;
    return ns;
}

uint64_t cgroup_v1_memory_peak(struct cgroup *cg)
{
    uint64_t peak;
    if (cgroup_file_read_u64(dir_of(cg, CG_V1_MEMORY), "memory.max_usage_in_bytes", &peak, NULL) < 0)
        return 0;
    return peak;
}

/* oom_kill appeared in memory.oom_control in 4.13; before that, failcnt (times
 * the limit was hit) is the nearest sign. */
int cgroup_v1_counters(struct cgroup *cg, struct cgroup_counters *out, struct jail_error *err)
{
    const struct cgroup_dir *mem = dir_of(cg, CG_V1_MEMORY);
    char text[256];
    if (cgroup_file_read(mem, "memory.oom_control", text, sizeof text, err) < 0)
        return -1;
    if (!cgroup_parse_keyed(text, "oom_kill", &out->oom_kills)
        && cgroup_file_read_u64(mem, "memory.failcnt", &out->oom_kills, err) < 0)
        return -1;
    return cgroup_file_read_keyed(dir_of(cg, CG_V1_PIDS), "pids.events", "max", &out->pids_max_hits, err);
}

static int read_state(int fd, const struct cgroup_dir *d, char *state, size_t cap,
                      struct jail_error *err)
{
    if (cgroup_fd_pread(fd, state, cap) < 0)
        return cgroup_fail_errno(err, errno, "read", d->path, "freezer.state");
    state[strcspn(state, "\n")] = '\0';
    return 0;
}

/* freezer.state reads FREEZING until every task has stopped (each read
 * re-checks): pwrites and preads of the same fd. */
static int freeze_through(const struct cgroup_dir *d, int fd, bool frozen, struct jail_error *err)
{
    const char *want = frozen ? "FROZEN" : "THAWED";
    if (cgroup_fd_write(fd, want, d->path, "freezer.state", err) < 0)
        return -1;
    struct cgroup_waiter w;
    cgroup_waiter_start(&w);
    uint64_t spin_until = frozen ? cgroup_now_ns() + CGROUP_FREEZE_SPIN_NS : 0;
    char state[32] = "";
    int rc;
    while ((rc = read_state(fd, d, state, sizeof state, err)) == 0 && strcmp(state, want) != 0) {
        if (cgroup_spin_yield(spin_until))
            continue;
        if ((rc = cgroup_waiter_pause(&w, -1, d->path, "freezer.state", err)) <= 0)
            break;
        /* A task forked or exec'd mid-freeze can leave the cgroup FREEZING for good:
         * the v1 freezer documentation says to write FROZEN again. */
        if (frozen && cgroup_fd_write(fd, want, d->path, "freezer.state", err) < 0) {
            rc = -1;
            break;
        }
    }
    cgroup_waiter_end(&w);
    if (rc < 0)
        return -1;
    if (strcmp(state, want) != 0)
        return cgroup_fail(err, "%s/freezer.state: still %s after %llu ms (want %s)", d->path,
                           state, CGROUP_WAIT_NS / 1000000ull, want);
    return 0;
}

static int v1_freeze(struct cgroup *cg, bool frozen, struct jail_error *err)
{
    return freeze_through(dir_of(cg, CG_V1_FREEZER), cg->freeze_fd, frozen, err);
}

int cgroup_v1_freeze_unkept(struct cgroup *cg, bool frozen, struct jail_error *err)
{
    const struct cgroup_dir *d = dir_of(cg, CG_V1_FREEZER);
    int fd = cgroup_file_open(d, "freezer.state", O_RDWR, err);
    if (fd < 0)
        return -1;
    int rc = freeze_through(d, fd, frozen, err);
    close(fd);
    return rc;
}

/* From Linux 6.1 the first v1 cgroup frozen and the last thawed switch a
 * static key (freezer_active), which patches kernel code on every CPU: over
 * 100 us a freeze or a thaw on a VM. An empty cgroup kept frozen for good
 * keeps the key on, so that a jail's freeze and thaw are writes alone
 * (bench_jail's harness: thaw 112 -> 13 us, freeze 150 -> 75 us). One per
 * machine, shared by every judge, never removed (the sweep takes only j-names). */
void cgroup_v1_keep_freezer_on(const struct cgroup_caps *caps)
{
    struct cgroup_dir d;
    if (cgroup_dir_make(&d, caps->v1_root[CG_V1_FREEZER], CGROUP_V1_FREEZER_KEEPER, true, NULL) < 0)
        return;
    cgroup_file_write(&d, "freezer.state", "FROZEN", NULL);
    cgroup_dir_close(&d);
}

const struct cgroup_dir *cgroup_v1_procs_dir(const struct cgroup *cg)
{
    return dir_of(cg, CG_V1_FREEZER);
}

const struct cgroup_ops cgroup_v1_ops = {
    .create = v1_create,
    .destroy = cgroup_v1_destroy,
    .set_limits = cgroup_v1_set_limits,
    .reset = cgroup_v1_reset,
    .attach = cgroup_v1_attach,
    .attach_rest = v1_attach_rest,
    .cpu_ns_raw = cgroup_v1_cpu_ns_raw,
    .memory_peak = cgroup_v1_memory_peak,
    .counters = cgroup_v1_counters,
    .freeze = v1_freeze,
    .kill_all = cgroup_kill_by_signal,
    .procs_dir = cgroup_v1_procs_dir,
};
