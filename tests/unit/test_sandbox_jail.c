/*
 * test_sandbox_jail.c - what a program sees inside a strict jail, and how its
 * end is reported. Runs real jails (root required).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "sandbox/jail_internal.h"
#include "sandbox/seccomp_policy.h"
#include "tests/unit/jail_fixture.h"

START_TEST(true_exits_ok)
{
    fixture_init();
    struct command c;
    shell_command(&c, "exit 0");
    c.argv[0] = "/bin/true";
    c.argv[1] = NULL;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_int_eq(o.rep.exit_code, 0);
    ck_assert_int_eq(o.rep.signal, 0);
    ck_assert_uint_gt(o.rep.wall_ns, 0);
    ck_assert_uint_gt(o.rep.memory_peak_bytes, 0);
    ck_assert_uint_gt(o.rep.rss_peak_bytes, 0); /* the peak RSS beside the cgroup's figure */
}
END_TEST

START_TEST(exit_code_is_reported)
{
    fixture_init();
    struct command c;
    shell_command(&c, "exit 7");
    struct outcome o;
    run(&c, &o);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_int_eq(o.rep.verdict, VERDICT_RUNTIME_ERROR);
    ck_assert_int_eq(o.rep.exit_code, 7);
    ck_assert_int_eq(o.rep.signal, 0);
    ck_assert_str_eq(o.rep.note, "exit code 7");
}
END_TEST

START_TEST(signal_is_reported)
{
    fixture_init();
    struct command c;
    python_command(&c, "import ctypes; ctypes.string_at(0)");
    struct outcome o;
    run(&c, &o);
    ck_assert_msg(o.rc == 0, "%s", o.err.msg);
    ck_assert_msg(o.rep.verdict == VERDICT_RUNTIME_ERROR, "%s: %s", jail_verdict_name(o.rep.verdict),
                  o.rep.note);
    ck_assert_int_eq(o.rep.signal, SIGSEGV);
    ck_assert_int_eq(o.rep.exit_code, -1);
    ck_assert_ptr_nonnull(strstr(o.rep.note, "signal 11"));
}
END_TEST

START_TEST(python_runs)
{
    fixture_init();
    struct command c;
    python_command(&c, "print(sum(range(10)))");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "45\n");
}
END_TEST

/* The referee's SCHED_BATCH stays with the judge's thread; its bots run SCHED_OTHER. */
START_TEST(referee_scheduling_is_not_inherited)
{
    fixture_init();
    bool changed = jail_sched_referee_begin();
    int referee = sched_getscheduler(0);
    struct command c;
    python_command(&c, "import os, sys; sys.exit(10 + os.sched_getscheduler(0))");
    struct outcome o;
    run(&c, &o);
    jail_sched_referee_end(changed);
    ck_assert_int_eq(referee, SCHED_BATCH);
    ck_assert_int_eq(sched_getscheduler(0), SCHED_OTHER);
    ck_assert_msg(o.rc == 0, "%s", o.err.msg);
    ck_assert_int_eq(o.rep.exit_code, 10 + SCHED_OTHER);
}
END_TEST

START_TEST(environment_is_exactly_envp)
{
    fixture_init();
    static const char *const env[] = {"A=1", "B=two words", NULL};
    struct command c;
    shell_command(&c, "");
    c.argv[0] = "/usr/bin/env";
    c.argv[1] = NULL;
    c.spec.envp = env;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "A=1\nB=two words\n");
    c.spec.envp = NULL;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "");
}
END_TEST

START_TEST(only_standard_fds_are_open)
{
    fixture_init();
    int leak_bait = open("/dev/null", O_RDONLY); /* deliberately not close-on-exec */
    ck_assert_int_ge(leak_bait, 3);
    struct command c;
    shell_command(&c, "ls /proc/2/fd"); /* the shell is pid 2 (ls pid 3; the init's cannot be listed) */
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "0\n1\n2\n");
    close(leak_bait);
}
END_TEST

