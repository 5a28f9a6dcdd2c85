/* doctor_probe.c - try every isolation layer on this machine, one row each. */
#include "sandbox/doctor_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cgroup.h"

#define FIX_DOCKER_UNCONFINED "docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined ..."
#define FIX_CGROUP_DELEGATE "systemd-run --user --scope -p Delegate=yes judge ..."
#define FIX_CGROUP_CONTAINER "mount cgroup2 rw: --cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw"

/* Facts every check's fix depends on. */
struct machine {
    bool root;
    bool privileged;  /* root with CAP_SYS_ADMIN: jails then need no user namespace to start */
    bool container;
    int kernel_major, kernel_minor;
};

const char *doctor_status_name(enum doctor_status s)
{
    static const char *const names[] = {"on", "degraded", "off", "info"};
    return s <= DOCTOR_INFO ? names[s] : "?";
}

__attribute__((format(printf, 4, 5)))
static struct doctor_row *add_row(struct doctor_result *r, const char *layer, enum doctor_status status,
                                  const char *detail_fmt, ...)
{
    static struct doctor_row overflow; /* never used: the probes add at most 30 rows */
    struct doctor_row *row = r->count < DOCTOR_MAX_ROWS ? &r->rows[r->count++] : &overflow;
    memset(row, 0, sizeof *row);
    snprintf(row->layer, sizeof row->layer, "%s", layer);
    row->status = status;
    va_list ap;
    va_start(ap, detail_fmt);
    vsnprintf(row->detail, sizeof row->detail, detail_fmt, ap);
    va_end(ap);
    return row;
}

static void set_fix(struct doctor_row *row, const char *fix)
{
    if (row->status != DOCTOR_ON && row->status != DOCTOR_INFO)
        snprintf(row->fix, sizeof row->fix, "%.199s", fix);
}

/* ---- children ----------------------------------------------------------------- */

/* Run fn in a forked child; its result is 0 (worked) or an errno value. */
static int in_child(int (*fn)(const void *), const void *arg)
{
    pid_t pid = fork();
    if (pid < 0)
        return errno;
    if (pid == 0)
        _exit(fn(arg) & 0xff);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return errno;
    if (WIFSIGNALED(status))
        return EINTR;  /* the probe died: report it as not working */
    return WEXITSTATUS(status);
}

static bool has_effective_cap(cap_value_t cap)
{
    cap_t now = cap_get_proc();
    cap_flag_value_t value = CAP_CLEAR;
    if (now)
        cap_get_flag(now, cap, CAP_EFFECTIVE, &value);
    cap_free(now);
    return value == CAP_SET;
}

/* Root without CAP_SYS_ADMIN (a container's default) is unprivileged to the
 * jail too (jail_global.c): both make other namespaces inside a new user one. */
static bool privileged(void)
{
    return geteuid() == 0 && has_effective_cap(CAP_SYS_ADMIN);
}

static int enter_namespaces(int flags)
{
    if (!privileged())
        flags |= CLONE_NEWUSER;
    return unshare(flags) < 0 ? errno : 0;
}

static int try_namespace(const void *arg)
{
    int flags = *(const int *)arg;
    int rc = enter_namespaces(flags);
    if (rc)
        return rc;
    if (flags & CLONE_NEWNS && mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
        return errno;
    if (flags & CLONE_NEWUTS && sethostname("doctor", 6) < 0) /* a jail names itself */
        return errno;
    if (flags & CLONE_NEWPID) {
        pid_t pid = fork();
        if (pid < 0)
            return errno;
        if (pid == 0)
            _exit(getpid() == 1 ? 0 : EPERM);
        int status;
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
            return ECHILD;
        return WEXITSTATUS(status);
    }
    return 0;
}

/* A tmpfs over /tmp, in this child's own mount namespace only, becomes its
 * root. pivot_root(".", ".") stacks the old root on the new one, so no
 * directory has to be made (an unmapped user namespace cannot create files). */
static int try_pivot_root(const void *unused)
{
    (void)unused;
    int rc = enter_namespaces(CLONE_NEWNS);
    if (rc)
        return rc;
    if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
        mount("doctor", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k") < 0 ||
        chdir("/tmp") < 0 ||
        syscall(SYS_pivot_root, ".", ".") < 0 ||
        umount2(".", MNT_DETACH) < 0)
        return errno;
    return 0;
}

static int try_seccomp_listener(const void *unused)
{
    (void)unused;
    unsigned action = SECCOMP_RET_USER_NOTIF;
    if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) < 0)
        return errno;
    struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {1, &allow};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return errno;
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    return fd < 0 ? errno : 0;
}

