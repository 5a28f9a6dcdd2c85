/*
 * jail_global.c - process-wide set-up, done once: find out what this machine
 * lets us use, prepare what every jail shares (the judge's private mount
 * namespace, the empty network namespace, the runtime directory), and decide
 * for each isolation layer whether it is on, degraded (and what replaces it)
 * or off. Strict mode refuses when any layer is not on; best-effort runs and
 * reports. The probe is always taken in the best-effort view; the mode is
 * checked against it separately, so one process can run both kinds of jails.
 */
#include "sandbox/jail_flat.h"
#include "sandbox/seccomp_policy.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static struct jail_global global;
static bool global_ready;
static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static char expected_profile[64]; /* jail_global_expect_profile's, compiled during the probes */

/* Namespaces every jail creates, probed one by one in a throw-away child. */
static const struct {
    int flag;
    enum jail_layer layer;
} ns_layers[] = {
    {CLONE_NEWNS, LAYER_MOUNT_NS}, {CLONE_NEWPID, LAYER_PID_NS}, {CLONE_NEWNET, LAYER_NET_NS},
    {CLONE_NEWIPC, LAYER_IPC_NS},  {CLONE_NEWUTS, LAYER_UTS_NS}, {CLONE_NEWCGROUP, LAYER_CGROUP_NS},
};
#define NS_LAYER_COUNT (sizeof ns_layers / sizeof *ns_layers)

static void set_layer(struct jail_global *g, enum jail_layer l, enum layer_state s, const char *how,
                      const char *fix)
{
    g->probe.state[l] = s;
    snprintf(g->probe.how[l], sizeof g->probe.how[l], "%.63s", how);
    snprintf(g->fix[l], sizeof g->fix[l], "%.127s", fix ? fix : "");
}

static bool has_cap(int cap)
{
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, data) < 0) return false;
    return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

/* mkdir if missing; it must then be a real directory of ours that nobody else can write. */
static int own_private_dir(const char *path, mode_t mode, struct jail_error *err)
{
    if (mkdir(path, mode) < 0 && errno != EEXIST) return jail_fail_errno(err, errno, "mkdir %s", path);
    struct stat st;
    if (lstat(path, &st) < 0) return jail_fail_errno(err, errno, "stat %s", path);
    if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
        return jail_fail(err, "%s must be a directory owned by uid %u, writable by it alone", path,
                         (unsigned)geteuid());
    return 0;
}

static int prepare_runtime_dir(struct jail_global *g, struct jail_error *err)
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (geteuid() == 0) /* root without CAP_SYS_ADMIN too: its uid slots are the machine's */
        snprintf(g->runtime_dir, sizeof g->runtime_dir, "/run/judge");
    else if (xdg && xdg[0] == '/' && strlen(xdg) < sizeof g->runtime_dir - 8)
        snprintf(g->runtime_dir, sizeof g->runtime_dir, "%s/judge", xdg);
    else
        snprintf(g->runtime_dir, sizeof g->runtime_dir, "/tmp/judge-%u", (unsigned)geteuid());
    snprintf(g->root_mount, sizeof g->root_mount, "%s/root", g->runtime_dir);
    if (own_private_dir(g->runtime_dir, geteuid() == 0 ? 0755 : 0700, err) < 0) return -1;
    return own_private_dir(g->root_mount, 0755, err);
}

/* Scratch tmpfs mounts then live only in the judge's namespace and die with it. */
static void enter_private_mount_ns(struct jail_global *g)
{
    g->private_mounts =
        unshare(CLONE_NEWNS) == 0 && mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0;
}

