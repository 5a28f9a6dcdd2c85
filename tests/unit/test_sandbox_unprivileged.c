/*
 * test_sandbox_unprivileged.c - the jail on a student's laptop: a process
 * that is not root (here: root dropped to nobody in a child) gets a refusal in
 * strict mode naming the missing layer, and in best-effort mode a working
 * jail (own user, pid, mount, network namespaces) with the degraded layers
 * named in the isolation report and rlimits in place of the cgroup; and there,
 * a bot's death keeps its verdict (a forbidden call, a kill, a crash) where
 * only a failed allocation is guessed to be the memory limit, and a child
 * left running is counted once the init has killed and reaped it.
 */
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

#define NOBODY 65534

struct nobody_result {
    char failed[256]; /* empty when every step worked */
    int strict_rc;
    char strict_msg[256];
    struct isolation_report probe;
    struct outcome view, limits, bot;
    struct jail_report busy;
};

static void drop_to_nobody(void)
{
    gid_t gid = NOBODY;
    if (setgroups(1, &gid) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
        setresuid(NOBODY, NOBODY, NOBODY) < 0)
        _exit(99);
    /* Changing uid made us non-dumpable, which hides /proc/PID/uid_map of our
     * own children; a judge started by an ordinary user is dumpable. */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    unsetenv("XDG_RUNTIME_DIR");
}

static void run_best_effort(const char *script, uint64_t memory, struct outcome *o)
{
    struct command c;
    shell_command(&c, script);
    c.spec.mode = ISOLATION_BEST_EFFORT;
    c.spec.limits.memory_bytes = memory;
    run(&c, o);
}

static char bot_dir[] = "/var/tmp/jail-unpriv-XXXXXX";

/* A bot directory nobody can read: a file in a subdirectory, a symlink, an executable. */
static void make_bot_dir(void)
{
    ck_assert_ptr_nonnull(mkdtemp(bot_dir));
    chmod(bot_dir, 0755);
    char path[128];
    snprintf(path, sizeof path, "%s/sub", bot_dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/sub/f.txt", bot_dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("deep\n", f);
    fclose(f);
    chmod(path, 0644);
    snprintf(path, sizeof path, "%s/secret", bot_dir); /* root's, 0600: unreadable through a bind too */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("root only\n", f);
    fclose(f);
    chmod(path, 0600);
    snprintf(path, sizeof path, "%s/link", bot_dir);
    ck_assert_int_eq(symlink("sub/f.txt", path), 0);
    snprintf(path, sizeof path, "%s/run.sh", bot_dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#!/bin/sh\necho ran\n", f);
    fclose(f);
    chmod(path, 0755);
}

static void remove_bot_dir(void)
{
    const char *names[] = {"run.sh", "link", "secret", "sub/f.txt", "sub", NULL};
    char path[128];
    for (const char **n = names; *n; n++) {
        snprintf(path, sizeof path, "%s/%s", bot_dir, *n);
        remove(path);
    }
    rmdir(bot_dir);
}

/* /bot is a copy made by the jail itself (the judge cannot make a detached
 * tmpfs): the whole tree, read-only, its mountinfo naming no host path. */
static void bot_copy(struct nobody_result *r)
{
    struct command c;
    shell_command(&c, "cat /bot/link; ./run.sh; stat -c %a /bot/run.sh /bot/sub; cat /bot/secret 2>/dev/null || echo no-secret;"
                      "awk '$5 == \"/bot\" { print $4, $(NF - 2) }' /proc/self/mountinfo;"
                      "grep -c jail-unpriv /proc/self/mountinfo; touch /bot/x 2>/dev/null || echo ro");
    c.spec.mode = ISOLATION_BEST_EFFORT;
    c.spec.dir = bot_dir;
    run(&c, &r->bot);
}

static void busy_loop(struct nobody_result *r)
{
    struct command c;
    shell_command(&c, "while :; do :; done");
    c.spec.mode = ISOLATION_BEST_EFFORT;
    c.spec.limits.cpu_ns = 100 * MS;
    struct jail_io io = {-1, -1, -1, 0, 0, NULL, NULL};
    struct jail_error err;
    if (jail_run(&c.spec, &io, &r->busy, &err) < 0)
        snprintf(r->failed, sizeof r->failed, "busy loop: %.200s", err.msg);
}

static void as_nobody(struct nobody_result *r)
{
    struct jail_error err = {0};
    r->strict_rc = jail_global_init(ISOLATION_STRICT, &r->probe, &err);
    snprintf(r->strict_msg, sizeof r->strict_msg, "%s", err.msg);
    if (jail_global_init(ISOLATION_BEST_EFFORT, &r->probe, &err) < 0) {
        snprintf(r->failed, sizeof r->failed, "best-effort init: %.200s", err.msg);
        return;
    }
    run_best_effort(
        "grep -E '^(Uid|CapEff|NoNewPrivs|Seccomp):' /proc/self/status; echo $$;"
        "uname -n; ls -A /dev; grep -c : /proc/self/net/dev; touch /x 2>/dev/null || echo ro",
        0, &r->view);
    run_best_effort("ulimit -d; ulimit -v; awk '/Max processes/ {print $3}' /proc/self/limits; exit 3", 64u << 20,
                    &r->limits);
    bot_copy(r);
    busy_loop(r);
}

/* body(result) in a child dropped to nobody; its result (size bytes) comes back through a pipe. */
static void in_child_as_nobody(void (*body)(void *), void *result, size_t size)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        memset(result, 0, size);
        drop_to_nobody();
        body(result);
        ssize_t n = write(fds[1], result, size);
        _exit(n == (ssize_t)size ? 0 : 98);
    }
    close(fds[1]);
    size_t got = 0;
    for (ssize_t n; got < size && (n = read(fds[0], (char *)result + got, size - got)) > 0;)
        got += (size_t)n;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    ck_assert_uint_eq(got, size);
}

