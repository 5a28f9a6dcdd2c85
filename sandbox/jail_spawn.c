/*
 * jail_spawn.c - clone the jail's first process and walk it through its
 * set-up, talking over two close-on-exec pipes:
 *
 *   parent                                child (pid 1 of a new pid namespace)
 *   clone3(new pid, ipc, uts [, mount]    setsid, stdio, hostname, join the netns,
 *          [, user, net when not root])   its root: a copy of the template, or
 *                                         built whole and pivoted into
 *   [write uid/gid maps], cgroup attach
 *   "G" ---------------------------------> unshare the cgroup namespace (now in its cgroup),
 *                                          enter the user namespace, setresuid, rlimits,
 *                                          drop capabilities, no_new_privs; fork
 *                                          (vfork-like: fork_command): pid 1 becomes
 *                                          the init (jail_init.c), pid 2, the command:
 *                                          setsid, seccomp
 *   find pid 2, pidfd_getfd(listener) <--- "listener is fd N" (or "ready" without seccomp)
 *   launch record [+ extra arguments] ----> execve
 *   EOF on the report pipe = execve done; an error record = the step that failed.
 *
 * The child is cloned into its cgroup's cgroup2 directory where it can be, and
 * writes "0" to the v1 hierarchies' `tasks` itself after "G" (cgroup.h: never
 * the pid to cgroup.procs, whose lock waits for an RCU grace period).
 *
 * jail_spawn_begin stops after "G" and jail_spawn_complete does the rest, so
 * a caller may prepare a jail while other work goes on and start it later
 * with arguments only known then (sandbox/jail_prewarm.c): the child's whole
 * set-up is then off the critical path, and a start costs less than an execve,
 * which the caller need not even wait for (a failure then shows later).
 *
 * Root-mode jails enter a user namespace made beforehand for their uid slot
 * (setns), so the only round trips are the two above. The CPU time of both
 * processes is read just before "A", so set-up is not charged to the command.
 * A third pipe carries the init's record of the command's wait status.
 */
#include "sandbox/jail_flat.h"
#include "sandbox/seccomp_policy.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SETUP_TIMEOUT_NS (10ull * 1000000000u) /* a child stuck in set-up is the judge's fault */
#define DEFAULT_PATH     "/bin:/usr/bin"

enum child_msg_kind { MSG_ERROR = 1, MSG_LISTENER, MSG_READY };
struct child_msg {
    int kind;
    int value; /* errno for MSG_ERROR, the fd number for MSG_LISTENER */
    char step[120];
};

/* What the parent sends to release the command: a header, then `len` bytes of
 * NUL-terminated extra arguments appended to the plan's argv. */
#define LAUNCH_MAGIC 0x4c4e434au /* "JCNL" */
struct launch_header {
    uint32_t magic, len;
};

/* The child reads the extra arguments into its own copy of these (the
 * judge's copy is never touched). */
static char launch_buf[JAIL_LAUNCH_BYTES_MAX];
static char *launch_argv[JAIL_LAUNCH_ARGS_MAX + 1];

struct child_fds {
    int stdin_r, stdout_w, stderr_w;
    int report_w, go_r, status_w;
};

/* ---- child side: system calls only ---- */

static void copy_step(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < cap; i++) dst[i] = src[i];
    dst[i] = '\0';
}

static void send_msg(int fd, int kind, int value, const char *step)
{
    struct child_msg m;
    memset(&m, 0, sizeof m);
    m.kind = kind;
    m.value = value;
    copy_step(m.step, sizeof m.step, step);
    while (write(fd, &m, sizeof m) < 0 && errno == EINTR) {
    }
}

_Noreturn static void child_fail(const struct child_fds *f, const char *step, int errnum)
{
    send_msg(f->report_w, MSG_ERROR, errnum, step);
    _exit(127);
}

/* rc < 0 means failure with errno set. */
static void need(const struct child_fds *f, int rc, const char *step)
{
    if (rc < 0) child_fail(f, step, errno);
}

