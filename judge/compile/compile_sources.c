/* compile_sources.c - which files of a submission are its sources, and which one is its entry. */
#include "judge/compile/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_MAX_SHOWN 60
#define SAFE_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"

int compile_fail(struct compile_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->request = false;
    err->storage = false;
    return -1;
}

static bool matches(const struct language_profile *p, const char *name)
{
    for (size_t i = 0; i < p->n_sources; i++)
        if (fnmatch(p->sources[i], name, FNM_PERIOD) == 0) return true;
    return false;
}

/* A name the compiler cannot take for an option, an argument file ('@') or a
 * PCH of another header, and that cannot make a compiler's message (which starts
 * with the file name) a CI log command or a terminal sequence: letters, digits,
 * '.', '_', '+', '-', not starting with '-'. */
static bool safe_name(const char *name)
{
    if (name[0] == '-') return false;
    for (const char *c = name; *c; c++)
        if (!strchr(SAFE_NAME_CHARS, *c)) return false;
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int problem_at(char *problem, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int problem_at(char *problem, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, size, fmt, ap);
    va_end(ap);
    return 1;
}

/* One directory entry: its name must be safe; added when it is a regular file matching a pattern. */
static int consider(const struct language_profile *p, int dir_fd, const char *name,
                    struct compile_sources *out, char *problem, size_t size)
{
    struct stat st;
    if (!strcmp(name, ".") || !strcmp(name, "..")) return 0;
    if (!safe_name(name))
        return problem_at(problem, size,
                          "judge: file name '%.*s' is not allowed (letters, digits, '.', '_', '+', '-', "
                          "not starting with '-')",
                          NAME_MAX_SHOWN, name);
    if (!matches(p, name) || fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
        return 0;
    if (out->n == COMPILE_MAX_SOURCES)
        return problem_at(problem, size, "judge: more than %d source files", COMPILE_MAX_SOURCES);
    if (!(out->names[out->n] = strdup(name))) return -1;
    out->n++;
    return 0;
}

static int read_dir(const struct language_profile *p, const char *src_dir, struct compile_sources *out,
                    char *problem, size_t size, struct compile_error *err)
{
    DIR *d = opendir(src_dir);
    if (!d) return compile_fail(err, "%s: %s", src_dir, strerror(errno));
    int rc = 0;
    errno = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)); errno = 0)
        rc = consider(p, dirfd(d), e->d_name, out, problem, size);
    if (rc == 0 && errno)
        rc = compile_fail(err, "%s: %s", src_dir, strerror(errno));
    else if (rc < 0)
        compile_fail(err, "out of memory");
    closedir(d);
    return rc;
}

static void describe_patterns(const struct language_profile *p, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < p->n_sources && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", p->sources[i]);
}

/* The first of the profile's entry names that is a source, else the only source. */
static int pick_entry(const struct language_profile *p, struct compile_sources *s, char *problem, size_t size)
{
    for (size_t i = 0; i < p->n_entry; i++)
        for (size_t j = 0; j < s->n; j++)
            if (!strcmp(p->entry[i], s->names[j])) return (s->entry = s->names[j]), 0;
    if (s->n == 1) return (s->entry = s->names[0]), 0;
    char names[200] = "";
    for (size_t i = 0, used = 0; i < p->n_entry && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? " or " : "", p->entry[i]);
    return problem_at(problem, size, "judge: %zu source files and none is the entry: name the main one %s",
                      s->n, names);
}

int compile_sources_list(const struct language_profile *p, const char *src_dir, struct compile_sources *out,
                         char *problem, size_t size, struct compile_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = read_dir(p, src_dir, out, problem, size, err);
    if (rc != 0) return rc;
    qsort(out->names, out->n, sizeof *out->names, by_name);
    if (out->n == 0) {
        char patterns[200];
        describe_patterns(p, patterns, sizeof patterns);
        return problem_at(problem, size, "judge: no source file (%s) in the submission", patterns);
    }
    return p->n_entry ? pick_entry(p, out, problem, size) : 0;
}

void compile_sources_free(struct compile_sources *s)
{
    for (size_t i = 0; i < s->n; i++) free(s->names[i]);
    memset(s, 0, sizeof *s);
}
