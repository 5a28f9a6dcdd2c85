/*
 * jail_stage.c - the bot's directory as a jail sees it at /bot: a copy in a
 * tmpfs of its own, made with fsopen/fsmount and attached nowhere (a detached
 * mount: no host path leads to it, nothing to remove at exit). A bind mount
 * shows in the jail's /proc/self/mountinfo the path of its source on the
 * host's file system; the copy's root is "/" of a tmpfs, which says nothing.
 *
 * A copy is made once per directory per judge process and kept while the
 * directory's fingerprint (sandbox/fs_safe.h: names, types, modes, sizes,
 * inodes, times of everything in it) stays the same; each jail attaches a
 * clone of it (open_tree), read-only. A kernel that cannot clone a detached
 * mount (6.1 refuses with EINVAL; newer ones allow it) gets a copy of its own
 * for each jail, up to STAGE_PER_JAIL_MAX_BYTES. A directory too big to copy,
 * or a kernel or user that cannot make detached mounts, is bound as it is.
 */
#include "sandbox/fs_safe.h"
#include "sandbox/jail_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#define STAGE_MAX_BYTES   (256ull << 20) /* larger directories are bound as they are */
#define STAGE_MAX_ENTRIES 10000
#define STAGE_MAX_DEPTH   16
#define STAGE_SLOTS       16
#define STAGE_PER_JAIL_MAX_BYTES (32ull << 20) /* one copy per jail: keep it cheap */

struct staged {
    char *path;
    struct fs_fingerprint fp;
    int mnt_fd; /* the detached tmpfs, or -1 */
};

static pthread_mutex_t stage_lock = PTHREAD_MUTEX_INITIALIZER;
static struct staged slots[STAGE_SLOTS];
static unsigned next_victim;
static bool cannot_clone_detached;