/* A jail's own /proc in a new pid namespace, as a jail mounts it. Inside a user
 * namespace the kernel refuses it while /proc has masked (over-mounted) paths. */
static int try_proc_mount(const void *unused)
{
    (void)unused;
    int rc = enter_namespaces(CLONE_NEWNS | CLONE_NEWPID);
    if (rc)
        return rc;
    pid_t pid = fork();
    if (pid < 0)
        return errno;
    if (pid == 0)
        _exit(mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
              mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0 ? errno : 0);
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return ECHILD;
    return WEXITSTATUS(status);
}

/* As the judge takes a jail's seccomp listener: from a non-dumpable process
 * of another uid in root mode (which needs CAP_SYS_PTRACE), of its own uid otherwise. */
static int try_pidfd_getfd(const void *unused)
{
    (void)unused;
    int ready[2];
    char c = 'r';
    if (pipe2(ready, O_CLOEXEC) < 0)
        return errno;
    pid_t pid = fork();
    if (pid < 0)
        return errno;
    if (pid == 0) {
        if (privileged() && (setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0))
            _exit(1);
        if (write(ready[1], &c, 1) == 1)
            pause();
        _exit(0);
    }
    close(ready[1]); /* the child's copy stays: it is the fd taken */
    int rc = read(ready[0], &c, 1) == 1 ? 0 : ECHILD;
    long pidfd = rc ? -1 : syscall(SYS_pidfd_open, pid, 0);
    if (!rc && (pidfd < 0 || syscall(SYS_pidfd_getfd, (int)pidfd, ready[1], 0) < 0))
        rc = errno;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return rc;
}

static int try_drop_capabilities(const void *unused)
{
    (void)unused;
    if (geteuid() != 0 && unshare(CLONE_NEWUSER) < 0)
        return errno;
    for (int cap = 0; cap < (int)cap_max_bits(); cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
            return errno;
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
        return errno;
    cap_t none = cap_init();
    int rc = none && cap_set_proc(none) == 0 ? 0 : errno;
    cap_free(none);
    return rc;
}

static int try_no_new_privs(const void *unused)
{
    (void)unused;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return errno;
    return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : EINVAL;
}

/* ---- namespaces, pivot_root, seccomp, capabilities -------------------------------- */

static void probe_namespaces(struct doctor_result *r, const struct machine *m)
{
    static const struct { const char *layer, *flag_name; int flag; } ns[] = {
        {"user_ns", "CLONE_NEWUSER", CLONE_NEWUSER}, {"pid_ns", "CLONE_NEWPID", CLONE_NEWPID},
        {"mount_ns", "CLONE_NEWNS", CLONE_NEWNS},    {"net_ns", "CLONE_NEWNET", CLONE_NEWNET},
        {"ipc_ns", "CLONE_NEWIPC", CLONE_NEWIPC},    {"uts_ns", "CLONE_NEWUTS", CLONE_NEWUTS},
        {"cgroup_ns", "CLONE_NEWCGROUP", CLONE_NEWCGROUP},
    };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        int rc = in_child(try_namespace, &ns[i].flag);
        const char *via = !m->privileged && ns[i].flag != CLONE_NEWUSER ? " (inside a new user namespace)" : "";
        struct doctor_row *row = add_row(r, ns[i].layer, rc ? DOCTOR_OFF : DOCTOR_ON, "unshare(%s)%s: %s",
                                         ns[i].flag_name, via, rc ? strerror(rc) : "works");
        if (m->container)
            set_fix(row, FIX_DOCKER_UNCONFINED);
        else if (ns[i].flag == CLONE_NEWUSER || !m->root)
            set_fix(row, "sysctl kernel.unprivileged_userns_clone=1; sysctl user.max_user_namespaces=15000");
        else
            set_fix(row, "a kernel built with this namespace (CONFIG_*_NS)");
    }
}