START_TEST(no_capabilities_no_new_privs_seccomp_on)
{
    fixture_init();
    struct command c;
    shell_command(&c,
                  "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out,
                     "CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n"
                     "CapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\n");
}
END_TEST

START_TEST(runs_as_unprivileged_uid)
{
    fixture_init();
    struct command c;
    shell_command(&c, "grep -E '^(Uid|Gid):' /proc/self/status; cat /proc/self/uid_map");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_ptr_nonnull(strstr(o.out, "Uid:\t1000\t1000\t1000\t1000\n"));
    ck_assert_ptr_nonnull(strstr(o.out, "Gid:\t1000\t1000\t1000\t1000\n"));
    unsigned inner, host, count;
    const char *map = strstr(o.out, "\n      ");
    ck_assert_ptr_nonnull(map);
    ck_assert_int_eq(sscanf(map, "%u %u %u", &inner, &host, &count), 3);
    ck_assert_uint_eq(inner, 1000);
    ck_assert_uint_ge(host, JAIL_UID_BASE);
    ck_assert_uint_eq(count, 1);
}
END_TEST

START_TEST(concurrent_jails_have_different_host_uids)
{
    fixture_init();
    struct command c;
    shell_command(&c, "read line");
    struct jail *a, *b;
    struct jail_error err;
    ck_assert_msg(jail_start(&c.spec, &a, &err) == 0, "%s", err.msg);
    ck_assert_msg(jail_start(&c.spec, &b, &err) == 0, "%s", err.msg);
    long uid_a = status_field(a->pid, "Uid"), uid_b = status_field(b->pid, "Uid");
    long gid_a = status_field(a->pid, "Gid"), gid_b = status_field(b->pid, "Gid");
    ck_assert_int_ge(uid_a, JAIL_UID_BASE);
    ck_assert_int_ge(uid_b, JAIL_UID_BASE);
    ck_assert_int_ne(uid_a, uid_b);
    ck_assert_int_ne(gid_a, gid_b);
    struct jail_report ra, rb;
    jail_kill(a, VERDICT_WALL_LIMIT, "test over");
    jail_kill(b, VERDICT_WALL_LIMIT, "test over");
    ck_assert_int_eq(jail_finish(a, &ra, &err), 0);
    ck_assert_int_eq(jail_finish(b, &rb, &err), 0);
    ck_assert_int_eq(ra.verdict, VERDICT_WALL_LIMIT);
    ck_assert_str_eq(ra.note, "test over");
}
END_TEST

START_TEST(hostname_is_jail)
{
    fixture_init();
    struct command c;
    shell_command(&c, "uname -n");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "jail\n");
}
END_TEST

START_TEST(network_has_only_loopback)
{
    fixture_init();
    struct command c;
    shell_command(&c, "grep : /proc/self/net/dev | cut -d: -f1 | tr -d ' '; cat /sys/class/net/lo/operstate "
                      "2>/dev/null || true");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "lo\n"); /* and no /sys at all */
}
END_TEST

/* The command is pid 2; pid 1 is the jail's init, which shows nothing of the
 * judge's command line it was copied from. */
START_TEST(command_is_pid_two_under_the_init)
{
    fixture_init();
    struct command c;
    shell_command(&c, "echo $$ $PPID; tr -d '\\0' < /proc/1/cmdline | wc -c");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "2 1\n0\n");
}
END_TEST

START_TEST(dev_has_exactly_five_nodes)
{
    fixture_init();
    struct command c;
    shell_command(&c, "ls -A /dev; echo x > /dev/null && head -c 3 /dev/zero | wc -c");
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "full\nnull\nrandom\nurandom\nzero\n3\n");
}
END_TEST

