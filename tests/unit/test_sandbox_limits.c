/*
 * test_sandbox_limits.c - every limit of a strict jail, through jail_run:
 * CPU (stopped once past the budget; by how much is make bench's overshoot
 * figure), wall, memory, processes, output,
 * file size; stdin fed from a descriptor. Runs real jails (root required).
 */
#include <errno.h>
#include <signal.h>

#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

START_TEST(cpu_limit_stops_a_busy_loop)
{
    fixture_init();
    struct command c;
    shell_command(&c, "while :; do :; done");
    c.spec.limits.cpu_ns = 200 * MS;
    struct outcome o;
    run(&c, &o);
    ck_assert_msg(o.rc == 0, "%s", o.err.msg);
    ck_assert_int_eq(o.rep.verdict, VERDICT_CPU_LIMIT);
    ck_assert_msg(o.rep.cpu_ns >= 200 * MS, "cpu_ns %llu", (unsigned long long)o.rep.cpu_ns);
    ck_assert_str_eq(o.rep.note, "cpu limit 200 ms");
}
END_TEST

START_TEST(cpu_limit_counts_every_process)
{
    fixture_init();
    struct command c;
    shell_command(&c, "(while :; do :; done) & (while :; do :; done) & wait");
    c.spec.limits.cpu_ns = 200 * MS;
    struct outcome o;
    run(&c, &o);
    ck_assert_int_eq(o.rep.verdict, VERDICT_CPU_LIMIT);
    /* Stopped by the sum: counted one at a time, the two loops would have spent 400 ms. */
    ck_assert_msg(o.rep.cpu_ns >= 200 * MS && o.rep.cpu_ns < 400 * MS, "cpu_ns %llu",
                  (unsigned long long)o.rep.cpu_ns);
}
END_TEST

START_TEST(wall_limit_stops_a_sleeper)
{
    fixture_init();
    struct command c;
    shell_command(&c, "sleep 100");
    c.spec.limits.wall_ns = 300 * MS;
    c.spec.limits.cpu_ns = 1000 * MS;
    struct outcome o;
    run(&c, &o);
    ck_assert_int_eq(o.rep.verdict, VERDICT_WALL_LIMIT);
    ck_assert_uint_ge(o.rep.wall_ns, 300 * MS);
    ck_assert_uint_lt(o.rep.wall_ns, 100000 * MS); /* stopped, not waited for: the sleep takes 100 s */
    ck_assert_uint_lt(o.rep.cpu_ns, o.rep.wall_ns); /* a sleeper: the wall clock, not CPU, ran out */
    ck_assert_str_eq(o.rep.note, "wall limit 300 ms");
}
END_TEST

START_TEST(closed_output_does_not_escape_limits)
{
    fixture_init();
    struct command c;
    shell_command(&c, "exec >&- 2>&-; while :; do :; done");
    c.spec.limits.cpu_ns = 100 * MS;
    struct outcome o;
    run(&c, &o);
    ck_assert_int_eq(o.rep.verdict, VERDICT_CPU_LIMIT);
    shell_command(&c, "exec >&- 2>&- <&-; sleep 100");
    c.spec.limits.wall_ns = 200 * MS;
    run(&c, &o);
    ck_assert_int_eq(o.rep.verdict, VERDICT_WALL_LIMIT);
}
END_TEST

START_TEST(memory_limit_is_reported)
{
    fixture_init();
    struct command c;
    python_command(&c, "x = bytearray(400 * 1024 * 1024); print('survived')");
    c.spec.limits.memory_bytes = 64u << 20;
    struct outcome o;
    run(&c, &o);
    ck_assert_msg(o.rc == 0, "%s", o.err.msg);
    ck_assert_msg(o.rep.verdict == VERDICT_MEMORY_LIMIT, "%s: %s", jail_verdict_name(o.rep.verdict),
                  o.rep.note);
    ck_assert_str_eq(o.out, "");
    ck_assert_uint_gt(o.rep.memory_peak_bytes, 32u << 20);
    ck_assert_uint_le(o.rep.memory_peak_bytes, 64u << 20);
}
END_TEST

START_TEST(process_limit_is_reported)
{
    fixture_init();
    struct command c;
    shell_command(&c, "for i in 1 2 3 4 5 6 7 8; do sleep 10 & done; wait");
    c.spec.limits.pids = 4;
    struct outcome o;
    run(&c, &o);
    ck_assert_msg(o.rep.verdict == VERDICT_PROCESS_LIMIT, "%s: %s", jail_verdict_name(o.rep.verdict),
                  o.rep.note);
    ck_assert_str_eq(o.rep.note, "pids limit 4 reached");
}
END_TEST