/* A detached, writable tmpfs sized for the copy. */
static int make_tmpfs(const struct fs_fingerprint *fp)
{
    char size[32], inodes[32];
    snprintf(size, sizeof size, "%" PRIu64, fp->bytes + (fp->entries + 16) * 4096u);
    snprintf(inodes, sizeof inodes, "%" PRIu64, fp->entries + 16);
    int fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
    if (fs < 0) return -1;
    int mnt = -1;
    if (fsconfig(fs, FSCONFIG_SET_STRING, "source", "bot", 0) == 0 &&
        fsconfig(fs, FSCONFIG_SET_STRING, "size", size, 0) == 0 &&
        fsconfig(fs, FSCONFIG_SET_STRING, "nr_inodes", inodes, 0) == 0 &&
        fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
        mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
    close(fs);
    return mnt;
}

static int copy_tree(int from, int to, int depth);

static int copy_file(int from, int to, const char *name, const struct stat *st)
{
    int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int out = in < 0 ? -1 : openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int rc = out < 0 ? -1 : 0;
    for (off_t left = st->st_size; rc == 0 && left > 0;) {
        ssize_t n = sendfile(out, in, NULL, (size_t)(left < (1 << 30) ? left : (1 << 30)));
        if (n <= 0) rc = -1; /* an error, or shorter than it was: not a faithful copy */
        left -= n > 0 ? n : 0;
    }
    if (rc == 0) rc = fchmod(out, st->st_mode & 0777); /* set-id bits never (the jail is nosuid anyway) */
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    return rc;
}

static int copy_dir(int from, int to, const char *name, const struct stat *st, int depth)
{
    if (depth >= STAGE_MAX_DEPTH || mkdirat(to, name, 0700) < 0) return -1;
    int sub_from = openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int sub_to = sub_from < 0 ? -1 : openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc = sub_to < 0 ? -1 : copy_tree(sub_from, sub_to, depth + 1);
    if (rc == 0) rc = fchmod(sub_to, st->st_mode & 0777);
    if (sub_from >= 0) close(sub_from);
    if (sub_to >= 0) close(sub_to);
    return rc;
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
static int copy_tree(int from, int to, int depth)
{
    int fd = dup(from);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return -1;
    }
    rewinddir(d); /* a dup shares the offset of from, which an earlier walk left at its end */
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (fstatat(from, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) rc = -1;
        else if (S_ISREG(st.st_mode)) rc = copy_file(from, to, e->d_name, &st);
        else if (S_ISDIR(st.st_mode)) rc = copy_dir(from, to, e->d_name, &st, depth);
        else if (S_ISLNK(st.st_mode)) rc = copy_link(from, to, e->d_name);
    }
    closedir(d);
    return rc;
}

/* A fresh copy of dir in a detached tmpfs, or -1. */
static int stage(int dir, const struct fs_fingerprint *fp)
{
    struct stat top;
    int mnt = fstat(dir, &top) < 0 ? -1 : make_tmpfs(fp);
    if (mnt < 0) return -1;
    int root = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* mnt is an O_PATH fd */
    int rc = root < 0 || copy_tree(dir, root, 0) < 0 || fchmod(root, top.st_mode & 0777) < 0 ? -1 : 0;
    if (root >= 0) close(root);
    if (rc < 0) {
        close(mnt);
        return -1;
    }
    return mnt;
}

static struct staged *find(const char *path, const struct fs_fingerprint *fp)
{
    for (unsigned i = 0; i < STAGE_SLOTS; i++)
        if (slots[i].path && !strcmp(slots[i].path, path)) {
            if (slots[i].fp.hash == fp->hash && slots[i].mnt_fd >= 0) return &slots[i];
            return NULL; /* changed: its slot is the one to replace */
        }
    return NULL;
}

static struct staged *slot_for(const char *path)
{
    for (unsigned i = 0; i < STAGE_SLOTS; i++)
        if (slots[i].path && !strcmp(slots[i].path, path)) return &slots[i];
    for (unsigned i = 0; i < STAGE_SLOTS; i++)
        if (!slots[i].path) return &slots[i];
    return &slots[next_victim++ % STAGE_SLOTS];
}

static void keep(struct staged *s, const char *path, const struct fs_fingerprint *fp, int mnt_fd)
{
    if (s->path && s->mnt_fd >= 0) close(s->mnt_fd);
    free(s->path);
    s->path = strdup(path);
    s->fp = *fp;
    s->mnt_fd = s->path ? mnt_fd : -1;
    if (!s->path) close(mnt_fd);
}

/* A clone of the kept copy of host_dir (made now if it changed), or -1. */
static int clone_kept_copy(const char *host_dir, int dir, const struct fs_fingerprint *fp)
{
    struct staged *s = find(host_dir, fp);
    if (!s) {
        int mnt = stage(dir, fp);
        if (mnt >= 0) keep(s = slot_for(host_dir), host_dir, fp, mnt);
    }
    if (!s || s->mnt_fd < 0) return -1;
    int tree = open_tree(s->mnt_fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
    if (tree < 0 && errno == EINVAL) {
        cannot_clone_detached = true;
        close(s->mnt_fd);
        s->mnt_fd = -1;
    }
    return tree;
}

int jail_stage_tree(const char *host_dir, int *tree_fd)
{
    *tree_fd = -1;
    int dir = open(host_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return -1;
    struct fs_fingerprint fp;
    struct jail_error ignored;
    bool fits = fs_safe_fingerprint(dir, &fp, &ignored) == 0 && fp.bytes <= STAGE_MAX_BYTES &&
                fp.entries <= STAGE_MAX_ENTRIES;
    if (fits) {
        pthread_mutex_lock(&stage_lock);
        if (!cannot_clone_detached) *tree_fd = clone_kept_copy(host_dir, dir, &fp);
        bool own_copy = cannot_clone_detached;
        pthread_mutex_unlock(&stage_lock);
        if (own_copy && fp.bytes <= STAGE_PER_JAIL_MAX_BYTES) *tree_fd = stage(dir, &fp);
    }
    close(dir);
    return *tree_fd >= 0 ? 0 : -1;
}