/* The probes that run beside the judge's own are started first, and waited for after. */
static int exit_status_of(pid_t pid)
{
    int status;
    if (pid < 0) return -1;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define SECCOMP_REFUSED (1 << NS_LAYER_COUNT) /* in the probe's result */
#define ALL_REFUSED     (((1 << NS_LAYER_COUNT) - 1) | SECCOMP_REFUSED)

/* The throw-away probe tries each namespace but those in `skip`, then installing
 * the seccomp filter `prog` (NULL: it did not compile). Its result has bit i set
 * when ns_layers[i] failed, and SECCOMP_REFUSED when the filter was. As root it
 * is a thread of ours (namespaces and filters are per thread, and a thread costs
 * no copy of the judge's address space); without root it must first unshare a
 * user namespace, which only a single-threaded process may: a child then. */
struct probe {
    bool need_userns, threaded;
    int skip, failed;
    const struct seccomp_program *prog;
    pid_t pid;
    pthread_t thread;
};

static int try_namespaces_and_filter(const struct probe *p)
{
    int failed = 0;
    if (p->need_userns && unshare(CLONE_NEWUSER) < 0)
        failed = (1 << NS_LAYER_COUNT) - 1;
    else
        for (size_t i = 0; i < NS_LAYER_COUNT; i++)
            if (!(ns_layers[i].flag & p->skip) && unshare(ns_layers[i].flag) < 0) failed |= 1 << i;
    int listener = -1;
    if (p->prog && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) listener = seccomp_policy_install(p->prog);
    if (listener < 0) failed |= SECCOMP_REFUSED;
    if (listener >= 0) close(listener); /* no call of ours waits on it: with it gone they fail ENOSYS */
    return failed;
}

static void *probe_thread(void *arg)
{
    struct probe *p = arg;
    p->failed = try_namespaces_and_filter(p);
    return NULL;
}

/* A privileged judge's probe leaves the network namespace out: making the one all jails
 * share (start_shared_netns) is its probe, and a network namespace is the dearest to
 * make (about a millisecond). */
static void start_probe(const struct jail_global *g, const struct seccomp_program *prog, struct probe *p)
{
    *p = (struct probe){
        .need_userns = !g->privileged, .skip = g->privileged ? CLONE_NEWNET : 0, .prog = prog};
    if (g->privileged) {
        sigset_t all, saved;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &saved);
        p->threaded = pthread_create(&p->thread, NULL, probe_thread, p) == 0;
        pthread_sigmask(SIG_SETMASK, &saved, NULL);
        if (p->threaded) return;
    }
    p->pid = clone3_fork(0, -1, NULL);
    if (p->pid == 0) _exit(try_namespaces_and_filter(p));
}

/* What failed in the probe: everything when it could not be run. */
static int probe_failures(struct probe *p)
{
    if (p->threaded) {
        pthread_join(p->thread, NULL);
        return p->failed;
    }
    int status = exit_status_of(p->pid);
    return status < 0 ? ALL_REFUSED : status;
}

/* As root the probe makes the namespace of the uid slot this process tries first, and
 * keeps it for that slot's jails: making one costs a process. */
static void probe_userns(struct jail_global *g)
{
    int slot = g->privileged ? jail_identity_first_slot() : -1;
    uid_t uid = g->privileged ? (uid_t)(JAIL_UID_BASE + (unsigned)slot) : getuid();
    gid_t gid = g->privileged ? (gid_t)(JAIL_UID_BASE + (unsigned)slot) : getgid();
    struct id_map map = {JAIL_INNER_UID, uid, JAIL_INNER_GID, gid};
    struct jail_error err = {0};
    int fd;
    char fix[128];
    g->userns_ok = ns_user_create(&map, !g->privileged, &fd, &err) == 0;
    if (g->userns_ok && g->privileged)
        jail_identity_keep_userns(slot, fd);
    else if (g->userns_ok)
        close(fd);
    if (g->userns_ok && g->privileged)
        set_layer(g, LAYER_USER_NS, LAYER_ON, "unique host uid per jail (flock'ed slots)", NULL);
    else if (g->privileged) {
        snprintf(fix, sizeof fix, "allow user namespaces for root (%.90s)", err.msg);
        set_layer(g, LAYER_USER_NS, LAYER_DEGRADED, "unique host uid per jail, no user namespace", fix);
    } else if (g->userns_ok)
        set_layer(g, LAYER_USER_NS, LAYER_DEGRADED, "own uid only (not root)",
                  "run the judge as root so every jail gets its own host uid");
    else {
        snprintf(fix, sizeof fix, "enable user namespaces or run as root (%.70s)", err.msg);
        set_layer(g, LAYER_USER_NS, LAYER_OFF, "unavailable", fix);
    }
}