static void probe_pivot_root(struct doctor_result *r, const struct machine *m)
{
    int rc = in_child(try_pivot_root, NULL);
    struct doctor_row *row = add_row(r, "pivot_root", rc ? DOCTOR_OFF : DOCTOR_ON,
                                     "pivot_root into a tmpfs in a new mount namespace: %s",
                                     rc ? strerror(rc) : "works");
    set_fix(row, m->container ? FIX_DOCKER_UNCONFINED
                              : "run from a real root filesystem (pivot_root cannot leave an initramfs)");
    rc = in_child(try_proc_mount, NULL);
    row = add_row(r, "proc_mount", rc ? DOCTOR_OFF : DOCTOR_ON, "mount a new /proc in a new pid namespace%s: %s",
                  m->privileged ? "" : " (inside a new user namespace)", rc ? strerror(rc) : "works");
    set_fix(row, m->container ? "docker run --security-opt systempaths=unconfined ... (podman: unmask=ALL)"
                              : "a /proc without masked paths (mount_too_revealing)");
}

static bool kernel_at_least(const struct machine *m, int major, int minor)
{
    return m->kernel_major > major || (m->kernel_major == major && m->kernel_minor >= minor);
}

static void probe_seccomp(struct doctor_result *r, const struct machine *m)
{
    int rc = in_child(try_seccomp_listener, NULL);
    struct doctor_row *row = add_row(r, "seccomp", rc ? DOCTOR_OFF : DOCTOR_ON,
                                     "filter with user notification (kernel %d.%d, needs >= 5.0): %s",
                                     m->kernel_major, m->kernel_minor, rc ? strerror(rc) : "works");
    set_fix(row, m->container ? "docker run --security-opt seccomp=unconfined ..."
                              : "Linux >= 5.0 with CONFIG_SECCOMP_FILTER");
    rc = in_child(try_pidfd_getfd, NULL);
    row = add_row(r, "seccomp_pidfd_getfd", rc ? DOCTOR_OFF : DOCTOR_ON,
                  "pidfd_getfd of a listener%s (needs >= 5.9%s): %s",
                  m->privileged ? " from another uid" : "",
                  kernel_at_least(m, 5, 9) ? (m->privileged ? " and CAP_SYS_PTRACE" : "") : ", this kernel is older",
                  rc ? strerror(rc) : "works");
    set_fix(row, m->container ? "docker run --cap-add SYS_PTRACE --security-opt seccomp=unconfined ..."
                              : "Linux >= 5.9");
}

static void probe_privileges(struct doctor_result *r, const struct machine *m)
{
    int rc = in_child(try_drop_capabilities, NULL);
    struct doctor_row *row = add_row(r, "capabilities", rc ? DOCTOR_OFF : DOCTOR_ON,
                                     "drop bounding, ambient and effective sets%s: %s",
                                     m->root ? "" : " (inside a new user namespace)", rc ? strerror(rc) : "works");
    set_fix(row, m->root ? FIX_DOCKER_UNCONFINED : "sysctl kernel.unprivileged_userns_clone=1, or run as root");
    rc = in_child(try_no_new_privs, NULL);
    row = add_row(r, "no_new_privs", rc ? DOCTOR_OFF : DOCTOR_ON, "prctl(PR_SET_NO_NEW_PRIVS): %s",
                  rc ? strerror(rc) : "works");
    set_fix(row, "Linux >= 3.5");
}

/* ---- cgroups ------------------------------------------------------------------ */

static const char *version_name(enum cgroup_version v)
{
    return v == CGROUP_V2 ? "v2" : v == CGROUP_V1 ? "v1" : "none";
}

static const char *cgroup_fix(const struct machine *m)
{
    if (!m->root)
        return FIX_CGROUP_DELEGATE " (or run as root)";
    return m->container ? FIX_CGROUP_CONTAINER : "mount -t cgroup2 none /sys/fs/cgroup";
}

