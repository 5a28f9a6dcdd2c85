/*
 * cgroup_internal.h - what the cgroup files of sandbox/ share: one struct
 * cgroup, an ops table with three backends (cgroup_v2.c, cgroup_v1.c, and
 * cgroup_hybrid.c: v1 plus a cgroup2 twin for freezing and killing), the
 * control-file helpers (cgroup_file.c), the hierarchy finder
 * (cgroup_mounts.c), naming and leftovers (cgroup_sweep.c) and the
 * freeze+SIGKILL loop (cgroup_kill.c).
 * Nothing outside the cgroup_*.c files (and their unit test) includes this.
 */
#ifndef SANDBOX_CGROUP_INTERNAL_H
#define SANDBOX_CGROUP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandbox/cgroup.h"
#include "sandbox/jail.h"

#define CGROUP_PATH_MAX 320
#define CGROUP_PARENT_NAME "judge"       /* our subtree under a hierarchy or base */
#define CGROUP_WAIT_NS 2000000000ull     /* bound on freeze/thaw/kill waits */
/* Memory (user pages and kernel memory) left charged to an emptied cgroup that
 * still allows its reuse: what the dead leave for a moment (objects freed after
 * an RCU grace period, per-CPU charge caches: 50-500 KiB measured; a few MiB of
 * page tables after a program with huge mappings, such as one under ASan). The
 * next jail gets it on top of its limit and it is taken off its peak (struct
 * cgroup.residue), so it is never blamed on that bot; anything more (tmpfs
 * files, masses of inodes) and the cgroup is removed and a fresh one made. */
#define CGROUP_REUSE_MAX_CHARGE (8u << 20)

/* Index of the v1 controllers, in the order of cgroup_caps.v1_root. */
enum cgroup_v1_ctrl { CG_V1_MEMORY, CG_V1_CPUACCT, CG_V1_PIDS, CG_V1_FREEZER, CG_V1_COUNT };
extern const char *const cgroup_v1_ctrl_names[CG_V1_COUNT];

/* A directory we hold open, with its path for error messages. */
struct cgroup_dir {
    int fd;
    char path[CGROUP_PATH_MAX];
};

struct cgroup;

/* Raw cumulative counters of a backend; cgroup.c subtracts the values seen at acquire. */
struct cgroup_counters {
    uint64_t oom_kills;
    uint64_t pids_max_hits;
};

struct cgroup_ops {
    /* mkdir the cgroup `name` under the caps' parents and open what we keep open. */
    int (*create)(struct cgroup *cg, const char *name, struct jail_error *err);
    /* Close everything and rmdir; -1 (directories left) when still populated. */
    int (*destroy)(struct cgroup *cg, struct jail_error *err);
    int (*set_limits)(struct cgroup *cg, const struct cgroup_limits *lim, struct jail_error *err);
    /* Make an emptied cgroup fit for reuse; -1 means "recreate it instead". */
    int (*reset)(struct cgroup *cg, struct jail_error *err);
    int (*attach)(struct cgroup *cg, pid_t pid, struct jail_error *err);
    /* The part of an attach cgroup_enter_self leaves to the parent (v1: none). */
    int (*attach_rest)(struct cgroup *cg, pid_t pid, struct jail_error *err);
    uint64_t (*cpu_ns_raw)(struct cgroup *cg);
    uint64_t (*memory_peak)(struct cgroup *cg);
    int (*counters)(struct cgroup *cg, struct cgroup_counters *out, struct jail_error *err);
    int (*freeze)(struct cgroup *cg, bool frozen, struct jail_error *err);
    int (*kill_all)(struct cgroup *cg, struct jail_error *err);
    /* The directory whose cgroup.procs lists every member. */
    const struct cgroup_dir *(*procs_dir)(const struct cgroup *cg);
};

extern const struct cgroup_ops cgroup_v1_ops;
extern const struct cgroup_ops cgroup_v2_ops;
extern const struct cgroup_ops cgroup_hybrid_ops;

