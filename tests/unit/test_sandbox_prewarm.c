/*
 * test_sandbox_prewarm.c - jails made ready in advance (sandbox/jail_prewarm.h):
 * the command gets its extra arguments at launch, runs as a full jail, and
 * a jail that is never launched leaves nothing behind.
 */
#include <check.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "sandbox/jail_internal.h"
#include "sandbox/jail_prewarm.h"
#include "tests/unit/jail_fixture.h"

/* Wait for the end, read all of stdout, finish. */
static void finish_reading(struct jail *j, char *out, size_t cap, struct jail_report *rep)
{
    struct jail_error err = {0};
    size_t len = 0;
    int fd = jail_stdout_fd(j);
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        ck_assert_int_ge(poll(&p, 1, 10000), 1);
        ssize_t n = read(fd, out + len, cap - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    out[len] = '\0';
    struct jail_wait_entry w = {.jail = j, .fd = -1, .deadline_ns = monotonic_ns() + SAFETY_WALL_NS};
    while (!jail_has_ended(j))
        ck_assert_int_ge(jail_wait_any(&w, 1, &err), 0);
    ck_assert_msg(jail_finish(j, rep, &err) == 0, "%s", err.msg);
}

static void prewarm(struct command *c, struct jail_prewarm **pw)
{
    struct jail_error err = {0};
    ck_assert_msg(jail_prewarm_start(&c->spec, pw, &err) == 0, "%s", err.msg);
}

static void launch(struct jail_prewarm *pw, const char *args, size_t len, struct jail **j)
{
    struct jail_error err = {0};
    ck_assert_msg(jail_prewarm_launch(pw, args, len, j, &err) == 0, "%s", err.msg);
    jail_close_stdin(*j);
}

START_TEST(launch_appends_the_arguments)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j;
    struct jail_report rep;
    char out[256];
    fixture_init();
    shell_command(&c, "printf '[%s]' \"$0\" \"$@\"");
    prewarm(&c, &pw);
    static const char args[] = "zero\0one two\0\0three";   /* "three" ends with the literal's NUL */
    launch(pw, args, sizeof args, &j);
    finish_reading(j, out, sizeof out, &rep);
    ck_assert_int_eq(rep.verdict, VERDICT_OK);
    ck_assert_str_eq(out, "[zero][one two][][three]");
}
END_TEST

START_TEST(no_arguments_runs_the_spec_alone)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j;
    struct jail_report rep;
    char out[256];
    fixture_init();
    shell_command(&c, "echo \"$#:$(id -u):$(hostname):$(pwd)\"");
    prewarm(&c, &pw);
    launch(pw, NULL, 0, &j);
    finish_reading(j, out, sizeof out, &rep);
    ck_assert_int_eq(rep.verdict, VERDICT_OK);
    ck_assert_str_eq(out, "0:1000:jail:/\n");
}
END_TEST

/* Prepared jails wait: several at once, launched in any order, each its own jail. */
START_TEST(several_wait_and_run_apart)
{
    enum { N = 3 };
    struct command c;
    struct jail_prewarm *pw[N];
    struct jail *j[N];
    fixture_init();
    shell_command(&c, "echo \"$1 $$\"");
    for (int i = 0; i < N; i++)
        prewarm(&c, &pw[i]);
    usleep(50000);
    for (int i = N - 1; i >= 0; i--) {   /* "sh -c SCRIPT x i": $1 is i */
        char arg[8] = "x";
        int n = snprintf(arg + 2, sizeof arg - 2, "%d", i);
        launch(pw[i], arg, (size_t)n + 3, &j[i]);
    }
    for (int i = 0; i < N; i++) {
        struct jail_report rep;
        char out[128], want[128];
        finish_reading(j[i], out, sizeof out, &rep);
        snprintf(want, sizeof want, "%d 2\n", i);   /* pid 2, under its own init */
        ck_assert_int_eq(rep.verdict, VERDICT_OK);
        ck_assert_str_eq(out, want);
    }
}
END_TEST

START_TEST(the_set_up_is_not_charged)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j;
    struct jail_report rep;
    char out[64];
    fixture_init();
    shell_command(&c, "exit 0");
    prewarm(&c, &pw);
    uint64_t prepared = monotonic_ns();
    usleep(1000000);   /* the set-up is long done, and the wall clock starts at the launch */
    uint64_t waited = monotonic_ns() - prepared;
    launch(pw, NULL, 0, &j);
    ck_assert_uint_gt(j->base_proc_ns, 0); /* what the set-up spent: taken off every reading */
    finish_reading(j, out, sizeof out, &rep);
    ck_assert_int_eq(rep.verdict, VERDICT_OK);
    ck_assert_uint_lt(rep.wall_ns, waited); /* the wait before the launch is not in it */
}
END_TEST

