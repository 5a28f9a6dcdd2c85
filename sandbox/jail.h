/*
 * jail.h - start one command in a jail and supervise it.
 *
 * The sandbox layer knows nothing of games. A caller fills a jail_spec,
 * calls jail_start(), talks to the command over the three pipes, waits with
 * jail_wait_any() (which enforces CPU and wall limits precisely and reports
 * forbidden system calls), and finally calls jail_finish(), which kills the
 * whole cgroup, checks it is empty, reaps and fills a jail_report.
 *
 * All functions return 0 on success and -1 on error with a one-line message
 * in struct jail_error; nothing here prints.
 */
#ifndef SANDBOX_JAIL_H
#define SANDBOX_JAIL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jail_error; /* defined below; declared here for the prototypes that come first */

#define JAIL_BOT_DIR "/bot"  /* spec.dir is bound read-only here; cwd */
#define JAIL_RW_DIR  "/data" /* spec.rw_dir is bound read-write here */

enum jail_verdict {
    VERDICT_OK,
    VERDICT_RUNTIME_ERROR,     /* non-zero exit or a signal */
    VERDICT_CPU_LIMIT,
    VERDICT_WALL_LIMIT,
    VERDICT_MEMORY_LIMIT,
    VERDICT_PROCESS_LIMIT,
    VERDICT_OUTPUT_LIMIT,
    VERDICT_FORBIDDEN_SYSCALL,
    VERDICT_INTERNAL_ERROR,    /* the judge's fault, never blamed on a bot */
    VERDICT_COUNT
};
const char *jail_verdict_name(enum jail_verdict v); /* "OK", "CPU_LIMIT", ... */
int jail_verdict_parse(const char *name, enum jail_verdict *out);

enum isolation_mode { ISOLATION_STRICT, ISOLATION_BEST_EFFORT };

/* Every isolation layer, as reported by `judge exec`, `judge doctor` and replays. */
enum jail_layer {
    LAYER_USER_NS, LAYER_PID_NS, LAYER_MOUNT_NS, LAYER_NET_NS, LAYER_IPC_NS,
    LAYER_UTS_NS, LAYER_CGROUP_NS, LAYER_PIVOT_ROOT, LAYER_SECCOMP,
    LAYER_CAPABILITIES, LAYER_NO_NEW_PRIVS, LAYER_MEMORY_LIMIT, LAYER_PIDS_LIMIT,
    LAYER_CPU_METER, LAYER_FREEZER, LAYER_RLIMITS,
    LAYER_COUNT
};
enum layer_state { LAYER_ON, LAYER_DEGRADED, LAYER_OFF };
const char *jail_layer_name(enum jail_layer l);   /* "user_ns", "memory_limit", ... */
/* Whether a run profile of this name exists (built in or registered). */
bool jail_profile_known(const char *name);
const char *layer_state_name(enum layer_state s); /* "on", "degraded", "off" */

struct isolation_report {
    enum layer_state state[LAYER_COUNT];
    char how[LAYER_COUNT][64];  /* e.g. "cgroup v1 memory+memsw", "rlimit RLIMIT_NPROC ..." */
    char cgroup_backend[16];    /* "v2", "v1" or "none" */
    bool privileged;            /* running as root (true) or as an ordinary user */
    bool degraded;              /* any layer not ON */
};

struct jail_limits {
    uint64_t cpu_ns;        /* 0 = none; enforced precisely by jail_wait_any/jail_run */
    uint64_t wall_ns;       /* 0 = none; used by jail_run only */
    uint64_t memory_bytes;  /* all processes together, swap excluded; 0 = none */
    uint64_t pids;          /* processes + threads; 0 = default 64 */
    uint64_t fsize_bytes;   /* RLIMIT_FSIZE; 0 = default 64 MiB */
    uint64_t nofile;        /* RLIMIT_NOFILE; 0 = default 64 */
    uint64_t stack_bytes;   /* RLIMIT_STACK; 0 = default 64 MiB */
    uint64_t tmp_bytes;     /* size of the jail's own tmpfs /tmp; 0 = default 16 MiB */
};

/* A host uid/gid pair for jailed processes, unique among the jails running on
 * this machine (slots are locked across processes). A caller that starts many
 * processes for one player (warlight's process per turn) holds one identity so
 * the player's files in its rw_dir stay its own; otherwise each jail takes one. */
struct jail_identity;
int jail_identity_acquire(struct jail_identity **out, struct jail_error *err);
void jail_identity_release(struct jail_identity *id);

/* A per-player writable directory with a size cap, persisting across jails:
 * a size-capped tmpfs mounted at `path` (in the judge's private mount
 * namespace, so it vanishes with the judge), owned by `id`. Falls back to a
 * plain directory (cap checked by jail_scratch_usage) where tmpfs cannot be
 * mounted, and says so in *degraded. jail_scratch_remove unmounts and removes
 * it without ever following a link the bot planted. */