struct cgroup {
    const struct cgroup_ops *ops;
    struct cgroup_caps caps;             /* copy: where it lives, what it offers */
    char name[48];                       /* directory name under each parent */
    bool adopted;                        /* opened an existing directory (sweep) */
    bool frozen;                         /* by cgroup_freeze: release must thaw it */
    bool killed;                         /* v2 (or hybrid twin): went through cgroup.kill (see cgroup_dir_fd) */
    struct cgroup_dir dirs[CG_V1_COUNT]; /* v2: dirs[0] only; v1: one per controller */
    int ndirs;
    int cpu_fd;     /* cpu.stat or cpuacct.usage, kept open for cheap preads */
    int peak_fd;    /* v2 memory.peak, kept open: a reset applies to this fd only */
    int events_fd;  /* v2 (or hybrid twin) cgroup.events, polled for "frozen" and "populated" */
    int freeze_fd;  /* v2 (or hybrid twin) cgroup.freeze, or v1 freezer.state: kept open */
    int tasks_fd[CG_V1_COUNT]; /* v1 `tasks`, written "0" by a jail entering itself (-1 on v2) */
    struct cgroup_dir twin;              /* hybrid: the cgroup2 twin (fd -1 otherwise) */
    uint64_t cpu_base_ns;
    struct cgroup_counters base;
    struct cgroup_limits limits;         /* as last asked for (a pooled cgroup keeps them) */
    uint64_t residue;                    /* bytes still charged when reused (reset): added to
                                            the memory limit written, taken off the peak */
    uint64_t limit_residue;              /* the residue the written limit includes */
    bool has_limits;
    struct cgroup *next;                 /* pool link */
};

