/* scan.c - find the replay files under the inputs (scan.h). */
#include "ci/scan.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/strbuf.h"

#define SUFFIX    ".jsonl.gz"
#define MAX_DEPTH 64
#define STATE_NAME "tournament.json"

static bool is_replay_name(const char *name)
{
    size_t n = strlen(name), s = strlen(SUFFIX);
    return n > s && name[0] != '.' && !strcmp(name + n - s, SUFFIX);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct names {
    char **v;
    size_t n, cap;
};

static void names_free(struct names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* The entries of dir but . and .., sorted: names only, not whole dirents. */
static int list_dir(const char *dir, struct names *l, struct ci_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return ci_fail_usage(err, "%s: %s", dir, strerror(errno));
    struct dirent *e;
    int rc = 0;
    errno = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (l->n == l->cap) {
            size_t cap = l->cap ? l->cap * 2 : 64;
            char **v = realloc(l->v, cap * sizeof *v);
            if (!v) {
                rc = ci_fail_oom(err);
                break;
            }
            l->v = v;
            l->cap = cap;
        }
        if (!(l->v[l->n] = strdup(e->d_name)))
            rc = ci_fail_oom(err);
        else
            l->n++;
    }
    if (rc == 0 && errno)
        rc = ci_fail_usage(err, "%s: %s", dir, strerror(errno));
    closedir(d);
    if (rc == 0 && l->n)
        qsort(l->v, l->n, sizeof *l->v, by_name);
    return rc;
}

static int walk(const char *dir, int depth, const struct scan_skip *skip, const struct scan_hooks *h,
                struct ci_error *err);

static int visit(const char *dir, const char *name, int depth, const struct scan_skip *skip,
                 const struct scan_hooks *h, struct ci_error *err)
{
    struct strbuf path = STRBUF_INIT;
    if (sb_printf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name) < 0)
        return ci_fail_oom(err);
    struct stat st;
    int rc = 0;
    if (lstat(path.data, &st) < 0)
        rc = 0; /* vanished since it was listed */
    else if (S_ISDIR(st.st_mode) && !(skip->set && st.st_dev == skip->dev && st.st_ino == skip->ino))
        rc = walk(path.data, depth + 1, skip, h, err);
    else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) && is_replay_name(name))
        rc = h->replay(h->replay_ctx, path.data, err);
    sb_free(&path);
    return rc;
}

/* A `judge tournament` output directory holds the submissions' own files under
 * bots/: a student could ship a forged replay there. Only the judge's records are read. */
static bool is_tournament_dir(const char *dir, const struct names *list)
{
    bool listed = false;
    for (size_t i = 0; i < list->n && !listed; i++)
        listed = !strcmp(list->v[i], STATE_NAME);
    if (!listed)
        return false;
    struct strbuf path = STRBUF_INIT;
    struct stat st;
    bool regular = sb_printf(&path, "%s/" STATE_NAME, dir) == 0 && lstat(path.data, &st) == 0 &&
                   S_ISREG(st.st_mode);
    sb_free(&path);
    return regular;
}

static bool is_tournament_record_dir(const char *name)
{
    return !strcmp(name, "replays") || !strcmp(name, "compile") || !strcmp(name, "smoke");
}

/* DIR/tournament.json to the hook. */
static int tell_tournament(const char *dir, const struct scan_hooks *h, struct ci_error *err)
{
    struct strbuf path = STRBUF_INIT;
    if (sb_printf(&path, "%s%s" STATE_NAME, dir, dir[strlen(dir) - 1] == '/' ? "" : "/") < 0)
        return ci_fail_oom(err);
    int rc = h->tournament ? h->tournament(h->tournament_ctx, path.data, err) : 0;
    sb_free(&path);
    return rc;
}

static int walk(const char *dir, int depth, const struct scan_skip *skip, const struct scan_hooks *h,
                struct ci_error *err)
{
    if (depth > MAX_DEPTH)
        return ci_fail_usage(err, "%s: directories nested deeper than %d levels", dir, MAX_DEPTH);
    struct names list = {0};
    int rc = list_dir(dir, &list, err);
    bool records_only = rc == 0 && is_tournament_dir(dir, &list);
    if (records_only)
        rc = tell_tournament(dir, h, err);
    for (size_t i = 0; rc == 0 && i < list.n; i++)
        if (!records_only || is_tournament_record_dir(list.v[i]))
            rc = visit(dir, list.v[i], depth, skip, h, err);
    names_free(&list);
    return rc;
}

int scan_inputs(const char *const *inputs, size_t n, const struct scan_skip *skip, const struct scan_hooks *h,
                struct ci_error *err)
{
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(inputs[i], &st) < 0)
            return ci_fail_usage(err, "%s: %s", inputs[i], strerror(errno));
        int rc =
            S_ISDIR(st.st_mode) ? walk(inputs[i], 0, skip, h, err) : h->replay(h->replay_ctx, inputs[i], err);
        if (rc)
            return rc;
    }
    return 0;
}