/* rc < 0 is -errno. */
static void need_neg(const struct child_fds *f, int rc, const char *step)
{
    if (rc < 0) child_fail(f, step, -rc);
}

static void wait_for_parent(const struct child_fds *f)
{
    char byte;
    ssize_t n;
    while ((n = read(f->go_r, &byte, 1)) < 0 && errno == EINTR) {
    }
    if (n != 1) _exit(127); /* the judge gave up on us */
}

/* Released by the parent, which did its part of the attach (cgroup.h): the rest is ours. */
static void wait_and_enter_cgroup(const struct spawn_plan *p, const struct child_fds *f)
{
    wait_for_parent(f);
    if (p->cgroup) need_neg(f, cgroup_enter_self(p->cgroup), "enter the jail's cgroup");
}

static void reset_signals(void)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &dfl, NULL); /* fails harmlessly for SIGKILL, SIGSTOP and glibc's own */
}

static void setup_stdio(const struct child_fds *f)
{
    need(f, dup2(f->stdin_r, 0), "dup2 stdin");
    need(f, dup2(f->stdout_w, 1), "dup2 stdout");
    need(f, dup2(f->stderr_w, 2), "dup2 stderr");
}

static void sort3(unsigned v[3])
{
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2 - i; k++)
            if (v[k] > v[k + 1]) {
                unsigned t = v[k];
                v[k] = v[k + 1];
                v[k + 1] = t;
            }
}

/* Close every fd but 0, 1, 2 and the three set-up pipes, once the namespace
 * fds are used: RLIMIT_NOFILE then counts from a nearly empty table, so the
 * seccomp listener still gets a number below it. */
static void close_inherited_fds(const struct child_fds *f)
{
    unsigned keep[3] = {(unsigned)f->report_w, (unsigned)f->go_r, (unsigned)f->status_w};
    sort3(keep);
    unsigned from = 3;
    for (int i = 0; i < 3; i++) {
        if (keep[i] > from) need(f, close_range(from, keep[i] - 1, 0), "close_range");
        from = keep[i] + 1;
    }
    need(f, close_range(from, ~0U, 0), "close_range");
}

static void enter_namespaces_and_root(const struct spawn_plan *p, const struct child_fds *f)
{
    const char *step = NULL;
    if (p->clone_ns & CLONE_NEWUTS)
        need(f, sethostname(JAIL_HOSTNAME, sizeof JAIL_HOSTNAME - 1), "sethostname");
    if (p->netns_fd >= 0) need(f, setns(p->netns_fd, CLONE_NEWNET), "setns(network namespace)");
    int rc = mount_plan_apply(p->mounts, &step);
    need_neg(f, rc, step);
}

static void enter_user_namespace(const struct spawn_plan *p, const struct child_fds *f)
{
    if (p->clone_ns & CLONE_NEWUSER) return; /* created at clone; setgroups is denied there */
    need(f, setgroups(0, NULL), "setgroups");
    if (p->userns_fd >= 0) need(f, setns(p->userns_fd, CLONE_NEWUSER), "setns(user namespace)");
}

static void become_unprivileged(const struct spawn_plan *p, const struct child_fds *f)
{
    const char *step = NULL;
    need(f, setresgid(p->gid, p->gid, p->gid), "setresgid");
    need(f, setresuid(p->uid, p->uid, p->uid), "setresuid");
    int rc = rlimits_apply(p->rlimits, &step);
    need_neg(f, rc, step);
    rc = caps_drop_all(&step);
    need_neg(f, rc, step);
    /* After the last credential change, which would clear it; the command,
     * forked afterwards, sets its own. */
    need(f, prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)");
    need(f, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)");
}

