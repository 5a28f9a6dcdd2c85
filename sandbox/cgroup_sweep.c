/*
 * cgroup_sweep.c - names of our cgroups, and removal of those a dead judge
 * left behind (it crashed, or was killed before cgroup_release): its bots may
 * still be running there, so they are killed first.
 *
 * A name carries the pid namespace, pid and start time of the judge that made
 * it: a container's judge is always pid 1, and the kernel reuses a dead pid
 * namespace's inode number, so without the start time a judge killed as a
 * container's pid 1 left names the next one took for its own, and collided
 * with. Only names from our own pid namespace are judged dead or alive:
 * judges in other containers may share the hierarchy, and their pids mean
 * nothing here.
 */
#include "sandbox/cgroup_internal.h"
#include "sandbox/proc_stat.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
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

/* Field 22 of /proc/PID/stat, in clock ticks since boot; 0 when it cannot be read. */
static unsigned long long start_time(pid_t pid)
{
    char text[1024];
    const char *p = proc_stat_fields(pid, text, sizeof text);
    for (int field = 3; p && field < 22; field++)
        if ((p = strchr(p, ' ')))
            p++;
    unsigned long long ticks;
    return p && sscanf(p, "%llu", &ticks) == 1 ? ticks : 0;
}

static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;

/* Ours, read once per process (a tournament's workers are forks). */
static unsigned long long own_start_time(void)
{
    static pid_t read_by;
    static unsigned long long ticks;
    pthread_mutex_lock(&own_lock);
    if (read_by != getpid()) {
        ticks = start_time(getpid());
        read_by = getpid();
    }
    unsigned long long t = ticks;
    pthread_mutex_unlock(&own_lock);
    return t;
}

void cgroup_unique_name(char *out, size_t cap)
{
    cgroup_text(out, cap, "j%lx-%d-%llx-%u", pid_namespace(), (int)getpid(), own_start_time(),
                atomic_fetch_add(&name_seq, 1));
}

static bool left_by_dead_judge(const char *name, unsigned long our_ns)
{
    unsigned long ns;
    unsigned long long started;
    int pid, used = 0;
    if (sscanf(name, "j%lx-%d-%llx-%*u%n", &ns, &pid, &started, &used) != 3 || name[used] != '\0')
        return false;
    if (ns != our_ns || pid <= 0)
        return false;
    if (pid == getpid())
        return started != own_start_time();
    if (kill(pid, 0) < 0 && errno == ESRCH)
        return true;
    unsigned long long now = start_time(pid);
    return now && now != started; /* the pid is another process's now */
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
