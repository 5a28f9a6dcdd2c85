/*
 * ns_net.c - the one empty network namespace every root-mode jail joins:
 * made once (a fresh namespace has only a loopback, and it is down), held by
 * an fd. Sharing it is safe because the seccomp policy forbids socket(); a
 * namespace per jail would cost milliseconds each.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

/* thread-self: unshare and setns change only the calling thread's namespace. */
#define OWN_NETNS "/proc/thread-self/ns/net"

int ns_net_create_empty(int *fd, struct jail_error *err)
{
    int ours = open(OWN_NETNS, O_RDONLY | O_CLOEXEC);
    if (ours < 0) return jail_fail_errno(err, errno, "open %s", OWN_NETNS);
    int rc = -1;
    if (unshare(CLONE_NEWNET) < 0) {
        jail_fail_errno(err, errno, "unshare(CLONE_NEWNET)");
        close(ours);
        return -1;
    }
    *fd = open(OWN_NETNS, O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        jail_fail_errno(err, errno, "open the new %s", OWN_NETNS);
    else
        rc = 0;
    if (setns(ours, CLONE_NEWNET) < 0) {
        /* Stuck in the empty namespace: the judge itself would lose the network. */
        jail_fail_errno(err, errno, "setns back to the judge's network namespace");
        rc = -1;
    }
    close(ours);
    if (rc < 0 && *fd >= 0) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}
