/*
 * test_sandbox_unprivileged.c - the jail on a student's laptop: a process
 * that is not root (here: root dropped to nobody in a child) gets a refusal in
 * strict mode naming the missing layer, and in best-effort mode a working
 * jail (own user, pid, mount, network namespaces) with the degraded layers
 * named in the isolation report and rlimits in place of the cgroup.
 */
#include <grp.h>
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
    drop_to_nobody();
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
    run_best_effort("ulimit -v; awk '/Max processes/ {print $3}' /proc/self/limits; exit 3", 64u << 20,
                    &r->limits);
    bot_copy(r);
    busy_loop(r);
}

START_TEST(best_effort_jail_without_root)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    static struct nobody_result r;
    make_bot_dir();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        memset(&r, 0, sizeof r);
        as_nobody(&r);
        ssize_t n = write(fds[1], &r, sizeof r);
        _exit(n == (ssize_t)sizeof r ? 0 : 98);
    }
    close(fds[1]);
    size_t got = 0;
    for (ssize_t n; got < sizeof r && (n = read(fds[0], (char *)&r + got, sizeof r - got)) > 0;)
        got += (size_t)n;
    int status;
    waitpid(pid, &status, 0);
    remove_bot_dir();
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    ck_assert_uint_eq(got, sizeof r);
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
    ck_assert_str_eq(iso->how[LAYER_MEMORY_LIMIT], "rlimit RLIMIT_AS");
    ck_assert_int_eq(iso->state[LAYER_PIDS_LIMIT], LAYER_DEGRADED);
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
    ck_assert_str_eq(r.limits.out, "65536\n64\n"); /* RLIMIT_AS in KiB, RLIMIT_NPROC */

    ck_assert_msg(r.bot.rc == 0 && r.bot.rep.verdict == VERDICT_OK, "%s %s %s", r.bot.err.msg,
                  jail_verdict_name(r.bot.rep.verdict), r.bot.errout);
    ck_assert_str_eq(r.bot.out, "deep\nran\n755\n755\nno-secret\n/ tmpfs\n0\nro\n");

    ck_assert_int_eq(r.busy.verdict, VERDICT_CPU_LIMIT);
    ck_assert_uint_ge(r.busy.cpu_ns, 100 * MS);
    /* How far past it got (SIGSTOP instead of the freezer here) is a figure, not a test. */
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("unprivileged");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, best_effort_jail_without_root);
    return run_suite(single_case_suite("sandbox_unprivileged", tc));
}