/* The execve is not waited for: its failure is the command's, exit status 127, with why. */
START_TEST(a_command_that_cannot_run_exits_127)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j;
    struct jail_report rep;
    char out[64];
    fixture_init();
    shell_command(&c, "");
    c.argv[0] = "/nonexistent/bot";
    prewarm(&c, &pw);
    launch(pw, "x", 2, &j);
    finish_reading(j, out, sizeof out, &rep);
    ck_assert_int_eq(rep.verdict, VERDICT_RUNTIME_ERROR);
    ck_assert_int_eq(rep.exit_code, 127);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(rep.note, "execve failed: No such file or directory");
}
END_TEST

START_TEST(too_many_arguments_is_the_command_s_failure)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j;
    struct jail_report rep;
    char out[64];
    size_t len = 2 * ((size_t)JAIL_LAUNCH_ARGS_MAX + 1);
    char *args = malloc(len);
    fixture_init();
    for (size_t i = 0; i < len; i += 2) {
        args[i] = 'a';
        args[i + 1] = '\0';
    }
    shell_command(&c, "exit 0");
    prewarm(&c, &pw);
    launch(pw, args, len, &j);
    free(args);
    finish_reading(j, out, sizeof out, &rep);
    ck_assert_int_eq(rep.exit_code, 127);
    ck_assert_str_eq(rep.note, "execve failed: Argument list too long");
}
END_TEST

START_TEST(launch_refuses_unterminated_arguments)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j = NULL;
    struct jail_error err = {0};
    fixture_init();
    shell_command(&c, "exit 0");
    prewarm(&c, &pw);
    ck_assert_int_eq(jail_prewarm_launch(pw, "abc", 3, &j, &err), -1);
    ck_assert_ptr_null(j);
    ck_assert_str_eq(err.msg, "jail: launch arguments: more than 1048576 bytes, or not NUL-terminated");
}
END_TEST

/* A jail prepared but never launched: discarded with its processes and cgroup,
 * no descriptor left, and the next jails start as usual. */
START_TEST(discard_leaves_nothing)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j;
    struct jail_report rep;
    char out[64];
    fixture_init();
    shell_command(&c, "echo ok");
    prewarm(&c, &pw); /* the first jail also sets up what every jail shares */
    jail_prewarm_discard(pw);
    int fds = count_open_fds();
    for (int i = 0; i < 20; i++) {
        prewarm(&c, &pw);
        if (i % 2)
            usleep(20000);  /* discarded mid set-up, or waiting for its launch */
        jail_prewarm_discard(pw);
    }
    jail_prewarm_discard(NULL);
    ck_assert_int_eq(count_open_fds(), fds);
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);   /* every child reaped */
    prewarm(&c, &pw);
    launch(pw, NULL, 0, &j);
    finish_reading(j, out, sizeof out, &rep);
    ck_assert_str_eq(out, "ok\n");
}
END_TEST

/* The spec's working directory and read-write directory apply as in jail_start. */
START_TEST(workdir_is_the_rw_dir)
{
    struct command c;
    struct jail_prewarm *pw;
    struct jail *j;
    struct jail_report rep;
    char out[128], rw[] = "/var/tmp/prewarm-XXXXXX";
    fixture_init();
    ck_assert_ptr_nonnull(mkdtemp(rw));
    ck_assert_int_eq(chmod(rw, 0777), 0);
    shell_command(&c, "pwd; echo kept >note");
    c.spec.rw_dir = rw;
    c.spec.workdir = JAIL_RW_DIR;
    prewarm(&c, &pw);
    const struct isolation_report *iso = jail_prewarm_isolation(pw);
    ck_assert_int_eq(iso->state[LAYER_SECCOMP], LAYER_ON);
    launch(pw, NULL, 0, &j);
    finish_reading(j, out, sizeof out, &rep);
    ck_assert_int_eq(rep.verdict, VERDICT_OK);
    ck_assert_str_eq(out, "/data\n");
    char path[64];
    snprintf(path, sizeof path, "%s/note", rw);
    ck_assert_int_eq(access(path, F_OK), 0);
    unlink(path);
    rmdir(rw);
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("prewarm");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, launch_appends_the_arguments);
    tcase_add_test(tc, no_arguments_runs_the_spec_alone);
    tcase_add_test(tc, several_wait_and_run_apart);
    tcase_add_test(tc, the_set_up_is_not_charged);
    tcase_add_test(tc, a_command_that_cannot_run_exits_127);
    tcase_add_test(tc, too_many_arguments_is_the_command_s_failure);
    tcase_add_test(tc, launch_refuses_unterminated_arguments);
    tcase_add_test(tc, discard_leaves_nothing);
    tcase_add_test(tc, workdir_is_the_rw_dir);
    return run_suite(single_case_suite("sandbox_prewarm", tc));
}
