/*
 * jail_internal.h - what the jail core files of sandbox/ share: the private
 * struct jail and struct jail_identity, the process-wide state found by
 * jail_global_init, and the pieces a jail is built from (identity slots, user
 * and network namespaces, the mount plan and its template, rlimits,
 * capabilities, the spawn sequence, waiting). Nothing outside sandbox/
 * includes this (its unit tests aside).
 *
 * Functions marked "child side" run in the freshly cloned child before
 * execve: they only make system calls (no allocation, no locks, no stdio),
 * so they are safe even when the judge is multi-threaded.
 */
#ifndef SANDBOX_JAIL_INTERNAL_H
#define SANDBOX_JAIL_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "sandbox/cgroup.h"
#include "sandbox/jail.h"
#include "sandbox/jail_prewarm.h"

struct seccomp_program;

#define JAIL_INNER_UID     1000 /* the uid/gid a bot sees inside its user namespace */
#define JAIL_INNER_GID     1000
#define JAIL_HOSTNAME      "jail"
#define JAIL_UID_BASE      1900000000u /* host uid of identity slot 0; far above real and subuid ranges */
#define JAIL_UID_SLOTS     4096
#define JAIL_SCHED_TICK_NS 4000000u /* CONFIG_HZ=250: a running task's CPU clock lags up to one tick */

