/*
 * bench_jail.c - the jail's costs, each next to a baseline measured in the same run:
 *   spawn: a static `true` by plain fork+exec, in the full jail, and by `bwrap --unshare-all`;
 *   the same (but bwrap) after a pause each, as a CLI run starts its first jail;
 *   reading a jail's CPU time, next to clock_gettime(CLOCK_MONOTONIC);
 *   the CPU overshoot past a budget before a busy program is stopped (also with
 *   the judge on one CPU and the program widening itself to all, on a thread each).
 * Usage: bench_jail PROGS_DIR [runs]   (PROGS_DIR holds static_true, busy_loop and busy_wide)
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/jail.h"
#include "tests/bench/bench_common.h"

extern char **environ;

static uint64_t time_fork_exec(const char *path)
{
    uint64_t t0 = bench_now_ns();
    pid_t pid = fork();
    if (pid == 0) {
        char *argv[] = {(char *)path, NULL};
        char *envp[] = {NULL};
        execve(path, argv, envp);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    return bench_now_ns() - t0;
}

static uint64_t time_bwrap(const char *dir)
{
    char *argv[] = {"bwrap", "--unshare-all", "--ro-bind", (char *)dir, "/bot", "--dev", "/dev", "--proc", "/proc",
                    "/bot/static_true", NULL};
    uint64_t t0 = bench_now_ns();
    pid_t pid;
    if (posix_spawnp(&pid, "bwrap", NULL, NULL, argv, environ) != 0) return 0;
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 0;
    return bench_now_ns() - t0;
}

static struct jail_spec spec_for(const char *dir, const char *const *argv, uint64_t cpu_ns)
{
    struct jail_spec spec = {0};
    spec.argv = argv;
    spec.dir = dir;
    spec.mode = ISOLATION_STRICT;
    spec.limits.memory_bytes = 256u << 20;
    spec.limits.cpu_ns = cpu_ns;
    return spec;
}

/* A jailed static `true`; phase[] gets the time in jail_start, until its end is
 * seen, and in jail_finish (the cgroup killed, checked empty and reported). */
enum { PHASE_START, PHASE_RUN, PHASE_FINISH, PHASES };

static int jail_true_once(const char *dir, uint64_t *elapsed, uint64_t phase[PHASES])
{
    static const char *const argv[] = {"/bot/static_true", NULL};
    struct jail_spec spec = spec_for(dir, argv, 0);
    struct jail_error err;
    struct jail_report rep;
    struct jail *j;
    uint64_t t0 = bench_now_ns();
    if (jail_start(&spec, &j, &err) < 0) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return -1;
    }
    uint64_t t1 = bench_now_ns();
    jail_close_stdin(j);
    struct jail_wait_entry w = {.jail = j, .fd = -1};
    while (!jail_has_ended(j))
        if (jail_wait_any(&w, 1, &err) < 0) break;
    uint64_t t2 = bench_now_ns();
    if (jail_finish(j, &rep, &err) < 0 || rep.verdict != VERDICT_OK) {
        fprintf(stderr, "bench: jailed true: %s %s\n", jail_verdict_name(rep.verdict), err.msg);
        return -1;
    }
    uint64_t t3 = bench_now_ns();
    *elapsed = t3 - t0;
    phase[PHASE_START] = t1 - t0;
    phase[PHASE_RUN] = t2 - t1;
    phase[PHASE_FINISH] = t3 - t2;
    return 0;
}

static void print_phases(uint64_t *phase[PHASES], size_t n)
{
    static const char *const names[PHASES] = {"jail_start", "until its end is seen", "jail_finish"};
    printf("  the full jail's median by phase:");
    for (int p = 0; p < PHASES; p++)
        printf("%s %s %.0f us", p ? "," : "", names[p], bench_summarise(phase[p], n).median_us);
    printf("\n");
}

static void bench_spawn(const char *dir, size_t runs)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/static_true", dir);
    uint64_t *fe = calloc(runs, sizeof *fe), *jl = calloc(runs, sizeof *jl), *bw = calloc(runs, sizeof *bw);
    uint64_t *phase[PHASES];
    for (int p = 0; p < PHASES; p++) phase[p] = calloc(runs, sizeof *phase[p]);
    size_t n_bw = 0, n_jl = 0;
    int have_bwrap = time_bwrap(dir) != 0;
    for (size_t i = 0; i < runs; i++) { /* interleaved so machine noise hits all three alike */
        fe[i] = time_fork_exec(path);
        uint64_t ph[PHASES];
        if (jail_true_once(dir, &jl[n_jl], ph) == 0) {
            for (int p = 0; p < PHASES; p++) phase[p][n_jl] = ph[p];
            n_jl++;
        }
        if (have_bwrap && (bw[n_bw] = time_bwrap(dir)) != 0) n_bw++;
    }
    struct bench_stats sf = bench_summarise(fe, runs), sj = bench_summarise(jl, n_jl), sb = bench_summarise(bw, n_bw);
    printf("spawn a static `true` (%zu runs each, interleaved)\n", runs);
    bench_print("plain fork+exec", sf);
    bench_print("full jail (strict)", sj);
    if (have_bwrap) bench_print("bwrap --unshare-all", sb);
    else printf("  bwrap --unshare-all: not installed (apt-get install bubblewrap)\n");
    if (n_jl) print_phases(phase, n_jl);
    if (n_jl) printf("  ratio jail / fork+exec: %.2f (median; target <= 1.5)\n", sj.median_us / sf.median_us);
    if (n_jl && n_bw) printf("  ratio jail / bwrap:     %.2f (median; target <= 0.35)\n", sj.median_us / sb.median_us);
    free(fe); free(jl); free(bw);
    for (int p = 0; p < PHASES; p++) free(phase[p]);
}