/* One backend on its own: usable here, or why not. */
static void cgroup_backend_row(struct doctor_result *r, const struct machine *m, enum cgroup_version v)
{
    struct jail_error err = {0};
    struct cgroup_caps caps;
    const char *layer = v == CGROUP_V1 ? "cgroup_v1" : "cgroup_v2";
    struct doctor_row *row;
    if (cgroup_probe_version(v, &caps, &err) < 0 || caps.version == CGROUP_NONE)
        row = add_row(r, layer, DOCTOR_OFF, "%.190s", err.msg[0] ? err.msg : caps.why);
    else
        row = add_row(r, layer, caps.memory && caps.pids && caps.cpu && caps.freeze ? DOCTOR_ON : DOCTOR_DEGRADED,
                      "usable: memory %s, pids %s, cpu %s, freezer %s",
                      caps.memory ? "yes" : "no", caps.pids ? "yes" : "no", caps.cpu ? "yes" : "no",
                      caps.freeze ? "yes" : "no");
    set_fix(row, row->status == DOCTOR_DEGRADED && caps.why[0] ? caps.why : cgroup_fix(m));
}

static void probe_cgroup_version(struct doctor_result *r, const struct machine *m, struct cgroup_caps *caps)
{
    cgroup_backend_row(r, m, CGROUP_V1);
    cgroup_backend_row(r, m, CGROUP_V2);
    struct jail_error err = {0};
    if (cgroup_probe(caps, &err) < 0 && caps->version != CGROUP_NONE) {
        memset(caps, 0, sizeof *caps);
        snprintf(caps->why, sizeof caps->why, "%.250s", err.msg);
    }
    struct doctor_row *row = add_row(r, "cgroup", caps->version == CGROUP_NONE ? DOCTOR_OFF : DOCTOR_ON,
                                     "in use: %s", version_name(caps->version));
    set_fix(row, cgroup_fix(m));
}

static void controller_row(struct doctor_result *r, const struct machine *m, const struct cgroup_caps *caps,
                           const char *layer, bool present, const char *what)
{
    struct doctor_row *row;
    if (caps->version == CGROUP_NONE) {
        row = add_row(r, layer, DOCTOR_OFF, "%s: no usable cgroup (see the cgroup rows)", what);
        set_fix(row, cgroup_fix(m));
        return;
    }
    row = add_row(r, layer, present ? DOCTOR_ON : DOCTOR_OFF, "%s (cgroup %s): %s", what,
                  version_name(caps->version), present ? "available" : "missing");
    set_fix(row, caps->version == CGROUP_V2 ? "enable it in the parent: echo +CONTROLLER > cgroup.subtree_control"
                                            : "mount the v1 controller under /sys/fs/cgroup/CONTROLLER");
}

/* cgroup.kill is a file of cgroup v2 (5.14 on): where the kernel has it, what is missing is a
 * v2 cgroup of the judge's own, as for the other cgroup rows. */
static const char *cgroup_kill_fix(const struct machine *m, const struct cgroup_caps *caps)
{
    if (!kernel_at_least(m, 5, 14)) return "Linux >= 5.14 with cgroup v2";
    if (!m->root || caps->version == CGROUP_NONE) return cgroup_fix(m);
    if (m->container) return FIX_CGROUP_CONTAINER;
    return "mount a cgroup2 hierarchy beside v1 (mount -t cgroup2 none /sys/fs/cgroup/unified), "
           "or boot with cgroup v2 alone (systemd.unified_cgroup_hierarchy=1)";
}

static void probe_controllers(struct doctor_result *r, const struct machine *m, const struct cgroup_caps *caps)
{
    controller_row(r, m, caps, "memory_limit", caps->memory, "memory controller");
    struct doctor_row *row = add_row(r, "memory_swap", caps->memory_swap ? DOCTOR_ON : DOCTOR_DEGRADED,
                                     "swap accounting: %s", caps->memory_swap ? "available" : "missing");
    set_fix(row, caps->version == CGROUP_NONE ? cgroup_fix(m)
                 : caps->version == CGROUP_V1 ? "boot with swapaccount=1"
                                              : "a kernel with CONFIG_MEMCG_SWAP");
    controller_row(r, m, caps, "pids_limit", caps->pids, "pids controller");
    controller_row(r, m, caps, "cpu_meter", caps->cpu, "cpu accounting");
    controller_row(r, m, caps, "freezer", caps->freeze, caps->freezer_how[0] ? caps->freezer_how : "freezer");
    row = add_row(r, "cgroup_kill", caps->kill ? DOCTOR_ON : DOCTOR_DEGRADED, "cgroup.kill: %s",
                  caps->kill ? "available" : "missing (freeze and kill each process instead)");
    set_fix(row, cgroup_kill_fix(m, caps));
}

