/*
 * cgroup_sweep.c - names of our cgroups, and removal of those a dead judge
 * left behind (it crashed, or was killed before cgroup_release): its bots may
 * still be running there, so they are killed first.
 *
 * A name carries the pid namespace and pid of the judge that made it. Only
 * names from our own pid namespace are judged dead or alive: judges in other
 * containers may share the hierarchy, and their pids mean nothing here.
 */
#include "sandbox/cgroup_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_uint name_seq;

static unsigned long pid_namespace(void)
{
    struct stat st;
    return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

void cgroup_unique_name(char *out, size_t cap)
{
    cgroup_text(out, cap, "j%lx-%d-%u", pid_namespace(), (int)getpid(),
                atomic_fetch_add(&name_seq, 1));
}

static bool left_by_dead_judge(const char *name, unsigned long our_ns)
{
    unsigned long ns;
    int pid, used = 0;
    if (sscanf(name, "j%lx-%d-%*u%n", &ns, &pid, &used) != 2 || name[used] != '\0')
        return false;
    return ns == our_ns && pid > 0 && pid != getpid() && kill(pid, 0) < 0 && errno == ESRCH;
}

static void remove_leftover(const struct cgroup_caps *caps, const char *name)
{
    struct cgroup *cg = cgroup_open(caps, name, true, NULL);
    if (!cg)
        return;
    cgroup_kill_all(cg, NULL);
    cgroup_destroy(cg, NULL); /* if the kill failed, the directory stays: rmdir refuses it */
}

static void sweep_parent(const struct cgroup_caps *caps, const char *parent_path)
{
    unsigned long our_ns = pid_namespace();
    DIR *dir = opendir(parent_path);
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir)))
        if (entry->d_type == DT_DIR && left_by_dead_judge(entry->d_name, our_ns))
            remove_leftover(caps, entry->d_name);
    closedir(dir);
}

void cgroup_sweep_stale(const struct cgroup_caps *caps)
{
    if (caps->version == CGROUP_V2) {
        sweep_parent(caps, caps->root);
        return;
    }
    /* A judge that died while creating one may have left it in some hierarchies only. */
    for (int i = 0; i < CG_V1_COUNT; i++)
        sweep_parent(caps, caps->v1_root[i]);
    if (caps->hybrid)
        sweep_parent(caps, caps->hybrid_root); /* twins whose v1 directories are gone */
}
