/*
 * fs_safe.h - host-side file operations inside a directory a jailed program
 * could write to (its rw_dir, a scratch directory). A bot may plant symlinks,
 * hard links or deep trees there; none of these functions ever follows a link
 * out of the directory, writes through a hard link, or recurses without bound.
 * Paths are relative to a directory fd opened with fs_safe_open_dir.
 * All return 0 (or an fd) on success and -1 with a message in *err.
 */
#ifndef SANDBOX_FS_SAFE_H
#define SANDBOX_FS_SAFE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct jail_error;

/* Open a directory the judge controls; the last component must not be a symlink. */
int fs_safe_open_dir(const char *path, struct jail_error *err);

/* openat2 beneath dirfd with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS
 * (no "..", no absolute path, no link anywhere). Opening an existing regular file
 * for writing is refused when it has other hard links. Returns the fd. */
int fs_safe_openat(int dirfd, const char *relpath, int flags, mode_t mode, struct jail_error *err);

/* Create a directory beneath dirfd (its parent must already exist). */
int fs_safe_mkdirat(int dirfd, const char *relpath, mode_t mode, struct jail_error *err);

/* Write a whole file beneath dirfd: a temporary name, fsync, rename over relpath
 * (a link planted at relpath is replaced, never written through). */
int fs_safe_write_file(int dirfd, const char *relpath, const void *data, size_t len, mode_t mode,
                       struct jail_error *err);

/* Read a regular file beneath dirfd into buf (at most cap bytes; *len gets the count). */
int fs_safe_read_file(int dirfd, const char *relpath, void *buf, size_t cap, size_t *len,
                      struct jail_error *err);

/* Remove `name` in dirfd: a file, a link (the link itself) or a whole tree. */
int fs_safe_remove_tree(int dirfd, const char *name, struct jail_error *err);

/* Remove everything inside dirfd, keeping dirfd itself. */
int fs_safe_clear_dir(int dirfd, struct jail_error *err);

/* Bytes everything under dirfd takes (st_blocks) or, for a sparse file, claims
 * (st_size), links not followed. */
int fs_safe_usage(int dirfd, uint64_t *bytes, struct jail_error *err);

/* What a tree holds, summed up: any change of a name, type, mode, size, inode or
 * modification time below dirfd changes `hash` (FNV-1a), with high probability. */
struct fs_fingerprint {
    uint64_t hash, entries, bytes; /* bytes: the regular files' lengths */
};
int fs_safe_fingerprint(int dirfd, struct fs_fingerprint *fp, struct jail_error *err);

/* chown dirfd and everything under it; links are changed themselves, never followed. */
int fs_safe_chown_tree(int dirfd, uid_t uid, gid_t gid, struct jail_error *err);

#endif