START_TEST(root_and_bot_read_only_tmp_writable_and_capped)
{
    fixture_init();
    char dir[] = "/var/tmp/jail-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    chmod(dir, 0755);
    struct command c;
    shell_command(&c, "pwd; touch /x 2>/dev/null || echo root-ro; touch /bot/x 2>/dev/null || echo bot-ro;"
                      "echo hi > /tmp/f && cat /tmp/f;"
                      "head -c 2000000 /dev/zero > /tmp/big 2>/dev/null || echo tmp-full;"
                      "ls -A /");
    c.spec.dir = dir;
    c.spec.limits.tmp_bytes = 1 << 20;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(
        o.out,
        "/bot\nroot-ro\nbot-ro\nhi\ntmp-full\nbin\nbot\ndata\ndev\netc\nlib\nlib64\nproc\nsbin\ntmp\nusr\n");
    rmdir(dir);
}
END_TEST

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* /bot is a copy (sandbox/jail_stage.c) whose mountinfo names no host path,
 * and it is the directory as it is now: a change between two jails shows. */
START_TEST(bot_dir_is_a_current_copy_naming_no_host_path)
{
    fixture_init();
    char dir[] = "/var/tmp/jail-stage-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    chmod(dir, 0755);
    write_text(dir, "v.txt", "one\n");
    struct command c;
    shell_command(&c, "cat /bot/v.txt; grep -c ' / /bot ' /proc/self/mountinfo; grep -c jail-stage /proc/self/mountinfo; true");
    c.spec.dir = dir;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "one\n1\n0\n");
    write_text(dir, "v.txt", "two, longer\n");
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "two, longer\n1\n0\n");
    char path[128];
    snprintf(path, sizeof path, "%s/v.txt", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(extra_read_only_bind_is_visible)
{
    fixture_init();
    char dir[] = "/var/tmp/jail-extra-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    chmod(dir, 0755);
    char file[64], script[256];
    snprintf(file, sizeof file, "%s/data.txt", dir);
    FILE *f = fopen(file, "w");
    fputs("extra\n", f);
    fclose(f);
    chmod(file, 0644);
    snprintf(script, sizeof script,
             "cat %s; touch %s/y 2>/dev/null || echo ro; echo w > /data/w && cat /data/w", file, dir);
    char rw[] = "/var/tmp/jail-rw-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(rw));
    chmod(rw, 0777);
    const char *binds[] = {dir, NULL};
    struct command c;
    shell_command(&c, script);
    c.spec.extra_ro_binds = binds; /* needs a new mount point: the whole root is built */
    c.spec.rw_dir = rw;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "extra\nro\nw\n");
    char written[128];
    snprintf(written, sizeof written, "%s/w", rw);
    struct stat st;
    ck_assert_int_eq(stat(written, &st), 0);
    ck_assert_uint_ge(st.st_uid, JAIL_UID_BASE);
    unlink(written);
    rmdir(rw);
    unlink(file);
    rmdir(dir);
}
END_TEST

START_TEST(judge_umask_does_not_reach_the_jail)
{
    umask(077); /* before the template and every mount point are made */
    fixture_init();
    struct command c;
    shell_command(&c, "umask; echo x > /dev/null && ls /etc | wc -l && grep -c bot /etc/passwd");
    struct outcome o;
    run_ok(&c, &o);
    /* the loader's 4 and the jail's own 6 (passwd, group, nsswitch.conf, hosts, hostname, localtime) */
    ck_assert_str_eq(o.out, "0022\n10\n1\n");
}
END_TEST

