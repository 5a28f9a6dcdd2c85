/*
 * jail_stage.c - the bot's directory as a jail sees it at /bot: a copy in a
 * tmpfs of its own, never a bind, whose /proc/self/mountinfo line would show
 * the path of its source on the host's file system; a copy's root is "/" of a
 * tmpfs, which says nothing.
 *
 * As root, a copy is made once per directory per judge process in a detached
 * tmpfs (fsopen/fsmount: no host path leads to it, nothing to remove at exit)
 * and kept while the directory's fingerprint (sandbox/fs_safe.h: names, types,
 * modes, sizes, inodes, times of everything in it) stays the same; each jail
 * attaches a clone of it (open_tree), read-only. Where the judge cannot make or
 * clone a detached mount (an ordinary user; Linux 6.1 refuses to clone one),
 * each jail's child copies the directory into a tmpfs of its own
 * (mount_copy.c), up to STAGE_PER_JAIL_MAX_BYTES. Only a directory too big to
 * copy, or one the judge cannot read whole, is bound as it is.
 */
#include "sandbox/fs_safe.h"
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define STAGE_MAX_BYTES   (256ull << 20) /* larger directories are bound as they are */
#define STAGE_MAX_ENTRIES 10000
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
static bool cannot_clone_detached; /* Linux 6.1: open_tree(OPEN_TREE_CLONE) of one gives EINVAL */
static bool cannot_make_detached;  /* no CAP_SYS_ADMIN over our mount namespace: an ordinary user */

/* The tmpfs a copy of the directory needs: its bytes, a page per entry, some spare. */
static void copy_tmpfs_size(const struct fs_fingerprint *fp, uint64_t *bytes, uint64_t *inodes)
{
    *inodes = fp->entries + 16;
    *bytes = fp->bytes + *inodes * 4096u;
}

/* A detached, writable tmpfs sized for the copy. */
static int make_tmpfs(const struct fs_fingerprint *fp)
{
    char size[32], inodes[32];
    uint64_t size_bytes, inode_count;
    copy_tmpfs_size(fp, &size_bytes, &inode_count);
    snprintf(size, sizeof size, "%" PRIu64, size_bytes);
    snprintf(inodes, sizeof inodes, "%" PRIu64, inode_count);
    int fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
    if (fs < 0 && errno == EPERM) cannot_make_detached = true;
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

/* A fresh copy of dir in a detached tmpfs, or -1. */
static int stage(int dir, const struct fs_fingerprint *fp)
{
    int mnt = make_tmpfs(fp);
    if (mnt < 0) return -1;
    int root = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* mnt is an O_PATH fd */
    int rc = root < 0 || mount_copy_tree(dir, root) < 0 ? -1 : 0;
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

static bool detached_copies(void)
{
    return !cannot_clone_detached && !cannot_make_detached;
}

int jail_stage_bot(const char *host_dir, struct bot_stage *out)
{
    *out = (struct bot_stage){.tree_fd = -1, .dir_fd = -1};
    int dir = open(host_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return -1;
    struct fs_fingerprint fp;
    struct jail_error ignored;
    bool fits = fs_safe_fingerprint(dir, &fp, &ignored) == 0 && fp.bytes <= STAGE_MAX_BYTES &&
                fp.entries <= STAGE_MAX_ENTRIES;
    if (fits) {
        pthread_mutex_lock(&stage_lock);
        if (detached_copies()) out->tree_fd = clone_kept_copy(host_dir, dir, &fp);
        bool copy_in = !detached_copies();
        pthread_mutex_unlock(&stage_lock);
        if (copy_in && fp.bytes <= STAGE_PER_JAIL_MAX_BYTES) {
            out->dir_fd = dir;
            copy_tmpfs_size(&fp, &out->tmpfs_bytes, &out->tmpfs_inodes);
            return 0;
        }
    }
    close(dir);
    return out->tree_fd >= 0 ? 0 : -1;
}