int jail_scratch_create(const char *path, uint64_t bytes, const struct jail_identity *id,
                        bool *degraded, struct jail_error *err);
int jail_scratch_usage(const char *path, uint64_t *bytes, struct jail_error *err);
int jail_scratch_remove(const char *path, struct jail_error *err);

struct jail_spec {
    const char *const *argv;  /* argv[0] is a path inside the jail (or found via PATH in envp) */
    const char *const *envp;  /* the whole environment; NULL = empty; never the judge's own environ
                                 strings, which every jail's init blanks before the command starts */
    const char *dir;          /* host directory bound read-only at JAIL_BOT_DIR, or NULL */
    const char *rw_dir;       /* host directory bound read-write at JAIL_RW_DIR, or NULL */
    const char *workdir;      /* working directory inside the jail; NULL = JAIL_BOT_DIR if dir, else "/" */
    const char *profile;      /* seccomp/run profile name; NULL = "default" */
    const char *const *extra_ro_binds; /* NULL-terminated host paths bound read-only at the same path, or NULL */
    const struct jail_identity *identity; /* NULL = take a fresh one for this jail */
    struct jail_limits limits;
    enum isolation_mode mode;
};

struct jail_syscall {
    int nr;                   /* number within its ABI (x32: without the 0x40000000 bit) */
    char name[32];            /* resolved name for its ABI, or "syscall_NNN" when unknown */
    char arch[16];            /* "x86_64", "x32", "i386" */
    uint64_t args[6];
};

struct jail_report {
    enum jail_verdict verdict;
    int exit_code;             /* -1 when killed by a signal */
    int signal;                /* 0 when it exited */
    uint64_t cpu_ns;           /* user+system of every thread and child */
    uint64_t wall_ns;
    uint64_t memory_peak_bytes; /* the cgroup's peak (page cache and kernel memory too): what the limit is against */
    uint64_t rss_peak_bytes;    /* the largest peak resident set of any of its processes (getrusage
                                   ru_maxrss, what /usr/bin/time reports); 0 when not reaped */
    bool has_syscall;
    struct jail_syscall syscall;
    struct isolation_report isolation;
    char note[160];            /* human detail: "pids limit 64 reached", "stdout over 1048576 bytes" */
};

struct jail_error {
    char msg[256];
    int exec_errno; /* after jail_start or jail_run: the errno of the command's own execve when that is
                       what failed (ENOENT: no such program in the jail, EACCES, ...), else 0 */
};

struct jail; /* opaque */

/* Process-wide set-up: compile seccomp profiles, probe layers, prepare the
 * shared empty network namespace and the cgroup pool. Call once, early, while
 * the process is single-threaded. Idempotent. */
int jail_global_init(enum isolation_mode mode, struct isolation_report *probe, struct jail_error *err);

/* The calling thread while it referees a match: SCHED_BATCH (sched_referee.c), so a
 * bot's reply does not preempt that bot on its way back to read(2) and its CPU time is read
 * without a pause. A thread given another policy than SCHED_OTHER keeps it. Jails never
 * inherit it. begin answers whether it changed the thread; end takes that answer back. */
bool jail_sched_referee_begin(void);
void jail_sched_referee_end(bool changed);

/* The seccomp profile the process's jails will run under, when it is known before
 * jail_global_init: a profile with extra calls is then compiled beside the probes rather
 * than when the first jail starts (libseccomp takes a millisecond or two; the built-in
 * profiles come compiled by the build). Later calls, and unknown names, change nothing. */
void jail_global_expect_profile(const char *profile);

/* Start the command. On success *out owns the jail; the three fds are
 * non-blocking, close-on-exec pipe ends owned by the jail (closed by jail_finish,
 * or earlier by jail_close_stdin). */
int jail_start(const struct jail_spec *spec, struct jail **out, struct jail_error *err);
int jail_stdin_fd(const struct jail *j);
int jail_stdout_fd(const struct jail *j);
int jail_stderr_fd(const struct jail *j);
void jail_close_stdin(struct jail *j);
const struct isolation_report *jail_isolation(const struct jail *j);

/* CPU time of every thread and child so far, in ns. Cheap (well under 1 us when
 * a process clock is available); may lag a running task by up to one scheduler
 * tick. jail_cpu_ns_exact() freezes, reads, and thaws (or reads while frozen). */
uint64_t jail_cpu_ns(struct jail *j);
int jail_cpu_ns_exact(struct jail *j, uint64_t *ns, struct jail_error *err);
/* The exact figure without a freeze, when the jail provably runs nothing: its
 * cgroup holds the init and a single-threaded command only, and the command is
 * asleep in a system call, switched out. 1 with *ns set; 0 (*ns untouched) when
 * that cannot be shown (it runs, has threads or children, has ended or was
 * killed, no cgroup, ...). */
