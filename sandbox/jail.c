/*
 * jail.c - a jail's life: jail_start gathers its parts (identity, cgroup,
 * seccomp program, mount and rlimit plans) and spawns it; jail_kill,
 * jail_has_ended, forbidden-call notifications and reaping follow it.
 * jail_finish.c ends it.
 */
#include "sandbox/jail_flat.h"
#include "sandbox/seccomp_policy.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define REAP_TIMEOUT_NS (10ull * 1000000000u) /* SIGKILL'ed and still there: something is wrong */
#define INIT_END_NS     (1000000000u) /* an init killing and reaping the rest takes milliseconds */

/* Everything jail_start builds before spawning, released together on any path. */
struct start_parts {
    struct mount_plan *mounts;
    struct rlimit_plan rlimits;
    const struct seccomp_program *seccomp;
    const struct jail_identity *identity;
    int userns_fd;
    struct flat_paths flat; /* a jail without namespaces: its paths on the host */
};

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

static struct jail *jail_new(const struct jail_spec *spec)
{
    struct jail *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->pidfd = j->cmd_pidfd = j->status_fd = j->stdin_fd = j->stdout_fd = j->stderr_fd = j->listener_fd = -1;
    j->report_fd = j->threads_fd = j->tasks_count_fd = j->tasks_peak_fd = j->syscall_fd = -1;
    jail_limits_resolve(&spec->limits, &j->limits);
    return j;
}

void jail_free(struct jail *j)
{
    close_fd(&j->stdin_fd);
    close_fd(&j->stdout_fd);
    close_fd(&j->stderr_fd);
    close_fd(&j->listener_fd);
    close_fd(&j->pidfd);
    close_fd(&j->cmd_pidfd);
    close_fd(&j->status_fd);
    close_fd(&j->report_fd);
    close_fd(&j->threads_fd);
    close_fd(&j->tasks_count_fd);
    close_fd(&j->tasks_peak_fd);
    close_fd(&j->syscall_fd);
    jail_identity_release(j->own_identity);
    free(j);
}

/* Mount and pid namespaces are what a jail is made of: without them, only a
 * best-effort jail without namespaces (jail_flat.h), which strict mode has
 * refused already. */
static int check_spec(const struct jail_spec *spec, const struct jail_global *g, struct jail_error *err)
{
    if (!spec->argv || !spec->argv[0] || !spec->argv[0][0]) return jail_fail(err, "no command to run");
    if (g->flat) return 0;
    if (!g->privileged && !g->userns_ok)
        return jail_fail(err, "cannot build a jail here: not root and no user namespaces; fix: %s",
                         g->fix[LAYER_USER_NS]);
    enum jail_layer missing = g->probe.state[LAYER_MOUNT_NS] != LAYER_ON ? LAYER_MOUNT_NS
                              : g->probe.state[LAYER_PID_NS] != LAYER_ON ? LAYER_PID_NS
                                                                         : LAYER_COUNT;
    if (missing != LAYER_COUNT)
        return jail_fail(err, "cannot build a jail here: no %s; fix: %s", jail_layer_name(missing),
                         g->fix[missing]);
    return 0;
}

static int take_identity(struct jail *j, const struct jail_spec *spec, const struct jail_global *g,
                         struct start_parts *parts, struct jail_error *err)
{
    parts->identity = spec->identity;
    if (!parts->identity) {
        if (jail_identity_acquire(&j->own_identity, err) < 0) return -1;
        parts->identity = j->own_identity;
    }
    parts->userns_fd = -1;
    if (parts->identity->slot >= 0 && g->userns_ok && !g->flat)
        return jail_identity_userns(parts->identity, &parts->userns_fd, err);
    return 0;
}

static int take_cgroup(struct jail *j, const struct jail_global *g, struct jail_error *err)
{
    if (g->cgroup.version == CGROUP_NONE) return 0;
    struct cgroup_limits lim = {.memory_bytes = j->limits.memory_bytes, .pids = j->limits.pids};
    if (cgroup_acquire(&g->cgroup, &lim, &j->cg, err) < 0) return -1;
    j->cgroup_freezer = g->cgroup.freeze;
    return 0;
}