static void as_nobody_body(void *r)
{
    as_nobody(r);
}

START_TEST(best_effort_jail_without_root)
{
    static struct nobody_result r;
    make_bot_dir();
    in_child_as_nobody(as_nobody_body, &r, sizeof r);
    remove_bot_dir();
    ck_assert_msg(r.failed[0] == '\0', "%s", r.failed);

    ck_assert_int_eq(r.strict_rc, -1);
    ck_assert_msg(strstr(r.strict_msg, "strict isolation refused: user_ns is degraded") != NULL, "%s",
                  r.strict_msg);
    ck_assert_msg(strstr(r.strict_msg, "also not fully on: memory_limit, pids_limit, ") != NULL &&
                      strstr(r.strict_msg, "; `judge doctor` says how to get them") != NULL,
                  "%s", r.strict_msg);

    const struct isolation_report *iso = &r.probe;
    ck_assert(!iso->privileged);
    ck_assert(iso->degraded);
    ck_assert_int_eq(iso->state[LAYER_USER_NS], LAYER_DEGRADED);
    ck_assert_str_eq(iso->how[LAYER_USER_NS], "own uid only (not root)");
    ck_assert_int_eq(iso->state[LAYER_MEMORY_LIMIT], LAYER_DEGRADED);
    ck_assert_str_eq(iso->how[LAYER_MEMORY_LIMIT], "rlimit RLIMIT_DATA per process; MEMORY_LIMIT a guess");
    ck_assert_int_eq(iso->state[LAYER_PIDS_LIMIT], LAYER_DEGRADED);
    ck_assert_str_eq(iso->how[LAYER_PIDS_LIMIT], "rlimit RLIMIT_NPROC; PROCESS_LIMIT never reported");
    ck_assert_str_eq(iso->how[LAYER_CPU_METER], "process clock; children counted at its end, not as they run");
    ck_assert_int_eq(iso->state[LAYER_FREEZER], LAYER_DEGRADED);
    ck_assert_str_eq(iso->cgroup_backend, "none");
    ck_assert_int_eq(iso->state[LAYER_NET_NS], LAYER_ON);
    ck_assert_str_eq(iso->how[LAYER_NET_NS], "new empty netns per jail");
    ck_assert_int_eq(iso->state[LAYER_PIVOT_ROOT], LAYER_ON);
    ck_assert_int_eq(iso->state[LAYER_SECCOMP], LAYER_ON);

    ck_assert_msg(r.view.rc == 0 && r.view.rep.verdict == VERDICT_OK, "%s %s %s", r.view.err.msg,
                  jail_verdict_name(r.view.rep.verdict), r.view.errout);
    /* echo $$: the command is pid 2, under the jail's init */
    ck_assert_str_eq(r.view.out, "Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\nNoNewPrivs:\t1\n"
                                 "Seccomp:\t2\n2\njail\nfull\nnull\nrandom\nurandom\nzero\n1\nro\n");
    ck_assert_int_eq(r.view.rep.isolation.state[LAYER_USER_NS], LAYER_DEGRADED);

    ck_assert_int_eq(r.limits.rep.verdict, VERDICT_RUNTIME_ERROR);
    ck_assert_int_eq(r.limits.rep.exit_code, 3);
    ck_assert_str_eq(r.limits.out, "65536\n4259840\n64\n"); /* RLIMIT_DATA, RLIMIT_AS in KiB, RLIMIT_NPROC */

    ck_assert_msg(r.bot.rc == 0 && r.bot.rep.verdict == VERDICT_OK, "%s %s %s", r.bot.err.msg,
                  jail_verdict_name(r.bot.rep.verdict), r.bot.errout);
    ck_assert_str_eq(r.bot.out, "deep\nran\n755\n755\nno-secret\n/ tmpfs\n0\nro\n");

    ck_assert_int_eq(r.busy.verdict, VERDICT_CPU_LIMIT);
    ck_assert_uint_ge(r.busy.cpu_ns, 100 * MS);
    /* How far past it got (SIGSTOP instead of the freezer here) is a figure, not a test. */
}
END_TEST