/* ---- errors (cgroup.c) ---- */
int cgroup_fail(struct jail_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* snprintf that may truncate (messages). */
void cgroup_text(char *dst, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int cgroup_fail_errno(struct jail_error *err, int errnum, const char *what, const char *dir,
                      const char *name);

/* ---- control files (cgroup_file.c): every open is openat(dir, name, O_NOFOLLOW) ---- */
int cgroup_dir_open(struct cgroup_dir *d, int parent_fd, const char *parent_path,
                    const char *name, struct jail_error *err);
int cgroup_dir_open_path(struct cgroup_dir *d, const char *path, struct jail_error *err);
void cgroup_dir_close(struct cgroup_dir *d);
/* Make (or, when `adopted`, reuse) the cgroup NAME under the directory ROOT and open it. */
int cgroup_dir_make(struct cgroup_dir *d, const char *root, const char *name, bool adopted,
                    struct jail_error *err);
int cgroup_file_open(const struct cgroup_dir *d, const char *name, int flags, struct jail_error *err);
bool cgroup_file_exists(const struct cgroup_dir *d, const char *name);
int cgroup_file_read(const struct cgroup_dir *d, const char *name, char *buf, size_t cap,
                     struct jail_error *err);
int cgroup_file_write(const struct cgroup_dir *d, const char *name, const char *value,
                      struct jail_error *err);
int cgroup_file_write_u64(const struct cgroup_dir *d, const char *name, uint64_t value,
                          struct jail_error *err);
int cgroup_file_read_u64(const struct cgroup_dir *d, const char *name, uint64_t *out,
                         struct jail_error *err);
/* "key value" lines (cpu.stat, memory.events, pids.events, memory.oom_control). */
int cgroup_file_read_keyed(const struct cgroup_dir *d, const char *name, const char *key,
                           uint64_t *out, struct jail_error *err);
bool cgroup_parse_keyed(const char *text, const char *key, uint64_t *out);
bool cgroup_parse_u64(const char *text, uint64_t *out);
/* pread from offset 0 into buf (NUL-terminated); -1 on error. */
ssize_t cgroup_fd_pread(int fd, char *buf, size_t cap);
/* pwrite value at offset 0 of a kept control file (dir/name for messages). */
int cgroup_fd_write(int fd, const char *value, const char *dir, const char *name,
                    struct jail_error *err);
/* Call fn for every pid listed in a cgroup.procs-style file; -1 on error. */
int cgroup_file_for_each_pid(const struct cgroup_dir *d, const char *name,
                             void (*fn)(pid_t pid, void *ctx), void *ctx, struct jail_error *err);
int cgroup_file_count_lines(const struct cgroup_dir *d, const char *name, struct jail_error *err);
/* Waiting for a control file to change (a freeze under way): sleep in short,
 * doubling steps (the judge's own CPU is what a spin would waste, and a task
 * waiting for our CPU can stop meanwhile), re-reading after each; bounded by
 * CGROUP_WAIT_NS. */
struct cgroup_waiter {
    uint64_t deadline, step;
    int saved_slack; /* timer slack to put back; -1 when untouched */
};
void cgroup_waiter_start(struct cgroup_waiter *w);
/* Between two reads: 1 to read again, 0 past the deadline, -1 when the poll
 * (POLLPRI on poll_fd, or none when -1) failed (dir/name for the message). */
int cgroup_waiter_pause(struct cgroup_waiter *w, int poll_fd, const char *dir, const char *name,
                        struct jail_error *err);
void cgroup_waiter_end(struct cgroup_waiter *w);
/* A busy task on another CPU stops 10-20 us after a freeze is asked (the
 * kernel interrupts it; a VM's interrupts are slow), and a first sleep of
 * 20 us wakes 40 us or more late there: a freeze re-reads for this long
 * before sleeping, which halves the freeze of a running busy jail
 * (bench_jail: "200 us after the last", v2 80 -> 35 us at the median). */
#define CGROUP_FREEZE_SPIN_NS 30000u
/* Before spin_until (0: none): yield, so that a task preempted on our CPU
 * runs to where it stops, and answer true (read again); then false. */
bool cgroup_spin_yield(uint64_t spin_until);
/* Wait (a cgroup_waiter, polling fd for POLLPRI) until the keyed file
 * dir/name at fd has key == want, or time out; re-read (cgroup_spin_yield)
 * without sleeping for the first spin_ns. */
int cgroup_wait_keyed(int fd, const char *dir, const char *name, const char *key, uint64_t want,
                      uint64_t spin_ns, struct jail_error *err);

/* ---- hierarchies (cgroup_mounts.c) ---- */
/* Mount point of the cgroup2 hierarchy, or of the v1 hierarchy carrying `ctrl`. */
int cgroup_find_mount(const char *ctrl, char *out, size_t cap);
/* While on, this thread reads /proc/self/mountinfo once (cgroup_probe turns it on for its run). */
void cgroup_mounts_keep(bool on);
/* Our own cgroup path inside that hierarchy ("/" at its root), namespace-relative. */
int cgroup_own_path(const char *ctrl, char *out, size_t cap);

/* ---- pieces the hybrid backend shares (cgroup_v1.c, cgroup_v2.c) ---- */
/* The v1 directories and the cpu counter; no freezer state file. */
int cgroup_v1_make_dirs(struct cgroup *cg, const char *name, struct jail_error *err);
/* The v1 ops, but for create, freeze and kill_all. */
int cgroup_v1_destroy(struct cgroup *cg, struct jail_error *err);
int cgroup_v1_set_limits(struct cgroup *cg, const struct cgroup_limits *lim, struct jail_error *err);
int cgroup_v1_reset(struct cgroup *cg, struct jail_error *err);
int cgroup_v1_attach(struct cgroup *cg, pid_t pid, struct jail_error *err);
uint64_t cgroup_v1_cpu_ns_raw(struct cgroup *cg);
uint64_t cgroup_v1_memory_peak(struct cgroup *cg);
int cgroup_v1_counters(struct cgroup *cg, struct cgroup_counters *out, struct jail_error *err);
const struct cgroup_dir *cgroup_v1_procs_dir(const struct cgroup *cg);
/* The v1 freezer through a freezer.state opened for this call only. */
int cgroup_v1_freeze_unkept(struct cgroup *cg, bool frozen, struct jail_error *err);
#define CGROUP_V1_FREEZER_KEEPER "freezer-kept-on"
/* An empty v1 freezer cgroup left frozen, which makes every other freeze cheaper. */
void cgroup_v1_keep_freezer_on(const struct cgroup_caps *caps);
/* Open the cgroup.freeze and cgroup.events of a cgroup2 directory. */
int cgroup_v2_open_freezer(const struct cgroup_dir *d, int *freeze_fd, int *events_fd,
                           struct jail_error *err);
/* Freeze or thaw a cgroup2 directory through its kept fds, waiting until done. */
int cgroup_v2_freeze_at(const struct cgroup_dir *d, int freeze_fd, int events_fd, bool frozen,
                        struct jail_error *err);
/* cgroup.kill a cgroup2 directory and wait until it is unpopulated. */
int cgroup_v2_kill_at(const struct cgroup_dir *d, int events_fd, struct jail_error *err);
/* cgroup.events' "populated": 1, 0, or -1 when unreadable. */
int cgroup_v2_populated(int events_fd);

/* ---- hybrid mode (cgroup_hybrid.c; the base path is cgroup_probe.c's) ---- */
/* The cgroup2 directory (hierarchy root as root, our own cgroup otherwise)
 * under which "judge/" goes; base, when given, is used as is. */
int cgroup_v2_base_path(const char *base, char *out, size_t cap, struct jail_error *err);
/* On a v1 backend: find a cgroup2 hierarchy whose twins can freeze and be
 * killed (base: the v1 base, NULL = from the mounts), and fill caps->hybrid,
 * hybrid_root and freezer_how. Obeys JUDGE_CGROUP_HYBRID=0. */
void cgroup_hybrid_probe(const char *base, struct cgroup_caps *caps);

/* ---- life cycle (cgroup_pool.c) ---- */
/* Make the cgroup `name` (NULL: a fresh unique name), or with adopt, take
 * over an existing one of that name. */
struct cgroup *cgroup_open(const struct cgroup_caps *caps, const char *name, bool adopt,
                           struct jail_error *err);
/* Close and rmdir; frees cg. -1 when a directory could not be removed. */
int cgroup_destroy(struct cgroup *cg, struct jail_error *err);

/* Put a cgroup named `name` that exists (or can be made) in each of the caps'
 * directories in the pool, for the next cgroup_acquire. */
bool cgroup_pool_adopt(const struct cgroup_caps *caps, const char *name);

/* ---- a probe's throw-away cgroups (cgroup_probe_children.c) ---- */
/* One name for all of a probe's; made under parent_path, remembered until the end. */
void probe_children_begin(void);
const char *probe_children_name(void);
void probe_children_made(const char *parent_path);
/* With keep, those of the chosen backend go to the pool; every other one is removed. */
void probe_children_end(const struct cgroup_caps *caps, bool keep);

/* ---- naming and leftovers (cgroup_sweep.c) ---- */
/* "j<pid-namespace>-<pid>-<n>": unique among the judges sharing this hierarchy. */
void cgroup_unique_name(char *out, size_t cap);
/* Kill and remove the cgroups that judge processes of our pid namespace,
 * now dead, left under the caps' parent directories. */
void cgroup_sweep_stale(const struct cgroup_caps *caps);

/* ---- the freeze + SIGKILL + thaw loop (cgroup_kill.c) ---- */
typedef int cgroup_freeze_fn(struct cgroup *cg, bool frozen, struct jail_error *err);
/* With the backend's own freezer. */
int cgroup_kill_by_signal(struct cgroup *cg, struct jail_error *err);
/* With this freezer (hybrid: the v1 one, for members its twin lacks). */
int cgroup_kill_by_signal_with(struct cgroup *cg, cgroup_freeze_fn *freeze, struct jail_error *err);

/* ---- clock ---- */
uint64_t cgroup_now_ns(void);

#endif
