/*
 * test_sandbox_wait.c - jail_wait_any's events (readable, ended, CPU and wall
 * limits, forbidden calls) across several jails, freezing (and holding) and
 * metering (exact while frozen, or while provably asleep), and a forbidden call
 * still reported when nobody was waiting. Runs real jails.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>

#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

static struct jail *start(const char *script)
{
    struct command c;
    shell_command(&c, script);
    struct jail *j;
    struct jail_error err;
    ck_assert_msg(jail_start(&c.spec, &j, &err) == 0, "%s", err.msg);
    return j;
}

static struct jail *start_python(const char *code)
{
    struct command c;
    python_command(&c, code);
    struct jail *j;
    struct jail_error err;
    ck_assert_msg(jail_start(&c.spec, &j, &err) == 0, "%s", err.msg);
    return j;
}

static enum jail_verdict finish(struct jail *j, struct jail_report *rep)
{
    struct jail_error err;
    ck_assert_msg(jail_finish(j, rep, &err) == 0, "%s", err.msg);
    return rep->verdict;
}

static int wait_one(struct jail_wait_entry *e)
{
    struct jail_error err;
    int got = jail_wait_any(e, 1, &err);
    ck_assert_msg(got == 0, "%s", err.msg);
    return e->event;
}

/* Until the command's first output: it is past its start-up. */
static void await_output(struct jail *j)
{
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 0, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_READABLE);
}

static struct jail_report kill_and_finish(struct jail *j)
{
    struct jail_report rep;
    jail_kill(j, VERDICT_OK, "done");
    finish(j, &rep);
    return rep;
}

START_TEST(readable_then_ended)
{
    fixture_init();
    struct jail *j = start("echo hi");
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 0, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_READABLE);
    char buf[16];
    ck_assert_int_eq(read(e.fd, buf, sizeof buf), 3);
    ck_assert_int_eq(memcmp(buf, "hi\n", 3), 0);
    enum jail_event ev = wait_one(&e);
    if (ev == JAIL_EVENT_READABLE) { /* end of file may come before the exit is seen */
        ck_assert_int_eq(read(e.fd, buf, sizeof buf), 0);
        e.fd = -1;
        ev = wait_one(&e);
    }
    ck_assert_int_eq(ev, JAIL_EVENT_ENDED);
    ck_assert(jail_has_ended(j));
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_OK);
}
END_TEST

START_TEST(data_is_reported_before_the_end)
{
    fixture_init();
    struct jail *j = start("echo last words");
    jail_close_stdin(j);
    struct pollfd p = {jail_stdout_fd(j), POLLIN, 0};
    ck_assert_int_eq(poll(&p, 1, 5000), 1);
    while (!jail_has_ended(j)) usleep(1000);
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 0, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_READABLE); /* drain first, then ENDED */
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_OK);
}
END_TEST

START_TEST(first_of_several_jails)
{
    fixture_init();
    struct jail *quiet = start("sleep 100");
    struct jail *talker = start("sleep 0.2; echo me");
    struct jail_wait_entry e[2] = {
        {quiet, jail_stdout_fd(quiet), 0, 0, JAIL_EVENT_NONE, 0},
        {talker, jail_stdout_fd(talker), 0, 0, JAIL_EVENT_NONE, 0},
    };
    struct jail_error err;
    ck_assert_int_eq(jail_wait_any(e, 2, &err), 1);
    ck_assert_int_eq(e[1].event, JAIL_EVENT_READABLE);
    ck_assert_int_eq(e[0].event, JAIL_EVENT_NONE);
    struct jail_report rep;
    jail_kill(quiet, VERDICT_WALL_LIMIT, "test");
    ck_assert_int_eq(finish(quiet, &rep), VERDICT_WALL_LIMIT);
    ck_assert_int_eq(finish(talker, &rep), VERDICT_OK);
}
END_TEST

START_TEST(deadline_gives_wall_limit)
{
    fixture_init();
    struct jail *j = start("sleep 100");
    uint64_t t0 = monotonic_ns();
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 0, t0 + 150 * MS, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_WALL_LIMIT);
    ck_assert_uint_ge(monotonic_ns(), t0 + 150 * MS);
    jail_kill(j, VERDICT_WALL_LIMIT, "wall");
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_WALL_LIMIT);
    ck_assert_int_eq(rep.signal, SIGKILL);
}
END_TEST