static void probe_other_namespaces(struct jail_global *g, int failed)
{
    for (size_t i = 0; i < NS_LAYER_COUNT; i++) {
        enum jail_layer l = ns_layers[i].layer;
        if (failed & (1 << i))
            set_layer(
                g, l, LAYER_OFF, "unavailable",
                "the kernel or container refuses this namespace: run on a host or a privileged container");
        else
            set_layer(g, l, LAYER_ON, "own namespace", NULL);
    }
    if (g->probe.state[LAYER_NET_NS] == LAYER_ON)
        snprintf(g->probe.how[LAYER_NET_NS], sizeof g->probe.how[0], "%s",
                 g->privileged ? "shared empty netns (loopback down)" : "new empty netns per jail");
    if (g->probe.state[LAYER_UTS_NS] == LAYER_ON)
        snprintf(g->probe.how[LAYER_UTS_NS], sizeof g->probe.how[0], "hostname %s", JAIL_HOSTNAME);
    if (g->probe.state[LAYER_PID_NS] == LAYER_ON)
        snprintf(g->probe.how[LAYER_PID_NS], sizeof g->probe.how[0], "own pid namespace, command is pid 1");
    bool mounts = g->probe.state[LAYER_MOUNT_NS] == LAYER_ON;
    set_layer(g, LAYER_PIVOT_ROOT, mounts ? LAYER_ON : LAYER_OFF,
              mounts ? "fresh tmpfs root, read-only" : "unavailable without a mount namespace",
              mounts ? NULL : g->fix[LAYER_MOUNT_NS]);
}

static pthread_mutex_t template_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mount_template_job template_job;
static int template_fd = -1;

/* A child of fork() (a tournament's compile workers) would not have the builder thread. */
static void finish_template_before_fork(void)
{
    (void)jail_global_template_fd();
}

/* Built by a thread while the judge goes on, taken when the first jail needs it. Failing
 * only costs speed: jails then build their root whole. A thread started earlier, beside
 * the probes, was measured slower here: it competes with them for the CPUs. */
static void start_mount_template(const struct jail_global *g)
{
    struct jail_error ignored;
    if (g->privileged && g->probe.state[LAYER_MOUNT_NS] == LAYER_ON &&
        mount_template_start(g->root_mount, !g->private_mounts, &template_job, &ignored) == 0)
        pthread_atfork(finish_template_before_fork, NULL, NULL);
}

int jail_global_template_fd(void)
{
    pthread_mutex_lock(&template_lock);
    struct jail_error ignored;
    if (template_job.started)
        mount_template_finish(&template_job, &template_fd, &ignored);
    int fd = template_fd;
    pthread_mutex_unlock(&template_lock);
    return fd;
}

/* A network namespace is the dearest to make (about half a millisecond here): a thread makes
 * the shared one while the cgroup probe runs. unshare and setns change only its own namespace. */
struct netns_job {
    pthread_t thread;
    bool started;
    int fd, rc;
    struct jail_error err;
};

static void *make_shared_netns(void *arg)
{
    struct netns_job *job = arg;
    job->rc = ns_net_create_empty(&job->fd, &job->err);
    return NULL;
}

static void start_shared_netns(const struct jail_global *g, struct netns_job *job)
{
    job->fd = -1;
    job->started = g->privileged && pthread_create(&job->thread, NULL, make_shared_netns, job) == 0;
}

/* After probe_other_namespaces: the namespace made, or why the layer is off. */
static void finish_shared_netns(struct jail_global *g, struct netns_job *job)
{
    if (!g->privileged)
        return;
    if (job->started)
        pthread_join(job->thread, NULL);
    else
        make_shared_netns(job);
    if (g->probe.state[LAYER_NET_NS] != LAYER_ON) {
        if (job->fd >= 0)
            close(job->fd);
        return;
    }
    if (job->rc == 0)
        g->shared_netns_fd = job->fd;
    else
        set_layer(g, LAYER_NET_NS, LAYER_OFF, "unavailable", job->err.msg);
}