int jail_cpu_ns_if_idle(struct jail *j, uint64_t *ns);
/* After jail_cpu_ns_if_idle answered 1: the command's system call was read(2)
 * on its stdin, so it cannot run again before its next prompt unless it woke
 * itself (a signal, a timer); one it sets shows as CPU spent meanwhile. */
bool jail_idle_reads_stdin(const struct jail *j);
uint64_t jail_memory_peak(struct jail *j);

/* Stop / resume every process of the jail (cgroup freezer, or SIGSTOP in fallback). */
int jail_freeze(struct jail *j, struct jail_error *err);
int jail_thaw(struct jail *j, struct jail_error *err);
/* Freeze without waiting for every task to stop, where the cgroup freezer
 * serves: once asked, none runs another instruction of its own (each stops on
 * its way back from the kernel), which is all a bot between its turns needs.
 * Anything that needs it stopped (an exact reading, a kill) waits for the rest
 * (jail_freeze on a held jail). Without the cgroup freezer: jail_freeze. */
int jail_hold(struct jail *j, struct jail_error *err);
bool jail_is_frozen(const struct jail *j);

/* Kill every process of the jail now, remembering why (the verdict it will get). */
void jail_kill(struct jail *j, enum jail_verdict why, const char *note);

/* Let every task of the jail run only on the CPUs of `cpus` (sched_setaffinity on
 * each thread its cgroup lists): a placement, not a limit, since a bot may widen
 * its own. A thread being created meanwhile may keep the mask it had. -1 without
 * a cgroup or when no thread could be moved. */
int jail_set_cpus(struct jail *j, const cpu_set_t *cpus, struct jail_error *err);

/* Has the jail ended (its first process exited, or it was killed)? */
bool jail_has_ended(struct jail *j);
/* Set when a forbidden system call was reported; the jail is already killed then. */
bool jail_forbidden_syscall(const struct jail *j, struct jail_syscall *out);

/* Wait for one of several jails. Each entry waits until `fd` (one of the jail's
 * own pipe fds, or -1 for none) is readable, the jail's CPU time passes
 * cpu_limit_ns (0 = none; checked precisely: the overshoot target is < 1 ms of
 * CPU), the CLOCK_MONOTONIC deadline passes (0 = none), a forbidden call is made,
 * or the jail ends. busy_ns (0 = none) reports JAIL_EVENT_BUSY once the jail's
 * cheap CPU reading (jail_cpu_ns) reaches it, looked at again when the jail could
 * have reached it on one CPU (on more it is seen later): a hint, not a limit.
 * Returns the index of the first entry with an event, with entry->event set, or
 * -1 on error. */
enum jail_event { JAIL_EVENT_NONE, JAIL_EVENT_READABLE, JAIL_EVENT_CPU_LIMIT,
                  JAIL_EVENT_WALL_LIMIT, JAIL_EVENT_SYSCALL, JAIL_EVENT_ENDED, JAIL_EVENT_BUSY };
struct jail_wait_entry {
    struct jail *jail;
    int fd;
    uint64_t cpu_limit_ns;
    uint64_t deadline_ns;      /* CLOCK_MONOTONIC, absolute */
    enum jail_event event;     /* out */
    uint64_t busy_ns;
};
int jail_wait_any(struct jail_wait_entry *entries, size_t n, struct jail_error *err);

/* Kill what is left, check the cgroup is empty, reap, release every resource
 * (the cgroup goes back to the pool), fill *report and free j. The verdict is,
 * in order: MEMORY_LIMIT (oom kill), FORBIDDEN_SYSCALL, MEMORY_LIMIT (without a
 * cgroup: a death that looks like a failed allocation under the rlimit, a
 * guess the note says is one), PROCESS_LIMIT, the reason given to jail_kill(),
 * CPU_LIMIT (its CPU past limits.cpu_ns however it ended: without a cgroup its
 * children's is counted once they are reaped), RUNTIME_ERROR, OK. */
int jail_finish(struct jail *j, struct jail_report *report, struct jail_error *err);

/* Convenience for `judge exec`: start, feed stdin from in_fd (-1: /dev/null),
 * copy stdout/stderr to out_fd/err_fd (-1: discard), or hand them to a writer,
 * with byte caps (OUTPUT_LIMIT when passed), enforce limits.cpu_ns and
 * limits.wall_ns, finish. */
struct jail_writer {
    int (*write)(void *ctx, const char *data, size_t len); /* 0, or -1 with errno set */
    void *ctx;
};
struct jail_io {
    int in_fd, out_fd, err_fd;
    uint64_t stdout_max, stderr_max;
    const struct jail_writer *out_writer, *err_writer; /* instead of out_fd, err_fd when not NULL */
};
int jail_run(const struct jail_spec *spec, const struct jail_io *io, struct jail_report *report,
             struct jail_error *err);

/* Time helpers shared by the layers above. */
uint64_t monotonic_ns(void);

#endif