static int build_plans(struct jail *j, const struct jail_spec *spec, const struct jail_global *g,
                       struct start_parts *parts, struct jail_error *err)
{
    if (g->seccomp_ok && seccomp_policy_get(spec->profile, &parts->seccomp, err) < 0) return -1;
    bool has_cg = g->cgroup.version != CGROUP_NONE; /* take_cgroup gives one, or the start fails */
    bool cg_memory = has_cg && g->cgroup.memory, cg_pids = has_cg && g->cgroup.pids;
    j->memory_rlimit = !cg_memory && j->limits.memory_bytes;
    rlimits_plan_build(&j->limits, !cg_memory, !cg_pids, &parts->rlimits);
    if (g->flat) return flat_paths_build(spec, &parts->flat, err);
    struct mount_plan_input in = {
        .root_mount = g->root_mount,
        .bot_dir = spec->dir,
        .rw_dir = spec->rw_dir,
        .workdir = spec->workdir,
        .extra_ro_binds = spec->extra_ro_binds,
        .tmp_bytes = j->limits.tmp_bytes,
        .make_private = !g->private_mounts,
        .template_fd = jail_global_template_fd(),
    };
    return mount_plan_build(&in, &parts->mounts, err);
}

static const char *path_from_env(const char *const *envp)
{
    for (const char *const *e = envp; e && *e; e++)
        if (strncmp(*e, "PATH=", 5) == 0) return *e + 5;
    return NULL;
}

static uint64_t namespaces_at_clone(const struct jail_global *g, const struct mount_plan *mounts)
{
    if (g->flat) return 0;
    uint64_t flags = CLONE_NEWPID;
    if (!mount_plan_uses_template(mounts)) /* else the child enters the template's */
        flags |= CLONE_NEWNS;
    if (g->probe.state[LAYER_IPC_NS] == LAYER_ON) flags |= CLONE_NEWIPC;
    if (g->probe.state[LAYER_UTS_NS] == LAYER_ON) flags |= CLONE_NEWUTS;
    if (!g->privileged) /* no shared netns can be joined without privilege */
        flags |= CLONE_NEWUSER | (g->probe.state[LAYER_NET_NS] == LAYER_ON ? CLONE_NEWNET : 0);
    return flags;
}

static int spawn_begin(const struct jail_spec *spec, const struct jail_global *g, const struct start_parts *parts,
                       struct jail *j, struct spawn_pending *sp, struct jail_error *err)
{
    struct spawn_plan plan = {
        .argv = spec->argv,
        .envp = spec->envp,
        .path_env = path_from_env(spec->envp),
        .mounts = parts->mounts,
        .rlimits = &parts->rlimits,
        .seccomp = parts->seccomp,
        .cgroup = j->cg,
        .clone_ns = namespaces_at_clone(g, parts->mounts),
        .unshare_cgroup_ns = g->probe.state[LAYER_CGROUP_NS] == LAYER_ON,
        .netns_fd = g->shared_netns_fd,
        .userns_fd = parts->userns_fd,
        .map = {JAIL_INNER_UID, parts->identity->host_uid, JAIL_INNER_GID, parts->identity->host_gid},
    };
    /* Root without user namespaces: the slot's host ids themselves. */
    bool in_userns = parts->userns_fd >= 0 || (plan.clone_ns & CLONE_NEWUSER);
    plan.uid = in_userns ? JAIL_INNER_UID : parts->identity->host_uid;
    plan.gid = in_userns ? JAIL_INNER_GID : parts->identity->host_gid;
    if (g->flat) {
        plan.argv = (const char *const *)parts->flat.argv;
        plan.envp = (const char *const *)parts->flat.envp;
        plan.path_env = path_from_env(plan.envp);
        plan.clone_ns = 0;
        plan.unshare_cgroup_ns = false;
        plan.netns_fd = -1;
        plan.flat_workdir = parts->flat.workdir;
        plan.flat_setid = parts->identity->slot >= 0;
        plan.uid = parts->identity->host_uid;
        plan.gid = parts->identity->host_gid;
    }
    return jail_spawn_begin(&plan, sp, err);
}

static void take_result(struct jail *j, const struct spawn_result *r)
{
    j->pid = r->pid;
    j->pidfd = r->pidfd;
    j->cmd_pid = r->cmd_pid;
    j->cmd_pidfd = r->cmd_pidfd;
    j->status_fd = r->status_fd;
    j->report_fd = r->report_fd;
    j->listener_fd = r->listener_fd;
    j->stdin_fd = r->stdin_fd;
    j->stdout_fd = r->stdout_fd;
    j->stderr_fd = r->stderr_fd;
    j->base_proc_ns = r->base_proc_ns;
    j->base_cgroup_ns = r->base_cgroup_ns;
    j->base_init_ns = r->base_init_ns;
    j->has_cpu_clock = clock_getcpuclockid(r->cmd_pid, &j->cpu_clock) == 0;
    j->has_init_clock = clock_getcpuclockid(r->pid, &j->init_clock) == 0;
    j->init_cpu_ns = r->base_init_ns; /* until the init's record says more */
    j->start_ns = r->start_ns;
}

