/*
 * ns_user.c - user namespaces: writing a process's uid/gid maps, and making
 * a standalone user namespace (held by an fd) that root-mode jails enter with
 * setns as their last privileged step, so no jail waits for a map round trip.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_proc_file(pid_t pid, const char *name, const char *text, struct jail_error *err)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return jail_fail_errno(err, errno, "open %s", path);
    size_t len = strlen(text);
    ssize_t n = write(fd, text, len);
    int saved = errno;
    close(fd);
    if (n != (ssize_t)len) return jail_fail_errno(err, n < 0 ? saved : EIO, "write %s", path);
    return 0;
}

int ns_user_write_maps(pid_t pid, const struct id_map *map, bool deny_setgroups, struct jail_error *err)
{
    char uid_line[48], gid_line[48];
    snprintf(uid_line, sizeof uid_line, "%u %u 1\n", (unsigned)map->inner_uid, (unsigned)map->host_uid);
    snprintf(gid_line, sizeof gid_line, "%u %u 1\n", (unsigned)map->inner_gid, (unsigned)map->host_gid);
    if (deny_setgroups && write_proc_file(pid, "setgroups", "deny", err) < 0) return -1;
    if (write_proc_file(pid, "uid_map", uid_line, err) < 0) return -1;
    return write_proc_file(pid, "gid_map", gid_line, err);
}

#define HELPER_STACK_BYTES (16 * 1024)

struct helper_pipe {
    int read_fd, write_fd;
};

/* The helper only waits for its pipe to close, then exits. It shares the judge's memory
 * (CLONE_VM): no copy of the judge's address space to make, and none to tear down when it
 * exits, which the judge waits for (about a millisecond here). So it makes bare system
 * calls, past any sanitizer's bookkeeping, and with every signal blocked they cannot fail:
 * nothing in the shared memory (errno) is written. */
__attribute__((no_sanitize("address", "undefined"))) static int helper_wait_and_exit(void *arg)
{
    const struct helper_pipe *p = arg;
    char byte;
    syscall(SYS_close, p->write_fd);
    syscall(SYS_read, p->read_fd, &byte, 1);
    return 0;
}

/* The helper's pid, or -errno. */
static pid_t start_helper(struct helper_pipe *p, char *stack)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid =
        clone(helper_wait_and_exit, stack + HELPER_STACK_BYTES, CLONE_VM | CLONE_NEWUSER | SIGCHLD, p);
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return pid < 0 ? -saved : pid;
}

static int open_userns_of(pid_t pid, const struct id_map *map, bool deny_setgroups, int *fd,
                          struct jail_error *err)
{
    if (ns_user_write_maps(pid, map, deny_setgroups, err) < 0) return -1;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
    if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) return jail_fail_errno(err, errno, "open %s", path);
    return 0;
}

int ns_user_create(const struct id_map *map, bool deny_setgroups, int *fd, struct jail_error *err)
{
    int pipe_fds[2];
    char *stack = malloc(HELPER_STACK_BYTES);
    if (!stack) return jail_fail(err, "out of memory");
    if (pipe2(pipe_fds, O_CLOEXEC) < 0) {
        free(stack);
        return jail_fail_errno(err, errno, "pipe");
    }
    struct helper_pipe p = {pipe_fds[0], pipe_fds[1]};
    pid_t pid = start_helper(&p, stack);
    close(pipe_fds[0]);
    int rc = pid < 0 ? jail_fail_errno(err, -pid, "clone(CLONE_NEWUSER)")
                     : open_userns_of(pid, map, deny_setgroups, fd, err);
    close(pipe_fds[1]);
    while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    free(stack); /* only once the helper is gone: it ran on it */
    return rc;
}