/* A filter already on us (a container runtime's) wins over our notification
 * with its errno: the calls it refuses would fail unreported. */
static bool seccomp_filter_inherited(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[128];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f)) found = !strncmp(line, "Seccomp:\t2", 10);
    if (f) fclose(f);
    return found;
}

/* The built-in profiles come compiled by the build; an expected profile with extra
 * calls is compiled by libseccomp (about a millisecond) beside the cgroup probe, and
 * seccomp_policy_get keeps it for the jails. */
static void *compile_expected_profile(void *unused)
{
    const struct seccomp_program *prog;
    struct jail_error ignored; /* the jail asks again and reports */
    (void)unused;
    seccomp_policy_get(expected_profile, &prog, &ignored);
    return NULL;
}

/* The default profile's program (NULL, and the layer off with why, when it does not compile). */
static const struct seccomp_program *default_policy(struct jail_global *g)
{
    const struct seccomp_program *prog;
    struct jail_error err;
    if (seccomp_policy_get(NULL, &prog, &err) == 0) return prog;
    set_layer(g, LAYER_SECCOMP, LAYER_OFF, "policy does not compile", err.msg);
    return NULL;
}

static void probe_seccomp(struct jail_global *g, bool have_policy, int failed)
{
    if (!have_policy) return;
    g->seccomp_ok = !(failed & SECCOMP_REFUSED);
    /* Root-mode and flat jails run as other uids: taking their listener (pidfd_getfd) needs CAP_SYS_PTRACE. */
    if (g->seccomp_ok && (g->privileged || g->flat_setid) && !has_cap(CAP_SYS_PTRACE)) {
        g->seccomp_ok = false;
        set_layer(g, LAYER_SECCOMP, LAYER_OFF, "listener cannot be taken (no CAP_SYS_PTRACE)",
                  "give the judge CAP_SYS_PTRACE (docker run --cap-add SYS_PTRACE)");
    } else if (g->seccomp_ok && seccomp_filter_inherited())
        set_layer(g, LAYER_SECCOMP, LAYER_DEGRADED, "under an inherited filter: its refusals unreported",
                  "start the judge without a seccomp filter (docker run --security-opt seccomp=unconfined)");
    else if (g->seccomp_ok)
        set_layer(g, LAYER_SECCOMP, LAYER_ON, "allow-list, user-notified violations", NULL);
    else
        set_layer(g, LAYER_SECCOMP, LAYER_OFF, "filter with a listener refused",
                  "needs Linux >= 5.0 with CONFIG_SECCOMP_FILTER, outside a seccomp-restricted container");
}

static void describe_cgroup_layers(struct jail_global *g)
{
    const struct cgroup_caps *c = &g->cgroup;
    const char *v = c->version == CGROUP_V2 ? "v2" : "v1";
    char how[64];
    bool any = c->version != CGROUP_NONE;
    snprintf(g->probe.cgroup_backend, sizeof g->probe.cgroup_backend, "%s", any ? v : "none");
    const char *fix =
        c->why[0] ? c->why : "mount the cgroup controllers (v1) or delegate a cgroup v2 subtree";
    snprintf(how, sizeof how, "cgroup %s memory%s", v, c->memory_swap ? ", swap excluded" : "");
    if (any && c->memory)
        set_layer(g, LAYER_MEMORY_LIMIT, LAYER_ON, how, NULL);
    else
        set_layer(g, LAYER_MEMORY_LIMIT, LAYER_DEGRADED, "rlimit RLIMIT_DATA per process; MEMORY_LIMIT a guess",
                  fix);
    snprintf(how, sizeof how, "cgroup %s pids", v);
    if (any && c->pids)
        set_layer(g, LAYER_PIDS_LIMIT, LAYER_ON, how, NULL);
    else
        /* RLIMIT_NPROC, per uid in the jail's user namespace: a fork it refuses is an errno
         * in the bot, seen by nothing else (no pids.events), so no verdict can say so. */
        set_layer(g, LAYER_PIDS_LIMIT, LAYER_DEGRADED, "rlimit RLIMIT_NPROC; PROCESS_LIMIT never reported",
                  fix);
    snprintf(how, sizeof how, "process clock + cgroup %s %s", v,
             c->version == CGROUP_V2 ? "cpu.stat" : "cpuacct");
    if (any && c->cpu)
        set_layer(g, LAYER_CPU_METER, LAYER_ON, how, NULL);
    else
        set_layer(g, LAYER_CPU_METER, LAYER_DEGRADED, "process clock; children counted at its end, not as they run",
                  fix);
    if (c->freezer_how[0])
        snprintf(how, sizeof how, "%s", c->freezer_how);
    else
        snprintf(how, sizeof how, "cgroup %s freezer", v);
    if (any && c->freeze)
        set_layer(g, LAYER_FREEZER, LAYER_ON, how, NULL);
    else
        set_layer(g, LAYER_FREEZER, LAYER_DEGRADED, "SIGSTOP of its init and command; children run on", fix);
}

