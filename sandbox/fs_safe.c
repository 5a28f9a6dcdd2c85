/*
 * fs_safe.c - file operations inside directories a bot can write to, done so
 * that nothing it plants (a symlink, a hard link, a deep tree) is followed or
 * can make the judge touch a file outside. Every path is resolved by openat2
 * with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS; walks go
 * entry by entry with fstatat(AT_SYMLINK_NOFOLLOW) and O_NOFOLLOW opens.
 */
#include "sandbox/fs_safe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/jail_internal.h"

#define RESOLVE_SAFE       (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)
#define WALK_MAX_DEPTH     256 /* usage and chown refuse deeper trees */
#define REMOVE_HOIST_DEPTH 48  /* removal moves deeper subtrees up instead of recursing */

int fs_safe_open_dir(const char *path, struct jail_error *err)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return jail_fail_errno(err, errno, "open directory %s", path);
    return fd;
}

static bool opens_for_writing(int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);
}

/* Without openat2 (Linux < 5.6, valgrind): one component at a time, each
 * opened with O_NOFOLLOW, "." and ".." refused; the same guarantees. */
static long open_by_components(int dirfd, const char *relpath, int flags, mode_t mode)
{
    if (relpath[0] == '/' || relpath[0] == '\0') {
        errno = relpath[0] ? EXDEV : ENOENT;
        return -1;
    }
    int dir = dirfd;
    const char *c = relpath;
    for (;;) {
        size_t len = strcspn(c, "/");
        char name[NAME_MAX + 1];
        if (len == 0 || len > NAME_MAX || (len <= 2 && strncmp(c, "..", len) == 0)) {
            errno = len > NAME_MAX ? ENAMETOOLONG : EXDEV;
            break;
        }
        memcpy(name, c, len);
        name[len] = '\0';
        bool last = c[len] == '\0';
        int next = last ? openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
                        : openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dir != dirfd) close(dir);
        if (next < 0 || last) return next;
        dir = next;
        c += len + 1;
    }
    if (dir != dirfd) close(dir);
    return -1;
}

int fs_safe_openat(int dirfd, const char *relpath, int flags, mode_t mode, struct jail_error *err)
{
    struct open_how how = {.flags = (uint64_t)(flags | O_CLOEXEC), .resolve = RESOLVE_SAFE};
    if (flags & (O_CREAT | O_TMPFILE)) how.mode = mode;
    long fd = syscall(SYS_openat2, dirfd, relpath, &how, sizeof how);
    if (fd < 0 && errno == ENOSYS) fd = open_by_components(dirfd, relpath, flags, mode);
    if (fd < 0) return jail_fail_errno(err, errno, "open %s", relpath);
    struct stat st;
    if (opens_for_writing(flags) && fstat((int)fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1) {
        close((int)fd);
        return jail_fail(err, "open %s: refusing to write a file with %lu hard links", relpath,
                         (unsigned long)st.st_nlink);
    }
    return (int)fd;
}

/* Split "a/b/c" into a parent fd for "a/b" (dirfd itself for "c") and "c". */
static int open_parent(int dirfd, const char *relpath, const char **base, struct jail_error *err)
{
    const char *slash = strrchr(relpath, '/');
    *base = slash ? slash + 1 : relpath;
    if (**base == '\0' || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0)
        return jail_fail(err, "%s: not a file name", relpath);
    if (!slash) return fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
    char parent[PATH_MAX];
    size_t len = (size_t)(slash - relpath);
    if (len >= sizeof parent) return jail_fail(err, "%s: path too long", relpath);
    memcpy(parent, relpath, len);
    parent[len] = '\0';
    return fs_safe_openat(dirfd, parent, O_PATH | O_DIRECTORY, 0, err);
}

int fs_safe_mkdirat(int dirfd, const char *relpath, mode_t mode, struct jail_error *err)
{
    const char *base;
    int parent = open_parent(dirfd, relpath, &base, err);
    if (parent < 0) return -1;
    int rc = mkdirat(parent, base, mode);
    int saved = errno;
    close(parent);
    return rc < 0 ? jail_fail_errno(err, saved, "mkdir %s", relpath) : 0;
}

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_temp_then_rename(int parent, const char *base, const char *relpath, const void *data,
                                  size_t len, mode_t mode, struct jail_error *err)
{
    static unsigned counter;
    char temp[NAME_MAX + 1];
    snprintf(temp, sizeof temp, ".judge-tmp.%d.%u", (int)getpid(),
             __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
    int fd = openat(parent, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) return jail_fail_errno(err, errno, "create a temporary file for %s", relpath);
    int rc = 0;
    if (write_all(fd, data, len) < 0 || fsync(fd) < 0) rc = jail_fail_errno(err, errno, "write %s", relpath);
    close(fd);
    if (rc == 0 && renameat(parent, temp, parent, base) < 0)
        rc = jail_fail_errno(err, errno, "rename into %s", relpath);
    if (rc < 0)
        unlinkat(parent, temp, 0);
    else
        fsync(parent);
    return rc;
}

int fs_safe_write_file(int dirfd, const char *relpath, const void *data, size_t len, mode_t mode,
                       struct jail_error *err)
{
    const char *base;
    int parent = open_parent(dirfd, relpath, &base, err);
    if (parent < 0) return -1;
    /* O_PATH cannot be fsynced or written beneath; reopen it as a real directory. */
    int real = openat(parent, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(parent);
    if (real < 0) return jail_fail_errno(err, errno, "open the directory of %s", relpath);
    int rc = write_temp_then_rename(real, base, relpath, data, len, mode, err);
    close(real);
    return rc;
}

int fs_safe_read_file(int dirfd, const char *relpath, void *buf, size_t cap, size_t *len,
                      struct jail_error *err)
{
    int fd = fs_safe_openat(dirfd, relpath, O_RDONLY | O_NONBLOCK, 0, err);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return jail_fail(err, "read %s: not a regular file", relpath);
    }
    size_t got = 0;
    while (got < cap) {
        ssize_t n = read(fd, (char *)buf + got, cap - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            close(fd);
            return jail_fail_errno(err, saved, "read %s", relpath);
        }
        if (n == 0) break;
        got += (size_t)n;
    }
    close(fd);
    *len = got;
    return 0;
}

/* ---- walking a tree without following anything ---- */

typedef int (*visit_fn)(int parent, const char *name, const struct stat *st, void *ctx,
                        struct jail_error *err);

/* A DIR stream on a private duplicate, so closedir leaves dirfd open. */
static DIR *open_stream(int dirfd, struct jail_error *err)
{
    int dup_fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        jail_fail_errno(err, errno, "read a directory");
        if (dup_fd >= 0) close(dup_fd);
    }
    return d;
}

static bool is_dot_or_dotdot(const char *name)
{
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

static int walk(int dirfd, int depth, visit_fn visit, void *ctx, struct jail_error *err);

static int walk_entry(int dirfd, const char *name, int depth, visit_fn visit, void *ctx,
                      struct jail_error *err)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return errno == ENOENT ? 0 : jail_fail_errno(err, errno, "stat %s", name);
    if (visit(dirfd, name, &st, ctx, err) < 0) return -1;
    if (!S_ISDIR(st.st_mode)) return 0;
    int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) return jail_fail_errno(err, errno, "open directory %s", name);
    int rc = walk(sub, depth + 1, visit, ctx, err);
    close(sub);
    return rc;
}

