/*
 * bench_turns.c - warlight's process per turn: jailed turns per second next
 * to the same bot, with the same arguments (the §4 example), started by
 * plain fork+exec in the same run.
 *   plain fork+exec:  fork, execve, read stdout to the end, waitpid;
 *   runner:           the match runner's driver (judge/match/match_turns.c): a
 *                     full jail per process, started from one prepared while
 *                     the previous turn ran, data directory, output cap;
 *   jail_start:       a full jail started from nothing every turn, for scale.
 * One player per turn, then two at once. Target: runner / fork+exec <= 2. The
 * CPU figures (this process and every child it reaped) show what a busy machine
 * would see: the set-up a prepared jail hides from the wall clock still costs.
 * Usage: bench_turns [BOT [turns]]   (default build/bots/warlight/grabber, 400)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/match/match_turns.h"
#include "tests/bench/bench_common.h"

#define MAX_AT_ONCE 2

static const char *const example_args[] = {
    "0", "5",
    "6,6,7,-1,2 6,7,7,-1,2 6,8,9,-1,2 7,6,7,-1,2 7,7,7,0,5 7,8,9,-1,2 8,6,7,-1,2 8,7,7,-1,2 8,8,9,-1,2",
    "0,5,10 1,5,10 2,9,10 3,9,10 4,9,10 5,5,10 6,5,10 7,6,9 8,7,10 9,7,10", "X"};
#define N_ARGS (sizeof example_args / sizeof example_args[0])

/* ---- plain fork+exec ---------------------------------------------------------------- */

static pid_t spawn_plain(const char *bot, int *out_fd)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        char *argv[N_ARGS + 2] = {(char *)bot};
        for (size_t i = 0; i < N_ARGS; i++)
            argv[i + 1] = (char *)example_args[i];
        char *envp[] = {"PATH=/usr/bin:/bin", NULL};
        dup2(fds[1], 1);
        execve(bot, argv, envp);
        _exit(127);
    }
    close(fds[1]);
    *out_fd = fds[0];
    return pid;
}

static int finish_plain(pid_t pid, int fd)
{
    char buf[4096];
    ssize_t n;
    size_t total = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        total += n > 0 ? (size_t)n : 0;
    close(fd);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 && total > 0 ? 0 : -1;
}

static int turn_plain(const char *bot, int at_once)
{
    pid_t pid[MAX_AT_ONCE];
    int fd[MAX_AT_ONCE], rc = 0;
    for (int i = 0; i < at_once; i++)
        pid[i] = spawn_plain(bot, &fd[i]);
    for (int i = 0; i < at_once; i++)
        rc |= pid[i] > 0 ? finish_plain(pid[i], fd[i]) : -1;
    return rc;
}

/* ---- the runner's driver ------------------------------------------------------------ */

struct bench_match {
    struct match_setup s;
    struct match_datadirs dirs;
    struct match_turns *turns;
    char *argv[2];
    struct strbuf args;
};