static void describe_isolation(struct jail *j, const struct jail_global *g, const struct jail_identity *id)
{
    struct isolation_report *iso = &j->isolation;
    *iso = g->probe;
    if (id->slot >= 0)
        snprintf(iso->how[LAYER_USER_NS], sizeof iso->how[0], "host uid %u (slot %d), uid %d inside",
                 (unsigned)id->host_uid, id->slot, JAIL_INNER_UID);
    if (g->flat && id->slot >= 0)
        snprintf(iso->how[LAYER_USER_NS], sizeof iso->how[0], "host uid %u (slot %d), no user namespace",
                 (unsigned)id->host_uid, id->slot);
    if (!j->cg) snprintf(iso->cgroup_backend, sizeof iso->cgroup_backend, "none");
}

/* A flat jail on a uid slot of its own ends by killing that uid (kill_now,
 * jail_finish); one sharing its caller's identity leaves that to
 * jail_identity_release, as jails prepared for the same identity live on. */
static void plan_sweep(struct jail *j, const struct jail_global *g, const struct jail_identity *id)
{
    j->sweep = g->flat && id->slot >= 0 && id == j->own_identity;
    j->sweep_uid = id->host_uid;
}

static void release_cgroup_quietly(struct jail *j)
{
    struct jail_error ignored;
    if (j->cg) cgroup_release(j->cg, &ignored);
    j->cg = NULL;
}

int jail_begin(const struct jail_spec *spec, struct jail **out, struct spawn_pending *sp, struct jail_error *err)
{
    const struct jail_global *g;
    if (!spec) return jail_fail(err, "no command to run");
    if (jail_global_ensure(&g, err) < 0 || jail_global_check_mode(g, spec->mode, err) < 0 ||
        check_spec(spec, g, err) < 0)
        return -1;
    struct jail *j = jail_new(spec);
    if (!j) return jail_fail(err, "out of memory");
    struct start_parts parts = {.userns_fd = -1};
    int rc = -1;
    if (take_identity(j, spec, g, &parts, err) == 0 && take_cgroup(j, g, err) == 0 &&
        build_plans(j, spec, g, &parts, err) == 0 && spawn_begin(spec, g, &parts, j, sp, err) == 0)
        rc = 0;
    mount_plan_free(parts.mounts); /* the child has its own copy */
    flat_paths_free(&parts.flat);
    if (rc < 0) {
        release_cgroup_quietly(j);
        jail_free(j);
        return -1;
    }
    describe_isolation(j, g, parts.identity);
    plan_sweep(j, g, parts.identity);
    j->init_ends_the_rest = !g->flat;
    *out = j;
    return 0;
}

int jail_complete(struct jail *j, struct spawn_pending *sp, const char *args, size_t len, bool wait_exec,
                  struct jail_error *err)
{
    struct spawn_result r;
    if (jail_spawn_complete(sp, args, len, wait_exec, &r, err) < 0) {
        release_cgroup_quietly(j);
        jail_free(j);
        return -1;
    }
    take_result(j, &r);
    return 0;
}

void jail_abandon(struct jail *j, struct spawn_pending *sp)
{
    jail_spawn_abandon(sp);
    release_cgroup_quietly(j);
    jail_free(j);
}

int jail_start(const struct jail_spec *spec, struct jail **out, struct jail_error *err)
{
    struct spawn_pending sp;
    struct jail *j = NULL;
    if (err) err->exec_errno = 0;
    if (jail_begin(spec, &j, &sp, err) < 0 || jail_complete(j, &sp, NULL, 0, true, err) < 0) return -1;
    *out = j;
    return 0;
}

int jail_stdin_fd(const struct jail *j)
{
    return j->stdin_fd;
}
int jail_stdout_fd(const struct jail *j)
{
    return j->stdout_fd;
}
int jail_stderr_fd(const struct jail *j)
{
    return j->stderr_fd;
}
const struct isolation_report *jail_isolation(const struct jail *j)
{
    return &j->isolation;
}

void jail_close_stdin(struct jail *j)
{
    close_fd(&j->stdin_fd);
}

static void sigkill_cgroup_members(struct jail *j)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/cgroup.procs", cgroup_path(j->cg));
    FILE *f = fopen(path, "re");
    long pid;
    while (f && fscanf(f, "%ld", &pid) == 1) kill((pid_t)pid, SIGKILL);
    if (f) fclose(f);
}

