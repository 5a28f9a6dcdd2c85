/*
 * jail_meter.c - a jail's CPU time and memory peak. CPU is the larger of the
 * process clock of the command (pid 2: all its threads, read by one
 * clock_gettime, every call) and the cgroup's counter (children too, read at
 * most once a millisecond to keep jail_cpu_ns cheap), minus what set-up spent
 * before execve. Both lag a running task by up to a scheduler tick; a frozen task's
 * counters are exact (descheduling brings them up to date), hence
 * jail_cpu_ns_exact freezes first. After the init is reaped, its rusage (the
 * init's own time and every child it reaped, the command's included) takes
 * the process clock's place: the children's part, which the init's record
 * gives, minus the command's set-up. The init is judge code, so its CPU is
 * never the bot's: the cgroup reading leaves it out too (it matters under
 * sanitizers, where an instrumented init's exit costs milliseconds). A jail killed while frozen
 * by the cgroup keeps the reading taken then (jail_cpu_fix); one stopped by SIGSTOP has children
 * that ran on, which the init's record counts.
 *
 * A task asleep is as exact as a frozen one: switching it out brought its
 * counters up to date. jail_cpu_ns_if_idle shows every task of the jail asleep
 * without the freezer's round-trip (which costs the judge tens of microseconds
 * per reply): the cgroup holds the init and the command only (two tasks in
 * pids.current, else its thread list names no other), and then
 * /proc/PID/syscall of the command answers a system call number, which the
 * kernel gives only after waiting for the task to be off its CPU with the same
 * state (wait_task_inactive), and "running" otherwise. The list first: a thread
 * or child made after it was read was made by the command running after the
 * reply, whose time belongs to the next one. Any doubt (an error, "running", a
 * task stopped outside a system call) leaves the freeze to the caller. Where
 * the kernel keeps pids.peak and it says two, no other task was ever there and
 * an exact reading is the command's process clock alone (no cgroup read).
 *
 * jail_cpu_ns_bound is an upper bound of its use, from the last reading
 * and the wall time since, so that a wait far from the limit reads nothing.
 */
#include "sandbox/jail_internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CGROUP_READ_INTERVAL_NS 1000000u
#define ASLEEP_LOOKS 4
#define ASLEEP_PAUSE_NS 20000

static uint64_t minus(uint64_t value, uint64_t base)
{
    return value > base ? value - base : 0;
}

static uint64_t max3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a > b ? a : b;
    return m > c ? m : c;
}

