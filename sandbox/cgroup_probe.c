/*
 * cgroup_probe.c - which cgroup backend this machine offers, where we may
 * create cgroups, and what works there. Each backend is tried by making our
 * parent directory ("judge/") and one throw-away child in it, so every bool
 * in struct cgroup_caps is what a real jail cgroup will get.
 *
 * v2: as root, under the hierarchy's root; otherwise under our own (delegated)
 * cgroup. Controllers are enabled in cgroup.subtree_control on the way down;
 * if our base cgroup holds processes ("no internal processes" rule), we first
 * move ourselves into the leaf "judge-supervisor".
 * v1: one parent per controller, under the root of its hierarchy, else under
 * our own cgroup there, whichever is writable; then, if a cgroup2 hierarchy
 * can freeze and kill, hybrid mode (cgroup_hybrid.c).
 */
#include "sandbox/cgroup_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SUPERVISOR_LEAF "judge-supervisor"
#define FIX_CONTAINER "run the container with --cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw"
#define FIX_USER "run under systemd-run --user --scope -p Delegate=yes"
#define FIX_USER_ALONE                                                                                       \
    "start the judge alone in a scope of its own (systemd-run --user --scope -p Delegate=yes judge ...), "  \
    "not from a shell inside one"

/* What one throw-away child cgroup offered. */
struct child_files {
    bool memory, memory_swap, pids, cpu, freeze, kill;
    bool peak_read_only; /* v2 memory.peak that cannot be reset (Linux 5.19 to 6.11) */
};

static void caps_reset(struct cgroup_caps *caps)
{
    memset(caps, 0, sizeof *caps);
}

static int caps_none(struct cgroup_caps *caps, struct jail_error *err, const char *why)
{
    caps->version = CGROUP_NONE;
    snprintf(caps->why, sizeof caps->why, "%s", why);
    return cgroup_fail(err, "%s", why);
}

static int caps_none_from(struct cgroup_caps *caps, struct jail_error *err, const char *backend,
                          const char *msg)
{
    char why[sizeof caps->why];
    cgroup_text(why, sizeof why, "%s: %s", backend, msg);
    return caps_none(caps, err, why);
}

static const char *fix_for(int errnum)
{
    if (errnum == EROFS)
        return FIX_CONTAINER;
    return geteuid() == 0 ? FIX_CONTAINER : FIX_USER;
}

static int make_dir(const struct cgroup_dir *parent, const char *name, struct cgroup_dir *out,
                    struct jail_error *err)
{
    out->fd = -1;
    if (mkdirat(parent->fd, name, 0755) < 0 && errno != EEXIST)
        return cgroup_fail(err, "cannot create cgroup %s/%s: %s; %s", parent->path, name,
                           strerror(errno), fix_for(errno));
    return cgroup_dir_open(out, parent->fd, parent->path, name, err);
}

/* The probe's child of parent (probe_children.c removes it, or keeps it for the first jail). */
static int try_child(const struct cgroup_dir *parent, struct child_files *got, struct jail_error *err)
{
    const char *name = probe_children_name();
    struct cgroup_dir child;
    if (make_dir(parent, name, &child, err) < 0) {
        unlinkat(parent->fd, name, AT_REMOVEDIR);
        return -1;
    }
    got->memory = cgroup_file_exists(&child, "memory.max")
                   || cgroup_file_exists(&child, "memory.limit_in_bytes");
    got->memory_swap = cgroup_file_exists(&child, "memory.swap.max")
                        || cgroup_file_exists(&child, "memory.memsw.limit_in_bytes");
    got->pids = cgroup_file_exists(&child, "pids.max");
    got->cpu = cgroup_file_exists(&child, "cpu.stat") || cgroup_file_exists(&child, "cpuacct.usage");
    got->freeze = cgroup_file_exists(&child, "cgroup.freeze")
                   || cgroup_file_exists(&child, "freezer.state");
    got->kill = cgroup_file_exists(&child, "cgroup.kill");
    struct stat peak;
    got->peak_read_only = fstatat(child.fd, "memory.peak", &peak, AT_SYMLINK_NOFOLLOW) == 0
                          && !(peak.st_mode & S_IWUSR);
    cgroup_dir_close(&child);
    probe_children_made(parent->path);
    return 0;
}

/* ---------------------------------------------------------------- v2 ---- */

