/* make_dirs.h - output directories made as `mkdir -p` makes them. */
#ifndef JUDGE_MAKE_DIRS_H
#define JUDGE_MAKE_DIRS_H

#include <stddef.h>
#include <sys/types.h>

/* Makes path and every missing directory above it (mode less the umask); one
 * that exists, or a link to one, is taken as it is. Errors are one line in err
 * (size errlen) naming the directory that could not be made: "a/b: not a directory"; errno is left
 * at the reason. */
int make_dirs(const char *path, mode_t mode, char *err, size_t errlen);
/* The same for the directory a file's path names (nothing to make for a bare name). */
int make_parent_dirs(const char *file_path, mode_t mode, char *err, size_t errlen);

#endif
