/*
 * cgroup_hybrid.c - the v1 backend on a machine that also mounts a cgroup2
 * hierarchy (systemd's "hybrid" layout: /sys/fs/cgroup/unified, without
 * controllers). Each jail cgroup gets a twin directory of the same name there
 * (caps.hybrid_root), and every member is attached to both: limits and meters
 * stay v1's, while freezing and killing go through the twin's cgroup.freeze,
 * cgroup.events and cgroup.kill, which took tens of microseconds where the v1
 * freezer took milliseconds for a busy task (before cgroup_v1_keep_freezer_on:
 * now the v1 freezer is the faster of the two on the build machine, 28 against
 * 45 us for an exact reading of a running jail; kill still needs the twin).
 */
#include "sandbox/cgroup_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define HOW_HYBRID "v1 + cgroup2 freezer (hybrid)"
#define HOW_V1_FORCED "cgroup v1 freezer (JUDGE_CGROUP_HYBRID=0)"
#define HOW_V1_ONLY "cgroup v1 freezer (no usable cgroup2 hierarchy)"

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* ------------------------------------------------------------- probe ---- */

/* The cgroup2 directory the twins' parent goes in: <base>/unified under an
 * explicit v1 base, else the hierarchy from the mount table. */
static int twin_base(const char *base, char *out, size_t cap, struct jail_error *err)
{
    if (!base)
        return cgroup_v2_base_path(NULL, out, cap, err);
    int n = snprintf(out, cap, "%s/unified", base);
    struct statfs fs;
    if (n < 0 || (size_t)n >= cap || statfs(out, &fs) < 0 || fs.f_type != CGROUP2_SUPER_MAGIC)
        return cgroup_fail(err, "%s/unified: not a cgroup2 hierarchy", base);
    return 0;
}

static int open_parent(const char *base_path, struct cgroup_dir *parent, struct jail_error *err)
{
    struct cgroup_dir base;
    if (cgroup_dir_open_path(&base, base_path, err) < 0)
        return -1;
    parent->fd = -1;
    int rc = -1;
    if (mkdirat(base.fd, CGROUP_PARENT_NAME, 0755) == 0 || errno == EEXIST)
        rc = cgroup_dir_open(parent, base.fd, base.path, CGROUP_PARENT_NAME, err);
    else
        cgroup_fail_errno(err, errno, "mkdir", base.path, CGROUP_PARENT_NAME);
    cgroup_dir_close(&base);
    return rc;
}

/* Freeze, thaw and kill an (empty) cgroup2 directory: all must work. */
static int exercise(const struct cgroup_dir *d, struct jail_error *err)
{
    int freeze_fd, events_fd;
    int rc = cgroup_v2_open_freezer(d, &freeze_fd, &events_fd, err);
    if (rc == 0)
        rc = cgroup_v2_freeze_at(d, freeze_fd, events_fd, true, err);
    if (rc == 0)
        rc = cgroup_v2_freeze_at(d, freeze_fd, events_fd, false, err);
    if (rc == 0)
        rc = cgroup_v2_kill_at(d, events_fd, err);
    close_fd(&freeze_fd);
    close_fd(&events_fd);
    return rc;
}

/* Make and exercise the probe's twin (cgroup_probe_children.c removes it or keeps it). */
static int try_twin(const struct cgroup_dir *parent, struct jail_error *err)
{
    const char *name = probe_children_name();
    if (mkdirat(parent->fd, name, 0755) < 0)
        return cgroup_fail_errno(err, errno, "mkdir", parent->path, name);
    probe_children_made(parent->path);
    struct cgroup_dir d;
    int rc = cgroup_dir_open(&d, parent->fd, parent->path, name, err);
    if (rc == 0)
        rc = exercise(&d, err);
    cgroup_dir_close(&d);
    return rc;
}

static bool hybrid_wanted(void)
{
    const char *env = getenv("JUDGE_CGROUP_HYBRID");
    return !env || strcmp(env, "0") != 0;
}

