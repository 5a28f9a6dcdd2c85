/*
 * common/ - the host-side helpers every upper layer shares and that know
 * nothing of games, jails or replays: output files (atomic_file.c) and their
 * directories (make_dirs.c), YAML with positions (yaml_reader.c), facts about
 * the machine (sysinfo.c).
 *
 * atomic_file.h - every file the judge writes (replays, reports, maps, logs)
 * goes to a fresh temporary name in the target's directory (O_EXCL |
 * O_NOFOLLOW, never an existing entry), is fsynced, renamed over the target,
 * and the directory is fsynced: a reader sees the old file or the whole new
 * one, never a half-written one, and a crash loses nothing that was committed.
 * A path that names something other than a regular file is written in place:
 * "-" is standard output, a character device (/dev/null) or a FIFO is opened
 * and written, never replaced. A symbolic link is followed to one only when
 * root or the judge's own user made it (/dev/stdout); another's link (one a
 * bot planted) is replaced like a file.
 */
#ifndef JUDGE_ATOMIC_FILE_H
#define JUDGE_ATOMIC_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct atomic_file {
    int dir_fd;                 /* the target's directory, opened once */
    int fd;                     /* the temporary file (or the device), open for writing */
    char name[256];             /* the target's name within dir_fd */
    char temp[300];             /* the temporary name within dir_fd */
    char temp_path[PATH_MAX + 320]; /* the temporary file's full path, for messages and cleanup */
    bool in_place;              /* fd is the target itself: a device, a FIFO or standard output */
    off_t reserved;             /* bytes set aside by atomic_file_reserve, released at commit */
    bool replaced;              /* set by atomic_file_commit: the target existed and was replaced */
};

/* Errors are one line in err (size errlen) naming the path; errno is left at the system's reason. */
int atomic_file_create(struct atomic_file *f, const char *path, mode_t mode, char *err, size_t errlen);
int atomic_file_write(struct atomic_file *f, const void *data, size_t len, char *err, size_t errlen);
/* Sets aside disk space for the first `bytes` of the file (fallocate, size
 * unchanged), so that writing them cannot fail for want of space later: an
 * error ("PATH: No space left on device ...") comes now, before the work
 * whose output it is. 0 where the file system cannot reserve. */
int atomic_file_reserve(struct atomic_file *f, off_t bytes, char *err, size_t errlen);
/* fsync, rename over the target, fsync the directory, close. On failure the temporary file is removed. */
int atomic_file_commit(struct atomic_file *f, char *err, size_t errlen);
/* Like atomic_file_commit, but never replaces an existing file: when the
 * target exists, the name gets a suffix "-2", "-3", ... before its first
 * dot ("m-2.jsonl.gz"); f->name is the name taken. */
int atomic_file_commit_new(struct atomic_file *f, char *err, size_t errlen);
/* Close and remove the temporary file. Safe to call on a committed or never-created file. */
void atomic_file_abort(struct atomic_file *f);
/* Whether errnum says the disk is full, read-only or failing: the machine's trouble, not a
 * wrong request nor the judge's error (the tournament's and the compile's exit status 4). */
bool atomic_file_storage_errno(int errnum);
/* create + write + commit. */
int atomic_file_write_whole(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
