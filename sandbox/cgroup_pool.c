/*
 * cgroup_pool.c - the life of a jail's cgroup: acquire (take an emptied one
 * from the pool, or create one), release (kill everything, check it is empty,
 * keep it for the next jail, or remove it), and the pool itself. Reuse saves
 * the mkdir/rmdir and controller set-up of every jail.
 */
#include "sandbox/cgroup_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POOL_MAX 8

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cgroup *pool_head;
static unsigned pool_count;
static pid_t pool_owner; /* a forked child must neither reuse nor remove its parent's */

/* ------------------------------------------------------------- pool ---- */

static bool same_place(const struct cgroup_caps *a, const struct cgroup_caps *b)
{
    return a->version == b->version && strcmp(a->root, b->root) == 0
           && memcmp(a->v1_root, b->v1_root, sizeof a->v1_root) == 0 && a->hybrid == b->hybrid
           && strcmp(a->hybrid_root, b->hybrid_root) == 0;
}

static struct cgroup *pool_take(const struct cgroup_caps *caps)
{
    pthread_mutex_lock(&pool_lock);
    struct cgroup **link = &pool_head;
    while (*link && !same_place(&(*link)->caps, caps))
        link = &(*link)->next;
    struct cgroup *cg = pool_owner == getpid() ? *link : NULL;
    if (cg) {
        *link = cg->next;
        cg->next = NULL;
        pool_count--;
    }
    pthread_mutex_unlock(&pool_lock);
    return cg;
}

static bool pool_put(struct cgroup *cg)
{
    pthread_mutex_lock(&pool_lock);
    if (pool_count > 0 && pool_owner != getpid()) {
        pthread_mutex_unlock(&pool_lock);
        return false;
    }
    bool kept = pool_count < POOL_MAX;
    if (kept) {
        pool_owner = getpid();
        cg->next = pool_head;
        pool_head = cg;
        pool_count++;
    }
    pthread_mutex_unlock(&pool_lock);
    return kept;
}

int cgroup_destroy(struct cgroup *cg, struct jail_error *err)
{
    int rc = cg->ops->destroy(cg, err);
    free(cg);
    return rc;
}

/* Close our copies of an inherited cgroup's fds, leaving its directories be. */
static void forget(struct cgroup *cg)
{
    for (int i = 0; i < CG_V1_COUNT; i++)
        cgroup_dir_close(&cg->dirs[i]);
    cgroup_dir_close(&cg->twin);
    int *fds[] = { &cg->cpu_fd, &cg->peak_fd, &cg->events_fd, &cg->freeze_fd };
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (*fds[i] >= 0)
            close(*fds[i]);
    for (int i = 0; i < CG_V1_COUNT; i++)
        if (cg->tasks_fd[i] >= 0)
            close(cg->tasks_fd[i]);
    free(cg);
}

void cgroup_pool_drain(void)
{
    pthread_mutex_lock(&pool_lock);
    struct cgroup *list = pool_head;
    bool ours = pool_owner == getpid();
    pool_head = NULL;
    pool_count = 0;
    pthread_mutex_unlock(&pool_lock);
    while (list) {
        struct cgroup *next = list->next;
        if (ours)
            cgroup_destroy(list, NULL);
        else
            forget(list);
        list = next;
    }
}

/* ------------------------------------------------------ acquire/release ---- */

struct cgroup *cgroup_open(const struct cgroup_caps *caps, const char *name, bool adopt,
                           struct jail_error *err)
{
    struct cgroup *cg = calloc(1, sizeof *cg);
    if (!cg) {
        cgroup_fail(err, "out of memory for a cgroup");
        return NULL;
    }
    cg->ops = caps->version == CGROUP_V2 ? &cgroup_v2_ops
              : caps->hybrid             ? &cgroup_hybrid_ops
                                         : &cgroup_v1_ops;
    cg->caps = *caps;
    for (int i = 0; i < CG_V1_COUNT; i++)
        cg->dirs[i].fd = cg->tasks_fd[i] = -1;
    cg->twin.fd = -1;
    cg->cpu_fd = cg->peak_fd = cg->events_fd = cg->freeze_fd = -1;
    cg->adopted = adopt;
    if (!name)
        cgroup_unique_name(cg->name, sizeof cg->name);
    else if (strlen(name) < sizeof cg->name)
        strcpy(cg->name, name);
    else {
        free(cg);
        cgroup_fail(err, "cgroup name too long: %s", name);
        return NULL;
    }
    if (cg->ops->create(cg, cg->name, err) < 0) {
        free(cg);
        return NULL;
    }
    return cg;
}