/* bot: an absolute path; its directory is bound at /bot. */
static int open_match(struct bench_match *m, const char *bot, int players, struct jail_error *err)
{
    static char name[] = "bench", profile[] = "default";
    static char dir[PATH_MAX], cmd[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s", bot);
    *strrchr(dir, '/') = '\0';
    snprintf(cmd, sizeof cmd, "/bot/%s", strrchr(bot, '/') + 1);
    memset(m, 0, sizeof *m);
    m->argv[0] = cmd;
    m->s.rules = game_find("warlight");
    if (!m->s.rules) {
        snprintf(err->msg, sizeof err->msg, "no warlight engine");
        return -1;
    }
    game_params_defaults(m->s.rules, m->s.params);
    m->s.limits = (struct match_limits){.move_wall_ms = 1000, .memory_limit_mb = 256, .max_line_bytes = 4096,
                                        .pids = MATCH_DEFAULT_PIDS, .stderr_limit_kb = 64, .tmp_mb = 16};
    m->s.n_players = players;
    for (int p = 0; p < players; p++)
        m->s.players[p] = (struct match_player){.name = name, .argv = m->argv, .argc = 1, .dir = dir, .profile = profile};
    for (size_t i = 0; i < N_ARGS; i++)
        if (sb_append(&m->args, example_args[i], strlen(example_args[i]) + 1) < 0)
            return -1;
    if (datadirs_open(&m->dirs, &m->s, err) < 0)
        return -1;
    return turns_open(&m->turns, &m->s, &m->dirs, err);
}

static void close_match(struct bench_match *m)
{
    turns_close(m->turns);
    datadirs_close(&m->dirs);
    sb_free(&m->args);
}

static int turn_runner(struct bench_match *m, int at_once, int round)
{
    static const int players[MAX_AT_ONCE] = {1, 2};
    struct strbuf args[MAX_AT_ONCE] = {m->args, m->args};
    struct turn_reply replies[MAX_AT_ONCE];
    int reply_no[MAX_AT_ONCE] = {round, round};
    struct jail_error err;
    memset(replies, 0, sizeof replies);
    int rc = turns_play(m->turns, at_once, players, args, round, reply_no, replies, &err);
    if (rc < 0)
        fprintf(stderr, "bench_turns: %s\n", err.msg);
    for (int i = 0; i < at_once; i++) {
        if (rc == 0 && (replies[i].violated || replies[i].output.len == 0)) {
            fprintf(stderr, "bench_turns: the jailed bot failed: %s\n", replies[i].violation.reason);
            rc = -1;
        }
        turn_reply_free(&replies[i]);
    }
    return rc;
}

/* ---- jail_start every turn ------------------------------------------------------------ */

static int turn_jail_start(struct bench_match *m, int at_once)
{
    struct jail *j[MAX_AT_ONCE];
    struct jail_error err;
    int rc = 0;
    const char *argv[N_ARGS + 2] = {m->argv[0]};
    for (size_t i = 0; i < N_ARGS; i++)
        argv[i + 1] = example_args[i];
    for (int i = 0; i < at_once; i++) {
        struct jail_spec spec;
        match_setup_jail_spec(&m->s, i + 1, &spec);
        datadirs_apply(&m->dirs, i + 1, &spec);
        spec.argv = argv;
        if (jail_start(&spec, &j[i], &err) < 0) {
            fprintf(stderr, "bench_turns: %s\n", err.msg);
            return -1;
        }
        jail_close_stdin(j[i]);
    }
    for (int i = 0; i < at_once; i++) {
        struct jail_report rep;
        struct jail_wait_entry w = {.jail = j[i], .fd = -1};
        while (!jail_has_ended(j[i]) && jail_wait_any(&w, 1, &err) >= 0) {
        }
        if (jail_finish(j[i], &rep, &err) < 0 || rep.verdict != VERDICT_OK)
            rc = -1;
    }
    return rc;
}

/* ---- the runs ---------------------------------------------------------------------------- */

/* CPU of this process and every child it reaped (a jail's init brings its children's). */
static uint64_t cpu_now_ns(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    uint64_t us = (uint64_t)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
                             kids.ru_stime.tv_sec) * 1000000u +
                  (uint64_t)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
                             kids.ru_stime.tv_usec);
    return us * 1000u;
}

enum { PLAIN, RUNNER, JAIL_START, N_WAYS };
static const char *const way_names[N_WAYS] = {"plain fork+exec", "runner (prepared jails)", "jail_start each turn"};

