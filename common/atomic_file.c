/* atomic_file.c - write to a temporary name, fsync, rename (atomic_file.h). */
#include "common/atomic_file.h"

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
    errno = saved;
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

/* Whether an existing link is one to follow: made by root or by us, not by a bot. */
static bool trusted_link(const struct stat *st)
{
    return st->st_uid == 0 || st->st_uid == geteuid();
}

/* What the target is: 1 to write in place (opened into f->fd), 0 for the
 * temporary-and-rename way (a regular file, nothing yet, another's link). */
static int open_in_place(struct atomic_file *f, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (fstatat(f->dir_fd, f->name, &st, AT_SYMLINK_NOFOLLOW) < 0) return 0;
    int nofollow = O_NOFOLLOW;
    if (S_ISLNK(st.st_mode)) {
        if (!trusted_link(&st) || fstatat(f->dir_fd, f->name, &st, 0) < 0) return 0;
        nofollow = 0;
    }
    if (S_ISREG(st.st_mode)) return 0;
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        snprintf(err, errlen, "%s: neither a regular file, a character device nor a FIFO", path);
        return -1;
    }
    f->fd = openat(f->dir_fd, f->name, O_WRONLY | O_NOCTTY | O_CLOEXEC | nofollow);
    if (f->fd < 0) return fail_errno(err, errlen, "cannot open", path);
    f->in_place = true;
    snprintf(f->temp_path, sizeof f->temp_path, "%s", path);
    return 1;
}

int atomic_file_create(struct atomic_file *f, const char *path, mode_t mode, char *err, size_t errlen)
{
    f->dir_fd = f->fd = -1;
    f->temp[0] = '\0';
    f->reserved = 0;
    f->replaced = false;
    f->in_place = !strcmp(path, "-");
    if (f->in_place) {
        snprintf(f->temp_path, sizeof f->temp_path, "standard output");
        if ((f->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)) < 0)
            return fail_errno(err, errlen, "cannot use standard output", "-");
        return 0;
    }
    int rc = open_target_dir(f, path, err, errlen);
    if (rc == 0) rc = open_in_place(f, path, err, errlen);
    if (rc == 0) rc = create_temp(f, path, mode, err, errlen);
    if (rc < 0) {
        atomic_file_abort(f);
        return -1;
    }
    return 0;
}

/* In place: nothing to rename, and a device or FIFO may not take fsync. */
static int commit_in_place(struct atomic_file *f, char *err, size_t errlen)
{
    int rc = close(f->fd) < 0 && errno != EINTR ? fail_errno(err, errlen, "close", f->temp_path) : 0;
    f->fd = -1;
    atomic_file_abort(f);
    return rc;
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

int atomic_file_reserve(struct atomic_file *f, off_t bytes, char *err, size_t errlen)
{
    if (f->in_place) return 0; /* a device or a FIFO: nothing to set aside */
    if (fallocate(f->fd, FALLOC_FL_KEEP_SIZE, 0, bytes) == 0) {
        f->reserved = bytes;
        return 0;
    }
    if (errno == EOPNOTSUPP || errno == ENOSYS)
        return 0;
    int saved = errno;
    snprintf(err, errlen, "%s: %s (%lld KiB are set aside for it before it is written)", f->temp_path,
             strerror(saved), (long long)(bytes >> 10));
    return -1;
}

/* Gives back the reserved space past the end of what was written: a
 * truncation that shrinks the file frees every block past its new end (a hole
 * punched past the end does not, on ext4). */
static int release_reserve(struct atomic_file *f, char *err, size_t errlen)
{
    struct stat st;
    off_t reserved = f->reserved;
    f->reserved = 0;
    if (fstat(f->fd, &st) < 0)
        return fail_errno(err, errlen, "stat", f->temp_path);
    if (st.st_size >= reserved)
        return 0;
    if (ftruncate(f->fd, st.st_size + 1) < 0 || ftruncate(f->fd, st.st_size) < 0)
        return fail_errno(err, errlen, "truncate", f->temp_path);
    return 0;
}

/* "NAME" with "-N" before its first dot (past a leading one), or at its end. */
static int suffixed_name(const char *name, unsigned n, char *out, size_t size)
{
    const char *dot = strchr(name + 1, '.');
    size_t stem = dot ? (size_t)(dot - name) : strlen(name);
    int len = snprintf(out, size, "%.*s-%u%s", (int)stem, name, n, dot ? dot : "");
    return len < 0 || (size_t)len >= size ? -1 : 0;
}

/* Links the temporary file to a free name (link never replaces), then removes the temporary name. */
static int link_new(struct atomic_file *f, char *err, size_t errlen)
{
    char name[sizeof f->name];
    snprintf(name, sizeof name, "%s", f->name);
    for (unsigned n = 2; n < 10000; n++) {
        if (renameat2(f->dir_fd, f->temp, f->dir_fd, name, RENAME_NOREPLACE) == 0 ||
            ((errno == EINVAL || errno == ENOSYS) && linkat(f->dir_fd, f->temp, f->dir_fd, name, 0) == 0 &&
             unlinkat(f->dir_fd, f->temp, 0) == 0)) {
            snprintf(f->name, sizeof f->name, "%s", name);
            return 0;
        }
        if (errno != EEXIST)
            return fail_errno(err, errlen, "rename", f->name);
        if (suffixed_name(f->name, n, name, sizeof name) < 0)
            break;
    }
    snprintf(err, errlen, "%s: no free name beside it", f->name);
    return -1;
}

static int commit(struct atomic_file *f, bool replace, char *err, size_t errlen)
{
    if (f->in_place) return commit_in_place(f, err, errlen);
    int rc = -1;
    struct stat st;
    f->replaced = replace && fstatat(f->dir_fd, f->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (f->reserved && release_reserve(f, err, errlen) < 0)
        ;
    else if (fsync(f->fd) < 0)
        fail_errno(err, errlen, "fsync", f->temp_path);
    else if (!replace)
        rc = link_new(f, err, errlen);
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

int atomic_file_commit(struct atomic_file *f, char *err, size_t errlen)
{
    return commit(f, true, err, errlen);
}

int atomic_file_commit_new(struct atomic_file *f, char *err, size_t errlen)
{
    return commit(f, false, err, errlen);
}

void atomic_file_abort(struct atomic_file *f)
{
    int saved = errno; /* the failure's reason, for the caller (atomic_file_storage_errno) */
    if (f->fd >= 0)
        close(f->fd);
    if (f->temp[0] && f->dir_fd >= 0)
        unlinkat(f->dir_fd, f->temp, 0);
    if (f->dir_fd >= 0)
        close(f->dir_fd);
    f->fd = f->dir_fd = -1;
    f->temp[0] = '\0';
    f->in_place = false;
    errno = saved;
}

bool atomic_file_storage_errno(int errnum)
{
    return errnum == ENOSPC || errnum == EDQUOT || errnum == EROFS || errnum == EIO || errnum == EFBIG;
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