START_TEST(output_limit_is_reported)
{
    fixture_init();
    struct command c;
    shell_command(&c, "head -c 1000000 /dev/zero; sleep 100");
    int out = memfd_with("out", NULL);
    struct jail_io io = {-1, out, -1, 1000, 0, NULL, NULL};
    struct jail_report rep;
    struct jail_error err;
    ck_assert_int_eq(jail_run(&c.spec, &io, &rep, &err), 0);
    ck_assert_int_eq(rep.verdict, VERDICT_OUTPUT_LIMIT);
    ck_assert_str_eq(rep.note, "stdout over 1000 bytes");
    ck_assert_int_eq(lseek(out, 0, SEEK_END), 1000);
    close(out);
    shell_command(&c, "head -c 5000 /dev/zero >&2");
    io = (struct jail_io){-1, -1, -1, 0, 4096, NULL, NULL};
    ck_assert_int_eq(jail_run(&c.spec, &io, &rep, &err), 0);
    ck_assert_int_eq(rep.verdict, VERDICT_OUTPUT_LIMIT);
    ck_assert_str_eq(rep.note, "stderr over 4096 bytes");
}
END_TEST

struct collected {
    char data[2000];
    size_t len;
    int fail_errno; /* non-zero: every write fails with it */
};

static int collect(void *ctx, const char *data, size_t len)
{
    struct collected *c = ctx;
    if (c->fail_errno) return (errno = c->fail_errno), -1;
    ck_assert_uint_le(c->len + len, sizeof c->data);
    memcpy(c->data + c->len, data, len);
    c->len += len;
    return 0;
}

START_TEST(a_writer_gets_the_output_within_the_cap)
{
    fixture_init();
    struct command c;
    shell_command(&c, "printf 'a\\nb\\n'; head -c 5000 /dev/zero");
    struct collected got = {.len = 0};
    struct jail_writer w = {collect, &got};
    struct jail_io io = {-1, -1, -1, 1000, 0, &w, NULL};
    struct jail_report rep;
    struct jail_error err;
    ck_assert_int_eq(jail_run(&c.spec, &io, &rep, &err), 0);
    ck_assert_int_eq(rep.verdict, VERDICT_OUTPUT_LIMIT);
    ck_assert_uint_eq(got.len, 1000);
    ck_assert_mem_eq(got.data, "a\nb\n\0", 5);
    got.fail_errno = ENOSPC;
    ck_assert_int_eq(jail_run(&c.spec, &io, &rep, &err), -1);
    ck_assert_str_eq(err.msg, "jail: copying the command's stdout: No space left on device");
}
END_TEST

START_TEST(file_size_limit_applies)
{
    fixture_init();
    struct command c;
    shell_command(&c, "head -c 5000 /dev/zero > /tmp/f; echo $?; wc -c < /tmp/f");
    c.spec.limits.fsize_bytes = 1000;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "153\n1000\n"); /* head died of SIGXFSZ (128 + 25) */
}
END_TEST

START_TEST(open_files_limit_applies)
{
    fixture_init();
    struct command c;
    shell_command(&c, "ulimit -n; ulimit -H -n");
    c.spec.limits.nofile = 20;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "20\n20\n");
}
END_TEST

START_TEST(stdin_is_fed_from_a_descriptor)
{
    fixture_init();
    struct command c;
    shell_command(&c, "cat");
    struct outcome o;
    run_with_input(&c, "hello\nworld\n", &o);
    ck_assert_int_eq(o.rep.verdict, VERDICT_OK);
    ck_assert_str_eq(o.out, "hello\nworld\n");
    static char big[300001];
    memset(big, 'x', sizeof big - 1);
    shell_command(&c, "wc -c");
    run_with_input(&c, big, &o);
    ck_assert_str_eq(o.out, "300000\n");
    memcpy(big, "first\n", 6);
    shell_command(&c, "read line; echo \"got $line\"");
    run_with_input(&c, big, &o); /* stops reading early: the rest is dropped */
    ck_assert_int_eq(o.rc, 0);
    ck_assert_int_eq(o.rep.verdict, VERDICT_OK);
    ck_assert_str_eq(o.out, "got first\n");
}
END_TEST

START_TEST(closed_stdin_reads_end_of_file)
{
    fixture_init();
    struct command c;
    shell_command(&c, "cat; echo done");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "done\n");
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cpu_limit_stops_a_busy_loop);
    tcase_add_test(tc, cpu_limit_counts_every_process);
    tcase_add_test(tc, wall_limit_stops_a_sleeper);
    tcase_add_test(tc, closed_output_does_not_escape_limits);
    tcase_add_test(tc, memory_limit_is_reported);
    tcase_add_test(tc, process_limit_is_reported);
    tcase_add_test(tc, output_limit_is_reported);
    tcase_add_test(tc, a_writer_gets_the_output_within_the_cap);
    tcase_add_test(tc, file_size_limit_applies);
    tcase_add_test(tc, open_files_limit_applies);
    tcase_add_test(tc, stdin_is_fed_from_a_descriptor);
    tcase_add_test(tc, closed_stdin_reads_end_of_file);
    return run_suite(single_case_suite("sandbox_limits", tc));
}