/* The unified hierarchy's mount point, from /proc/self/mountinfo ("" when none). */
static void find_cgroup2_mount(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return;
    char line[1024];
    while (!out[0] && fgets(line, sizeof line, f)) {
        char mountpoint[512], fstype[64];
        const char *sep = strstr(line, " - ");
        if (sep && sscanf(line, "%*s %*s %*s %*s %511s", mountpoint) == 1 &&
            sscanf(sep + 3, "%63s", fstype) == 1 && !strcmp(fstype, "cgroup2"))
            snprintf(out, size, "%s", mountpoint);
    }
    fclose(f);
}

/* This process's own v2 cgroup path ("/" inside a cgroup namespace or at the root). */
static void own_cgroup2_path(char *out, size_t size)
{
    snprintf(out, size, "/");
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "0::", 3)) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, size, "%.*s", (int)size - 1, line + 3);
        }
    fclose(f);
}

static void probe_delegation(struct doctor_result *r, const struct machine *m)
{
    if (m->root) {
        add_row(r, "delegation", DOCTOR_INFO, "not needed: running as root");
        return;
    }
    char mount_dir[512], own[512], dir[1100];
    find_cgroup2_mount(mount_dir, sizeof mount_dir);
    own_cgroup2_path(own, sizeof own);
    snprintf(dir, sizeof dir, "%s%s", mount_dir, own);
    struct doctor_row *row;
    if (!mount_dir[0])
        row = add_row(r, "delegation", DOCTOR_OFF, "no cgroup v2 hierarchy mounted");
    else if (access(dir, W_OK) < 0)
        row = add_row(r, "delegation", DOCTOR_OFF, "own cgroup %.120s is not writable: %s", dir, strerror(errno));
    else
        row = add_row(r, "delegation", DOCTOR_ON, "own cgroup %.150s is writable (delegated)", dir);
    set_fix(row, m->container ? FIX_CGROUP_DELEGATE "; in a container: " FIX_CGROUP_CONTAINER : FIX_CGROUP_DELEGATE);
}

/* ---- facts -------------------------------------------------------------------- */

static bool file_contains(const char *path, const char *const *needles)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        for (const char *const *n = needles; *n && !found; n++)
            found = strstr(line, *n) != NULL;
    fclose(f);
    return found;
}

/* Is "/" an overlay (the usual root of a container image)? */
static bool root_is_overlay(void)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return false;
    char line[1024];
    bool overlay = false;
    while (!overlay && fgets(line, sizeof line, f)) {
        char mountpoint[512];
        const char *sep = strstr(line, " - ");
        overlay = sep && sscanf(line, "%*s %*s %*s %*s %511s", mountpoint) == 1 && !strcmp(mountpoint, "/") &&
                  !strncmp(sep + 3, "overlay ", 8);
    }
    fclose(f);
    return overlay;
}

static void probe_container(struct doctor_result *r, struct machine *m)
{
    static const char *const runtimes[] = {"docker", "kubepods", "containerd", "libpod", "lxc", NULL};
    char evidence[200] = "";
    size_t len = 0;
    const char *env = getenv("container");
    const struct { bool found; const char *what; } signs[] = {
        {access("/.dockerenv", F_OK) == 0, "/.dockerenv"},
        {access("/run/.containerenv", F_OK) == 0, "/run/.containerenv"},
        {file_contains("/proc/1/cgroup", runtimes), "/proc/1/cgroup names a runtime"},
        {root_is_overlay(), "/ is an overlay mount"},
        {env && *env, "$container is set"},
    };
    for (size_t i = 0; i < sizeof signs / sizeof signs[0]; i++)
        if (signs[i].found && len < sizeof evidence)
            len += (size_t)snprintf(evidence + len, sizeof evidence - len, "%s%s", len ? ", " : "", signs[i].what);
    m->container = len > 0;
    add_row(r, "container", DOCTOR_INFO, "%s%s", m->container ? "inside a container: " : "no container detected",
            evidence);
}

