/*
 * cgroup_mounts.c - where the cgroup hierarchies are mounted
 * (/proc/self/mountinfo) and which cgroup we are in (/proc/self/cgroup).
 * A NULL controller means the cgroup2 hierarchy.
 */
#include "sandbox/cgroup_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A probe asks a dozen times, and the kernel prints mountinfo afresh for each reading:
 * between cgroup_mounts_keep(true) and (false) it is read once on this thread. Not
 * /proc/self/cgroup: a probe may move the judge (cgroup_probe.c, leave_for_leaf). */
static _Thread_local struct {
    bool on;
    char *mountinfo;
} kept;

/* The whole text of a /proc file (NUL-terminated, malloc'ed), or NULL: it holds no NUL,
 * so one getdelim reads it all. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "re");
    char *text = NULL;
    size_t cap = 0;
    if (f && getdelim(&text, &cap, '\0', f) < 0) {
        free(text);
        text = NULL;
    }
    if (f)
        fclose(f);
    return text;
}

/* mountinfo's text, for the caller to cut up and free. */
static char *mountinfo_text(void)
{
    if (!kept.on)
        return read_text("/proc/self/mountinfo");
    if (!kept.mountinfo)
        kept.mountinfo = read_text("/proc/self/mountinfo");
    return kept.mountinfo ? strdup(kept.mountinfo) : NULL;
}

void cgroup_mounts_keep(bool on)
{
    if (!on) {
        free(kept.mountinfo);
        kept.mountinfo = NULL;
    }
    kept.on = on;
}

/* The next line of text at *at (its newline cut), or NULL at the end. */
static char *next_line(char **at)
{
    char *line = *at;
    if (!line || !*line)
        return NULL;
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = '\0';
    *at = nl ? nl + 1 : line + strlen(line);
    return line;
}

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
    char *text = mountinfo_text(), *at = text, *line;
    if (!text)
        return -1;
    int rc = -1;
    while (rc < 0 && (line = next_line(&at))) {
        char *mroot, *mpoint;
        if (mount_matches(line, ctrl, &mroot, &mpoint) && copy_field(point, point_cap, mpoint)
            && copy_field(root, root_cap, mroot))
            rc = 0;
    }
    free(text);
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
    char *text = read_text("/proc/self/cgroup"), *at = text, *line;
    if (!text)
        return -1;
    int rc = -1;
    while (rc < 0 && (line = next_line(&at))) {
        char *path;
        if (own_line_matches(line, ctrl, &path) && copy_field(out, cap, path))
            rc = 0;
    }
    free(text);
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