/* Try file in each directory of path, as execvp does; the errno that explains best. */
static int exec_in_path(const char *file, const char *path, char *const *argv, char *const *envp)
{
    int result = ENOENT;
    size_t file_len = strlen(file);
    for (const char *dir = path;; dir++) {
        size_t len = strcspn(dir, ":");
        const char *prefix = len ? dir : "."; /* an empty entry means the working directory */
        size_t prefix_len = len ? len : 1;
        char candidate[PATH_MAX];
        if (prefix_len + 1 + file_len < sizeof candidate) {
            memcpy(candidate, prefix, prefix_len);
            candidate[prefix_len] = '/';
            memcpy(candidate + prefix_len + 1, file, file_len + 1);
            execve(candidate, argv, envp);
            if (errno == EACCES || (errno != ENOENT && errno != ENOTDIR && result != EACCES)) result = errno;
        }
        dir += len;
        if (*dir == '\0') return result;
    }
}

/* execvpe with PATH taken from the jail's environment, not the judge's. */
static int exec_command(const struct spawn_plan *p, char *const *argv)
{
    static char *const empty_env[] = {NULL};
    char *const *envp = p->envp ? (char *const *)p->envp : empty_env;
    if (strchr(argv[0], '/')) {
        execve(argv[0], argv, envp);
        return errno;
    }
    return exec_in_path(argv[0], p->path_env ? p->path_env : DEFAULT_PATH, argv, envp);
}

static void read_exactly(const struct child_fds *f, void *buf, size_t len)
{
    for (size_t got = 0; got < len;) {
        ssize_t n = read(f->go_r, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(127); /* the judge gave up on us */
        got += (size_t)n;
    }
}

/* Wait for the launch record; return the plan's argv followed by its extra arguments. */
static char *const *read_launch(const struct spawn_plan *p, const struct child_fds *f)
{
    struct launch_header h;
    read_exactly(f, &h, sizeof h);
    if (h.magic != LAUNCH_MAGIC || h.len > sizeof launch_buf) child_fail(f, "read the launch record", EPROTO);
    read_exactly(f, launch_buf, h.len);
    if (h.len > 0 && launch_buf[h.len - 1] != '\0') child_fail(f, "read the launch record", EPROTO);
    size_t n = 0;
    for (; p->argv[n]; n++) {
        if (n == JAIL_LAUNCH_ARGS_MAX) child_fail(f, "execve", E2BIG);
        launch_argv[n] = (char *)p->argv[n];
    }
    for (size_t at = 0; at < h.len; at += strlen(launch_buf + at) + 1) {
        if (n == JAIL_LAUNCH_ARGS_MAX) child_fail(f, "execve", E2BIG);
        launch_argv[n++] = launch_buf + at;
    }
    launch_argv[n] = NULL;
    return launch_argv;
}

/* pid 2: the init's child, with the init's identity, rlimits, empty
 * capability sets and no_new_privs; its own session, seccomp, execve. */
_Noreturn static void command_main(const struct spawn_plan *p, const struct child_fds *f)
{
    close(f->status_w);
    need(f, setsid(), "setsid");
    need(f, prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)"); /* cleared by fork */
    sigset_t none;
    sigemptyset(&none);
    need(f, sigprocmask(SIG_SETMASK, &none, NULL), "sigprocmask");
    if (p->seccomp) {
        int listener = seccomp_policy_install(p->seccomp);
        need_neg(f, listener, "seccomp");
        send_msg(f->report_w, MSG_LISTENER, listener, NULL);
    } else {
        send_msg(f->report_w, MSG_READY, 0, NULL);
    }
    char *const *argv = read_launch(p, f); /* the parent holds the listener now */
    child_fail(f, "execve", exec_command(p, argv));
}

/* The command shares the init's memory until its execve (CLONE_VM |
 * CLONE_VFORK, as posix_spawn does): no page tables to copy, no
 * copy-on-write faults, no copy for execve to tear down. The init stays
 * suspended until that execve (or the command's exit), so the two never run
 * at once on one memory; the command runs on a stack of its own, zero pages
 * of the judge's until touched. */
static char command_stack[256 * 1024] __attribute__((aligned(64)));

struct command_start {
    const struct spawn_plan *p;
    const struct child_fds *f;
};

static int command_entry(void *arg)
{
    const struct command_start *c = arg;
    command_main(c->p, c->f);
}

/* The command's pid, or -errno. Signals stay blocked in the command until
 * command_main unblocks them (no handler is left anyway: reset_signals). */
static pid_t fork_command(const struct spawn_plan *p, const struct child_fds *f)
{
    struct command_start c = {p, f};
    sigset_t all, saved;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &saved);
    pid_t pid = clone(command_entry, command_stack + sizeof command_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &c);
    int saved_errno = errno;
    sigprocmask(SIG_SETMASK, &saved, NULL);
    return pid < 0 ? -saved_errno : pid;
}