void cgroup_hybrid_probe(const char *base, struct cgroup_caps *caps)
{
    caps->hybrid = false;
    caps->hybrid_root[0] = '\0';
    cgroup_text(caps->freezer_how, sizeof caps->freezer_how, "%s",
                hybrid_wanted() ? HOW_V1_ONLY : HOW_V1_FORCED);
    char base_path[CGROUP_PATH_MAX];
    struct cgroup_dir parent;
    struct jail_error ignored; /* without a twin, the v1 freezer serves */
    if (!hybrid_wanted() || twin_base(base, base_path, sizeof base_path, &ignored) < 0
        || open_parent(base_path, &parent, &ignored) < 0)
        return;
    bool usable = strlen(parent.path) < sizeof caps->hybrid_root && try_twin(&parent, &ignored) == 0;
    if (usable) {
        cgroup_text(caps->hybrid_root, sizeof caps->hybrid_root, "%s", parent.path);
        caps->hybrid = caps->freeze = caps->kill = true;
        cgroup_text(caps->freezer_how, sizeof caps->freezer_how, "%s", HOW_HYBRID);
    }
    cgroup_dir_close(&parent);
}

/* --------------------------------------------------------------- twin ---- */

static int twin_create(struct cgroup *cg, const char *name, struct jail_error *err)
{
    if (cgroup_dir_make(&cg->twin, cg->caps.hybrid_root, name, cg->adopted, err) < 0)
        return -1;
    return cgroup_v2_open_freezer(&cg->twin, &cg->freeze_fd, &cg->events_fd, err);
}

/* Close the twin's fds and rmdir it (if it was made or adopted: path set). */
static int twin_remove(struct cgroup *cg, struct jail_error *err)
{
    close_fd(&cg->freeze_fd);
    close_fd(&cg->events_fd);
    cgroup_dir_close(&cg->twin);
    if (!cg->twin.path[0])
        return 0;
    struct cgroup_dir parent;
    if (cgroup_dir_open_path(&parent, cg->caps.hybrid_root, err) < 0)
        return -1;
    int rc = 0;
    if (unlinkat(parent.fd, cg->name, AT_REMOVEDIR) < 0 && errno != ENOENT)
        rc = cgroup_fail_errno(err, errno, "rmdir", parent.path, cg->name);
    cgroup_dir_close(&parent);
    return rc;
}

/* ---------------------------------------------------------------- ops ---- */

static int hybrid_destroy(struct cgroup *cg, struct jail_error *err)
{
    struct jail_error later;
    int rc = twin_remove(cg, err);
    if (cgroup_v1_destroy(cg, rc < 0 ? &later : err) < 0)
        rc = -1;
    return rc;
}

static int hybrid_create(struct cgroup *cg, const char *name, struct jail_error *err)
{
    if (cgroup_v1_make_dirs(cg, name, err) < 0)
        return -1;
    if (twin_create(cg, name, err) == 0)
        return 0;
    hybrid_destroy(cg, NULL);
    return -1;
}

static int twin_attach(struct cgroup *cg, pid_t pid, struct jail_error *err)
{
    return cgroup_file_write_u64(&cg->twin, "cgroup.procs", (uint64_t)pid, err);
}

/* The twin first: a member it holds can always be killed. */
static int hybrid_attach(struct cgroup *cg, pid_t pid, struct jail_error *err)
{
    if (twin_attach(cg, pid, err) < 0)
        return -1;
    return cgroup_v1_attach(cg, pid, err);
}

static int hybrid_freeze(struct cgroup *cg, bool frozen, struct jail_error *err)
{
    return cgroup_v2_freeze_at(&cg->twin, cg->freeze_fd, cg->events_fd, frozen, err);
}

/* cgroup.kill on the twin (unless it is empty: then it may still be cloned
 * into, as on v2), then the v1 check: members outside the twin (an attach cut
 * short, a leftover of a judge without twins) are frozen with the v1 freezer
 * and signalled. Usually there are none: one read of cgroup.procs. */
static int hybrid_kill_all(struct cgroup *cg, struct jail_error *err)
{
    if (cgroup_v2_populated(cg->events_fd) != 0) {
        cg->killed = true;
        if (cgroup_v2_kill_at(&cg->twin, cg->events_fd, err) < 0)
            return -1;
    }
    return cgroup_kill_by_signal_with(cg, cgroup_v1_freeze_unkept, err);
}

const struct cgroup_ops cgroup_hybrid_ops = {
    .create = hybrid_create,
    .destroy = hybrid_destroy,
    .set_limits = cgroup_v1_set_limits,
    .reset = cgroup_v1_reset,
    .attach = hybrid_attach,
    .attach_rest = twin_attach,
    .cpu_ns_raw = cgroup_v1_cpu_ns_raw,
    .memory_peak = cgroup_v1_memory_peak,
    .counters = cgroup_v1_counters,
    .freeze = hybrid_freeze,
    .kill_all = hybrid_kill_all,
    .procs_dir = cgroup_v1_procs_dir,
};