static void report(int at_once, size_t turns, uint64_t *ns[N_WAYS], size_t n[N_WAYS], const uint64_t cpu[N_WAYS])
{
    struct bench_stats st[N_WAYS];
    printf("%d player%s per turn (%zu turns each, interleaved)\n", at_once, at_once > 1 ? "s" : "", turns);
    for (int w = 0; w < N_WAYS; w++) {
        st[w] = bench_summarise(ns[w], n[w]);
        bench_print(way_names[w], st[w]);
    }
    for (int w = 0; w < N_WAYS; w++)
        if (n[w] && st[w].median_us > 0)
            printf("  %-26s %8.0f turns/s (median)   CPU %7.1f us a turn, judge and bots\n", way_names[w],
                   1e6 / st[w].median_us, (double)cpu[w] / 1e3 / (double)n[w]);
    if (n[PLAIN] && n[RUNNER])
        printf("  ratio runner / fork+exec:     %.2f (median; target <= 2.00), %.2f (p10: the least disturbed)\n",
               st[RUNNER].median_us / st[PLAIN].median_us, st[RUNNER].p10_us / st[PLAIN].p10_us);
    if (n[PLAIN] && n[RUNNER])
        printf("  CPU ratio runner / fork+exec: %.2f\n", (double)cpu[RUNNER] / (double)n[RUNNER] /
                                                        ((double)cpu[PLAIN] / (double)n[PLAIN]));
    if (n[PLAIN] && n[JAIL_START])
        printf("  ratio jail_start / fork+exec: %.2f (median)\n", st[JAIL_START].median_us / st[PLAIN].median_us);
}

static int bench(const char *bot, int at_once, size_t turns)
{
    struct bench_match m;
    struct jail_error err;
    if (open_match(&m, bot, at_once, &err) < 0) {
        fprintf(stderr, "bench_turns: %s\n", err.msg);
        close_match(&m);
        return -1;
    }
    uint64_t *ns[N_WAYS], cpu[N_WAYS] = {0};
    size_t n[N_WAYS] = {0};
    for (int w = 0; w < N_WAYS; w++)
        ns[w] = calloc(turns, sizeof *ns[w]);
    for (size_t i = 0; i < turns; i++) {   /* interleaved, so machine noise hits all alike */
        uint64_t c0 = cpu_now_ns(), t0 = bench_now_ns();
        int ok0 = turn_plain(bot, at_once) == 0;
        uint64_t c1 = cpu_now_ns(), t1 = bench_now_ns();
        int ok1 = turn_runner(&m, at_once, (int)i + 1) == 0;
        uint64_t c2 = cpu_now_ns(), t2 = bench_now_ns();
        int ok2 = turn_jail_start(&m, at_once) == 0;
        uint64_t c3 = cpu_now_ns(), t3 = bench_now_ns();
        if (ok0) ns[PLAIN][n[PLAIN]++] = t1 - t0, cpu[PLAIN] += c1 - c0;
        if (ok1) ns[RUNNER][n[RUNNER]++] = t2 - t1, cpu[RUNNER] += c2 - c1;
        if (ok2) ns[JAIL_START][n[JAIL_START]++] = t3 - t2, cpu[JAIL_START] += c3 - c2;
    }
    report(at_once, turns, ns, n, cpu);
    for (int w = 0; w < N_WAYS; w++)
        free(ns[w]);
    close_match(&m);
    return 0;
}

int main(int argc, char **argv)
{
    const char *bot = argc > 1 ? argv[1] : "build/bots/warlight/grabber";
    size_t turns = argc > 2 ? strtoul(argv[2], NULL, 10) : 400;
    char path[PATH_MAX];
    struct isolation_report probe;
    struct jail_error err;
    if (!realpath(bot, path) || access(path, X_OK) < 0) {
        fprintf(stderr, "bench_turns: %s: not an executable (make programs)\n", bot);
        return 1;
    }
    if (jail_global_init(ISOLATION_STRICT, &probe, &err) < 0) {
        fprintf(stderr, "bench_turns: %s\n", err.msg);
        return 1;
    }
    printf("== bench_turns: %s, the warlight §4 example arguments (cgroup backend %s)\n", bot,
           probe.cgroup_backend);
    for (int at_once = 1; at_once <= MAX_AT_ONCE; at_once++)
        if (bench(path, at_once, turns) < 0)
            return 1;
    return 0;
}
