/*
 * clone3.c - a fork-like clone3 (no shared memory, child on a copy of the
 * stack), for the flags fork() cannot pass: new namespaces, a pidfd, a
 * starting cgroup (clone3 only: where it is missing, callers attach instead). Signals stay blocked in the
 * child so no handler of the judge ever runs there; the child unblocks them itself before execve.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/* struct clone_args of <linux/sched.h>, which clashes with <sched.h>. */
struct clone3_args {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size,
        cgroup;
};

pid_t clone3_fork(uint64_t flags, int cgroup_fd, int *pidfd)
{
    int pidfd_value = -1;
    struct clone3_args args;
    memset(&args, 0, sizeof args);
    args.flags = flags;
    args.exit_signal = SIGCHLD;
    if (pidfd) {
        args.flags |= CLONE_PIDFD;
        args.pidfd = (uint64_t)(uintptr_t)&pidfd_value;
    }
    if (cgroup_fd >= 0) {
        args.flags |= CLONE_INTO_CGROUP;
        args.cgroup = (uint64_t)cgroup_fd;
    }
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    long pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid < 0 && errno == ENOSYS && cgroup_fd < 0) /* old kernels, valgrind: clone can do the rest */
        pid = syscall(SYS_clone, (unsigned long)args.flags | SIGCHLD, NULL, pidfd ? &pidfd_value : NULL, NULL,
                      0);
    int saved_errno = errno;
    if (pid != 0) pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (pid < 0) return -saved_errno;
    if (pid > 0 && pidfd) *pidfd = pidfd_value;
    return (pid_t)pid;
}
