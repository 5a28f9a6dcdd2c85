/* atomic_file.c - write to a temporary name, fsync, rename (atomic_file.h). */
#include "judge/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail_errno(char *err, size_t errlen, const char *what, const char *path)
{
    int saved = errno;
    snprintf(err, errlen, "%s: %s: %s", path, what, strerror(saved));
    return -1;
}

/* Split PATH into its directory (opened as dir_fd) and its last component. */
static int open_target_dir(struct atomic_file *f, const char *path, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
        snprintf(err, errlen, "%s: does not name a file", path);
        return -1;
    }
    if (strlen(name) >= sizeof f->name - 32) {
        snprintf(err, errlen, "%s: file name too long", path);
        return -1;
    }
    char dir[PATH_MAX];
    int n = !slash ? snprintf(dir, sizeof dir, ".")
                   : snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (n < 0 || (size_t)n >= sizeof dir) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    f->dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (f->dir_fd < 0)
        return fail_errno(err, errlen, "cannot open its directory", path);
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->temp_path, sizeof f->temp_path, "%s", dir);
    return 0;
}

/* A new ".NAME.tmp-XXXXXXXX" that did not exist before. */
static int create_temp(struct atomic_file *f, const char *path, mode_t mode, char *err, size_t errlen)
{
    size_t dir_len = strlen(f->temp_path); /* open_target_dir left the directory there */
    for (int attempt = 0; attempt < 16; attempt++) {
        uint32_t rnd;
        if (getrandom(&rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
            return fail_errno(err, errlen, "getrandom", path);
        snprintf(f->temp, sizeof f->temp, ".%s.tmp-%08x", f->name, (unsigned)rnd);
        f->fd = openat(f->dir_fd, f->temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (f->fd >= 0) {
            snprintf(f->temp_path + dir_len, sizeof f->temp_path - dir_len, "/%s", f->temp);
            if (fchmod(f->fd, mode) < 0) /* exactly MODE, whatever the umask */
                return fail_errno(err, errlen, "chmod", f->temp_path);
            return 0;
        }
        if (errno != EEXIST)
            return fail_errno(err, errlen, "cannot create a temporary file beside it", path);
    }
    snprintf(err, errlen, "%s: no free temporary name", path);
    return -1;
}

/* An existing device or FIFO at the target: opened for writing as it is. */
static int open_in_place(struct atomic_file *f, const char *path, char *err, size_t errlen)
{
    f->fd = openat(f->dir_fd, f->name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (f->fd < 0)
        return fail_errno(err, errlen, "cannot open", path);
    f->in_place = true;
    snprintf(f->temp_path, sizeof f->temp_path, "%s", path);
    return 0;
}

static bool is_device_or_fifo(int dir_fd, const char *name)
{
    struct stat st;
    return fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

int atomic_file_create(struct atomic_file *f, const char *path, mode_t mode, char *err, size_t errlen)
{
    f->dir_fd = f->fd = -1;
    f->temp[0] = '\0';
    f->in_place = false;
    if (open_target_dir(f, path, err, errlen) < 0) {
        atomic_file_abort(f);
        return -1;
    }
    int rc = is_device_or_fifo(f->dir_fd, f->name) ? open_in_place(f, path, err, errlen)
                                                   : create_temp(f, path, mode, err, errlen);
    if (rc < 0) {
        atomic_file_abort(f);
        return -1;
    }
    return 0;
}

int atomic_file_write(struct atomic_file *f, const void *data, size_t len, char *err, size_t errlen)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(f->fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail_errno(err, errlen, "write", f->temp_path);
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int atomic_file_commit(struct atomic_file *f, char *err, size_t errlen)
{
    int rc = -1;
    if (f->in_place) {
        rc = close(f->fd) < 0 ? fail_errno(err, errlen, "close", f->temp_path) : 0;
        f->fd = -1;
        atomic_file_abort(f);
        return rc;
    }
    if (fsync(f->fd) < 0)
        fail_errno(err, errlen, "fsync", f->temp_path);
    else if (renameat(f->dir_fd, f->temp, f->dir_fd, f->name) < 0)
        fail_errno(err, errlen, "rename", f->name);
    else
        rc = 0;
    if (rc == 0) {
        f->temp[0] = '\0'; /* nothing left to remove */
        int dfd = openat(f->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 || fsync(dfd) < 0)
            rc = fail_errno(err, errlen, "fsync of its directory", f->name);
        if (dfd >= 0)
            close(dfd);
    }
    atomic_file_abort(f);
    return rc;
}

void atomic_file_abort(struct atomic_file *f)
{
    if (f->fd >= 0)
        close(f->fd);
    if (f->temp[0] && f->dir_fd >= 0)
        unlinkat(f->dir_fd, f->temp, 0);
    if (f->dir_fd >= 0)
        close(f->dir_fd);
    f->fd = f->dir_fd = -1;
    f->temp[0] = '\0';
}

int atomic_file_write_whole(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    struct atomic_file f;
    if (atomic_file_create(&f, path, 0644, err, errlen) < 0)
        return -1;
    if (atomic_file_write(&f, data, len, err, errlen) < 0) {
        atomic_file_abort(&f);
        return -1;
    }
    return atomic_file_commit(&f, err, errlen);
}
