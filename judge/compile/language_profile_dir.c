/* language_profile_dir.c - where language profiles are looked up, and loading one by name. */
#include "judge/compile/language_profile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/suggest.h"

#define PROFILE_LIST_MAX  32
#define SOURCE_TREE_DEPTH 4 /* bin/judge, build/VARIANT/bin/judge, build/h-NAME/bin/judge */

static int by_string(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int use_dir(const char *dir, const char *why, char *out, size_t size, struct lp_error *err)
{
    if (!is_dir(dir)) {
        snprintf(err->msg, sizeof err->msg, "profiles directory %.400s (%s): not a directory", dir, why);
        return -1;
    }
    if ((size_t)snprintf(out, size, "%s", dir) >= size) {
        snprintf(err->msg, sizeof err->msg, "profiles directory %.400s: path too long", dir);
        return -1;
    }
    return 0;
}

/* The source tree the binary was built in: an ancestor holding judge/cli/main.c and containers/. */
static bool find_source_tree(char *exe_dir, char *out, size_t size)
{
    for (int depth = 0; depth < SOURCE_TREE_DEPTH; depth++) {
        char *slash = strrchr(exe_dir, '/');
        if (!slash || slash == exe_dir) return false;
        *slash = '\0';
        char marker[PATH_MAX + 32];
        snprintf(marker, sizeof marker, "%s/judge/cli/main.c", exe_dir);
        if (is_file(marker) && (size_t)snprintf(out, size, "%s/containers", exe_dir) < size && is_dir(out))
            return true;
    }
    return false;
}

int language_profile_dir(const char *dir, char *out, size_t size, struct lp_error *err)
{
    if (dir) return use_dir(dir, "--profiles", out, size, err);
    const char *env = getenv(LP_PROFILES_ENV);
    if (env && *env) return use_dir(env, "$" LP_PROFILES_ENV, out, size, err);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0'; /* the binary's directory */
            char installed[PATH_MAX + 32];
            snprintf(installed, sizeof installed, "%s/../share/judge/containers", exe);
            if (find_source_tree(exe, out, size)) return 0;
            if (is_dir(installed)) return use_dir(installed, "installed", out, size, err);
        }
    }
    snprintf(err->msg, sizeof err->msg,
             "no profiles directory: set $%s or --profiles, or install with make install", LP_PROFILES_ENV);
    return -1;
}

/* The profiles of dir, by name, as "c, cpp, java" in list; " (did you mean 'X'?)" in near for name. */
static void profile_names(const char *dir, const char *name, char *near, size_t near_size, char *list,
                          size_t list_size)
{
    char found[PROFILE_LIST_MAX][LP_NAME_MAX + 1];
    const char *names[PROFILE_LIST_MAX];
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && n < PROFILE_LIST_MAX && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 5 && len - 5 <= LP_NAME_MAX && !strcmp(e->d_name + len - 5, ".yaml") && e->d_name[0] != '.') {
            snprintf(found[n], sizeof found[n], "%.*s", (int)(len - 5), e->d_name);
            names[n] = found[n];
            n++;
        }
    }
    if (d) closedir(d);
    qsort(names, n, sizeof *names, by_string);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(list + used, list_size - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0 || (size_t)w >= list_size - used) break;
        used += (size_t)w;
    }
    const char *best = suggest_nearest(name, names, n);
    if (best) snprintf(near, near_size, " (did you mean '%s'?)", best);
}

static bool is_profile_name(const char *name)
{
    if (!*name || strlen(name) > LP_NAME_MAX) return false;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || strchr("_-", *c))) return false;
    return true;
}

int language_profile_find(const char *name, const char *dir, struct language_profile *out,
                          struct lp_error *err)
{
    if (strchr(name, '/')) return language_profile_load(name, out, err);
    if (!is_profile_name(name)) {
        snprintf(err->msg, sizeof err->msg,
                 "profile name '%.40s' is not 1 to %d characters of a-z, 0-9, '_', '-'", name, LP_NAME_MAX);
        return -1;
    }
    char base[PATH_MAX], path[PATH_MAX + 64];
    if (language_profile_dir(dir, base, sizeof base, err) < 0) return -1;
    snprintf(path, sizeof path, "%s/%s.yaml", base, name);
    if (access(path, F_OK) < 0 && errno == ENOENT) {
        char near[LP_NAME_MAX + 32] = "", list[256] = "";
        profile_names(base, name, near, sizeof near, list, sizeof list);
        snprintf(err->msg, sizeof err->msg, "no language profile '%s'%s in %.250s (profiles: %.200s)", name, near, base,
                 list);
        return -1;
    }
    return language_profile_load(path, out, err);
}