static void probe_machine(struct doctor_result *r, struct machine *m)
{
    m->root = geteuid() == 0;
    m->privileged = privileged();
    add_row(r, "root", DOCTOR_INFO, m->root ? "running as root" : "running as uid %u (unprivileged)",
            (unsigned)geteuid());
    struct utsname u;
    if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &m->kernel_major, &m->kernel_minor) == 2)
        add_row(r, "kernel", DOCTOR_INFO, "Linux %.64s", u.release);
    else
        add_row(r, "kernel", DOCTOR_INFO, "unknown kernel version");
    probe_container(r, m);
}

/* ---- the verdict --------------------------------------------------------------- */

static void append_missing(struct doctor_result *r, const char *name)
{
    size_t len = strlen(r->missing);
    snprintf(r->missing + len, sizeof r->missing - len, "%s%s", len ? ", " : "", name);
}

static struct doctor_row *find_row(struct doctor_result *r, const char *layer)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->rows[i].layer, layer))
            return &r->rows[i];
    return NULL;
}

/* How to get a layer the jail runs degraded or off. */
static const char *jail_layer_fix(int layer, const struct machine *m)
{
    switch (layer) {
    case LAYER_USER_NS: return "run the judge as root: each jail then gets its own host uid";
    case LAYER_MEMORY_LIMIT: case LAYER_PIDS_LIMIT: case LAYER_CPU_METER: case LAYER_FREEZER:
        return cgroup_fix(m);
    default: return "see the rows above";
    }
}

/* The jail's own view decides strict mode: a layer it does not run fully
 * shows with the jail's state and what it falls back to. */
static void show_jail_layer(struct doctor_result *r, const struct machine *m, int layer)
{
    enum doctor_status status = r->jail.state[layer] == LAYER_DEGRADED ? DOCTOR_DEGRADED : DOCTOR_OFF;
    struct doctor_row *row = find_row(r, jail_layer_name(layer));
    if (!row) {
        row = add_row(r, jail_layer_name(layer), status, "the jail runs it as: %.64s", r->jail.how[layer]);
    } else {
        size_t len = strlen(row->detail);
        snprintf(row->detail + len, sizeof row->detail - len, "; the jail runs it as: %.64s", r->jail.how[layer]);
    }
    row->status = status;
    set_fix(row, jail_layer_fix(layer, m));
}

/* Steps every jail takes that jail_global_init does not try (pivot_root, its
 * /proc, sethostname): failing here, no jail can start in either mode. */
static void check_start_steps(struct doctor_result *r)
{
    static const char *const steps[] = {"pivot_root", "proc_mount", "uts_ns"};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        const struct doctor_row *row = find_row(r, steps[i]);
        if (row && row->status == DOCTOR_OFF && !strstr(r->missing, steps[i])) {
            r->strict_available = false;
            append_missing(r, steps[i]);
        }
    }
}

static void judge_strict_mode(struct doctor_result *r, const struct machine *m)
{
    struct jail_error err = {0};
    if (jail_global_init(ISOLATION_BEST_EFFORT, &r->jail, &err) < 0) {
        struct doctor_row *row = add_row(r, "jail", DOCTOR_OFF, "the jail cannot start: %.160s", err.msg);
        set_fix(row, "see the rows above");
        r->strict_available = false;
        append_missing(r, "jail");
        return;
    }
    r->strict_available = true;
    for (int l = 0; l < LAYER_COUNT; l++)
        if (r->jail.state[l] != LAYER_ON) {
            r->strict_available = false;
            append_missing(r, jail_layer_name(l));
            show_jail_layer(r, m, l);
        }
    check_start_steps(r);
}

int doctor_probe(struct doctor_result *out, struct jail_error *err)
{
    memset(out, 0, sizeof *out);
    struct machine m = {0};
    struct cgroup_caps caps;
    probe_machine(out, &m);
    probe_namespaces(out, &m);
    probe_pivot_root(out, &m);
    probe_seccomp(out, &m);
    probe_privileges(out, &m);
    probe_cgroup_version(out, &m, &caps);
    probe_controllers(out, &m, &caps);
    probe_delegation(out, &m);
    judge_strict_mode(out, &m);
    (void)err;
    return 0;
}