/* A jail without namespaces (jail_flat.h): the bounding set goes while we
 * are still root (it needs CAP_SETPCAP), then the slot's ids, which clear the
 * other sets; without CAP_SETUID we stay the judge's uid (the report says so). */
static void become_unprivileged_flat(const struct spawn_plan *p, const struct child_fds *f)
{
    const char *step = NULL;
    int rc = caps_drop_bounding(&step);
    if (p->flat_setid) {
        need_neg(f, rc, step);
        need(f, setgroups(0, NULL), "setgroups");
        need(f, setresgid(p->gid, p->gid, p->gid), "setresgid");
        need(f, setresuid(p->uid, p->uid, p->uid), "setresuid");
    } else if (rc < 0 && rc != -EPERM) { /* EPERM: no CAP_SETPCAP, nothing to drop it with */
        child_fail(f, step, -rc);
    }
    rc = rlimits_apply(p->rlimits, &step);
    need_neg(f, rc, step);
    rc = caps_drop_process_sets(&step);
    need_neg(f, rc, step);
    need(f, prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)");
    need(f, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)");
}

/* The init of a jail without namespaces: no pid 1, so a child subreaper
 * keeps the command's orphans in its tree; the files are the container's,
 * the bot's directory the working one. */
_Noreturn static void child_main_flat(const struct spawn_plan *p, const struct child_fds *f)
{
    reset_signals();
    jail_sched_reset_inherited();
    need(f, setsid(), "setsid");
    setup_stdio(f);
    wait_and_enter_cgroup(p, f); /* in its cgroup, if there is one, from here on */
    need(f, chdir(p->flat_workdir), "chdir to the working directory");
    close_inherited_fds(f);
    become_unprivileged_flat(p, f);
    need(f, prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl(PR_SET_CHILD_SUBREAPER)");
    jail_init_blank_environment();
    pid_t command = fork_command(p, f);
    need_neg(f, command, "fork the command");
    jail_init_run(command, f->status_w);
}

/* pid 1: everything that needs pid 1 or privilege, then the fork into the
 * init (jail_init.c) and the command. */
_Noreturn static void child_main(const struct spawn_plan *p, const struct child_fds *f)
{
    reset_signals();
    jail_sched_reset_inherited();
    need(f, setsid(), "setsid");
    bool own_userns = p->clone_ns & CLONE_NEWUSER;
    if (own_userns) /* our uid has no mapping until the parent writes one */
        wait_and_enter_cgroup(p, f);
    setup_stdio(f);
    enter_namespaces_and_root(p, f);
    if (!own_userns) /* in its cgroup from here on */
        wait_and_enter_cgroup(p, f);
    if (p->unshare_cgroup_ns) need(f, unshare(CLONE_NEWCGROUP), "unshare(CLONE_NEWCGROUP)");
    enter_user_namespace(p, f);
    close_inherited_fds(f);
    become_unprivileged(p, f); /* the init too: nothing runs privileged after the fork */
    jail_init_blank_environment();
    pid_t command = fork_command(p, f);
    need_neg(f, command, "fork the command");
    jail_init_run(command, f->status_w);
}

/* ---- parent side ---- */

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

static void close_pipes(struct spawn_pipes *ps)
{
    int *all = (int *)ps;
    for (size_t i = 0; i < sizeof *ps / sizeof(int); i++) close_fd(&all[i]);
}

/* A pipe whose ends are not 0, 1 or 2 (the judge may run with those closed). */
static int make_pipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC) < 0) return -1;
    for (int i = 0; i < 2; i++)
        if (fds[i] < 3) {
            int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
            if (moved < 0) return -1;
            close(fds[i]);
            fds[i] = moved;
        }
    return 0;
}

