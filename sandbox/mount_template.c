/*
 * mount_template.c - build, once per judge process, the part of the jail's
 * root that every jail shares (see mount_root.c), inside a mount namespace of
 * its own: a helper process creates the namespace, builds the root, pivots
 * into it and reports; we keep an fd to its namespace and let it exit. It is
 * started during the probes and finished when the first jail needs it, so it
 * is built while the judge does other work.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

struct template_result {
    int err; /* 0, or the errno of the failed step */
    char step[120];
};

_Noreturn static void helper(const struct mount_plan *plan, int report_fd, int hold_fd)
{
    struct template_result r;
    memset(&r, 0, sizeof r);
    const char *step = NULL;
    int rc = mount_plan_apply(plan, &step);
    if (rc < 0) {
        r.err = -rc;
        snprintf(r.step, sizeof r.step, "%s", step ? step : "?");
    }
    if (write(report_fd, &r, sizeof r) != (ssize_t)sizeof r) _exit(1);
    char byte;
    while (read(hold_fd, &byte, 1) < 0 && errno == EINTR) {
    } /* until the parent holds the namespace */
    _exit(0);
}

static int hold_namespace_of(pid_t pid, int report_fd, int *fd, struct jail_error *err)
{
    struct template_result r;
    ssize_t n;
    while ((n = read(report_fd, &r, sizeof r)) < 0 && errno == EINTR) {
    }
    if (n != (ssize_t)sizeof r) return jail_fail(err, "template mount namespace: the helper died");
    if (r.err) return jail_fail_errno(err, r.err, "template mount namespace: %s", r.step);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/ns/mnt", (int)pid);
    if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) return jail_fail_errno(err, errno, "open %s", path);
    return 0;
}

static void close_pair(int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

/* Clone the helper; it builds the root while the judge goes on (mount_template_finish). */
static int start_helper(const struct mount_plan *plan, struct mount_template_job *job, struct jail_error *err)
{
    int report[2], hold[2];
    if (pipe2(report, O_CLOEXEC) < 0) return jail_fail_errno(err, errno, "pipe");
    if (pipe2(hold, O_CLOEXEC) < 0) {
        close_pair(report);
        return jail_fail_errno(err, errno, "pipe");
    }
    pid_t pid = clone3_fork(CLONE_NEWNS, -1, NULL);
    if (pid == 0) {
        close(report[0]);
        close(hold[1]);
        helper(plan, report[1], hold[0]);
    }
    close(report[1]);
    close(hold[0]);
    if (pid < 0) {
        close(report[0]);
        close(hold[1]);
        return jail_fail_errno(err, -pid, "clone(CLONE_NEWNS)");
    }
    *job = (struct mount_template_job){.pid = pid, .report_fd = report[0], .hold_fd = hold[1]};
    return 0;
}

int mount_template_finish(struct mount_template_job *job, int *fd, struct jail_error *err)
{
    *fd = -1;
    if (job->pid <= 0) return jail_fail(err, "template mount namespace: not started");
    int rc = hold_namespace_of(job->pid, job->report_fd, fd, err);
    close(job->report_fd);
    close(job->hold_fd);
    /* Held by our fd now. Killed rather than left to see the hold pipe's end: a child
     * forked meanwhile may still hold a copy of it. */
    kill(job->pid, SIGKILL);
    while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    job->pid = 0;
    return rc;
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
    struct mount_plan *plan;
    job->pid = 0;
    if (detached_trees_work(err) < 0 || mount_plan_build_template(root_mount, make_private, &plan, err) < 0)
        return -1;
    int rc = start_helper(plan, job, err);
    mount_plan_free(plan); /* the helper has its own copy */
    return rc;
}