/* ---- errors (jail_error.c) ---- */
int jail_fail(struct jail_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like jail_fail, with ": strerror(errnum)" appended. */
int jail_fail_errno(struct jail_error *err, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- process-wide state (jail_global.c) ---- */
struct jail_global {
    bool privileged;       /* root with CAP_SYS_ADMIN: the full root-mode design */
    bool private_mounts;   /* the judge entered its own private mount namespace */
    bool userns_ok;        /* user namespaces can be created */
    bool flat;             /* no namespace jail possible: best-effort jails without namespaces (jail_flat.h) */
    bool flat_setid;       /* flat jails can take a uid slot (CAP_SETUID and CAP_SETGID) */
    int shared_netns_fd;   /* root: the empty network namespace every jail joins; else -1 */
    long usable_cpus;      /* CPUs a jail could use at once (jail_usable_cpus) */
    struct cgroup_caps cgroup; /* version CGROUP_NONE when no cgroup is usable */
    bool seccomp_ok;
    char runtime_dir[PATH_MAX - 64]; /* /run/judge, $XDG_RUNTIME_DIR/judge or /tmp/judge-UID */
    char root_mount[PATH_MAX];       /* where a fresh root is mounted before pivot_root */
    struct isolation_report probe;
    char fix[LAYER_COUNT][128]; /* for a layer not ON: how to get it */
};
/* Probe once (best-effort view); later calls return the same state. */
int jail_global_ensure(const struct jail_global **out, struct jail_error *err);
/* Root: the prepared root every jail copies (finished on the first call); else -1. */
int jail_global_template_fd(void);
/* Strict mode refuses, naming the layers that are not ON (the first with its state and what
 * stands in for it) and `judge doctor` for the fixes. */
int jail_global_check_mode(const struct jail_global *g, enum isolation_mode mode, struct jail_error *err);

/* ---- identities (jail_identity.c) ---- */
struct jail_identity {
    int slot;    /* -1: not root, the judge's own uid is the only one we can map */
    int lock_fd; /* flock'ed slot file; -1 when slot is -1 */
    uid_t host_uid;
    gid_t host_gid;
};
/* Root: the user namespace mapping JAIL_INNER_UID to this identity's host uid,
 * made once per slot and cached for the life of the process (borrowed fd). */
int jail_identity_userns(const struct jail_identity *id, int *fd, struct jail_error *err);
/* Root: the slot this process tries first; the probe's user namespace is made for it and
 * kept as that slot's (jail_identity_keep_userns takes the fd). */
int jail_identity_first_slot(void);
void jail_identity_keep_userns(int slot, int fd);

/* ---- user namespaces (ns_user.c) ---- */
struct id_map {
    uid_t inner_uid, host_uid;
    gid_t inner_gid, host_gid;
};
/* Write /proc/PID/{setgroups,uid_map,gid_map}: one id each way. */
int ns_user_write_maps(pid_t pid, const struct id_map *map, bool deny_setgroups, struct jail_error *err);
/* Make a user namespace with this mapping and return an fd to it (a helper
 * process creates it and exits; the fd keeps it alive). Not root, setgroups
 * must be denied before a gid map can be written. */
int ns_user_create(const struct id_map *map, bool deny_setgroups, int *fd, struct jail_error *err);

/* ---- network namespace (ns_net.c) ---- */
/* Make one empty network namespace (only a down loopback) without leaving ours. */
int ns_net_create_empty(int *fd, struct jail_error *err);

/* ---- CPUs (jail_cpus.c) ---- */
/* How many CPUs a jail's tasks could run on at once: the judge's cpuset, not
 * its own affinity mask, which a bot may widen past. */
long jail_usable_cpus(void);

/* ---- clone3 (clone3.c) ---- */
/* fork-like clone3: the child returns 0 on a copy of the caller's stack with
 * every signal blocked; the parent gets the pid (and a pidfd when pidfd is not
 * NULL), or -errno. cgroup_fd >= 0 starts the child in that cgroup v2. */
pid_t clone3_fork(uint64_t flags, int cgroup_fd, int *pidfd);

/* ---- defaults (jail_limits.c) ---- */
void jail_limits_resolve(const struct jail_limits *in, struct jail_limits *out);
/* The inode cap (nr_inodes) of a tmpfs of `bytes`: one per page of its size. */
uint64_t jail_tmpfs_inodes(uint64_t bytes);

/* ---- rlimits (rlimits.c) ---- */
#define RLIMIT_PLAN_MAX 8
struct rlimit_plan {
    int n;
    struct {
        int resource;
        rlim_t value;
    } item[RLIMIT_PLAN_MAX];
};
/* RLIMIT_FSIZE, NOFILE, STACK, CORE=0 always; CPU as a backstop when a CPU
 * limit is set; DATA (with an AS backstop) and NPROC stand in for a missing
 * cgroup controller. */
void rlimits_plan_build(const struct jail_limits *lim, bool rlimit_for_memory, bool nproc_for_pids,
                        struct rlimit_plan *out);
/* Child side: 0, or -errno with *step naming the limit that failed. */
int rlimits_apply(const struct rlimit_plan *plan, const char **step);

/* ---- capabilities (caps_drop.c) ---- */
/* Child side: empty bounding and ambient sets, then effective, permitted and
 * inheritable. 0, or -errno with *step naming the call that failed. */
int caps_drop_all(const char **step);

/* ---- filesystem (mount_root.c decides, mount_plan.c records and applies) ---- */
struct mount_plan;
struct mount_plan_input {
    const char *root_mount; /* empty directory the fresh root tmpfs is mounted on */
    const char *bot_dir;    /* -> /bot, read-only, or NULL */
    const char *rw_dir;     /* -> /data, read-write, or NULL */
    const char *const *extra_ro_binds;
    uint64_t tmp_bytes;
    bool make_private; /* mounts were not made private by jail_global_init */
    int template_fd;   /* the template mount namespace, or -1 */
    const char *workdir; /* inside the jail; NULL: /bot when bot_dir is set, else / */
};
int mount_plan_build(const struct mount_plan_input *in, struct mount_plan **out, struct jail_error *err);
/* jail_stage.c: how /bot is made, a copy of host_dir either way. */
struct bot_stage {
    int tree_fd;             /* a clone (open_tree) of the kept detached copy, or -1 */
    int dir_fd;              /* else host_dir, for the child to copy in (mount_copy.c), or -1 */
    uint64_t tmpfs_bytes, tmpfs_inodes; /* the tmpfs its copy needs */
};
/* 0 with tree_fd or dir_fd set (the caller owns it), or -1: bind it as it is. */
int jail_stage_bot(const char *host_dir, struct bot_stage *out);
/* mount_copy.c: regular files, directories and symbolic links of from_dir into
 * to_dir, with their permission bits; system calls only (safe in a child). */
int mount_copy_tree(int from_dir, int to_dir);
/* The host device nodes every jail binds must be the character devices they
 * should be (a /dev/null replaced by a regular file would break every bot). */
int mount_check_host_devices(const char *dev_dir, struct jail_error *err); /* dev_dir: "/dev" */
/* The shared part alone, pivoted into: what mount_template.c builds once. */
int mount_plan_build_template(const char *root_mount, bool make_private, struct mount_plan **out,
                              struct jail_error *err);
/* Entered from the template (clone without CLONE_NEWNS) rather than built whole. */
bool mount_plan_uses_template(const struct mount_plan *plan);
void mount_plan_free(struct mount_plan *plan);
size_t mount_plan_steps(const struct mount_plan *plan);
/* Child side: build the root (or enter the template's copy). 0, or -errno with *step set. */
int mount_plan_apply(const struct mount_plan *plan, const char **step);

/* ---- the template mount namespace (mount_template.c) ---- */
/* Root only: build the shared part of every jail's root once, in a mount
 * namespace: built by a thread of its own, then held by *fd once finished. */
struct mount_template_job {
    bool started;
    pthread_t thread;
    struct mount_plan *plan;
    int fd;        /* the namespace, once built */
    int err;       /* 0, or the errno of the failed step */
    char step[120];
};
int mount_template_start(const char *root_mount, bool make_private, struct mount_template_job *job,
                         struct jail_error *err);
int mount_template_finish(struct mount_template_job *job, int *fd, struct jail_error *err);

/* ---- spawn (jail_spawn.c) ---- */
struct spawn_plan {
    const char *const *argv;
    const char *const *envp;
    const char *path_env; /* PATH from envp, for an argv[0] without '/' */
    const struct mount_plan *mounts;
    const struct rlimit_plan *rlimits;
    const struct seccomp_program *seccomp; /* NULL: no filter (best-effort) */
    struct cgroup *cgroup;                 /* NULL: none */
    uint64_t clone_ns;      /* CLONE_NEW* flags created at clone (NEWUSER: maps written by us) */
    bool unshare_cgroup_ns; /* once in its cgroup */
    int netns_fd;           /* root: the shared netns to join, or -1 */
    int userns_fd;          /* root: the identity's userns to enter last, or -1 */
    struct id_map map;      /* with CLONE_NEWUSER: written by the parent into the new userns */
    uid_t uid;              /* what the command runs as, seen from its own user namespace */
    gid_t gid;
    const char *flat_workdir; /* non-NULL: a jail without namespaces (jail_flat.h), cwd on the host */
    bool flat_setid;          /* flat: become uid/gid (else stay the judge's) */
};
struct spawn_result {
    pid_t pid;                             /* the jail's init (pid 1 inside) */
    int pidfd, listener_fd;
    pid_t cmd_pid;                         /* the command (pid 2 inside) */
    int cmd_pidfd;
    int stdin_fd, stdout_fd, stderr_fd;    /* parent ends, non-blocking, close-on-exec */
    int status_fd;                         /* the init's status record, non-blocking, close-on-exec */
    int report_fd;                         /* launched without waiting: the set-up's report pipe, else -1 */
    uint64_t base_proc_ns, base_cgroup_ns; /* CPU spent on set-up, subtracted later: the command's */
    uint64_t base_init_ns;                 /* and the init's */
    uint64_t start_ns;                     /* when the command was released to execve */
};
int jail_spawn(const struct spawn_plan *plan, struct spawn_result *out, struct jail_error *err);
/* jail_spawn in two halves: begin clones the child and releases it into its
 * set-up, which runs on while the caller does other work; complete waits for
 * it, appends the extra arguments (NUL-terminated strings, len bytes in all,
 * at most JAIL_LAUNCH_BYTES_MAX) to the plan's argv and lets it execve. The
 * child keeps its own copy of the plan: the caller may free it after begin.
 * With wait_exec, complete returns once execve has succeeded, or fails; without,
 * as soon as the child has its arguments: a failed execve then ends the command
 * with status 127, and jail_spawn_exec_error reads why from out->report_fd. */
struct spawn_pipes {
    int in[2], out[2], err[2], report[2], go[2], status[2];
};
struct spawn_pending {
    pid_t pid; /* the jail's init */
    int pidfd;
    struct spawn_pipes pipes; /* the parent's ends */
    struct cgroup *cgroup;
    bool cloned_into_cgroup;
    char argv0[128]; /* for error messages */
};
/* Clone the child into plan->cgroup where it can be (cgroup.h), do the parent's
 * part of its attach, write its id maps and let it go on (it enters the rest of
 * its cgroup itself). Kills the child on failure. */
int jail_spawn_begin(const struct spawn_plan *plan, struct spawn_pending *out, struct jail_error *err);
int jail_spawn_complete(struct spawn_pending *sp, const char *args, size_t len, bool wait_exec,
                        struct spawn_result *out, struct jail_error *err);
/* After a launch without waiting: true with why in msg when execve failed. */
bool jail_spawn_exec_error(int report_fd, char *msg, size_t size);
/* Kill the child and close everything (complete does this itself on failure). */
void jail_spawn_abandon(struct spawn_pending *sp);

/* ---- the jail's init (jail_init.c) ---- */
/* Child side, in the init before it forks the command: zero its copy of the
 * judge's environment. Until the command's execve the init may be dumpable (a
 * jail of an ordinary user's own uid: no uid change made it otherwise, and it
 * cannot be made so while the judge takes the command's seccomp listener from
 * their shared memory), and /proc/1/environ readable to the bot meanwhile.
 * It also finds the judge's command line, which jail_init_run blanks. */
void jail_init_blank_environment(void);
/* Child side: become pid 1's init for COMMAND (its child): reap every child,
 * write COMMAND's wait status to status_fd when it ends, exit. */
_Noreturn void jail_init_run(pid_t command, int status_fd);
/* The command's host pid: the only child of the init INIT. */
int jail_init_command_pid(pid_t init, pid_t *out, struct jail_error *err);
/* The command's wait status from the init's record; false when there is none
 * (the init was killed first). */
/* The record also carries the CPU of every child the init reaped. */
bool jail_init_read_status(int fd, int *status, uint64_t *children_cpu_ns);

/* ---- the jail (jail.c) ---- */
struct jail {
    pid_t pid; /* the init, pid 1 inside */
    int pidfd;
    pid_t cmd_pid; /* the command, pid 2 inside */
    int cmd_pidfd;
    int status_fd; /* the init's status record */
    int report_fd; /* launched without waiting for execve: its report (jail_spawn_exec_error) */
    int stdin_fd, stdout_fd, stderr_fd;
    int listener_fd;
    bool listener_hup;
    clockid_t cpu_clock;
    bool has_cpu_clock;
    clockid_t init_clock; /* the init's own CPU: in the cgroup's counter, but not the bot's */
    bool has_init_clock;
    uint64_t init_cpu_ns;     /* the init's own CPU, all of it once reaped with a record */
    uint64_t children_cpu_ns; /* from the init's record: what its children spent */
    struct cgroup *cg;
    bool cgroup_freezer; /* else SIGSTOP/SIGCONT of the init and the command */
    struct jail_identity *own_identity;
    struct jail_limits limits; /* with defaults filled in */
    bool memory_rlimit;        /* memory enforced by RLIMIT_DATA per process (no cgroup) */
    struct isolation_report isolation;
    uint64_t start_ns, end_ns;
    uint64_t base_proc_ns, base_cgroup_ns, base_init_ns;
    uint64_t cgroup_cpu_cache, cgroup_read_at;
    uint64_t cpu_seen; /* highest reading so far: the meter never goes back */
    uint64_t cpu_seen_at; /* when the last reading began (its oldest part: a cached cgroup figure's) */
    bool cpu_fixed;    /* killed while frozen: cpu_seen is final */
    uint64_t idle_exact_ns, idle_sleep_ns; /* jail_wait's back-off for a jail idle near its limit */
    int threads_fd, tasks_count_fd, tasks_peak_fd, syscall_fd; /* jail_cpu_ns_if_idle's files, kept open once used; -1 before */
    bool idle_files_opened;                     /* threads_fd, tasks_count_fd and tasks_peak_fd tried */
    bool idle_reads_stdin;      /* its last answer: asleep in read(0, ...) */
    bool frozen, ended, reaped;
    bool hold_unsettled; /* frozen by jail_hold: its tasks may still be on their way to stop */
    bool killed;
    enum jail_verdict kill_reason;
    char kill_note[160];
    bool has_syscall;
    struct jail_syscall syscall;
    int wait_status;           /* the init's */
    int cmd_status;            /* the command's, from the init's record */
    bool has_cmd_status;
    struct rusage rusage;      /* the init's, with every child it reaped */
    uid_t sweep_uid;           /* flat jail of its own uid slot: killed by uid (uid_sweep.c) */
    bool sweep;
    uint64_t uid_tasks_peak;   /* flat: most tasks of sweep_uid seen (RLIMIT_NPROC reached?) */
    bool init_ends_the_rest;   /* pid 1 of its own pid namespace: kills and reaps the rest once the
                                  command has ended, and counts their CPU (jail_init.c) */
};
/* Close every fd, release an identity of its own, free. */
void jail_free(struct jail *j);
/* jail_start in two halves (see jail_spawn_begin): begin gathers the parts and
 * clones; complete launches with extra arguments, or releases j on failure. */
int jail_begin(const struct jail_spec *spec, struct jail **out, struct spawn_pending *sp, struct jail_error *err);
int jail_complete(struct jail *j, struct spawn_pending *sp, const char *args, size_t len, bool wait_exec,
                  struct jail_error *err);
/* Release a begun jail that will not be completed. */
void jail_abandon(struct jail *j, struct spawn_pending *sp);
/* Take a pending seccomp notification, if any: record it and kill the jail.
 * 1 when one was taken, 0 when none, -1 on error. */
int jail_take_notification(struct jail *j, struct jail_error *err);
/* Reap the init if it has exited (block: wait for it) and take its status
 * record. 0, or -1 on error. */
int jail_reap(struct jail *j, bool block, struct jail_error *err);

/* ---- scheduling (sched_boost.c) ---- */
struct sched_boost {
    bool active;
    int policy; /* to restore */
    struct sched_param param;
};
/* SCHED_FIFO for the calling thread where permitted; end restores the policy. */
void sched_boost_begin(struct sched_boost *b);
void sched_boost_end(struct sched_boost *b);
/* In a jail's child: back to SCHED_OTHER from the referee's SCHED_BATCH (sched_referee.c). */
void jail_sched_reset_inherited(void);

/* ---- waiting (jail_wait.c) ---- */
struct pollfd;
/* jail_wait_any plus caller fds polled alongside (jail_run's stdin and input):
 * returns n when only an extra fd has revents (set in extra[]). */
int jail_wait_core(struct jail_wait_entry *entries, size_t n, struct pollfd *extra, size_t n_extra,
                   struct jail_error *err);

/* ---- verdict (jail_verdict.c) ---- */
struct verdict_facts {
    bool oom_killed;   /* the cgroup saw an OOM kill */
    bool memory_guess; /* no cgroup: a death that looks like a failed allocation (verdict_memory_guess) */
    bool forbidden_syscall;
    bool pids_limit_hit;
    bool killed; /* jail_kill was called */
    enum jail_verdict kill_reason;
    bool cpu_over_limit;   /* the final reading passed the limit (RLIMIT_CPU backstop, late children) */
    bool file_size_signal; /* SIGXFSZ */
    int exit_code, signal;
};
enum jail_verdict verdict_decide(const struct verdict_facts *f);
/* No cgroup, memory under an rlimit: does this death look like a failed
 * allocation (an error exit, abort or fault, not a kill) with the resident
 * peak near the limit? Never after a kill by the judge or a forbidden call. */
bool verdict_memory_guess(const struct verdict_facts *f, uint64_t peak_bytes, uint64_t limit_bytes);

/* ---- metering (jail_meter.c) ---- */
/* max(process clock, cgroup read now, rusage) minus set-up: exact once the
 * jail is frozen or reaped (jail_cpu_ns may use a cgroup reading 1 ms old). */
uint64_t jail_cpu_ns_final(struct jail *j);
/* An upper bound of what the jail has used by now (monotonic_ns) on at most `cpus`
 * CPUs, from its last reading, without reading again (UINT64_MAX before any). */
uint64_t jail_cpu_ns_bound(const struct jail *j, uint64_t now, long cpus);
/* The jail is frozen by the cgroup and about to be killed: take the exact
 * reading as final. Its processes run no more bot code; their exit (the init's
 * teardown of the judge's memory it was copied from, above all) is not the
 * bot's CPU time. */
void jail_cpu_fix(struct jail *j);

/* ---- time (monotonic.c) ---- */
struct timespec ns_to_timespec(uint64_t ns);

#endif