static int make_pipes(struct spawn_pipes *ps, struct jail_error *err)
{
    int *all = (int *)ps;
    for (size_t i = 0; i < sizeof *ps / sizeof(int); i++) all[i] = -1;
    if (make_pipe(ps->in) < 0 || make_pipe(ps->out) < 0 || make_pipe(ps->err) < 0 ||
        make_pipe(ps->report) < 0 || make_pipe(ps->go) < 0 || make_pipe(ps->status) < 0) {
        int saved = errno;
        close_pipes(ps);
        return jail_fail_errno(err, saved, "pipe");
    }
    return 0;
}

static int write_all(int fd, struct iovec *v, int n, struct jail_error *err)
{
    while (n > 0) {
        ssize_t w = writev(fd, v, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return jail_fail_errno(err, errno, "signal the jail's set-up");
        for (; n > 0 && (size_t)w >= v->iov_len; v++, n--) w -= (ssize_t)v->iov_len;
        if (n > 0) {
            v->iov_base = (char *)v->iov_base + w;
            v->iov_len -= (size_t)w;
        }
    }
    return 0;
}

static int send_go(int fd, char byte, struct jail_error *err)
{
    struct iovec v = {&byte, 1};
    return write_all(fd, &v, 1, err);
}

/* The launch record; a pipe large enough for it is asked for, so the write
 * does not wait for the child to read. */
static int send_launch(int fd, const char *args, size_t len, struct jail_error *err)
{
    struct launch_header h = {LAUNCH_MAGIC, (uint32_t)len};
    struct iovec v[2] = {{&h, sizeof h}, {(void *)args, len}};
    if (sizeof h + len > 65536) fcntl(fd, F_SETPIPE_SZ, (int)(sizeof h + len));
    return write_all(fd, v, len ? 2 : 1, err);
}

/* 1: a record, 0: end of file (execve done, or the child died), -1: error or timeout. */
static int read_msg(int fd, uint64_t deadline, struct child_msg *m, struct jail_error *err)
{
    for (;;) {
        ssize_t n = read(fd, m, sizeof *m);
        if (n == (ssize_t)sizeof *m) return 1;
        if (n == 0) return 0;
        if (n > 0) return jail_fail(err, "short record from the jail's set-up");
        if (errno == EINTR) continue;
        if (errno != EAGAIN) return jail_fail_errno(err, errno, "read the jail's set-up");
        uint64_t now = monotonic_ns();
        if (now >= deadline)
            return jail_fail(err, "the jail's set-up did not finish within %llu s",
                             (unsigned long long)(SETUP_TIMEOUT_NS / 1000000000u));
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        struct timespec left = ns_to_timespec(deadline - now);
        ppoll(&pfd, 1, &left, NULL);
    }
}

static int child_error(const struct spawn_pending *sp, const struct child_msg *m, struct jail_error *err)
{
    char step[sizeof m->step];
    copy_step(step, sizeof step, m->step);
    if (strcmp(step, "execve") != 0) return jail_fail_errno(err, m->value, "%s", step);
    jail_fail_errno(err, m->value, "execve %s", sp->argv0);
    if (err) err->exec_errno = m->value;
    return -1;
}

static uint64_t process_cpu_ns(pid_t pid)
{
    clockid_t clock;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &clock) == 0 && clock_gettime(clock, &ts) == 0)
        return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return 0;
}

static void read_baselines(const struct spawn_pending *sp, struct spawn_result *out)
{
    out->base_proc_ns = process_cpu_ns(out->cmd_pid);
    out->base_init_ns = process_cpu_ns(out->pid);
    out->base_cgroup_ns = sp->cgroup ? cgroup_cpu_ns(sp->cgroup) : 0;
    out->start_ns = monotonic_ns();
}

/* The command (the init's only child) has sent its first record: find it. */
static int find_command(struct spawn_result *out, struct jail_error *err)
{
    if (jail_init_command_pid(out->pid, &out->cmd_pid, err) < 0) return -1;
    out->cmd_pidfd = pidfd_open(out->cmd_pid, 0);
    if (out->cmd_pidfd < 0)
        return jail_fail_errno(err, errno, "pidfd_open(the command, pid %d)", (int)out->cmd_pid);
    return 0;
}