START_TEST(start_errors_are_one_line)
{
    fixture_init();
    struct command c;
    shell_command(&c, "");
    c.argv[0] = "/bot/missing";
    c.argv[1] = NULL;
    c.spec.dir = "/tmp";
    struct jail *j;
    struct jail_error err;
    ck_assert_int_eq(jail_start(&c.spec, &j, &err), -1);
    ck_assert_str_eq(err.msg, "jail: execve /bot/missing: No such file or directory");
    /* the command's own execve: for the caller to blame on the user */
    ck_assert_int_eq(err.exec_errno, ENOENT);
    c.argv[0] = "/dev/null";
    ck_assert_int_eq(jail_start(&c.spec, &j, &err), -1);
    ck_assert_int_eq(err.exec_errno, EACCES);
    c.argv[0] = "/bot/missing";
    c.spec.dir = "/nonexistent-bot-dir";
    ck_assert_int_eq(jail_start(&c.spec, &j, &err), -1);
    ck_assert_str_eq(err.msg, "jail: bot directory /nonexistent-bot-dir: No such file or directory");
    ck_assert_int_eq(err.exec_errno, 0);
    c.spec.dir = NULL;
    c.argv[0] = NULL;
    ck_assert_int_eq(jail_start(&c.spec, &j, &err), -1);
    ck_assert_str_eq(err.msg, "jail: no command to run");
    ck_assert_int_eq(jail_start(NULL, &j, &err), -1);
}
END_TEST

START_TEST(command_found_through_jail_path)
{
    fixture_init();
    struct command c;
    shell_command(&c, "");
    c.argv[0] = "echo";
    c.argv[1] = "found";
    c.argv[2] = NULL;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "found\n");
}
END_TEST

START_TEST(no_fds_leak_in_the_judge)
{
    fixture_init();
    struct command c;
    shell_command(&c, "echo warm");
    struct outcome o;
    run_ok(&c, &o); /* first jail: pooled cgroup and cached namespaces stay open */
    int before = count_open_fds();
    for (int i = 0; i < 5; i++) {
        run_ok(&c, &o);
        struct jail *j;
        struct jail_error err;
        struct jail_report rep;
        ck_assert_int_eq(jail_start(&c.spec, &j, &err), 0);
        jail_kill(j, VERDICT_WALL_LIMIT, "stop");
        ck_assert_int_eq(jail_finish(j, &rep, &err), 0);
    }
    ck_assert_int_eq(count_open_fds(), before);
}
END_TEST

START_TEST(cgroup_is_emptied_and_returned)
{
    fixture_init();
    struct command c;
    shell_command(&c, "sleep 100 & sleep 100 & echo started; wait");
    struct jail *j;
    struct jail_error err;
    ck_assert_int_eq(jail_start(&c.spec, &j, &err), 0);
    ck_assert_ptr_nonnull(j->cg);
    char line[32];
    FILE *out = fdopen(dup(jail_stdout_fd(j)), "r");
    fcntl(fileno(out), F_SETFL, 0);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, out));
    fclose(out);
    ck_assert_int_eq(cgroup_count_procs(j->cg), 4); /* the init, sh and two sleeps */
    char procs[512];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", cgroup_path(j->cg));
    pid_t pid1 = j->pid;
    struct jail_report rep;
    jail_kill(j, VERDICT_WALL_LIMIT, "done");
    ck_assert_int_eq(jail_finish(j, &rep, &err), 0);
    FILE *f = fopen(procs, "r"); /* pooled (then empty) or removed */
    if (f) {
        ck_assert_int_eq(fgetc(f), EOF);
        fclose(f);
    }
    ck_assert_int_eq(kill(pid1, 0), -1);
}
END_TEST

START_TEST(forbidden_call_is_reported)
{
    fixture_init();
    struct command c;
    python_command(&c, "import socket; socket.socket(socket.AF_INET); print('not reached')");
    struct outcome o;
    run(&c, &o);
    ck_assert_msg(o.rc == 0, "%s", o.err.msg);
    ck_assert_int_eq(o.rep.verdict, VERDICT_FORBIDDEN_SYSCALL);
    ck_assert(o.rep.has_syscall);
    ck_assert_str_eq(o.rep.syscall.name, "socket");
    ck_assert_str_eq(o.rep.syscall.arch, "x86_64");
    ck_assert_uint_eq(o.rep.syscall.args[0], 2); /* AF_INET */
    ck_assert_str_eq(o.rep.note, "forbidden system call socket (x86_64)");
    ck_assert_ptr_null(strstr(o.out, "not reached"));
}
END_TEST