static int walk(int dirfd, int depth, visit_fn visit, void *ctx, struct jail_error *err)
{
    if (depth > WALK_MAX_DEPTH) return jail_fail(err, "directory tree deeper than %d levels", WALK_MAX_DEPTH);
    DIR *d = open_stream(dirfd, err);
    if (!d) return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)))
        if (!is_dot_or_dotdot(e->d_name)) rc = walk_entry(dirfd, e->d_name, depth, visit, ctx, err);
    closedir(d);
    return rc;
}

/* What an entry takes, or claims: a sparse file counts by its length (it is
 * that long wherever it is copied), any other by the blocks it holds. */
static int add_usage(int parent, const char *name, const struct stat *st, void *ctx, struct jail_error *err)
{
    (void)parent, (void)name, (void)err;
    uint64_t blocks = (uint64_t)st->st_blocks * 512u, length = st->st_size > 0 ? (uint64_t)st->st_size : 0;
    *(uint64_t *)ctx += S_ISREG(st->st_mode) && length > blocks ? length : blocks;
    return 0;
}

int fs_safe_usage(int dirfd, uint64_t *bytes, struct jail_error *err)
{
    *bytes = 0;
    return walk(dirfd, 0, add_usage, bytes, err);
}

static void fnv(uint64_t *h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) *h = (*h ^ b[i]) * 0x100000001b3ull;
}

static int add_fingerprint(int parent, const char *name, const struct stat *st, void *ctx, struct jail_error *err)
{
    (void)parent, (void)err;
    struct fs_fingerprint *fp = ctx;
    uint64_t fields[] = {(uint64_t)st->st_ino, (uint64_t)st->st_mode, (uint64_t)st->st_size,
                         (uint64_t)st->st_mtim.tv_sec, (uint64_t)st->st_mtim.tv_nsec};
    fnv(&fp->hash, name, strlen(name) + 1);
    fnv(&fp->hash, fields, sizeof fields);
    fp->entries++;
    if (S_ISREG(st->st_mode) && st->st_size > 0) fp->bytes += (uint64_t)st->st_size;
    return 0;
}