/* After "G": take the listener, send the launch record, wait for exec (or not). */
static int handshake(struct spawn_pending *sp, const char *args, size_t len, bool wait_exec,
                     struct spawn_result *out, struct jail_error *err)
{
    uint64_t deadline = monotonic_ns() + SETUP_TIMEOUT_NS;
    struct child_msg m;
    bool released = false;
    for (;;) {
        int got = read_msg(sp->pipes.report[0], deadline, &m, err);
        if (got < 0) return -1;
        if (got == 0) return released ? 0 : jail_fail(err, "the jail's set-up process died before execve");
        if (m.kind == MSG_ERROR) return child_error(sp, &m, err);
        if (released) return jail_fail(err, "unexpected record from the jail's set-up");
        if (find_command(out, err) < 0) return -1;
        if (m.kind == MSG_LISTENER && (out->listener_fd = pidfd_getfd(out->cmd_pidfd, m.value, 0)) < 0)
            return jail_fail_errno(err, errno, "pidfd_getfd(seccomp listener)");
        read_baselines(sp, out);
        if (send_launch(sp->pipes.go[1], args, len, err) < 0) return -1;
        if (!wait_exec) return 0;
        released = true;
    }
}

bool jail_spawn_exec_error(int report_fd, char *msg, size_t size)
{
    struct child_msg m;
    ssize_t n;
    while ((n = read(report_fd, &m, sizeof m)) < 0 && errno == EINTR) {
    }
    if (n != (ssize_t)sizeof m || m.kind != MSG_ERROR) return false;
    char step[sizeof m.step];
    copy_step(step, sizeof step, m.step);
    snprintf(msg, size, "%s failed: %s", step, strerror(m.value));
    return true;
}

static int attach_and_map(const struct spawn_plan *p, pid_t pid, bool cloned_into_cgroup,
                          struct jail_error *err)
{
    if ((p->clone_ns & CLONE_NEWUSER) && ns_user_write_maps(pid, &p->map, true, err) < 0) return -1;
    if (p->cgroup && cgroup_attach_rest(p->cgroup, pid, cloned_into_cgroup, err) < 0) return -1;
    return 0;
}

static void move_parent_ends(struct spawn_pending *sp, struct spawn_result *out)
{
    struct spawn_pipes *ps = &sp->pipes;
    out->pid = sp->pid;
    out->pidfd = sp->pidfd;
    sp->pidfd = -1;
    out->stdin_fd = ps->in[1];
    out->stdout_fd = ps->out[0];
    out->stderr_fd = ps->err[0];
    out->status_fd = ps->status[0];
    ps->in[1] = ps->out[0] = ps->err[0] = ps->status[0] = -1;
    out->report_fd = ps->report[0];   /* still open only when the launch did not wait */
    ps->report[0] = -1;
    fcntl(out->status_fd, F_SETFL, O_NONBLOCK);
    fcntl(out->stdin_fd, F_SETFL, O_NONBLOCK);
    fcntl(out->stdout_fd, F_SETFL, O_NONBLOCK);
    fcntl(out->stderr_fd, F_SETFL, O_NONBLOCK);
}