static bool read_process_clock(const struct jail *j, uint64_t *ns)
{
    struct timespec ts;
    if (j->reaped || j->ended || !j->has_cpu_clock || clock_gettime(j->cpu_clock, &ts) < 0) return false;
    *ns = minus((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, j->base_proc_ns);
    return true;
}

static uint64_t process_clock_ns(const struct jail *j)
{
    uint64_t ns = 0;
    read_process_clock(j, &ns);
    return ns;
}

/* The init's own CPU since the baseline: read before the cgroup, so the
 * cgroup's figure holds at least this much of it. */
static uint64_t init_spent_ns(const struct jail *j)
{
    struct timespec ts;
    uint64_t now = j->init_cpu_ns;
    if (!j->reaped && j->has_init_clock && clock_gettime(j->init_clock, &ts) == 0)
        now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return minus(now, j->base_init_ns);
}

static uint64_t cgroup_clock_ns(struct jail *j, bool fresh)
{
    if (!j->cg) return 0;
    uint64_t now = monotonic_ns();
    if (fresh || now - j->cgroup_read_at >= CGROUP_READ_INTERVAL_NS) {
        uint64_t init_ns = init_spent_ns(j);
        j->cgroup_cpu_cache = minus(cgroup_cpu_ns(j->cg), j->base_cgroup_ns + init_ns);
        j->cgroup_read_at = now;
    }
    return j->cgroup_cpu_cache;
}

static uint64_t timeval_ns(struct timeval tv)
{
    return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

static uint64_t rusage_ns(const struct jail *j)
{
    if (!j->reaped) return 0;
    if (j->has_cmd_status) return minus(j->children_cpu_ns, j->base_proc_ns);
    return minus(timeval_ns(j->rusage.ru_utime) + timeval_ns(j->rusage.ru_stime),
                 j->base_proc_ns + j->base_init_ns);
}

/* at: when the reading began, for jail_cpu_ns_bound. */
static uint64_t remember(struct jail *j, uint64_t ns, uint64_t at)
{
    if (ns > j->cpu_seen) j->cpu_seen = ns;
    j->cpu_seen_at = at;
    return j->cpu_seen;
}

enum jail_members { MEMBERS_MORE, MEMBERS_TWO_NOW, MEMBERS_TWO_EVER };

/* Two tasks counted are the init and the command, both members while the
 * jail lives, and single-threaded: a count is half the cost of the list. A
 * peak of two says more: no thread or child was ever there, so the command's
 * process clock is all the cgroup counted besides the init, and the cgroup
 * need not be read. A peak never falls: past two, its file is not read again. */
static void open_member_files(struct jail *j)
{
    if (j->idle_files_opened) return;
    j->tasks_peak_fd = cgroup_task_peak_open(j->cg);
    j->tasks_count_fd = cgroup_task_count_open(j->cg);
    if (j->tasks_count_fd < 0) j->threads_fd = cgroup_threads_open(j->cg);
    j->idle_files_opened = true;
}

static bool two_ever(struct jail *j)
{
    open_member_files(j);
    if (j->tasks_peak_fd < 0) return false;
    if (cgroup_task_count(j->tasks_peak_fd) == 2) return true;
    close(j->tasks_peak_fd);
    j->tasks_peak_fd = -1;
    return false;
}

static enum jail_members init_and_command_only(struct jail *j)
{
    if (two_ever(j)) return MEMBERS_TWO_EVER;
    if (j->tasks_count_fd >= 0) return cgroup_task_count(j->tasks_count_fd) == 2 ? MEMBERS_TWO_NOW : MEMBERS_MORE;
    bool two = j->threads_fd >= 0 && cgroup_threads_are(j->threads_fd, j->cmd_pid, j->pid) == 1;
    return two ? MEMBERS_TWO_NOW : MEMBERS_MORE;
}

uint64_t jail_cpu_ns(struct jail *j)
{
    if (j->cpu_fixed) return j->cpu_seen;
    uint64_t at = monotonic_ns(), ns = max3(process_clock_ns(j), cgroup_clock_ns(j, false), rusage_ns(j));
    return remember(j, ns, j->cg && j->cgroup_read_at < at ? j->cgroup_read_at : at);
}

/* No jail uses more CPU time than wall time on every CPU it may use, and a
 * reading missed at most a tick of each task then running: its last reading
 * plus that much is a bound that costs no system call. */
uint64_t jail_cpu_ns_bound(const struct jail *j, uint64_t now, long cpus)
{
    if (j->cpu_fixed) return j->cpu_seen;
    if (!j->cpu_seen_at) return UINT64_MAX;
    uint64_t n = (uint64_t)(cpus > 0 ? cpus : 1);
    uint64_t since = (now > j->cpu_seen_at ? now - j->cpu_seen_at : 0) + JAIL_SCHED_TICK_NS;
    if (since > (UINT64_MAX - j->cpu_seen) / n) return UINT64_MAX;
    return j->cpu_seen + since * n;
}

/* Where the command and the init were all the cgroup ever held, the
 * command's clock is the whole answer. */
static uint64_t fresh_reading(struct jail *j, bool command_only)
{
    uint64_t ns, at = monotonic_ns();
    if (command_only && read_process_clock(j, &ns)) return remember(j, ns, at);
    return remember(j, max3(process_clock_ns(j), cgroup_clock_ns(j, true), rusage_ns(j)), at);
}

uint64_t jail_cpu_ns_final(struct jail *j)
{
    if (j->cpu_fixed) return j->cpu_seen;
    return fresh_reading(j, j->cg && !j->reaped && !j->ended && two_ever(j));
}

void jail_cpu_fix(struct jail *j)
{
    if (!j->cpu_fixed && j->frozen && j->cgroup_freezer && !j->reaped) {
        jail_cpu_ns_final(j);
        j->cpu_fixed = true;
    }
}

int jail_cpu_ns_exact(struct jail *j, uint64_t *ns, struct jail_error *err)
{
    if (j->reaped) {
        *ns = jail_cpu_ns_final(j);
        return 0;
    }
    bool was_frozen = j->frozen;
    if (jail_freeze(j, err) < 0) return -1; /* or, held, until every task has stopped */
    *ns = jail_cpu_ns_final(j);
    return was_frozen ? 0 : jail_thaw(j, err);
}

/* Asleep in a system call and switched out: /proc/PID/syscall starts with its
 * number, then its arguments ("0 0x0 0x7ffd..." is read(0, ...)). */
static bool command_asleep(struct jail *j)
{
    char path[64], text[64];
    if (j->syscall_fd < 0) {
        snprintf(path, sizeof path, "/proc/%d/syscall", (int)j->cmd_pid);
        j->syscall_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    }
    ssize_t n = j->syscall_fd < 0 ? -1 : pread(j->syscall_fd, text, sizeof text - 1, 0);
    if (n <= 0 || text[0] < '0' || text[0] > '9') return false;
    text[n] = '\0';
    long nr;
    unsigned long fd;
    j->idle_reads_stdin = sscanf(text, "%ld 0x%lx", &nr, &fd) == 2 && nr == SYS_read && fd == 0;
    return true;
}

/* A bot whose reply has just arrived can still be on its way to its next
 * read, switched out on the judge's own CPU by the judge's wake-up, which a
 * sched_yield does not give back (rare under a referee's SCHED_BATCH:
 * sched_referee.c). Sleeping long enough for it to get there (tens of
 * microseconds on a slow VM) costs the judge less CPU and wall time than the
 * freeze it saves (measured by make bench: no freeze left in a generals match
 * of pass or greedy bots). */
static bool command_falls_asleep(struct jail *j)
{
    int slack = -1;
    bool asleep = false;
    for (int look = 1; !asleep && look <= ASLEEP_LOOKS; look++) {
        if (look > 1) {
            if (slack < 0) {
                slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
                prctl(PR_SET_TIMERSLACK, ASLEEP_PAUSE_NS, 0, 0, 0);
            }
            nanosleep(&(struct timespec){0, ASLEEP_PAUSE_NS}, NULL);
        }
        asleep = command_asleep(j);
    }
    if (slack > 0) prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
    return asleep;
}

int jail_cpu_ns_if_idle(struct jail *j, uint64_t *ns)
{
    j->idle_reads_stdin = false;
    if (j->reaped || j->ended || j->killed || j->frozen || j->cpu_fixed || !j->cg || !j->has_cpu_clock)
        return 0;
    enum jail_members members = init_and_command_only(j);
    if (members == MEMBERS_MORE || !command_falls_asleep(j)) return 0;
    *ns = fresh_reading(j, members == MEMBERS_TWO_EVER);
    return 1;
}

bool jail_idle_reads_stdin(const struct jail *j)
{
    return j->idle_reads_stdin;
}

/* Without a cgroup, the command's own high-water mark is all we can see while it runs. */
static uint64_t proc_status_hwm(pid_t pid)
{
    char path[64], line[128];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "re");
    uint64_t kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %" SCNu64, &kib) == 1) break;
    if (f) fclose(f);
    return kib * 1024u;
}

uint64_t jail_memory_peak(struct jail *j)
{
    if (j->cg) {
        uint64_t peak = cgroup_memory_peak(j->cg);
        if (peak) return peak;
    }
    if (j->reaped) return (uint64_t)j->rusage.ru_maxrss * 1024u;
    return proc_status_hwm(j->cmd_pid);
}
