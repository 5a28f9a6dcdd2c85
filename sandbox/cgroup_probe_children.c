/*
 * cgroup_probe_children.c - the throw-away cgroups a probe makes to see what a
 * jail's would offer. They all take one name; when the probe is for jails, those
 * of the backend it chose become the first jail's cgroup (put in the pool)
 * instead of being removed, and the first jail makes none: a cgroup costs a
 * mkdir and an rmdir in every hierarchy.
 */
#include "sandbox/cgroup_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MADE_MAX 8 /* v2, the four v1 hierarchies (one parent each), the hybrid twin */

static _Thread_local struct {
    char name[64];
    char *parents[MADE_MAX];
    int n;
} made;

static void remove_child(const char *parent_path, const char *name)
{
    int fd = open(parent_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    unlinkat(fd, name, AT_REMOVEDIR);
    close(fd);
}

void probe_children_begin(void)
{
    cgroup_unique_name(made.name, sizeof made.name);
    made.n = 0;
}

const char *probe_children_name(void)
{
    return made.name;
}

void probe_children_made(const char *parent_path)
{
    char *copy = made.n < MADE_MAX ? strdup(parent_path) : NULL;
    if (copy)
        made.parents[made.n++] = copy;
    else /* not remembered: not kept either */
        remove_child(parent_path, made.name);
}

/* Not the hybrid's cgroup2 twin: the probe killed it (cgroup.kill), and a cgroup killed
 * once takes no clone3 into it (cgroup.c, cgroup_dir_fd): the first jail's twin is made
 * afresh, so its child is cloned straight into it. */
static bool kept_for_jails(const struct cgroup_caps *caps, const char *parent)
{
    if (caps->version == CGROUP_V2)
        return !strcmp(parent, caps->root);
    for (int i = 0; i < CG_V1_COUNT; i++)
        if (!strcmp(parent, caps->v1_root[i]))
            return true;
    return false;
}

void probe_children_end(const struct cgroup_caps *caps, bool keep)
{
    keep = keep && caps->version != CGROUP_NONE && caps->reusable;
    for (int i = 0; i < made.n; i++)
        if (!keep || !kept_for_jails(caps, made.parents[i]))
            remove_child(made.parents[i], made.name);
    if (keep && !cgroup_pool_adopt(caps, made.name))
        for (int i = 0; i < made.n; i++)
            remove_child(made.parents[i], made.name);
    for (int i = 0; i < made.n; i++)
        free(made.parents[i]);
    made.n = 0;
}