/* SIGKILL to the init (pid 1) alone would let the rest run on until the init
 * gets a CPU to exit (the kernel then kills the rest of its pid namespace):
 * the command is signalled too, and with a cgroup every member is signalled
 * while frozen, so none runs another instruction. Without a cgroup the init
 * is left to end the rest itself once the command is dead (jail_init.c): its
 * record then holds their CPU, which no counter saw, where the kernel would
 * have reaped them uncounted. A frozen jail must then be thawed to die. */
static void kill_now(struct jail *j)
{
    struct jail_error ignored;
    if (j->sweep && !j->reaped) { /* before any dies: did the uid reach RLIMIT_NPROC? */
        uint64_t tasks = uid_task_count(j->sweep_uid);
        if (tasks > j->uid_tasks_peak) j->uid_tasks_peak = tasks;
    }
    if (!j->reaped) {
        bool frozen = j->cgroup_freezer && jail_freeze(j, &ignored) == 0;
        jail_cpu_fix(j); /* when frozen by the cgroup */
        if (j->cg || !j->init_ends_the_rest) pidfd_send_signal(j->pidfd, SIGKILL, NULL, 0);
        pidfd_send_signal(j->cmd_pidfd, SIGKILL, NULL, 0);
        if (frozen) sigkill_cgroup_members(j);
    }
    if (j->sweep) /* no cgroup or pid namespace holds the rest: its uid does */
        uid_sweep(j->sweep_uid, &ignored);
    if (j->frozen) jail_thaw(j, &ignored);
}

void jail_kill(struct jail *j, enum jail_verdict why, const char *note)
{
    if (!j->killed) {
        j->killed = true;
        j->kill_reason = why;
        snprintf(j->kill_note, sizeof j->kill_note, "%s", note ? note : "");
    }
    kill_now(j);
}

static bool pidfd_readable(int pidfd, uint64_t timeout_ns)
{
    struct pollfd pfd = {.fd = pidfd, .events = POLLIN};
    struct timespec ts = ns_to_timespec(timeout_ns);
    int n;
    while ((n = ppoll(&pfd, 1, &ts, NULL)) < 0 && errno == EINTR) {
    }
    return n > 0;
}

bool jail_has_ended(struct jail *j)
{
    if (!j->ended && (j->reaped || pidfd_readable(j->pidfd, 0))) {
        j->ended = true;
        j->end_ns = monotonic_ns();
    }
    return j->ended || j->killed;
}

bool jail_forbidden_syscall(const struct jail *j, struct jail_syscall *out)
{
    if (j->has_syscall && out) *out = j->syscall;
    return j->has_syscall;
}

int jail_take_notification(struct jail *j, struct jail_error *err)
{
    if (j->listener_fd < 0 || j->listener_hup) return 0;
    struct pollfd pfd = {.fd = j->listener_fd, .events = POLLIN};
    if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLIN)) {
        j->listener_hup = pfd.revents & (POLLHUP | POLLERR | POLLNVAL);
        return 0;
    }
    struct jail_syscall call;
    pid_t pid;
    int taken = seccomp_notify_take(j->listener_fd, &call, &pid, err);
    if (taken == 1) {
        if (!j->has_syscall) {
            j->has_syscall = true;
            j->syscall = call;
        }
        kill_now(j);
    }
    return taken;
}

static uint64_t timeval_total_ns(const struct rusage *ru)
{
    return (uint64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000u +
           (uint64_t)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000u;
}

int jail_reap(struct jail *j, bool block, struct jail_error *err)
{
    if (j->reaped) return 0;
    if (block && !pidfd_readable(j->pidfd, INIT_END_NS)) /* still ending the rest: end it */
        pidfd_send_signal(j->pidfd, SIGKILL, NULL, 0);
    if (!pidfd_readable(j->pidfd, block ? REAP_TIMEOUT_NS : 0))
        return block ? jail_fail(err, "pid %d did not exit within %llu s of SIGKILL", (int)j->pid,
                                 (unsigned long long)(REAP_TIMEOUT_NS / 1000000000u))
                     : 0;
    pid_t got;
    while ((got = wait4(j->pid, &j->wait_status, 0, &j->rusage)) < 0 && errno == EINTR) {
    }
    if (got != j->pid) return jail_fail_errno(err, errno, "wait4 pid %d", (int)j->pid);
    j->has_cmd_status = jail_init_read_status(j->status_fd, &j->cmd_status, &j->children_cpu_ns);
    if (j->has_cmd_status) {
        uint64_t total = timeval_total_ns(&j->rusage);
        if (total > j->children_cpu_ns) j->init_cpu_ns = total - j->children_cpu_ns;
    }
    j->reaped = true;
    j->frozen = false;
    if (!j->ended) {
        j->ended = true;
        j->end_ns = monotonic_ns();
    }
    return 0;
}
