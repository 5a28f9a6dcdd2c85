/*
 * atomic_file.h - every file the judge writes (replays, reports, maps, logs)
 * goes to a fresh temporary name in the target's directory (O_EXCL |
 * O_NOFOLLOW, never an existing entry), is fsynced, renamed over the target,
 * and the directory is fsynced: a reader sees the old file or the whole new
 * one, never a half-written one, and a crash loses nothing that was committed.
 * A target that is a character device or a FIFO (/dev/null, a pipe) is written
 * in place instead: renaming over it would replace the device with a file.
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
    bool in_place;              /* the target is a device or FIFO, written directly */
    char name[256];             /* the target's name within dir_fd */
    char temp[300];             /* the temporary name within dir_fd */
    char temp_path[PATH_MAX + 320]; /* the temporary file's full path, for messages and cleanup */
};

/* Errors are one line in err (size errlen) naming the path. */
int atomic_file_create(struct atomic_file *f, const char *path, mode_t mode, char *err, size_t errlen);
int atomic_file_write(struct atomic_file *f, const void *data, size_t len, char *err, size_t errlen);
/* fsync, rename over the target, fsync the directory, close. On failure the temporary file is removed. */
int atomic_file_commit(struct atomic_file *f, char *err, size_t errlen);
/* Close and remove the temporary file. Safe to call on a committed or never-created file. */
void atomic_file_abort(struct atomic_file *f);
/* create + write + commit. */
int atomic_file_write_whole(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