static void probe_cgroup(struct jail_global *g)
{
    struct jail_error err;
    if (cgroup_probe_for_jails(&g->cgroup, &err) < 0) {
        memset(&g->cgroup, 0, sizeof g->cgroup);
        snprintf(g->cgroup.why, sizeof g->cgroup.why, "%s", err.msg);
    } else {
        atexit(cgroup_pool_drain); /* pooled cgroups are removed when the judge exits */
    }
    describe_cgroup_layers(g);
}

static void fill_always_on(struct jail_global *g)
{
    set_layer(g, LAYER_CAPABILITIES, LAYER_ON, "all five sets empty", NULL);
    set_layer(g, LAYER_NO_NEW_PRIVS, LAYER_ON, "PR_SET_NO_NEW_PRIVS", NULL);
    set_layer(g, LAYER_RLIMITS, LAYER_ON, "FSIZE NOFILE STACK CORE=0, CPU backstop", NULL);
}

/* No jail with namespaces can be built here: best-effort jails go without
 * (jail_flat.h), as the slot's uid when CAP_SETUID and CAP_SETGID allow. */
static void decide_flat(struct jail_global *g)
{
    g->flat = (!g->privileged && !g->userns_ok) || g->probe.state[LAYER_MOUNT_NS] != LAYER_ON ||
              g->probe.state[LAYER_PID_NS] != LAYER_ON;
    g->flat_setid = g->flat && geteuid() == 0 && has_cap(CAP_SETUID) && has_cap(CAP_SETGID);
    if (g->flat) flat_describe_layers(&g->probe, g->fix, g->flat_setid);
}

static void summarise(struct jail_global *g)
{
    g->probe.privileged = g->privileged;
    g->probe.degraded = false;
    for (int l = 0; l < LAYER_COUNT; l++)
        if (g->probe.state[l] != LAYER_ON) g->probe.degraded = true;
}

static int probe_all(struct jail_global *g, struct jail_error *err)
{
    memset(g, 0, sizeof *g);
    g->shared_netns_fd = -1;
    g->privileged = geteuid() == 0 && has_cap(CAP_SYS_ADMIN);
    g->usable_cpus = jail_usable_cpus();
    if (prepare_runtime_dir(g, err) < 0) return -1;
    if (g->privileged) enter_private_mount_ns(g);
    const struct seccomp_program *policy = default_policy(g);
    /* Without root the probe is a child, and the cgroup probe may move us into a leaf of our
     * delegated cgroup before it enables controllers there ("no internal processes"): a child
     * still in the old cgroup would make that fail, and jails go without their cgroup. */
    bool probe_is_child = !g->privileged;
    if (probe_is_child) probe_cgroup(g);
    /* A child started while a thread of ours runs (the user namespace's helper, beside the
     * probe's thread) makes bare system calls only: clone skips glibc's fork handlers. */
    struct probe probe;
    start_probe(g, policy, &probe);
    probe_userns(g);
    struct netns_job netns;
    start_shared_netns(g, &netns);
    pthread_t compiler;
    bool compiling = expected_profile[0] && seccomp_policy_needs_compile(expected_profile) &&
                     pthread_create(&compiler, NULL, compile_expected_profile, NULL) == 0;
    if (!probe_is_child) probe_cgroup(g);
    int failed = probe_failures(&probe);
    probe_other_namespaces(g, failed);
    finish_shared_netns(g, &netns);
    if (compiling) pthread_join(compiler, NULL);
    start_mount_template(g);
    decide_flat(g);
    probe_seccomp(g, policy != NULL, failed);
    fill_always_on(g);
    summarise(g);
    return 0;
}