/* The same after a pause, as the first jail of one `judge run` or `judge
 * compile` starts: what one-off waits in the kernel (an RCU grace period
 * behind a lock, cgroup.h) cost there is hidden from back-to-back spawns. */
#define PAUSE_NS 50000000u
static void bench_spawn_after_pause(const char *dir, size_t runs)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/static_true", dir);
    uint64_t *fe = calloc(runs, sizeof *fe), *jl = calloc(runs, sizeof *jl);
    size_t n_jl = 0;
    struct timespec pause = {0, PAUSE_NS};
    for (size_t i = 0; i < runs; i++) {
        uint64_t ph[PHASES]; /* not printed: the spawns above give the phases */
        nanosleep(&pause, NULL);
        fe[i] = time_fork_exec(path);
        nanosleep(&pause, NULL);
        if (jail_true_once(dir, &jl[n_jl], ph) == 0) n_jl++;
    }
    struct bench_stats sf = bench_summarise(fe, runs), sj = bench_summarise(jl, n_jl);
    printf("spawn a static `true` after a %u ms pause each (%zu runs each, interleaved)\n", PAUSE_NS / 1000000u, runs);
    bench_print("plain fork+exec", sf);
    bench_print("full jail (strict)", sj);
    if (n_jl) printf("  ratio jail / fork+exec after a pause: %.2f (median)\n", sj.median_us / sf.median_us);
    free(fe);
    free(jl);
}

/* Wall time per exact reading (a freeze round-trip) of a busy jail, as stats over NX reads. */
/* pause_ns apart: 0 reads it again as soon as the thaw returns, when the jail may not yet be
 * back on a CPU; after a pause it is running, as a busy bot is when the judge reads it. */
static struct bench_stats exact_reads(struct jail *j, long pause_ns)
{
    enum { NX = 200 };
    uint64_t t[NX];
    struct jail_error err;
    for (int i = 0; i < NX; i++) {
        if (pause_ns) nanosleep(&(struct timespec){0, pause_ns}, NULL);
        uint64_t v, a = bench_now_ns();
        jail_cpu_ns_exact(j, &v, &err);
        t[i] = bench_now_ns() - a;
    }
    return bench_summarise(t, NX);
}

/* The reading thread on one CPU and the busy jail on `jail_cpu` (jail_set_cpus); false when it cannot be placed. */
static bool place(struct jail *j, int own_cpu, int jail_cpu)
{
    cpu_set_t own, other;
    struct jail_error err;
    CPU_ZERO(&own);
    CPU_ZERO(&other);
    CPU_SET(own_cpu, &own);
    CPU_SET(jail_cpu, &other);
    return sched_setaffinity(0, sizeof own, &own) == 0 && jail_set_cpus(j, &other, &err) == 0;
}

/* The first two CPUs this thread may use, or -1. */
static void two_cpus(const cpu_set_t *set, int *a, int *b)
{
    *a = *b = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set)) {
            if (*a < 0) *a = c;
            else if (*b < 0) *b = c;
        }
}

static void bench_cpu_read(const char *dir)
{
    static const char *const argv[] = {"/bot/busy_loop", NULL};
    struct jail_spec spec = spec_for(dir, argv, 0);
    struct jail_error err;
    struct jail_report rep;
    struct jail *j;
    if (jail_start(&spec, &j, &err) < 0) { fprintf(stderr, "bench: %s\n", err.msg); return; }
    enum { N = 200000 };
    volatile uint64_t sink = 0;
    uint64_t t0 = bench_now_ns();
    for (int i = 0; i < N; i++) sink += jail_cpu_ns(j);
    uint64_t t_jail = bench_now_ns() - t0;
    t0 = bench_now_ns();
    for (int i = 0; i < N; i++) sink += bench_now_ns();
    uint64_t t_mono = bench_now_ns() - t0;
    struct bench_stats anywhere = exact_reads(j, 0), other = {0}, running = {0};
    cpu_set_t all;
    int a, b;
    bool placed = sched_getaffinity(0, sizeof all, &all) == 0;
    two_cpus(&all, &a, &b);
    if (placed && b >= 0 && place(j, a, b)) {
        other = exact_reads(j, 0);
        running = exact_reads(j, 200000);
    }
    if (placed) {
        sched_setaffinity(0, sizeof all, &all);
        jail_set_cpus(j, &all, &err);
    }
    jail_kill(j, VERDICT_CPU_LIMIT, "benchmark done");
    jail_finish(j, &rep, &err);
    printf("reading a busy jail's CPU time (%d reads)\n", N);
    printf("  jail_cpu_ns:                 %8.3f us per read\n", t_jail / 1e3 / N);
    printf("  clock_gettime(MONOTONIC):    %8.3f us per read (baseline)   ratio %.1f\n", t_mono / 1e3 / N,
           (double)t_jail / (double)t_mono);
    /* Not on the reader's own CPU: the thaw lets the busy jail run there for a scheduler slice
     * (milliseconds) before the reader gets its CPU back, which measures the slice, not the read. */
    printf("  jail_cpu_ns_exact (a freeze round-trip, wall; target <= 10 us):\n");
    bench_print("where the kernel puts it", anywhere);
    if (other.n) bench_print("busy on another CPU", other);
    if (running.n) bench_print("the same, 200 us after the last", running);
    (void)sink;
}

