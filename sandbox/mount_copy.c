/*
 * mount_copy.c - /bot copied in by the child itself: a tmpfs of its own on the
 * target, the host directory copied into it, then made read-only. Used where
 * the judge cannot make a detached copy (jail_stage.c: an ordinary user, or a
 * kernel that cannot clone a detached mount); like a detached copy, its
 * mountinfo names no host path, where a bind would. The child of a judge that
 * may have threads must not allocate: system calls and stack buffers only.
 */
#include "sandbox/mount_plan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#define COPY_MAX_DEPTH 16

static int copy_tree(int from, int to, int depth);

static int close_keeping_errno(int fd, int rc)
{
    int saved = errno;
    if (fd >= 0) close(fd);
    errno = saved;
    return rc;
}

/* What the jail could not read through a bind either (a file of another
 * user's, mode 0600) is left out rather than failing the start. */
static bool unreadable(void)
{
    return errno == EACCES || errno == EPERM;
}

/* Until end of file, not to the size fstat gave: the tmpfs size caps a file that grows. */
static int copy_file(int from, int to, const char *name, mode_t mode)
{
    int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0) return unreadable() ? 0 : -1;
    int out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out < 0) return close_keeping_errno(in, -1);
    int rc = 0;
    for (ssize_t n = 1; rc == 0 && n > 0;) {
        n = sendfile(out, in, NULL, 1 << 30);
        if (n < 0 && errno != EINTR) rc = -1;
    }
    if (rc == 0) rc = fchmod(out, mode & 0777); /* set-id bits never (the mount is nosuid anyway) */
    close_keeping_errno(in, 0);
    return close_keeping_errno(out, rc);
}

static int copy_dir(int from, int to, const char *name, mode_t mode, int depth)
{
    if (depth >= COPY_MAX_DEPTH) {
        errno = ELOOP;
        return -1;
    }
    int sub_from = openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub_from < 0) return unreadable() ? 0 : -1;
    if (mkdirat(to, name, 0700) < 0) return close_keeping_errno(sub_from, -1);
    int sub_to = openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub_to < 0) return close_keeping_errno(sub_from, -1);
    int rc = copy_tree(sub_from, sub_to, depth + 1);
    if (rc == 0) rc = fchmod(sub_to, mode & 0777);
    close_keeping_errno(sub_from, 0);
    return close_keeping_errno(sub_to, rc);
}

static int copy_link(int from, int to, const char *name)
{
    char target[PATH_MAX];
    ssize_t n = readlinkat(from, name, target, sizeof target - 1);
    if (n < 0) return -1;
    target[n] = '\0';
    return symlinkat(target, to, name);
}

/* Regular files, directories and symbolic links (as links); nothing else. */
static int copy_entry(int from, int to, const char *name, int depth)
{
    struct stat st;
    if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) < 0) return -1;
    if (S_ISREG(st.st_mode)) return copy_file(from, to, name, st.st_mode);
    if (S_ISDIR(st.st_mode)) return copy_dir(from, to, name, st.st_mode, depth);
    if (S_ISLNK(st.st_mode)) return copy_link(from, to, name);
    return 0;
}

static int copy_tree(int from, int to, int depth)
{
    _Alignas(struct dirent64) char buf[4096];
    for (;;) {
        ssize_t n = getdents64(from, buf, sizeof buf);
        if (n <= 0) return n < 0 ? -1 : 0;
        for (ssize_t off = 0; off < n;) {
            const struct dirent64 *e = (const struct dirent64 *)(buf + off);
            off += e->d_reclen;
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && copy_entry(from, to, e->d_name, depth) < 0)
                return -1;
        }
    }
}

int mount_copy_tree(int from_dir, int to_dir)
{
    /* A description of its own: from_dir's offset may be shared, or at its end. */
    int from = openat(from_dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (from < 0) return -1;
    struct stat top;
    int rc = fstat(from, &top) < 0 || copy_tree(from, to_dir, 0) < 0 || fchmod(to_dir, top.st_mode & 0777) < 0 ? -1 : 0;
    return close_keeping_errno(from, rc);
}

int mount_copy_in(const struct mount_step *s)
{
    if (mount("bot", s->target, "tmpfs", MS_NOSUID | MS_NODEV, s->source) < 0) return -1;
    int to = open(s->target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (to < 0) return -1;
    if (close_keeping_errno(to, mount_copy_tree(s->fd, to)) < 0) return -1;
    return mount("none", s->target, "none", MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
}