START_TEST(cpu_limit_leaves_the_jail_frozen)
{
    fixture_init();
    struct jail *j = start("while :; do :; done");
    struct jail_wait_entry e = {j, -1, 100 * MS, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_CPU_LIMIT);
    ck_assert(jail_is_frozen(j));
    uint64_t a, b;
    struct jail_error err;
    /* The kernel marks a task frozen just before it switches out and charges its last
     * microseconds at the switch (test_sandbox_cgroup's test_freeze_stops_cpu): read after. */
    usleep(2000);
    ck_assert_int_eq(jail_cpu_ns_exact(j, &a, &err), 0);
    usleep(20000);
    ck_assert_int_eq(jail_cpu_ns_exact(j, &b, &err), 0);
    ck_assert_uint_eq(a, b); /* frozen: not a nanosecond more */
    ck_assert_uint_ge(a, 100 * MS); /* by how much past: make bench's overshoot figure */
    jail_kill(j, VERDICT_CPU_LIMIT, "cpu");
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_CPU_LIMIT);
    ck_assert_uint_ge(rep.cpu_ns, a);
}
END_TEST

START_TEST(cpu_limit_passed_during_a_read)
{
    fixture_init();
    struct jail *j = start("while :; do :; done");
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 50 * MS, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_CPU_LIMIT);
    e.cpu_limit_ns = 10 * MS; /* already far past: reported at once */
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_CPU_LIMIT);
    jail_kill(j, VERDICT_CPU_LIMIT, "cpu");
    struct jail_report rep;
    finish(j, &rep);
}
END_TEST

START_TEST(freeze_stops_the_meter)
{
    fixture_init();
    struct jail *j = start("while :; do :; done");
    struct jail_error err;
    usleep(30000);
    ck_assert_int_eq(jail_freeze(j, &err), 0);
    ck_assert(jail_is_frozen(j));
    uint64_t frozen = jail_cpu_ns(j);
    usleep(30000);
    ck_assert_uint_eq(jail_cpu_ns(j), frozen);
    ck_assert_int_eq(jail_thaw(j, &err), 0);
    ck_assert(!jail_is_frozen(j));
    usleep(30000);
    uint64_t exact;
    ck_assert_int_eq(jail_cpu_ns_exact(j, &exact, &err), 0);
    ck_assert_uint_gt(exact, frozen);
    ck_assert_uint_ge(jail_cpu_ns(j), exact);
    ck_assert(!jail_is_frozen(j));
    ck_assert_uint_gt(jail_memory_peak(j), 0);
    jail_kill(j, VERDICT_CPU_LIMIT, "done");
    struct jail_report rep;
    finish(j, &rep);
    ck_assert_uint_ge(rep.cpu_ns, exact);
}
END_TEST

/* Up to a second for the command to block: 1 once jail_cpu_ns_if_idle reads it. */
static int idle_reading(struct jail *j, uint64_t *ns)
{
    for (int i = 0; i < 100; i++) {
        if (jail_cpu_ns_if_idle(j, ns) == 1)
            return 1;
        usleep(10000);
    }
    return 0;
}

START_TEST(an_asleep_jail_is_read_exactly_without_a_freeze)
{
    fixture_init();
    struct jail *j = start("i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo x; read y");
    await_output(j);
    uint64_t idle, frozen;
    struct jail_error err;
    ck_assert_int_eq(idle_reading(j, &idle), 1);
    ck_assert(jail_idle_reads_stdin(j)); /* `read y`: read(0, ...) */
    ck_assert(!jail_is_frozen(j));
    ck_assert_uint_gt(idle, 0);
    ck_assert_int_eq(jail_cpu_ns_exact(j, &frozen, &err), 0);
    ck_assert_uint_ge(frozen, idle);
    ck_assert_uint_ge(kill_and_finish(j).cpu_ns, idle);
}
END_TEST

/* Asleep elsewhere than in a read of its stdin (here in nanosleep): read
 * exactly all the same, but not taken for a bot waiting for its prompt, which
 * nothing but the judge wakes. */
START_TEST(asleep_reading_another_file_is_not_waiting_for_stdin)
{
    fixture_init();
    struct jail *j = start("echo x; exec sleep 100");
    await_output(j);
    uint64_t idle;
    ck_assert_int_eq(idle_reading(j, &idle), 1);
    ck_assert(!jail_idle_reads_stdin(j));
    kill_and_finish(j);
}
END_TEST

