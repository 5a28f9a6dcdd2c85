/*
 * ns_user.c - user namespaces: writing a process's uid/gid maps, and making
 * a standalone user namespace (held by an fd) that root-mode jails enter with
 * setns as their last privileged step, so no jail waits for a map round trip.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
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

/* The helper only waits for its pipe to close, then exits. */
_Noreturn static void helper_wait_and_exit(int read_fd)
{
    char byte;
    while (read(read_fd, &byte, 1) < 0 && errno == EINTR) {
    }
    _exit(0);
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
    if (pipe2(pipe_fds, O_CLOEXEC) < 0) return jail_fail_errno(err, errno, "pipe");
    pid_t pid = clone3_fork(CLONE_NEWUSER, -1, NULL);
    if (pid == 0) {
        close(pipe_fds[1]);
        helper_wait_and_exit(pipe_fds[0]);
    }
    close(pipe_fds[0]);
    if (pid < 0) {
        close(pipe_fds[1]);
        return jail_fail_errno(err, -pid, "clone(CLONE_NEWUSER)");
    }
    int rc = open_userns_of(pid, map, deny_setgroups, fd, err);
    close(pipe_fds[1]);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    return rc;
}
