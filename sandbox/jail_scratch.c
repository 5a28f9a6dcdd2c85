/*
 * jail_scratch.c - a player's writable directory that outlives single jails.
 * As root it is a size-capped tmpfs owned by the player's host uid, mounted
 * in the judge's private mount namespace (jail_global_init) so it vanishes
 * with the judge; otherwise a plain directory whose size the caller checks
 * with jail_scratch_usage. Removal never follows what the bot left inside.
 */
#include "sandbox/fs_safe.h"
#include "sandbox/jail_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

/* A directory (never a link), and whether a filesystem is mounted right on it. */
static int inspect_dir(const char *path, bool *mounted, struct jail_error *err)
{
    struct statx stx;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_TYPE, &stx) < 0)
        return jail_fail_errno(err, errno, "scratch %s", path);
    if (!S_ISDIR(stx.stx_mode)) return jail_fail(err, "scratch %s: not a directory", path);
    *mounted =
        (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) && (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
    return 0;
}

static int require_empty_dir(const char *path, struct jail_error *err)
{
    int fd = fs_safe_open_dir(path, err);
    if (fd < 0) return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return jail_fail_errno(err, errno, "scratch %s", path);
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            rc = jail_fail(err, "scratch %s: directory is not empty", path);
    closedir(d);
    return rc;
}

static int make_dir(const char *path, struct jail_error *err)
{
    if (mkdir(path, 0700) == 0) return 0;
    if (errno != EEXIST) return jail_fail_errno(err, errno, "scratch mkdir %s", path);
    return require_empty_dir(path, err);
}

static int mount_tmpfs(const char *path, uint64_t bytes, const struct jail_identity *id,
                       struct jail_error *err)
{
    char options[160];
    snprintf(options, sizeof options, "size=%" PRIu64 ",nr_inodes=%" PRIu64 ",mode=0700,uid=%u,gid=%u", bytes,
             jail_tmpfs_inodes(bytes), (unsigned)id->host_uid, (unsigned)id->host_gid);
    if (mount("judge-scratch", path, "tmpfs", MS_NOSUID | MS_NODEV, options) < 0)
        return jail_fail_errno(err, errno, "scratch mount tmpfs on %s", path);
    return 0;
}

int jail_scratch_create(const char *path, uint64_t bytes, const struct jail_identity *id, bool *degraded,
                        struct jail_error *err)
{
    const struct jail_global *g;
    if (!path || !*path || !id) return jail_fail(err, "scratch: no path or identity given");
    if (bytes == 0) return jail_fail(err, "scratch %s: size must be above 0", path);
    if (jail_global_ensure(&g, err) < 0 || make_dir(path, err) < 0) return -1;
    if (g->privileged && g->private_mounts) {
        *degraded = false;
        return mount_tmpfs(path, bytes, id, err);
    }
    *degraded = true;
    if (geteuid() == 0 && lchown(path, id->host_uid, id->host_gid) < 0)
        return jail_fail_errno(err, errno, "scratch chown %s", path);
    return 0;
}

int jail_scratch_usage(const char *path, uint64_t *bytes, struct jail_error *err)
{
    bool mounted = false;
    if (inspect_dir(path, &mounted, err) < 0) return -1;
    if (mounted) {
        struct statfs fs;
        if (statfs(path, &fs) < 0) return jail_fail_errno(err, errno, "scratch statfs %s", path);
        *bytes = (uint64_t)(fs.f_blocks - fs.f_bfree) * (uint64_t)fs.f_bsize;
        return 0;
    }
    int fd = fs_safe_open_dir(path, err);
    if (fd < 0) return -1;
    int rc = fs_safe_usage(fd, bytes, err);
    close(fd);
    return rc;
}

static int remove_dir(const char *path, struct jail_error *err)
{
    char parent_buf[PATH_MAX], base_buf[PATH_MAX];
    if (snprintf(parent_buf, sizeof parent_buf, "%s", path) >= (int)sizeof parent_buf)
        return jail_fail(err, "scratch %s: path too long", path);
    snprintf(base_buf, sizeof base_buf, "%s", path);
    const char *parent = dirname(parent_buf), *base = basename(base_buf);
    int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd < 0) return jail_fail_errno(err, errno, "scratch open %s", parent);
    int rc = fs_safe_remove_tree(pfd, base, err);
    close(pfd);
    return rc;
}

int jail_scratch_remove(const char *path, struct jail_error *err)
{
    bool mounted = false;
    if (inspect_dir(path, &mounted, err) < 0) return -1;
    if (mounted && umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) < 0)
        return jail_fail_errno(err, errno, "scratch umount %s", path);
    return remove_dir(path, err);
}