int fs_safe_fingerprint(int dirfd, struct fs_fingerprint *fp, struct jail_error *err)
{
    struct stat top;
    *fp = (struct fs_fingerprint){.hash = 0xcbf29ce484222325ull};
    if (fstat(dirfd, &top) < 0) return jail_fail_errno(err, errno, "stat a directory");
    add_fingerprint(dirfd, "", &top, fp, err);
    return walk(dirfd, 0, add_fingerprint, fp, err);
}

struct owner {
    uid_t uid;
    gid_t gid;
};

static int chown_entry(int parent, const char *name, const struct stat *st, void *ctx, struct jail_error *err)
{
    (void)st;
    const struct owner *o = ctx;
    if (fchownat(parent, name, o->uid, o->gid, AT_SYMLINK_NOFOLLOW) < 0 && errno != ENOENT)
        return jail_fail_errno(err, errno, "chown %s", name);
    return 0;
}

int fs_safe_chown_tree(int dirfd, uid_t uid, gid_t gid, struct jail_error *err)
{
    struct owner o = {uid, gid};
    if (fchown(dirfd, uid, gid) < 0) return jail_fail_errno(err, errno, "chown a directory");
    return walk(dirfd, 0, chown_entry, &o, err);
}

/* ---- removal ---- */

/* Removal must finish whatever the depth, so instead of recursing past
 * REMOVE_HOIST_DEPTH it moves the subtree up into the top directory, whose
 * loop picks it up again: fds and stack stay bounded. */
struct remover {
    int top_fd;
    unsigned hoisted;
};

static int clear_at(struct remover *r, int dirfd, int depth, struct jail_error *err);

static int hoist(struct remover *r, int parent, const char *name, struct jail_error *err)
{
    char moved[NAME_MAX + 1];
    snprintf(moved, sizeof moved, ".judge-rm.%d.%u", (int)getpid(), r->hoisted++);
    if (renameat(parent, name, r->top_fd, moved) < 0)
        return jail_fail_errno(err, errno, "move %s up for removal", name);
    return 0;
}

static int remove_dir_entry(struct remover *r, int parent, const char *name, int depth,
                            struct jail_error *err)
{
    if (depth >= REMOVE_HOIST_DEPTH) return hoist(r, parent, name, err);
    int sub = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0 && errno == ENOENT) return 0;
    if (sub < 0) { /* swapped for a link or a file since the stat: remove that instead */
        if (unlinkat(parent, name, 0) < 0 && errno != ENOENT)
            return jail_fail_errno(err, errno, "remove %s", name);
        return 0;
    }
    int rc = clear_at(r, sub, depth + 1, err);
    close(sub);
    if (rc == 0 && unlinkat(parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
        rc = jail_fail_errno(err, errno, "rmdir %s", name);
    return rc;
}

static int remove_entry(struct remover *r, int parent, const char *name, int depth, struct jail_error *err)
{
    struct stat st;
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return errno == ENOENT ? 0 : jail_fail_errno(err, errno, "stat %s", name);
    if (S_ISDIR(st.st_mode)) return remove_dir_entry(r, parent, name, depth, err);
    if (unlinkat(parent, name, 0) < 0 && errno != ENOENT)
        return jail_fail_errno(err, errno, "remove %s", name);
    return 0;
}

/* One pass over the entries; *seen counts them (0: the directory is empty). */
static int clear_pass(struct remover *r, int dirfd, int depth, unsigned *seen, struct jail_error *err)
{
    DIR *d = open_stream(dirfd, err);
    if (!d) return -1;
    int rc = 0;
    struct dirent *e;
    *seen = 0;
    while (rc == 0 && (e = readdir(d)))
        if (!is_dot_or_dotdot(e->d_name)) {
            ++*seen;
            rc = remove_entry(r, dirfd, e->d_name, depth, err);
        }
    closedir(d);
    return rc;
}

static int clear_at(struct remover *r, int dirfd, int depth, struct jail_error *err)
{
    unsigned seen;
    do {
        if (clear_pass(r, dirfd, depth, &seen, err) < 0) return -1;
    } while (seen > 0);
    return 0;
}

int fs_safe_clear_dir(int dirfd, struct jail_error *err)
{
    struct remover r = {.top_fd = dirfd};
    return clear_at(&r, dirfd, 0, err);
}

int fs_safe_remove_tree(int dirfd, const char *name, struct jail_error *err)
{
    if (strchr(name, '/') || is_dot_or_dotdot(name))
        return jail_fail(err, "remove %s: not a single file name", name);
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return errno == ENOENT ? 0 : jail_fail_errno(err, errno, "stat %s", name);
    if (!S_ISDIR(st.st_mode)) {
        if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
            return jail_fail_errno(err, errno, "remove %s", name);
        return 0;
    }
    int top = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (top < 0) return jail_fail_errno(err, errno, "open directory %s", name);
    int rc = fs_safe_clear_dir(top, err);
    close(top);
    if (rc == 0 && unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
        rc = jail_fail_errno(err, errno, "rmdir %s", name);
    return rc;
}
