/*
 * cgroup_mounts.c - where the cgroup hierarchies are mounted
 * (/proc/self/mountinfo) and which cgroup we are in (/proc/self/cgroup).
 * A NULL controller means the cgroup2 hierarchy.
 */
#include "sandbox/cgroup_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is `word` one of the comma-separated items of `list`? */
static bool in_list(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; p;) {
        if (strncmp(p, word, len) == 0 && (p[len] == ',' || p[len] == '\0' || p[len] == '\n'))
            return true;
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return false;
}

static bool copy_field(char *out, size_t cap, const char *value)
{
    if (strlen(value) >= cap)
        return false;
    strcpy(out, value);
    return true;
}

/* One mountinfo line: "id parent dev root mountpoint opts [tags] - fstype source superopts". */
static bool mount_matches(char *line, const char *ctrl, char **root, char **point)
{
    char *save = NULL;
    char *field[5];
    for (int i = 0; i < 5; i++)
        if (!(field[i] = strtok_r(i ? NULL : line, " ", &save)))
            return false;
    char *tok;
    while ((tok = strtok_r(NULL, " ", &save)) && strcmp(tok, "-") != 0)
        ;
    char *fstype = strtok_r(NULL, " ", &save);
    char *source = strtok_r(NULL, " ", &save);
    char *super = strtok_r(NULL, " \n", &save);
    if (!fstype || !source || !super)
        return false;
    *root = field[3];
    *point = field[4];
    if (!ctrl)
        return strcmp(fstype, "cgroup2") == 0;
    return strcmp(fstype, "cgroup") == 0 && in_list(super, ctrl);
}

static int find_mount_and_root(const char *ctrl, char *point, size_t point_cap, char *root,
                               size_t root_cap)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return -1;
    char *line = NULL;
    size_t len = 0;
    int rc = -1;
    while (rc < 0 && getline(&line, &len, f) > 0) {
        char *mroot, *mpoint;
        if (mount_matches(line, ctrl, &mroot, &mpoint) && copy_field(point, point_cap, mpoint)
            && copy_field(root, root_cap, mroot))
            rc = 0;
    }
    free(line);
    fclose(f);
    return rc;
}

int cgroup_find_mount(const char *ctrl, char *out, size_t cap)
{
    char root[CGROUP_PATH_MAX];
    return find_mount_and_root(ctrl, out, cap, root, sizeof root);
}

/* "id:controllers:path" with controllers empty for cgroup2. */
static bool own_line_matches(char *line, const char *ctrl, char **path)
{
    char *first = strchr(line, ':');
    char *second = first ? strchr(first + 1, ':') : NULL;
    if (!second)
        return false;
    *second = '\0';
    *path = second + 1;
    (*path)[strcspn(*path, "\n")] = '\0';
    const char *ctrls = first + 1;
    return ctrl ? in_list(ctrls, ctrl) : (strncmp(line, "0:", 2) == 0 && *ctrls == '\0');
}

static int own_path_in_proc(const char *ctrl, char *out, size_t cap)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return -1;
    char *line = NULL;
    size_t len = 0;
    int rc = -1;
    while (rc < 0 && getline(&line, &len, f) > 0) {
        char *path;
        if (own_line_matches(line, ctrl, &path) && copy_field(out, cap, path))
            rc = 0;
    }
    free(line);
    fclose(f);
    return rc;
}

int cgroup_own_path(const char *ctrl, char *out, size_t cap)
{
    char point[CGROUP_PATH_MAX], root[CGROUP_PATH_MAX], path[CGROUP_PATH_MAX];
    if (find_mount_and_root(ctrl, point, sizeof point, root, sizeof root) < 0
        || own_path_in_proc(ctrl, path, sizeof path) < 0)
        return -1;
    /* A hierarchy mounted from a sub-cgroup shows paths below that mount's root. */
    size_t rlen = strcmp(root, "/") == 0 ? 0 : strlen(root);
    const char *rel = path;
    if (rlen && strncmp(path, root, rlen) == 0 && (path[rlen] == '/' || path[rlen] == '\0'))
        rel = path + rlen;
    return copy_field(out, cap, *rel ? rel : "/") ? 0 : -1;
}