/* The built-in profiles come compiled; one with extra calls, named before the
 * probes, is compiled while they run, and its jail may make its extra call. */
START_TEST(an_expected_profile_with_extras_is_compiled_during_the_probes)
{
    static const char *const extra[] = {"flock", NULL}; /* the base refuses it with ENOLCK */
    struct jail_error err = {0};
    ck_assert_msg(seccomp_profile_register("py-flock", "interpreter", extra, &err) == 0, "%s", err.msg);
    ck_assert(seccomp_policy_needs_compile("py-flock"));
    jail_global_expect_profile("py-flock");
    fixture_init();
    ck_assert(!seccomp_policy_needs_compile("py-flock"));
    struct command c;
    python_command(&c, "import fcntl; fcntl.flock(open('/tmp/f', 'w'), fcntl.LOCK_EX); print('locked')");
    c.spec.profile = "py-flock";
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_ptr_nonnull(strstr(o.out, "locked"));
}
END_TEST

/* The template root is built while the judge goes on and taken by the first jail; a child
 * of fork() that runs jails of its own leaves it to the parent (the fork handler finishes
 * it first), and the parent's jails still enter it. */
START_TEST(the_template_survives_a_forked_child_running_jails)
{
    fixture_init();
    struct command c;
    shell_command(&c, "exit 0");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct outcome o;
        run(&c, &o);
        _exit(o.rc == 0 && o.rep.verdict == VERDICT_OK ? 0 : 1);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's jail failed: %d", status);
    ck_assert_int_ge(jail_global_template_fd(), 0);
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_int_ge(jail_global_template_fd(), 0);
}
END_TEST

/* The template is built by a thread of the judge in a mount namespace of its own: its
 * pivot_root, working directory and umask stay the thread's. */
START_TEST(building_the_template_leaves_the_judges_root_cwd_and_umask_alone)
{
    umask(027);
    char cwd_before[PATH_MAX], cwd_after[PATH_MAX];
    struct stat root_before, root_after, own_ns, template_ns;
    ck_assert_ptr_nonnull(getcwd(cwd_before, sizeof cwd_before));
    ck_assert_int_eq(stat("/", &root_before), 0);
    fixture_init();
    int template_fd = jail_global_template_fd();
    ck_assert_int_ge(template_fd, 0);
    ck_assert_uint_eq(umask(027), 027);
    ck_assert_ptr_nonnull(getcwd(cwd_after, sizeof cwd_after));
    ck_assert_str_eq(cwd_after, cwd_before);
    ck_assert_int_eq(stat("/", &root_after), 0);
    ck_assert(root_after.st_dev == root_before.st_dev && root_after.st_ino == root_before.st_ino);
    ck_assert_int_eq(stat("/proc/self/ns/mnt", &own_ns), 0);
    ck_assert_int_eq(fstat(template_fd, &template_ns), 0);
    ck_assert(own_ns.st_ino != template_ns.st_ino);
}
END_TEST

static ino_t namespace_inode(const char *name)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/thread-self/ns/%s", name);
    ck_assert_int_eq(stat(path, &st), 0);
    return st.st_ino;
}

static bool status_line_is(const char *line)
{
    FILE *f = fopen("/proc/thread-self/status", "re");
    char buf[256];
    bool found = false;
    while (f && !found && fgets(buf, sizeof buf, f)) found = strcmp(buf, line) == 0;
    if (f) fclose(f);
    return found;
}

/* The probes try namespaces and the seccomp filter in a thread (or child) of their own:
 * the judge's thread keeps its namespaces, no filter, no no_new_privs. */
START_TEST(the_probes_leave_the_judges_thread_unconfined)
{
    static const char *const names[] = {"ipc", "uts", "pid_for_children", "cgroup", "net", "user"};
    ino_t before[6];
    for (int i = 0; i < 6; i++) before[i] = namespace_inode(names[i]);
    fixture_init();
    for (int i = 0; i < 6; i++) ck_assert_msg(namespace_inode(names[i]) == before[i], "%s changed", names[i]);
    ck_assert(status_line_is("Seccomp:\t0\n"));
    ck_assert(status_line_is("NoNewPrivs:\t0\n"));
}
END_TEST

