/*
 * mount_template.c - build, once per judge process, the part of the jail's
 * root that every jail shares (see mount_root.c), inside a mount namespace of
 * its own: a thread unshares its mount namespace, builds the root and pivots
 * into it, and we keep an fd to that namespace. It is started during the
 * probes and finished when the first jail needs it, so it is built while the
 * judge does other work. A thread rather than a child process: no copy of the
 * judge's address space to make, and none to tear down.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* unshare(CLONE_NEWNS) unshares CLONE_FS with it: the root, working directory and
 * umask the plan changes are this thread's alone, and pivot_root moves only the
 * tasks of the new namespace. */
static void *build_in_own_namespace(void *arg)
{
    struct mount_template_job *job = arg;
    const char *step = "unshare(CLONE_NEWNS)";
    int rc = unshare(CLONE_NEWNS) < 0 ? -errno : 0;
    if (rc == 0) {
        step = "open /proc/thread-self/ns/mnt";
        job->fd = open("/proc/thread-self/ns/mnt", O_RDONLY | O_CLOEXEC);
        rc = job->fd < 0 ? -errno : mount_plan_apply(job->plan, &step);
    }
    if (rc < 0) {
        job->err = -rc;
        snprintf(job->step, sizeof job->step, "%s", step ? step : "?");
    }
    return NULL;
}

/* On a CPU other than ours where there is one: a new thread would otherwise
 * wait on this CPU, while another sleeps, until the judge blocks. */
static void place_away_from_us(pthread_attr_t *attr)
{
    cpu_set_t allowed, others;
    int here = sched_getcpu();
    if (here < 0 || sched_getaffinity(0, sizeof allowed, &allowed) < 0 || CPU_COUNT(&allowed) < 2) return;
    others = allowed;
    CPU_CLR(here, &others);
    if (CPU_COUNT(&others) > 0) pthread_attr_setaffinity_np(attr, sizeof others, &others);
}

/* Every signal blocked: none of the judge's handlers runs in the builder. */
static int start_builder(struct mount_template_job *job, struct jail_error *err)
{
    pthread_attr_t attr;
    sigset_t all, saved;
    if (pthread_attr_init(&attr) != 0) return jail_fail(err, "template mount namespace: pthread_attr_init");
    place_away_from_us(&attr);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    int rc = pthread_create(&job->thread, &attr, build_in_own_namespace, job);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) return jail_fail_errno(err, rc, "template mount namespace: pthread_create");
    job->started = true;
    return 0;
}

int mount_template_finish(struct mount_template_job *job, int *fd, struct jail_error *err)
{
    *fd = -1;
    if (!job->started) return jail_fail(err, "template mount namespace: not started");
    pthread_join(job->thread, NULL);
    job->started = false;
    mount_plan_free(job->plan);
    job->plan = NULL;
    if (job->err) {
        if (job->fd >= 0) close(job->fd);
        job->fd = -1;
        return jail_fail_errno(err, job->err, "template mount namespace: %s", job->step);
    }
    *fd = job->fd;
    job->fd = -1;
    return 0;
}

/* Jails attach their directories as detached trees (open_tree, mount_setattr:
 * Linux 5.12); without them the template is of no use. */
static int detached_trees_work(struct jail_error *err)
{
    int tree = open_tree(AT_FDCWD, "/", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
    struct mount_attr none = {0};
    int rc = tree >= 0 && mount_setattr(tree, "", AT_EMPTY_PATH, &none, sizeof none) == 0 ? 0 : -1;
    if (rc < 0) jail_fail_errno(err, errno, "template mount namespace: detached mounts unsupported");
    if (tree >= 0) close(tree);
    return rc;
}

int mount_template_start(const char *root_mount, bool make_private, struct mount_template_job *job,
                         struct jail_error *err)
{
    *job = (struct mount_template_job){.fd = -1};
    if (detached_trees_work(err) < 0 ||
        mount_plan_build_template(root_mount, make_private, &job->plan, err) < 0)
        return -1;
    if (start_builder(job, err) == 0) return 0;
    mount_plan_free(job->plan);
    job->plan = NULL;
    return -1;
}