START_TEST(a_busy_jail_or_one_with_a_child_is_not_read_as_asleep)
{
    fixture_init();
    struct jail *busy = start("while :; do :; done"), *parent = start("sleep 100 & echo x; read y");
    uint64_t ns = 12345;
    await_output(parent); /* its child exists from here on */
    usleep(50000);
    for (int i = 0; i < 20; i++) {
        ck_assert_int_eq(jail_cpu_ns_if_idle(busy, &ns), 0);
        ck_assert_int_eq(jail_cpu_ns_if_idle(parent, &ns), 0);
        usleep(5000);
    }
    ck_assert_uint_eq(ns, 12345); /* untouched */
    kill_and_finish(busy);
    kill_and_finish(parent);
}
END_TEST

/* The command asleep in a read of its stdin, but with a second thread (asleep
 * too, yet free to wake and think unseen): not read as asleep. The control: the
 * same program without the thread is. */
START_TEST(a_command_with_a_second_thread_is_not_read_as_asleep)
{
    fixture_init();
    static const char *const code[2] = {
        "import sys\nprint('x', flush=True)\nsys.stdin.readline()\n",
        "import sys, threading, time\n"
        "threading.Thread(target=time.sleep, args=(100,), daemon=True).start()\n"
        "print('x', flush=True)\nsys.stdin.readline()\n",
    };
    for (int threaded = 0; threaded < 2; threaded++) {
        struct jail *j = start_python(code[threaded]);
        await_output(j); /* the thread exists from here on */
        uint64_t ns = 12345;
        if (!threaded) {
            ck_assert_int_eq(idle_reading(j, &ns), 1);
            ck_assert(jail_idle_reads_stdin(j));
        } else {
            usleep(50000);
            for (int i = 0; i < 20; i++, usleep(5000))
                ck_assert_int_eq(jail_cpu_ns_if_idle(j, &ns), 0);
            ck_assert_uint_eq(ns, 12345); /* untouched */
        }
        kill_and_finish(j);
    }
}
END_TEST

/* A child that thought for 200 ms of CPU and was reaped before the command
 * blocks on its stdin: the idle reading holds the child's time too (the
 * cgroup's counter), not only the command's own clock, which never saw it. */
START_TEST(an_idle_reading_counts_a_child_that_has_ended)
{
    fixture_init();
    struct jail *j = start_python("import os, sys, time\n"
                                  "pid = os.fork()\n"
                                  "if pid == 0:\n"
                                  "    t = time.process_time()\n"
                                  "    while time.process_time() - t < 0.2: pass\n"
                                  "    os._exit(0)\n"
                                  "os.waitpid(pid, 0)\n"
                                  "print('x', flush=True)\nsys.stdin.readline()\n");
    await_output(j);
    uint64_t ns;
    ck_assert_int_eq(idle_reading(j, &ns), 1);
    ck_assert_uint_ge(ns, 200 * MS);
    kill_and_finish(j);
}
END_TEST

/* The bound a wait uses instead of a reading: never below what a bot busy in
 * two processes (the command and a child, which only the cgroup counts) has
 * used, 50 ms after the last reading; and no bound at all before one. */
START_TEST(the_cpu_bound_is_never_below_the_use)
{
    fixture_init();
    struct jail *j = start("while :; do :; done & while :; do :; done");
    long cpus = jail_usable_cpus();
    ck_assert_uint_eq(jail_cpu_ns_bound(j, monotonic_ns(), cpus), UINT64_MAX);
    usleep(20000);
    uint64_t first = jail_cpu_ns(j);
    usleep(50000);
    struct jail_error err;
    ck_assert_int_eq(jail_freeze(j, &err), 0);
    uint64_t bound = jail_cpu_ns_bound(j, monotonic_ns(), cpus);
    uint64_t exact = jail_cpu_ns_final(j);
    ck_assert_uint_gt(exact, first);
    ck_assert_uint_ge(bound, exact);
    ck_assert_uint_lt(bound, UINT64_MAX);
    kill_and_finish(j);
}
END_TEST

/* busy_ns: a jail that thinks is reported once it has used that much, left running;
 * one blocked reading its stdin is not, however long the wait (its start-up's CPU, which
 * an emulated CPU makes dear, counted before the threshold is set). */
