/* make_dirs.c - mkdir -p (make_dirs.h). */
#include "common/make_dirs.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int make_one(const char *dir, mode_t mode, char *err, size_t errlen)
{
    if (mkdir(dir, mode) == 0) return 0;
    int saved = errno;
    struct stat st;
    if (saved == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    snprintf(err, errlen, "%.400s: %s", dir, saved == EEXIST ? "not a directory" : strerror(saved));
    errno = saved;
    return -1;
}

int make_dirs(const char *path, mode_t mode, char *err, size_t errlen)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        snprintf(err, errlen, "%.200s...: path too long", path);
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf;; p++) {
        bool last = *p == '\0';
        if (!last && (*p != '/' || p == buf)) continue; /* the root needs no making */
        *p = '\0';
        if (make_one(buf, mode, err, errlen) < 0) return -1;
        if (last) return 0;
        *p = '/';
    }
}

int make_parent_dirs(const char *file_path, mode_t mode, char *err, size_t errlen)
{
    const char *slash = strrchr(file_path, '/');
    if (!slash || slash == file_path) return 0;
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%.*s", (int)(slash - file_path), file_path) >= (int)sizeof dir) {
        snprintf(err, errlen, "%.200s...: path too long", file_path);
        return -1;
    }
    return make_dirs(dir, mode, err, errlen);
}
