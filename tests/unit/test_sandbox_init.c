/*
 * test_sandbox_init.c - the jail's init (pid 1, the command's parent): the
 * command's own signals take effect and are reported as they are, and
 * orphans are reaped. Runs real jails (root required).
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

static void assert_killed_by(const struct outcome *o, int sig)
{
    ck_assert_msg(o->rc == 0, "%s", o->err.msg);
    ck_assert_msg(o->rep.verdict == VERDICT_RUNTIME_ERROR, "%s: %s", jail_verdict_name(o->rep.verdict),
                  o->rep.note);
    ck_assert_int_eq(o->rep.signal, sig);
    ck_assert_int_eq(o->rep.exit_code, -1);
    char want[32];
    snprintf(want, sizeof want, "signal %d ", sig);
    ck_assert_msg(strstr(o->rep.note, want) != NULL, "note: %s", o->rep.note);
}

/* What every C++ bot with an uncaught exception does: SIGABRT, not a fault. */
START_TEST(abort_is_reported_as_sigabrt)
{
    fixture_init();
    struct command c;
    python_command(&c, "import os; os.abort()");
    struct outcome o;
    run(&c, &o);
    assert_killed_by(&o, SIGABRT);
}
END_TEST

START_TEST(raise_sigterm_kills_the_command)
{
    fixture_init();
    struct command c;
    python_command(&c, "import signal; signal.raise_signal(signal.SIGTERM); print('survived')");
    struct outcome o;
    run(&c, &o);
    assert_killed_by(&o, SIGTERM);
    ck_assert_str_eq(o.out, "");
}
END_TEST

/* Field 3 (state) and 4 (ppid) of /proc/PID/stat. */
static bool read_state(const char *pid, char *state, long *ppid)
{
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')');
    return paren && sscanf(paren + 1, " %c %ld", state, ppid) == 2;
}

/* Zombies whose parent is one of the jail's two processes, seen from the host. */
static int count_zombies_of(pid_t a, pid_t b)
{
    DIR *d = opendir("/proc");
    ck_assert_ptr_nonnull(d);
    int zombies = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char state;
        long ppid;
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && read_state(e->d_name, &state, &ppid) &&
            state == 'Z' && (ppid == a || ppid == b))
            zombies++;
    }
    closedir(d);
    return zombies;
}

/* The command's child forks a grandchild and exits; the orphan exits later
 * and must be reaped by the init while the command sleeps without waiting. */
static const char orphan_script[] = "import os, sys, time\n"
                                    "child = os.fork()\n"
                                    "if child == 0:\n"
                                    "    if os.fork() == 0:\n"
                                    "        time.sleep(0.2)\n"
                                    "        os._exit(0)\n"
                                    "    os._exit(0)\n"
                                    "os.waitpid(child, 0)\n"
                                    "time.sleep(0.5)\n"
                                    "print('ready', flush=True)\n"
                                    "time.sleep(1)\n";

START_TEST(orphans_are_reaped)
{
    fixture_init();
    struct command c;
    python_command(&c, orphan_script);
    struct jail *j;
    struct jail_error err;
    ck_assert_msg(jail_start(&c.spec, &j, &err) == 0, "%s", err.msg);
    FILE *out = fdopen(dup(jail_stdout_fd(j)), "r");
    fcntl(fileno(out), F_SETFL, 0);
    char line[32] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof line, out));
    fclose(out);
    ck_assert_str_eq(line, "ready\n");
    ck_assert_int_eq(count_zombies_of(j->pid, j->cmd_pid), 0);
    struct jail_wait_entry e = {.jail = j, .fd = -1, .deadline_ns = monotonic_ns() + SAFETY_WALL_NS};
    ck_assert_int_eq(jail_wait_any(&e, 1, &err), 0);
    ck_assert_int_eq(e.event, JAIL_EVENT_ENDED);
    struct jail_report rep;
    ck_assert_msg(jail_finish(j, &rep, &err) == 0, "%s", err.msg);
    ck_assert_msg(rep.verdict == VERDICT_OK, "%s: %s", jail_verdict_name(rep.verdict), rep.note);
}
END_TEST

/* Without the init, the orphan's zombie stays: check the test can see one. */
START_TEST(zombie_counter_sees_a_zombie)
{
    pid_t child = fork();
    if (child == 0) _exit(0);
    ck_assert_int_gt(child, 0);
    int zombies = 0;
    for (int i = 0; i < 200 && zombies == 0; i++) {
        zombies = count_zombies_of(getpid(), getpid());
        usleep(5000);
    }
    ck_assert_int_eq(zombies, 1);
    ck_assert_int_eq(waitpid(child, NULL, 0), child);
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("init");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, abort_is_reported_as_sigabrt);
    tcase_add_test(tc, raise_sigterm_kills_the_command);
    tcase_add_test(tc, orphans_are_reaped);
    tcase_add_test(tc, zombie_counter_sees_a_zombie);
    return run_suite(single_case_suite("sandbox_init", tc));
}