void jail_spawn_abandon(struct spawn_pending *sp)
{
    if (sp->pidfd >= 0) {
        pidfd_send_signal(sp->pidfd, SIGKILL, NULL, 0);
        while (waitpid(sp->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    close_fd(&sp->pidfd);
    close_pipes(&sp->pipes);
}

static void drop_result(struct spawn_result *out)
{
    close_fd(&out->pidfd);
    close_fd(&out->cmd_pidfd);
    close_fd(&out->listener_fd);
    close_fd(&out->stdin_fd);
    close_fd(&out->stdout_fd);
    close_fd(&out->stderr_fd);
    close_fd(&out->status_fd);
    close_fd(&out->report_fd);
}

static void keep_argv0(struct spawn_pending *sp, const char *argv0)
{
    size_t n = strlen(argv0);
    if (n >= sizeof sp->argv0) n = sizeof sp->argv0 - 1;
    memcpy(sp->argv0, argv0, n);
    sp->argv0[n] = '\0';
}

static int spawn_clone(const struct spawn_plan *p, struct spawn_pending *sp, struct jail_error *err)
{
    memset(sp, 0, sizeof *sp);
    sp->pidfd = -1;
    keep_argv0(sp, p->argv[0]);
    if (make_pipes(&sp->pipes, err) < 0) return -1;
    struct spawn_pipes *ps = &sp->pipes;
    int cgroup_fd = p->cgroup ? cgroup_dir_fd(p->cgroup) : -1;
    pid_t pid = clone3_fork(p->clone_ns, cgroup_fd, &sp->pidfd);
    if (pid == -ENOSYS && cgroup_fd >= 0) { /* no clone3: attach after clone instead */
        cgroup_fd = -1;
        pid = clone3_fork(p->clone_ns, cgroup_fd, &sp->pidfd);
    }
    if (pid == 0) {
        close(ps->go[1]); /* a judge killed before "go" then gives EOF, not a wait forever */
        struct child_fds f = {ps->in[0], ps->out[1], ps->err[1], ps->report[1], ps->go[0], ps->status[1]};
        if (p->flat_workdir) child_main_flat(p, &f);
        child_main(p, &f);
    }
    close_fd(&ps->in[0]);
    close_fd(&ps->out[1]);
    close_fd(&ps->err[1]);
    close_fd(&ps->report[1]);
    close_fd(&ps->go[0]);
    close_fd(&ps->status[1]);
    if (pid < 0) {
        sp->pidfd = -1;
        close_pipes(ps);
        return jail_fail_errno(err, -pid, "clone3");
    }
    sp->pid = pid;
    sp->cloned_into_cgroup = cgroup_fd >= 0;
    fcntl(ps->report[0], F_SETFL, O_NONBLOCK);
    return 0;
}

static int spawn_release(const struct spawn_plan *p, struct spawn_pending *sp, struct jail_error *err)
{
    sp->cgroup = p->cgroup;
    if (attach_and_map(p, sp->pid, sp->cloned_into_cgroup, err) < 0 || send_go(sp->pipes.go[1], 'G', err) < 0) {
        jail_spawn_abandon(sp);
        return -1;
    }
    return 0;
}

int jail_spawn_begin(const struct spawn_plan *p, struct spawn_pending *sp, struct jail_error *err)
{
    if (spawn_clone(p, sp, err) < 0) return -1;
    return spawn_release(p, sp, err);
}

int jail_spawn_complete(struct spawn_pending *sp, const char *args, size_t len, bool wait_exec,
                        struct spawn_result *out, struct jail_error *err)
{
    memset(out, 0, sizeof *out);
    out->pidfd = out->cmd_pidfd = out->listener_fd = out->stdin_fd = out->stdout_fd = out->stderr_fd = -1;
    out->status_fd = out->report_fd = -1;
    if (len > JAIL_LAUNCH_BYTES_MAX || (len > 0 && args[len - 1] != '\0')) {
        jail_spawn_abandon(sp);
        return jail_fail(err, "launch arguments: more than %u bytes, or not NUL-terminated",
                         JAIL_LAUNCH_BYTES_MAX);
    }
    out->pid = sp->pid;
    if (handshake(sp, args, len, wait_exec, out, err) < 0) {
        drop_result(out);
        jail_spawn_abandon(sp);
        return -1;
    }
    move_parent_ends(sp, out);
    if (wait_exec) close_fd(&out->report_fd);
    close_pipes(&sp->pipes);
    return 0;
}

int jail_spawn(const struct spawn_plan *p, struct spawn_result *out, struct jail_error *err)
{
    struct spawn_pending sp;
    if (jail_spawn_begin(p, &sp, err) < 0) return -1;
    return jail_spawn_complete(&sp, NULL, 0, true, out, err);
}