int jail_global_ensure(const struct jail_global **out, struct jail_error *err)
{
    pthread_mutex_lock(&global_lock);
    int rc = 0;
    if (!global_ready) {
        rc = probe_all(&global, err);
        global_ready = rc == 0;
    }
    pthread_mutex_unlock(&global_lock);
    *out = &global;
    return rc;
}

void jail_global_expect_profile(const char *profile)
{
    pthread_mutex_lock(&global_lock);
    if (!global_ready && profile && strlen(profile) < sizeof expected_profile)
        snprintf(expected_profile, sizeof expected_profile, "%s", profile);
    pthread_mutex_unlock(&global_lock);
}

/* Room kept in a refusal for the list's end (", and 15 more") and its closing clause. */
#define REFUSAL_TAIL "; `judge doctor` says how to get them"
#define REFUSAL_TAIL_ROOM (sizeof REFUSAL_TAIL + 16)

/* Appends the layers after `first` that are not ON, ", "-separated, as many as leave
 * REFUSAL_TAIL_ROOM of out's size, then ", and N more": a list never cut inside a name. */
static void list_other_missing(const struct jail_global *g, int first, char *out, size_t size)
{
    size_t len = strlen(out);
    int listed = 0, left_out = 0;
    for (int l = first + 1; l < LAYER_COUNT; l++) {
        if (g->probe.state[l] == LAYER_ON) continue;
        const char *name = jail_layer_name(l);
        if (left_out || len + strlen(name) + 2 + REFUSAL_TAIL_ROOM >= size)
            left_out++;
        else
            len += (size_t)snprintf(out + len, size - len, "%s%s", listed++ ? ", " : "", name);
    }
    if (left_out) snprintf(out + len, size - len, "%sand %d more", listed ? ", " : "", left_out);
}

/* "strict isolation refused: user_ns is degraded (own uid only (not root)); also not fully on:
 * memory_limit, freezer; `judge doctor` says how to get them": every layer named, whole, in one
 * jail_error (the fixes, some longer than the message, are doctor's to print). */
int jail_global_check_mode(const struct jail_global *g, enum isolation_mode mode, struct jail_error *err)
{
    if (mode != ISOLATION_STRICT) return 0;
    int missing = 0, first = -1;
    for (int l = 0; l < LAYER_COUNT; l++)
        if (g->probe.state[l] != LAYER_ON && missing++ == 0) first = l;
    if (first < 0) return 0;
    char text[sizeof err->msg - sizeof "jail: " + 1];
    snprintf(text, sizeof text, "strict isolation refused: %s is %s (%.63s)%s", jail_layer_name(first),
             layer_state_name(g->probe.state[first]), g->probe.how[first],
             missing > 1 ? "; also not fully on: " : "");
    list_other_missing(g, first, text, sizeof text);
    return jail_fail(err, "%s%s", text, missing > 1 ? REFUSAL_TAIL : "; `judge doctor` says how to get it");
}

int jail_global_init(enum isolation_mode mode, struct isolation_report *probe, struct jail_error *err)
{
    const struct jail_global *g;
    if (jail_global_ensure(&g, err) < 0) return -1;
    if (probe) *probe = g->probe;
    if (mount_check_host_devices("/dev", err) < 0) return -1;
    return jail_global_check_mode(g, mode, err);
}