START_TEST(busy_is_reported_once_the_jail_has_used_that_much)
{
    fixture_init();
    struct jail *busy = start("while :; do :; done"), *sleeper = start("echo ready; read y; echo x");
    struct jail_wait_entry e = {busy, -1, 0, 0, JAIL_EVENT_NONE, 30 * MS};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_BUSY);
    ck_assert(!jail_is_frozen(busy));
    ck_assert_uint_ge(jail_cpu_ns(busy), 30 * MS);
    char buf[16];
    struct jail_wait_entry s = {sleeper, jail_stdout_fd(sleeper), 0, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&s), JAIL_EVENT_READABLE);
    ck_assert_int_eq(read(s.fd, buf, sizeof buf), 6);   /* "ready\n" */
    s.busy_ns = jail_cpu_ns(sleeper) + 30 * MS;
    s.deadline_ns = monotonic_ns() + 300 * MS;
    ck_assert_int_eq(wait_one(&s), JAIL_EVENT_WALL_LIMIT);
    kill_and_finish(busy);
    kill_and_finish(sleeper);
}
END_TEST

/* jail_set_cpus moves every thread the jail has, and what they start inherits it. */
START_TEST(set_cpus_moves_the_jails_tasks)
{
    fixture_init();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    struct jail *j = start("read x; grep Cpus_allowed_list /proc/self/status");
    struct jail_error err;
    ck_assert_msg(jail_set_cpus(j, &one, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(write(jail_stdin_fd(j), "go\n", 3), 3);
    char buf[128] = "";
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 0, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_READABLE);
    ck_assert_int_gt(read(e.fd, buf, sizeof buf - 1), 0);
    ck_assert_str_eq(buf, "Cpus_allowed_list:\t0\n");
    kill_and_finish(j);
}
END_TEST

/* The CPU limit's sleeps are divided by every CPU a bot could use: under a
 * judge started with taskset, that is still every CPU of its cpuset, since a bot
 * may widen its own affinity; the judge's narrow mask is put back. */
START_TEST(usable_cpus_are_those_a_bot_could_widen_to)
{
    cpu_set_t all, one, after;
    ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
    if (CPU_COUNT(&all) < 2) {
        printf("SKIP usable_cpus_are_those_a_bot_could_widen_to: one CPU here\n");
        return;
    }
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &all)) {
            CPU_SET(cpu, &one);
            break;
        }
    ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
    long usable = jail_usable_cpus();
    ck_assert_int_eq(sched_getaffinity(0, sizeof after, &after), 0);
    ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
    ck_assert_int_eq(usable, CPU_COUNT(&all));
    ck_assert(CPU_EQUAL(&after, &one));
}
END_TEST

START_TEST(a_held_jail_runs_no_more_until_thawed)
{
    fixture_init();
    struct jail *j = start("while :; do :; done");
    struct jail_error err;
    uint64_t a, b, c;
    usleep(30000);
    ck_assert_int_eq(jail_hold(j, &err), 0);
    ck_assert(jail_is_frozen(j));
    ck_assert_int_eq(jail_cpu_ns_exact(j, &a, &err), 0); /* waits for it to have stopped */
    usleep(30000);
    ck_assert_int_eq(jail_cpu_ns_exact(j, &b, &err), 0);
    ck_assert_uint_eq(a, b);
    ck_assert_int_eq(jail_thaw(j, &err), 0);
    ck_assert(!jail_is_frozen(j));
    usleep(30000);
    ck_assert_int_eq(jail_cpu_ns_exact(j, &c, &err), 0);
    ck_assert_uint_gt(c, b);
    ck_assert_int_eq(jail_hold(j, &err), 0); /* killed while held */
    jail_kill(j, VERDICT_CPU_LIMIT, "done");
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_CPU_LIMIT);
    ck_assert_uint_ge(rep.cpu_ns, c);
}
END_TEST

START_TEST(forbidden_call_event)
{
    fixture_init();
    struct jail *j = start_python("import os; os.setuid(0)");
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 0, 0, JAIL_EVENT_NONE, 0};
    enum jail_event ev;
    while ((ev = wait_one(&e)) == JAIL_EVENT_READABLE) {
        char buf[256];
        if (read(e.fd, buf, sizeof buf) <= 0) e.fd = -1;
    }
    ck_assert_int_eq(ev, JAIL_EVENT_SYSCALL);
    struct jail_syscall call;
    ck_assert(jail_forbidden_syscall(j, &call));
    ck_assert_str_eq(call.name, "setuid");
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_FORBIDDEN_SYSCALL);
    ck_assert_str_eq(rep.syscall.name, "setuid");
}
END_TEST

