/*
 * source_hash.c - the key of a compiled bot: a hash of the submission's tree
 * and of the language profile's file, so a tournament resumed after a change
 * to either compiles again, and otherwise reuses what it compiled. Entries are
 * taken in byte order; a link counts by its target and is never followed
 * (a submission is untrusted, even on the host).
 */
#include "judge/compile/source_player.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH   16
#define MAX_ENTRIES 100000

struct walk {
    uint64_t h;
    size_t entries;
    struct compile_error *err;
};

static void mix(struct walk *w, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) w->h = (w->h ^ p[i]) * 0x100000001b3ULL;
}

static void mix_str(struct walk *w, const char *s)
{
    mix(w, s, strlen(s) + 1);
}

static int mix_fd(struct walk *w, int fd, const char *name)
{
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return source_fail(w->err, "reading %s: %s", name, strerror(errno));
        mix(w, buf, (size_t)n);
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir_fd but . and .., sorted; *n of them. */
static char **list_names(struct walk *w, int dir_fd, size_t *n)
{
    int fd = dup(dir_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        source_fail(w->err, "reading the submission: %s", strerror(errno));
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    *n = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char **grown = *n == cap ? realloc(names, (cap = cap ? cap * 2 : 16) * sizeof *names) : names;
        if (!grown || !(grown[*n] = strdup(e->d_name))) {
            names = grown ? grown : names;
            for (size_t i = 0; i < *n; i++) free(names[i]);
            free(names);
            closedir(d);
            source_fail(w->err, "out of memory");
            return NULL;
        }
        names = grown;
        (*n)++;
    }
    closedir(d);
    if (*n) qsort(names, *n, sizeof *names, by_name);
    return names ? names : calloc(1, sizeof *names);
}

static int mix_dir(struct walk *w, int dir_fd, int depth);

static int mix_entry(struct walk *w, int dir_fd, const char *name, int depth)
{
    struct stat st;
    if (++w->entries > MAX_ENTRIES)
        return source_fail(w->err, "more than %d files in the submission", MAX_ENTRIES);
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return source_fail(w->err, "%s: %s", name, strerror(errno));
    mix_str(w, name);
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        ssize_t n = readlinkat(dir_fd, name, target, sizeof target - 1);
        target[n > 0 ? n : 0] = '\0';
        mix_str(w, "link");
        mix_str(w, target);
        return 0;
    }
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return mix_str(w, "other"), 0;
    int fd =
        openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
    if (fd < 0) return source_fail(w->err, "%s: %s", name, strerror(errno));
    mix_str(w, S_ISDIR(st.st_mode) ? "dir" : (st.st_mode & 0111) ? "exec" : "file");
    int rc = S_ISDIR(st.st_mode) ? mix_dir(w, fd, depth + 1) : mix_fd(w, fd, name);
    close(fd);
    return rc;
}

static int mix_dir(struct walk *w, int dir_fd, int depth)
{
    if (depth > MAX_DEPTH) return source_fail(w->err, "directories nested deeper than %d", MAX_DEPTH);
    size_t n;
    char **names = list_names(w, dir_fd, &n);
    if (!names) return -1;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0) rc = mix_entry(w, dir_fd, names[i], depth);
        free(names[i]);
    }
    free(names);
    mix_str(w, "end");
    return rc;
}

int source_hash(const char *src_dir, const struct language_profile *p, char out[17],
                struct compile_error *err)
{
    struct walk w = {0xcbf29ce484222325ULL, 0, err};
    mix_str(&w, "judge-source 1");
    mix_str(&w, p->name);
    int fd = open(p->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return source_fail(err, "%s: %s", p->path, strerror(errno));
    int rc = mix_fd(&w, fd, p->path);
    close(fd);
    if (rc < 0) return -1;
    if ((fd = open(src_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return source_fail(err, "SRC_DIR %s: %s", src_dir, strerror(errno));
    rc = mix_dir(&w, fd, 0);
    close(fd);
    if (rc == 0) snprintf(out, 17, "%016llx", (unsigned long long)w.h);
    return rc;
}
