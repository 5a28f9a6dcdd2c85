/*
 * cgroup.h - one cgroup per jail, behind one interface with two backends
 * (cgroup_v2.c, cgroup_v1.c) and a pool (cgroup_pool.c) that keeps emptied
 * cgroups for reuse. Internal to sandbox/.
 */
#ifndef SANDBOX_CGROUP_H
#define SANDBOX_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct jail_error;

enum cgroup_version { CGROUP_NONE = 0, CGROUP_V1 = 1, CGROUP_V2 = 2 };

/* What the machine offers, found once by cgroup_probe(). */
struct cgroup_caps {
    enum cgroup_version version;
    char root[256];          /* v2: the delegated directory we create jails under;
                                v1: unused (see v1_root) */
    char v1_root[4][256];    /* v1: memory, cpuacct, pids, freezer parent dirs ("" = absent) */
    bool memory, memory_swap, pids, cpu, freeze, kill;  /* usable controllers/features */
    /* An emptied cgroup can serve the next jail: its meters can be reset.
     * Not on v2 kernels (5.19 to 6.11) whose memory.peak is read-only. */
    bool reusable;
    char why[256];           /* when something is missing: why, and the fix */
    /* v1 machines with a cgroup2 hierarchy beside (systemd's "hybrid" layout,
     * /sys/fs/cgroup/unified): each jail cgroup also gets a twin directory
     * there, and freeze/thaw/kill go through its cgroup.freeze, cgroup.events
     * and cgroup.kill (tens of microseconds, where the v1 freezer takes
     * milliseconds). The v1 freezer is the fallback. */
    bool hybrid;
    char hybrid_root[256];   /* hybrid: the cgroup2 directory the twins go under */
    char freezer_how[64];    /* how freeze and kill work, for doctor and replays */
};
int cgroup_probe(struct cgroup_caps *caps, struct jail_error *err);
/* The same, for a process about to run jails: the cgroup the probe made to look at
 * becomes the first jail's (in the pool; cgroup_pool_drain removes it at exit). */
int cgroup_probe_for_jails(struct cgroup_caps *caps, struct jail_error *err);
/* Probe a specific backend only (tests exercise both; doctor reports both). */
int cgroup_probe_version(enum cgroup_version v, struct cgroup_caps *caps, struct jail_error *err);
/* The same with an explicit base directory (NULL = found from the mounts):
 * v2, a cgroup2 directory we may write (the hierarchy root as root, a delegated
 * one otherwise) under which "judge/" is created; v1, the directory holding one
 * mount per controller, jails going under <base>/<ctrl>/judge.
 * cgroup_probe and cgroup_probe_version read two environment variables:
 * JUDGE_CGROUP_VERSION ("1", "2", "none") forces the backend, and
 * JUDGE_CGROUP_ROOT sets the base directory as above. All three return 0 when
 * the backend can create cgroups, else -1 with caps->version == CGROUP_NONE and
 * caps->why (also in err) naming what is missing and the fix.
 * All three also read JUDGE_CGROUP_HYBRID: "0" keeps a v1 backend on the v1
 * freezer (no cgroup2 twins); unset or anything else uses a usable cgroup2
 * hierarchy (with an explicit v1 base, <base>/unified) for hybrid mode. */
int cgroup_probe_at(enum cgroup_version v, const char *base, struct cgroup_caps *caps,
                    struct jail_error *err);

struct cgroup_limits { uint64_t memory_bytes, pids; };

struct cgroup;  /* opaque: one jail's cgroup */

/* Create (or take from the pool) an empty cgroup with these limits. */
int cgroup_acquire(const struct cgroup_caps *caps, const struct cgroup_limits *lim,
                   struct cgroup **out, struct jail_error *err);
/* Move a process in (before it execs), all of it, by pid. */
int cgroup_attach(struct cgroup *cg, pid_t pid, struct jail_error *err);
/* A jail's first process enters its cgroup in up to three steps, none of which
 * writes a pid to cgroup.procs while it can be avoided: that write takes the
 * kernel's global threadgroup lock, whose writer waits for an RCU grace
 * period (5 to 15 ms on a VM seen here, per spawn after a pause):
 *   clone3(CLONE_INTO_CGROUP) into cgroup_dir_fd(), when it is not -1 (the v2
 *   directory, or the hybrid backend's cgroup2 twin; -1 on plain v1, and once
 *   the cgroup went through cgroup.kill);
 *   cgroup_attach_rest() by the parent: what the clone did not do (nothing on v1);
 *   cgroup_enter_self() by the child itself, before anything else once
 *   released: "0" to each v1 hierarchy's `tasks` (kept open), a thread
 *   moving itself, which newer kernels (seen on 6.18) let skip that lock.
 *   0 or -errno; nothing to do on v2. */
int cgroup_dir_fd(const struct cgroup *cg);
int cgroup_attach_rest(struct cgroup *cg, pid_t pid, bool cloned_into, struct jail_error *err);
int cgroup_enter_self(const struct cgroup *cg);

uint64_t cgroup_cpu_ns(struct cgroup *cg);          /* cumulative usage of all members */
uint64_t cgroup_memory_peak(struct cgroup *cg);     /* bytes, 0 if unknown */
bool cgroup_oom_killed(struct cgroup *cg);          /* an OOM kill happened in it */
bool cgroup_pids_limit_hit(struct cgroup *cg);      /* a fork/clone failed at pids.max */
int cgroup_freeze(struct cgroup *cg, bool frozen, struct jail_error *err); /* waits until done */
/* Ask for the freeze and return: cgroup_freeze(cg, true) then waits for it. */
int cgroup_freeze_request(struct cgroup *cg, struct jail_error *err);
int cgroup_kill_all(struct cgroup *cg, struct jail_error *err); /* cgroup.kill, or freeze+SIGKILL loop */
int cgroup_count_procs(struct cgroup *cg);          /* members left; -1 on error */
/* Its list of threads, opened for cgroup_threads_are (the caller closes it); -1 on error. */
int cgroup_threads_open(struct cgroup *cg);
/* 1 when every thread the list at fd names is `only` or `also`, `only` among
 * them; 0 when another is there; -1 when it cannot be read. */
int cgroup_threads_are(int fd, pid_t only, pid_t also);
/* Its count of tasks (threads: pids.current), opened for cgroup_task_count:
 * cheaper to read than the list; -1 without a pids controller. */
int cgroup_task_count_open(struct cgroup *cg);
int cgroup_task_count(int fd); /* -1 when it cannot be read */
/* Its highest count of tasks since it was made (pids.peak, newer kernels),
 * read by cgroup_task_count; -1 where there is none. */
int cgroup_task_peak_open(struct cgroup *cg);
/* fn on each thread the list names now (v1 "tasks", v2 "cgroup.threads"). */
int cgroup_for_each_thread(struct cgroup *cg, void (*fn)(pid_t tid, void *ctx), void *ctx, struct jail_error *err);
/* Kill everything, wait until empty, then return it to the pool (or remove it).
 * Fails (and does not reuse the cgroup) if it cannot be emptied. */
int cgroup_release(struct cgroup *cg, struct jail_error *err);
const char *cgroup_path(const struct cgroup *cg); /* primary directory, for messages */

/* Remove every pooled cgroup of this process (at exit). */
void cgroup_pool_drain(void);

#endif