static bool offers(const char *offered, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = offered; (p = strstr(p, name)); p += len)
        if ((p == offered || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    return false;
}

/* The controllers we want below a directory, of those it offers. */
static void wanted_controllers(const char *offered, char *want, size_t cap)
{
    bool memory = offers(offered, "memory"), pids = offers(offered, "pids");
    cgroup_text(want, cap, "%s%s%s", memory ? "+memory" : "", memory && pids ? " " : "",
                pids ? "+pids" : "");
}

static int leave_for_leaf(const struct cgroup_dir *base, struct jail_error *err)
{
    struct cgroup_dir leaf;
    if (make_dir(base, SUPERVISOR_LEAF, &leaf, err) < 0)
        return -1;
    int rc = cgroup_file_write(&leaf, "cgroup.procs", "0", err);
    cgroup_dir_close(&leaf);
    return rc;
}

static bool already_enabled(const struct cgroup_dir *dir, const char *want)
{
    char enabled[256];
    struct jail_error ignored;
    if (cgroup_file_read(dir, "cgroup.subtree_control", enabled, sizeof enabled, &ignored) < 0)
        return false;
    enabled[strcspn(enabled, "\n")] = '\0';
    bool memory = strstr(want, "memory") != NULL, pids = strstr(want, "pids") != NULL;
    return (!memory || offers(enabled, "memory")) && (!pids || offers(enabled, "pids"));
}

/* EBUSY: the "no internal processes" rule. We can move ourselves, not others. */
static int enable_controllers(const struct cgroup_dir *dir, const char *want, bool may_move,
                              struct jail_error *err)
{
    if (!want[0] || already_enabled(dir, want))
        return 0;
    if (cgroup_file_write(dir, "cgroup.subtree_control", want, err) == 0)
        return 0;
    if (errno != EBUSY || !may_move)
        return -1;
    if (leave_for_leaf(dir, err) < 0)
        return -1;
    if (cgroup_file_write(dir, "cgroup.subtree_control", want, err) == 0)
        return 0;
    if (geteuid() != 0)
        return cgroup_fail(err, "other processes share the judge's cgroup %s: %s", dir->path, FIX_USER_ALONE);
    return cgroup_fail(err, "cannot enable %s in %s/cgroup.subtree_control: other processes live "
                            "there (move them to a leaf cgroup, or %s)", want, dir->path, FIX_CONTAINER);
}

static void trim_newline(char *s)
{
    s[strcspn(s, "\n")] = '\0';
}

int cgroup_v2_base_path(const char *base, char *out, size_t cap, struct jail_error *err)
{
    if (base) {
        int n = snprintf(out, cap, "%s", base);
        return n < 0 || (size_t)n >= cap ? cgroup_fail(err, "cgroup base path too long: %s", base) : 0;
    }
    char mount[CGROUP_PATH_MAX], own[CGROUP_PATH_MAX];
    if (cgroup_find_mount(NULL, mount, sizeof mount) < 0)
        return cgroup_fail(err, "no cgroup2 hierarchy mounted; %s", FIX_CONTAINER);
    if (geteuid() == 0 || cgroup_own_path(NULL, own, sizeof own) < 0 || strcmp(own, "/") == 0)
        own[0] = '\0';
    /* An earlier probe of ours moved us into the leaf: the base is its parent. */
    char *leaf = strrchr(own, '/');
    if (leaf && strcmp(leaf + 1, SUPERVISOR_LEAF) == 0)
        *leaf = '\0';
    int n = snprintf(out, cap, "%s%s", mount, own);
    return n < 0 || (size_t)n >= cap ? cgroup_fail(err, "cgroup path too long: %s%s", mount, own) : 0;
}

static void v2_explain_missing(struct cgroup_caps *caps, const char *offered)
{
    char mem_v1[CGROUP_PATH_MAX];
    bool v1_owns = cgroup_find_mount("memory", mem_v1, sizeof mem_v1) == 0;
    cgroup_text(caps->why, sizeof caps->why,
             "cgroup v2 at %s: no %s%s%s controller (cgroup.controllers: \"%s\"); %s", caps->root,
             caps->memory ? "" : "memory", !caps->memory && !caps->pids ? "/" : "",
             caps->pids ? "" : "pids", offered,
             v1_owns ? "they are bound to cgroup v1 hierarchies (a cgroup v1 machine)"
                     : geteuid() == 0 ? "enable them in the parent's cgroup.subtree_control" : FIX_USER);
}

/* Open base, enable what it offers, make base/judge and enable it there too. */
static int v2_prepare(const char *base_path, bool auto_mode, struct cgroup_dir *parent,
                      char *offered, size_t cap, struct jail_error *err)
{
    struct cgroup_dir base;
    if (cgroup_dir_open_path(&base, base_path, err) < 0)
        return -1;
    char want[64];
    if (cgroup_file_read(&base, "cgroup.controllers", offered, cap, err) < 0) {
        cgroup_dir_close(&base);
        return -1;
    }
    trim_newline(offered);
    wanted_controllers(offered, want, sizeof want);
    int rc = 0;
    if (auto_mode && strcmp(want, "+memory +pids") != 0)
        rc = cgroup_fail(err, "%s does not offer both memory and pids controllers "
                              "(cgroup.controllers: \"%s\")", base_path, offered);
    if (rc == 0)
        rc = enable_controllers(&base, want, true, err);
    if (rc == 0)
        rc = make_dir(&base, CGROUP_PARENT_NAME, parent, err);
    cgroup_dir_close(&base);
    if (rc == 0 && (rc = enable_controllers(parent, want, false, err)) < 0)
        cgroup_dir_close(parent);
    return rc;
}

static int probe_v2(const char *base, bool auto_mode, struct cgroup_caps *caps, struct jail_error *err)
{
    caps_reset(caps);
    char base_path[CGROUP_PATH_MAX], offered[256];
    struct cgroup_dir parent;
    struct child_files got;
    struct jail_error why;
    if (cgroup_v2_base_path(base, base_path, sizeof base_path, &why) < 0
        || v2_prepare(base_path, auto_mode, &parent, offered, sizeof offered, &why) < 0)
        return caps_none_from(caps, err, "cgroup v2", why.msg);
    if (strlen(parent.path) >= sizeof caps->root) {
        cgroup_dir_close(&parent);
        return caps_none_from(caps, err, "cgroup v2", "directory path too long");
    }
    strcpy(caps->root, parent.path);
    int rc = try_child(&parent, &got, &why);
    cgroup_dir_close(&parent);
    if (rc < 0)
        return caps_none_from(caps, err, "cgroup v2", why.msg);
    caps->memory = got.memory;
    caps->memory_swap = got.memory_swap;
    caps->pids = got.pids;
    caps->cpu = got.cpu;
    caps->freeze = got.freeze;
    caps->kill = got.kill;
    caps->reusable = !(got.memory && got.peak_read_only);
    if (!got.cpu || !got.freeze)
        return caps_none(caps, err, "cgroup v2: no cpu.stat or cgroup.freeze (kernel older than 5.2)");
    caps->version = CGROUP_V2;
    cgroup_text(caps->freezer_how, sizeof caps->freezer_how, "cgroup v2 freezer");
    if (!caps->memory || !caps->pids)
        v2_explain_missing(caps, offered);
    cgroup_sweep_stale(caps);
    return 0;
}

/* ---------------------------------------------------------------- v1 ---- */

static int v1_mount_path(const char *base, const char *ctrl, char *out, size_t cap,
                         struct jail_error *err)
{
    if (base) {
        int n = snprintf(out, cap, "%s/%s", base, ctrl);
        return n < 0 || (size_t)n >= cap ? cgroup_fail(err, "cgroup base path too long: %s", base) : 0;
    }
    if (cgroup_find_mount(ctrl, out, cap) < 0)
        return cgroup_fail(err, "no %s hierarchy mounted; %s", ctrl, FIX_CONTAINER);
    return 0;
}

/* Make <dir>/judge and check a child can be made in it. */
static int v1_try_parent(const char *dir, struct cgroup_dir *parent, struct child_files *got,
                         struct jail_error *err)
{
    struct cgroup_dir top;
    if (cgroup_dir_open_path(&top, dir, err) < 0)
        return -1;
    int rc = make_dir(&top, CGROUP_PARENT_NAME, parent, err);
    cgroup_dir_close(&top);
    if (rc == 0 && (rc = try_child(parent, got, err)) < 0)
        cgroup_dir_close(parent);
    return rc;
}

static int v1_find_parent(const char *base, const char *ctrl, struct cgroup_dir *parent,
                          struct child_files *got, struct jail_error *err)
{
    char mount[CGROUP_PATH_MAX], own[CGROUP_PATH_MAX], inside[2 * CGROUP_PATH_MAX];
    if (v1_mount_path(base, ctrl, mount, sizeof mount, err) < 0)
        return -1;
    if (v1_try_parent(mount, parent, got, err) == 0)
        return 0;
    if (base || cgroup_own_path(ctrl, own, sizeof own) < 0 || strcmp(own, "/") == 0)
        return -1;
    struct jail_error first = *err;
    snprintf(inside, sizeof inside, "%s%s", mount, own);
    if (v1_try_parent(inside, parent, got, err) == 0)
        return 0;
    *err = first;
    return -1;
}

static void v1_note(struct cgroup_caps *caps, int ctrl, const struct child_files *got)
{
    switch (ctrl) {
    case CG_V1_MEMORY:
        caps->memory = got->memory;
        caps->memory_swap = got->memory_swap;
        break;
    case CG_V1_CPUACCT:
        caps->cpu = got->cpu;
        break;
    case CG_V1_PIDS:
        caps->pids = got->pids;
        break;
    default:
        /* No cgroup.kill in v1: kill_all freezes and signals every member. */
        caps->freeze = caps->kill = got->freeze;
        break;
    }
}

static int probe_v1(const char *base, struct cgroup_caps *caps, struct jail_error *err)
{
    caps_reset(caps);
    char missing[256] = "";
    for (int i = 0; i < CG_V1_COUNT; i++) {
        struct cgroup_dir parent;
        struct child_files got;
        struct jail_error why;
        if (v1_find_parent(base, cgroup_v1_ctrl_names[i], &parent, &got, &why) < 0) {
            if (!missing[0])
                cgroup_text(missing, sizeof missing, "cgroup v1 %s: %s", cgroup_v1_ctrl_names[i], why.msg);
            continue;
        }
        bool fits = strlen(parent.path) < sizeof caps->v1_root[i];
        if (fits)
            strcpy(caps->v1_root[i], parent.path);
        cgroup_dir_close(&parent);
        if (!fits) {
            cgroup_text(missing, sizeof missing, "cgroup v1 %s: path too long", cgroup_v1_ctrl_names[i]);
            continue;
        }
        v1_note(caps, i, &got);
    }
    if (missing[0])
        return caps_none(caps, err, missing);
    caps->version = CGROUP_V1;
    caps->reusable = true; /* memory.max_usage_in_bytes can be reset */
    if (!caps->memory_swap)
        snprintf(caps->why, sizeof caps->why,
                 "cgroup v1: no memory.memsw.* (swap accounting off): boot with swapaccount=1");
    cgroup_hybrid_probe(base, caps);
    if (!caps->hybrid) /* the hybrid freezes through its cgroup2 twin */
        cgroup_v1_keep_freezer_on(caps);
    cgroup_sweep_stale(caps);
    return 0;
}

/* ------------------------------------------------------------ public ---- */

static int probe_at(enum cgroup_version v, const char *base, struct cgroup_caps *caps, struct jail_error *err)
{
    if (v == CGROUP_V2)
        return probe_v2(base, false, caps, err);
    if (v == CGROUP_V1)
        return probe_v1(base, caps, err);
    caps_reset(caps);
    return caps_none(caps, err, "cgroups turned off (JUDGE_CGROUP_VERSION=none)");
}

static const char *env_base(void)
{
    const char *base = getenv("JUDGE_CGROUP_ROOT");
    return base && *base ? base : NULL;
}

int cgroup_probe_at(enum cgroup_version v, const char *base, struct cgroup_caps *caps, struct jail_error *err)
{
    probe_children_begin();
    int rc = probe_at(v, base, caps, err);
    probe_children_end(caps, false);
    return rc;
}

int cgroup_probe_version(enum cgroup_version v, struct cgroup_caps *caps, struct jail_error *err)
{
    return cgroup_probe_at(v, env_base(), caps, err);
}

static int forced_version(const char *text, enum cgroup_version *v)
{
    if (strcmp(text, "1") == 0 || strcmp(text, "v1") == 0)
        *v = CGROUP_V1;
    else if (strcmp(text, "2") == 0 || strcmp(text, "v2") == 0)
        *v = CGROUP_V2;
    else if (strcmp(text, "none") == 0 || strcmp(text, "0") == 0)
        *v = CGROUP_NONE;
    else
        return -1;
    return 0;
}

static int probe_any(struct cgroup_caps *caps, struct jail_error *err);

static int probe_keeping(struct cgroup_caps *caps, bool keep, struct jail_error *err)
{
    probe_children_begin();
    cgroup_mounts_keep(true);
    int rc = probe_any(caps, err);
    cgroup_mounts_keep(false);
    probe_children_end(caps, keep && rc == 0);
    return rc;
}

int cgroup_probe(struct cgroup_caps *caps, struct jail_error *err)
{
    return probe_keeping(caps, false, err);
}

int cgroup_probe_for_jails(struct cgroup_caps *caps, struct jail_error *err)
{
    return probe_keeping(caps, true, err);
}

static int probe_any(struct cgroup_caps *caps, struct jail_error *err)
{
    const char *forced = getenv("JUDGE_CGROUP_VERSION");
    if (forced && *forced) {
        enum cgroup_version v;
        if (forced_version(forced, &v) < 0) {
            caps_reset(caps);
            char why[200];
            snprintf(why, sizeof why, "JUDGE_CGROUP_VERSION=%.40s: expected 1, 2 or none", forced);
            return caps_none(caps, err, why);
        }
        return probe_at(v, env_base(), caps, err);
    }
    struct jail_error v2_err, v1_err;
    if (probe_v2(env_base(), true, caps, &v2_err) == 0 && caps->memory && caps->pids)
        return 0;
    if (probe_v1(env_base(), caps, &v1_err) == 0)
        return 0;
    char why[sizeof caps->why];
    cgroup_text(why, sizeof why, "no usable cgroups: %.120s | %.120s", v2_err.msg, v1_err.msg);
    return caps_none(caps, err, why);
}