/* ---- deaths under the rlimit fallback, each jail left to end by itself (as a match does) ---- */

#define DEATH_MEMORY (256ull << 20)

enum death { DEATH_SOCKET, DEATH_SELF_KILL, DEATH_FAULT, DEATH_ALLOCATION, DEATHS };

static const char *const death_code[DEATHS] = {
    [DEATH_SOCKET] = "import socket; socket.socket(socket.AF_INET)",
    [DEATH_SELF_KILL] = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
    [DEATH_FAULT] = "import ctypes; ctypes.string_at(0)",
    /* touched 1 MiB at a time until an allocation fails: MemoryError, exit 1 */
    [DEATH_ALLOCATION] = "b = []\nwhile True: b.append(b'x' * (1 << 20))",
};

struct deaths_result {
    char failed[256];
    struct isolation_report probe;
    struct jail_report rep[DEATHS];
    struct jail_report child_left;   /* a child burns 400 ms, the command exits: CPU limit 200 ms */
    struct jail_report child_killed; /* a child burns 400 ms, the command floods stdout: killed */
};

/* The child tells the parent once it has burnt 400 ms by its own clock and burns on; the parent
 * exits then. No cgroup counts the child while it runs: the init's record, once it has killed
 * and reaped it, does. */
static const char child_left_code[] = "import os, time\n"
                                      "r, w = os.pipe()\n"
                                      "if os.fork() == 0:\n"
                                      "    while time.process_time() < 0.4: pass\n"
                                      "    os.write(w, b'x')\n"
                                      "    while True: pass\n"
                                      "os.read(r, 1)\n";

static int run_child_left(struct jail_report *rep, struct jail_error *err)
{
    struct command c;
    python_command(&c, child_left_code);
    c.spec.mode = ISOLATION_BEST_EFFORT;
    c.spec.limits.cpu_ns = 200 * MS;
    struct jail_io io = {-1, -1, -1, 0, 0, NULL, NULL};
    return jail_run(&c.spec, &io, rep, err);
}

/* The same child; then the parent writes past the stdout cap and the judge kills
 * the jail: its init, left to end the rest, counts the child in its record. */
static const char child_killed_code[] = "import os, sys, time\n"
                                        "r, w = os.pipe()\n"
                                        "if os.fork() == 0:\n"
                                        "    while time.process_time() < 0.4: pass\n"
                                        "    os.write(w, b'x')\n"
                                        "    while True: pass\n"
                                        "os.read(r, 1)\n"
                                        "sys.stdout.write('x' * 100000)\n"
                                        "sys.stdout.flush()\n"
                                        "time.sleep(100)\n";

static int run_child_killed(struct jail_report *rep, struct jail_error *err)
{
    struct command c;
    python_command(&c, child_killed_code);
    c.spec.mode = ISOLATION_BEST_EFFORT;
    struct jail_io io = {-1, -1, -1, 1000, 0, NULL, NULL};
    return jail_run(&c.spec, &io, rep, err);
}

/* Wait as a match waits for a bot that ended before its reply: until the jail
 * has ended by itself, a kill by the seccomp listener included; then finish. */