START_TEST(forbidden_call_found_by_finish)
{
    fixture_init();
    struct jail *j = start_python("import socket; socket.socket()");
    /* Nobody receives it: the call stays pending in the listener, which polls
     * readable once it is made (poll does not take the notification). */
    struct pollfd p = {j->listener_fd, POLLIN, 0};
    ck_assert_int_eq(poll(&p, 1, 120000), 1);
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_FORBIDDEN_SYSCALL);
    ck_assert_str_eq(rep.syscall.name, "socket");
}
END_TEST

START_TEST(stdin_pipe_is_usable)
{
    fixture_init();
    struct jail *j = start("read a; echo \"[$a]\"");
    int in = jail_stdin_fd(j);
    ck_assert_int_ge(in, 0);
    ck_assert_int_ne(fcntl(in, F_GETFL) & O_NONBLOCK, 0);
    ck_assert_int_ne(fcntl(in, F_GETFD) & FD_CLOEXEC, 0);
    ck_assert_int_eq(write(in, "ping\n", 5), 5);
    jail_close_stdin(j);
    ck_assert_int_eq(jail_stdin_fd(j), -1);
    struct jail_wait_entry e = {j, jail_stdout_fd(j), 0, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(wait_one(&e), JAIL_EVENT_READABLE);
    char buf[16] = "";
    ck_assert_int_eq(read(e.fd, buf, sizeof buf), 7);
    ck_assert_int_eq(memcmp(buf, "[ping]\n", 7), 0);
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_OK);
}
END_TEST

START_TEST(finish_stops_a_running_jail_without_blame)
{
    fixture_init();
    struct jail *j = start("sleep 100 & sleep 100");
    struct jail_report rep;
    ck_assert_int_eq(finish(j, &rep), VERDICT_OK);
    ck_assert_int_eq(rep.signal, SIGKILL);
    ck_assert_int_eq(rep.exit_code, -1);
    ck_assert_str_eq(rep.note, "still running at finish: stopped by the judge");
}
END_TEST

START_TEST(wait_rejects_bad_arguments)
{
    fixture_init();
    struct jail_error err;
    ck_assert_int_eq(jail_wait_any(NULL, 0, &err), -1);
    ck_assert_str_eq(err.msg, "jail: wait: no jail given");
    struct jail_wait_entry e = {NULL, -1, 0, 0, JAIL_EVENT_NONE, 0};
    ck_assert_int_eq(jail_wait_any(&e, 1, &err), -1);
    ck_assert_str_eq(err.msg, "jail: wait: entry 0 has no jail");
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("wait");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, readable_then_ended);
    tcase_add_test(tc, data_is_reported_before_the_end);
    tcase_add_test(tc, first_of_several_jails);
    tcase_add_test(tc, deadline_gives_wall_limit);
    tcase_add_test(tc, cpu_limit_leaves_the_jail_frozen);
    tcase_add_test(tc, cpu_limit_passed_during_a_read);
    tcase_add_test(tc, freeze_stops_the_meter);
    tcase_add_test(tc, an_asleep_jail_is_read_exactly_without_a_freeze);
    tcase_add_test(tc, asleep_reading_another_file_is_not_waiting_for_stdin);
    tcase_add_test(tc, a_busy_jail_or_one_with_a_child_is_not_read_as_asleep);
    tcase_add_test(tc, a_command_with_a_second_thread_is_not_read_as_asleep);
    tcase_add_test(tc, an_idle_reading_counts_a_child_that_has_ended);
    tcase_add_test(tc, the_cpu_bound_is_never_below_the_use);
    tcase_add_test(tc, a_held_jail_runs_no_more_until_thawed);
    tcase_add_test(tc, busy_is_reported_once_the_jail_has_used_that_much);
    tcase_add_test(tc, set_cpus_moves_the_jails_tasks);
    tcase_add_test(tc, usable_cpus_are_those_a_bot_could_widen_to);
    tcase_add_test(tc, forbidden_call_event);
    tcase_add_test(tc, forbidden_call_found_by_finish);
    tcase_add_test(tc, stdin_pipe_is_usable);
    tcase_add_test(tc, finish_stops_a_running_jail_without_blame);
    tcase_add_test(tc, wait_rejects_bad_arguments);
    return run_suite(single_case_suite("sandbox_wait", tc));
}