/* Under a filter (a container's) that refuses seccomp(2), the probe child's filter fails:
 * the seccomp layer is off, saying why, and the namespaces it tried first are still on. */
START_TEST(a_refused_filter_turns_the_seccomp_layer_off)
{
    struct sock_filter refuse_seccomp[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_seccomp, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof refuse_seccomp / sizeof refuse_seccomp[0], refuse_seccomp};
    ck_assert_int_eq(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog), 0);
    struct isolation_report iso;
    struct jail_error err = {0};
    ck_assert_msg(jail_global_init(ISOLATION_BEST_EFFORT, &iso, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(iso.state[LAYER_SECCOMP], LAYER_OFF);
    ck_assert_str_eq(iso.how[LAYER_SECCOMP], "filter with a listener refused");
    ck_assert_int_eq(iso.state[LAYER_PID_NS], LAYER_ON);
    ck_assert_int_eq(iso.state[LAYER_MOUNT_NS], LAYER_ON);
}
END_TEST

START_TEST(isolation_report_is_filled)
{
    fixture_init();
    struct command c;
    shell_command(&c, "exit 0");
    struct outcome o;
    run_ok(&c, &o);
    const struct isolation_report *iso = &o.rep.isolation;
    ck_assert(iso->privileged);
    ck_assert(!iso->degraded);
    for (int l = 0; l < LAYER_COUNT; l++)
        ck_assert_msg(iso->state[l] == LAYER_ON && iso->how[l][0], "%s", jail_layer_name(l));
    ck_assert_ptr_nonnull(strstr(iso->how[LAYER_USER_NS], "host uid"));
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("jail");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, true_exits_ok);
    tcase_add_test(tc, exit_code_is_reported);
    tcase_add_test(tc, signal_is_reported);
    tcase_add_test(tc, python_runs);
    tcase_add_test(tc, referee_scheduling_is_not_inherited);
    tcase_add_test(tc, environment_is_exactly_envp);
    tcase_add_test(tc, only_standard_fds_are_open);
    tcase_add_test(tc, no_capabilities_no_new_privs_seccomp_on);
    tcase_add_test(tc, runs_as_unprivileged_uid);
    tcase_add_test(tc, concurrent_jails_have_different_host_uids);
    tcase_add_test(tc, hostname_is_jail);
    tcase_add_test(tc, network_has_only_loopback);
    tcase_add_test(tc, command_is_pid_two_under_the_init);
    tcase_add_test(tc, dev_has_exactly_five_nodes);
    tcase_add_test(tc, root_and_bot_read_only_tmp_writable_and_capped);
    tcase_add_test(tc, bot_dir_is_a_current_copy_naming_no_host_path);
    tcase_add_test(tc, extra_read_only_bind_is_visible);
    tcase_add_test(tc, judge_umask_does_not_reach_the_jail);
    tcase_add_test(tc, an_expected_profile_with_extras_is_compiled_during_the_probes);
    tcase_add_test(tc, start_errors_are_one_line);
    tcase_add_test(tc, command_found_through_jail_path);
    tcase_add_test(tc, no_fds_leak_in_the_judge);
    tcase_add_test(tc, cgroup_is_emptied_and_returned);
    tcase_add_test(tc, forbidden_call_is_reported);
    tcase_add_test(tc, isolation_report_is_filled);
    tcase_add_test(tc, the_template_survives_a_forked_child_running_jails);
    tcase_add_test(tc, building_the_template_leaves_the_judges_root_cwd_and_umask_alone);
    tcase_add_test(tc, the_probes_leave_the_judges_thread_unconfined);
    tcase_add_test(tc, a_refused_filter_turns_the_seccomp_layer_off);
    return run_suite(single_case_suite("sandbox_jail", tc));
}