/* Limits (unless a pooled cgroup has them already: the same player's next
 * process), the residue of a reused one on top of the memory limit, then the
 * counters' starting points. */
static int prepare(struct cgroup *cg, const struct cgroup_limits *lim, struct jail_error *err)
{
    uint64_t residue = lim->memory_bytes ? cg->residue : 0;
    bool same = cg->has_limits && cg->limits.memory_bytes == lim->memory_bytes && cg->limits.pids == lim->pids &&
                cg->limit_residue == residue;
    struct cgroup_limits written = *lim;
    written.memory_bytes += residue;
    cg->has_limits = false;
    if (!same && cg->ops->set_limits(cg, &written, err) < 0)
        return -1;
    cg->limit_residue = residue;
    cg->limits = *lim;
    cg->has_limits = true;
    if (cg->ops->counters(cg, &cg->base, err) < 0)
        return -1;
    cg->cpu_base_ns = cg->ops->cpu_ns_raw(cg);
    return 0;
}

bool cgroup_pool_adopt(const struct cgroup_caps *caps, const char *name)
{
    struct jail_error ignored;
    struct cgroup *cg = cgroup_open(caps, name, true, &ignored);
    if (cg && !pool_put(cg)) {
        cgroup_destroy(cg, NULL);
        cg = NULL;
    }
    return cg != NULL;
}

/* An emptied cgroup from the pool, reset and limited, or NULL. */
static struct cgroup *reuse_from_pool(const struct cgroup_caps *caps, const struct cgroup_limits *lim)
{
    struct cgroup *cg = pool_take(caps);
    if (cg && (cg->ops->reset(cg, NULL) < 0 || prepare(cg, lim, NULL) < 0)) {
        cgroup_destroy(cg, NULL); /* unfit for reuse (or swept away): start afresh */
        cg = NULL;
    }
    return cg;
}

int cgroup_acquire(const struct cgroup_caps *caps, const struct cgroup_limits *lim,
                   struct cgroup **out, struct jail_error *err)
{
    *out = NULL;
    if (!caps || caps->version == CGROUP_NONE)
        return cgroup_fail(err, "no cgroup backend: %s", caps && caps->why[0] ? caps->why : "not probed");
    struct cgroup *cg = reuse_from_pool(caps, lim);
    if (!cg) {
        if (!(cg = cgroup_open(caps, NULL, false, err)))
            return -1;
        if (prepare(cg, lim, err) < 0) {
            cgroup_destroy(cg, NULL);
            return -1;
        }
    }
    *out = cg;
    return 0;
}

int cgroup_release(struct cgroup *cg, struct jail_error *err)
{
    if (!cg)
        return 0;
    int rc = cg->ops->kill_all(cg, err);
    if (rc == 0 && cg->frozen)
        rc = cgroup_freeze(cg, false, err);
    int left = rc == 0 ? cgroup_count_procs(cg) : -1;
    if (rc == 0 && left != 0)
        rc = left < 0 ? cgroup_fail(err, "cannot list members of cgroup %s", cgroup_path(cg))
                      : cgroup_fail(err, "cgroup %s still has %d process(es) after kill", cgroup_path(cg), left);
    if (rc < 0) {
        cgroup_destroy(cg, NULL); /* rmdir fails while populated: it stays until a
                                     probe after this judge's exit sweeps it */
        return -1;
    }
    if (cg->caps.reusable && pool_put(cg))
        return 0;
    return cgroup_destroy(cg, err);
}