static uint64_t *overshoots(const char *dir, const char *program, uint64_t limit, size_t runs, size_t *n)
{
    const char *const argv[] = {program, NULL};
    uint64_t *over = calloc(runs, sizeof *over);
    *n = 0;
    for (size_t i = 0; i < runs; i++) {
        struct jail_spec spec = spec_for(dir, argv, 0);
        struct jail_error err;
        struct jail_report rep;
        struct jail *j;
        if (jail_start(&spec, &j, &err) < 0) { fprintf(stderr, "bench: %s\n", err.msg); break; }
        struct jail_wait_entry w = {.jail = j, .fd = -1, .cpu_limit_ns = limit};
        while (jail_wait_any(&w, 1, &err) >= 0 && w.event != JAIL_EVENT_CPU_LIMIT && w.event != JAIL_EVENT_ENDED) {}
        jail_kill(j, VERDICT_CPU_LIMIT, "budget");
        if (jail_finish(j, &rep, &err) == 0 && rep.cpu_ns >= limit) over[(*n)++] = rep.cpu_ns - limit;
    }
    return over;
}

/* This thread on the first CPU of `all`, as under `taskset -c N`; false when `all` has one. */
static bool narrow_to_one_cpu(const cpu_set_t *all)
{
    int first, second;
    two_cpus(all, &first, &second);
    if (second < 0) return false;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    return sched_setaffinity(0, sizeof one, &one) == 0;
}

/* The judge under taskset (its thread on one CPU), a bot widening its affinity to
 * every CPU and busy on each: the limit's sleeps must count every CPU it can use. */
static void bench_overshoot_widened(const char *dir, size_t runs, uint64_t limit, const cpu_set_t *all)
{
    if (!narrow_to_one_cpu(all)) {
        printf("  a judge on one CPU, a bot widening to all: skipped (one CPU here)\n");
        return;
    }
    size_t n;
    uint64_t *over = overshoots(dir, "/bot/busy_wide", limit, runs, &n);
    sched_setaffinity(0, sizeof *all, all);
    struct bench_stats s = bench_summarise(over, n);
    bench_print("judge on 1 CPU, bot on all", s);
    printf("  p99 overshoot: %.0f us (target < 1000 us)\n", s.p99_us);
    free(over);
}

static void bench_overshoot(const char *dir, size_t runs, const cpu_set_t *all)
{
    const uint64_t limit = 30u * 1000000u;
    size_t n;
    uint64_t *over = overshoots(dir, "/bot/busy_loop", limit, runs, &n);
    struct bench_stats s = bench_summarise(over, n);
    printf("CPU overshoot past a %llu ms budget before a busy program is stopped (%zu runs)\n",
           (unsigned long long)(limit / 1000000), n);
    bench_print("overshoot (CPU)", s);
    printf("  p99 overshoot: %.0f us (target < 1000 us)\n", s.p99_us);
    free(over);
    bench_overshoot_widened(dir, runs / 2 ? runs / 2 : 1, limit, all);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: bench_jail PROGS_DIR [runs]\n"); return 2; }
    size_t runs = argc > 2 ? strtoul(argv[2], NULL, 10) : 500;
    struct isolation_report probe;
    struct jail_error err;
    cpu_set_t all;
    if (sched_getaffinity(0, sizeof all, &all) < 0) CPU_ZERO(&all);
    bool narrowed = narrow_to_one_cpu(&all); /* the probe as under taskset: see bench_overshoot_widened */
    int rc = jail_global_init(ISOLATION_STRICT, &probe, &err);
    if (narrowed) sched_setaffinity(0, sizeof all, &all);
    if (rc < 0) {
        fprintf(stderr, "bench_jail: %s\n", err.msg);
        return 1;
    }
    char dir[PATH_MAX];
    if (!realpath(argv[1], dir)) { perror(argv[1]); return 1; }
    printf("== bench_jail (cgroup backend %s)\n", probe.cgroup_backend);
    bench_spawn(dir, runs);
    bench_spawn_after_pause(dir, runs / 10 > 20 ? runs / 10 : 20);
    bench_cpu_read(dir);
    bench_overshoot(dir, runs / 5 > 20 ? runs / 5 : 20, &all);
    return 0;
}