static int run_to_its_end(const struct command *c, struct jail_report *rep, struct jail_error *err)
{
    struct jail *j;
    if (jail_start(&c->spec, &j, err) < 0) return -1;
    jail_close_stdin(j);
    struct jail_wait_entry e = {.jail = j, .fd = -1, .deadline_ns = monotonic_ns() + SAFETY_WALL_NS};
    while (!jail_has_ended(j) && monotonic_ns() < e.deadline_ns) {
        if (jail_wait_any(&e, 1, err) < 0) break;
        if (e.event == JAIL_EVENT_SYSCALL) /* killed: its init is on its way out */
            nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return jail_finish(j, rep, err);
}

static void deaths_body(void *result)
{
    struct deaths_result *r = result;
    struct jail_error err = {0};
    if (jail_global_init(ISOLATION_BEST_EFFORT, &r->probe, &err) < 0) {
        snprintf(r->failed, sizeof r->failed, "best-effort init: %.200s", err.msg);
        return;
    }
    for (int d = 0; d < DEATHS; d++) {
        struct command c;
        python_command(&c, death_code[d]);
        c.spec.mode = ISOLATION_BEST_EFFORT;
        c.spec.limits.memory_bytes = DEATH_MEMORY;
        if (run_to_its_end(&c, &r->rep[d], &err) < 0) {
            snprintf(r->failed, sizeof r->failed, "death %d: %.200s", d, err.msg);
            return;
        }
    }
    if (run_child_left(&r->child_left, &err) < 0)
        snprintf(r->failed, sizeof r->failed, "child left: %.200s", err.msg);
    else if (run_child_killed(&r->child_killed, &err) < 0)
        snprintf(r->failed, sizeof r->failed, "child killed: %.200s", err.msg);
}

/* Without a cgroup, MEMORY_LIMIT is a guess from the way the bot died: a
 * forbidden call, a kill and a plain crash are never taken for one. And the
 * CPU of a child that outlived the command is counted, past the limit, as is
 * that of one still running when the judge killed the jail. */
START_TEST(deaths_without_cgroup_keep_their_verdicts)
{
    static struct deaths_result r;
    in_child_as_nobody(deaths_body, &r, sizeof r);
    ck_assert_msg(r.failed[0] == '\0', "%s", r.failed);
    if (r.probe.state[LAYER_MEMORY_LIMIT] == LAYER_ON) {
        printf("SKIP unprivileged_deaths: nobody has a cgroup memory controller here\n");
        return;
    }
    const struct jail_report *sock = &r.rep[DEATH_SOCKET];
    ck_assert_msg(sock->verdict == VERDICT_FORBIDDEN_SYSCALL, "%s: %s", jail_verdict_name(sock->verdict),
                  sock->note);
    ck_assert_str_eq(sock->syscall.name, "socket");
    for (int d = DEATH_SELF_KILL; d <= DEATH_FAULT; d++)
        ck_assert_msg(r.rep[d].verdict == VERDICT_RUNTIME_ERROR, "death %d: %s: %s", d,
                      jail_verdict_name(r.rep[d].verdict), r.rep[d].note);
    ck_assert_int_eq(r.rep[DEATH_SELF_KILL].signal, SIGKILL);
    ck_assert_int_eq(r.rep[DEATH_FAULT].signal, SIGSEGV);
    const struct jail_report *alloc = &r.rep[DEATH_ALLOCATION];
    ck_assert_msg(alloc->verdict == VERDICT_MEMORY_LIMIT, "%s: %s", jail_verdict_name(alloc->verdict),
                  alloc->note);
    ck_assert_ptr_nonnull(strstr(alloc->note, "guess"));
    /* Its CPU past the limit, however it ended, is CPU_LIMIT (at 200 ms with a cgroup, at its end without). */
    const struct jail_report *kid = &r.child_left;
    ck_assert_msg(kid->verdict == VERDICT_CPU_LIMIT, "%s: %s", jail_verdict_name(kid->verdict), kid->note);
    ck_assert_uint_ge(kid->cpu_ns, 200 * MS);
    kid = &r.child_killed;
    ck_assert_msg(kid->verdict == VERDICT_OUTPUT_LIMIT, "%s: %s", jail_verdict_name(kid->verdict), kid->note);
    ck_assert_uint_ge(kid->cpu_ns, 400 * MS); /* what the child had burnt before the kill */
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("unprivileged");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, best_effort_jail_without_root);
    tcase_add_test(tc, deaths_without_cgroup_keep_their_verdicts);
    return run_suite(single_case_suite("sandbox_unprivileged", tc));
}
