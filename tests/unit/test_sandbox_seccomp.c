/*
 * test_sandbox_seccomp.c - the seccomp profiles, for real: a forked child sets
 * no_new_privs, installs a profile and hands over its listener (by number, the
 * parent takes it with pidfd_getfd as the jail does); the parent answers every
 * notification and records them.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <asm/prctl.h>
#include <linux/filter.h>
#include <seccomp.h>

#include "sandbox/seccomp_build.h"
#include "sandbox/seccomp_policy.h"
#include "sandbox/seccomp_prebuilt.h"
#include "sandbox/seccomp_profiles.h"

#define WAIT_LIMIT_MS 30000
#define MAX_OUTPUT 4096
#define CHILD_SETUP_FAILED 120
#define EXEC_FAILED 127
#define ALLOWED_CALL_SUCCEEDED 200

struct outcome {
    int notifications;
    struct jail_syscall first;
    pid_t first_pid;
    pid_t child;
    int status;
    char output[MAX_OUTPUT];
    size_t output_len;
};

typedef int (*child_body)(const void *arg);

/* ---- running a child under a profile ------------------------------------ */

static long elapsed_ms(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

static void wait_readable(int fd, const char *what)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    ck_assert_msg(poll(&p, 1, WAIT_LIMIT_MS) == 1, "timed out waiting for %s", what);
}

static _Noreturn void child_main(const struct seccomp_program *prog, int fd_pipe, int go_pipe, int out_fd,
                                 child_body body, const void *arg)
{
    if (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0 ||
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        _exit(CHILD_SETUP_FAILED);
    int listener = seccomp_policy_install(prog);
    if (listener < 0)
        _exit(CHILD_SETUP_FAILED);
    char go;
    if (write(fd_pipe, &listener, sizeof(listener)) != sizeof(listener) || read(go_pipe, &go, 1) != 1)
        _exit(CHILD_SETUP_FAILED);
    close(listener);
    _exit(body(arg));
}

static int take_listener(pid_t child, int fd_pipe)
{
    int number = -1;
    wait_readable(fd_pipe, "the child's listener number");
    ck_assert_int_eq(read(fd_pipe, &number, sizeof(number)), sizeof(number));
    int pidfd = pidfd_open(child, 0);
    ck_assert_int_ge(pidfd, 0);
    int listener = pidfd_getfd(pidfd, number, 0);
    ck_assert_msg(listener >= 0, "pidfd_getfd: %s", strerror(errno));
    close(pidfd);
    return listener;
}

static void record_notification(int listener, struct outcome *o)
{
    struct jail_syscall call;
    pid_t pid = 0;
    struct jail_error err = {0};
    int rc = seccomp_notify_take(listener, &call, &pid, &err);
    ck_assert_msg(rc >= 0, "seccomp_notify_take: %s", err.msg);
    if (rc == 1 && o->notifications++ == 0) {
        o->first = call;
        o->first_pid = pid;
    }
}

static int read_output(int fd, struct outcome *o)
{
    char sink[512];
    char *dst = o->output_len + 1 < MAX_OUTPUT ? o->output + o->output_len : sink;
    size_t room = o->output_len + 1 < MAX_OUTPUT ? MAX_OUTPUT - 1 - o->output_len : sizeof(sink);
    ssize_t n = read(fd, dst, room);
    if (n > 0 && dst != sink)
        o->output_len += (size_t)n;
    return n > 0;
}

/* Answer notifications and gather stdout until the child exits. */
static void supervise(pid_t child, int listener, int out_fd, struct outcome *o)
{
    int pidfd = pidfd_open(child, 0);
    ck_assert_int_ge(pidfd, 0);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int out_open = 1;
    for (;;) {
        struct pollfd p[3] = {{listener, POLLIN, 0}, {out_open ? out_fd : -1, POLLIN, 0}, {pidfd, POLLIN, 0}};
        long left = WAIT_LIMIT_MS - elapsed_ms(&start);
        if (left <= 0 || poll(p, 3, (int)left) <= 0) {
            kill(child, SIGKILL);
            ck_abort_msg("child %d did not finish in %d ms", child, WAIT_LIMIT_MS);
        }
        if (p[0].revents & POLLIN)
            record_notification(listener, o);
        if (p[1].revents & POLLIN)
            read_output(out_fd, o);
        else if (p[1].revents & POLLHUP)
            out_open = 0; /* stdout closed while the child runs on */
        if (p[2].revents & POLLIN)
            break;
    }
    while (read_output(out_fd, o))
        ;
    close(pidfd);
}

static void run_jailed(const char *profile, child_body body, const void *arg, struct outcome *o)
{
    const struct seccomp_program *prog = NULL;
    struct jail_error err = {0};
    ck_assert_msg(seccomp_policy_get(profile, &prog, &err) == 0, "%s", err.msg);
    int fd_pipe[2], go_pipe[2], out_pipe[2];
    ck_assert_int_eq(pipe2(fd_pipe, O_CLOEXEC), 0);
    ck_assert_int_eq(pipe2(go_pipe, O_CLOEXEC), 0);
    ck_assert_int_eq(pipe2(out_pipe, O_CLOEXEC | O_NONBLOCK), 0);
    memset(o, 0, sizeof(*o));
    o->child = fork();
    ck_assert_int_ge(o->child, 0);
    if (o->child == 0)
        child_main(prog, fd_pipe[1], go_pipe[0], out_pipe[1], body, arg);
    close(fd_pipe[1]);
    close(go_pipe[0]);
    close(out_pipe[1]);
    int listener = take_listener(o->child, fd_pipe[0]);
    ck_assert_int_eq(write(go_pipe[1], "g", 1), 1);
    supervise(o->child, listener, out_pipe[0], o);
    ck_assert_int_eq(waitpid(o->child, &o->status, 0), o->child);
    close(listener);
    close(fd_pipe[0]);
    close(go_pipe[1]);
    close(out_pipe[0]);
}

static void assert_clean_exit(const struct outcome *o)
{
    ck_assert_msg(o->notifications == 0, "unexpected forbidden call %s (%s) args %llx %llx",
                  o->first.name, o->first.arch, (unsigned long long)o->first.args[0],
                  (unsigned long long)o->first.args[1]);
    ck_assert_msg(WIFEXITED(o->status) && WEXITSTATUS(o->status) == 0, "child status 0x%x, output: %s",
                  o->status, o->output);
}

/* The caller may be the child or, after exec, one of its threads or children. */
static void assert_reported(const struct outcome *o, const char *name, const char *arch)
{
    ck_assert_int_ge(o->notifications, 1);
    ck_assert_str_eq(o->first.name, name);
    ck_assert_str_eq(o->first.arch, arch);
    ck_assert_int_gt(o->first_pid, 0);
}

static void assert_reported_by_child(const struct outcome *o, const char *name, const char *arch)
{
    assert_reported(o, name, arch);
    ck_assert_int_eq(o->first_pid, o->child);
}

/* The child's exit code is the errno its call got: EPERM is the judge's answer. */
static void assert_answered_eperm(const struct outcome *o)
{
    ck_assert_msg(WIFEXITED(o->status), "child status 0x%x", o->status);
    ck_assert_int_eq(WEXITSTATUS(o->status), EPERM);
}

/* ---- forbidden native calls --------------------------------------------- */

struct raw_call {
    const char *name;
    long nr;
    long args[6];
};

static char slash[] = "/";
static char empty[] = "";
static char memfd_name[] = "x";

static const struct raw_call forbidden_calls[] = {
    {"socket", SYS_socket, {AF_INET, SOCK_STREAM, 0}},
    {"socketpair", SYS_socketpair, {AF_UNIX, SOCK_STREAM, 0, 0}},
    {"ptrace", SYS_ptrace, {PTRACE_TRACEME}},
    {"mount", SYS_mount, {0, 0, 0, 0, 0}},
    {"unshare", SYS_unshare, {CLONE_NEWUSER}},
    {"clone", SYS_clone, {CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0}},
    {"bpf", SYS_bpf, {0, 0, 0}},
    {"perf_event_open", SYS_perf_event_open, {0, 0, -1, -1, 0}},
    {"io_uring_setup", SYS_io_uring_setup, {1, 0}},
    {"keyctl", SYS_keyctl, {0, -3, 0}},
    {"add_key", SYS_add_key, {0, 0, 0, 0, 0}},
    {"userfaultfd", SYS_userfaultfd, {O_CLOEXEC}},
    {"memfd_create", SYS_memfd_create, {(long)memfd_name, 0}},
    {"execveat", SYS_execveat, {-1, (long)empty, 0, 0, 0}},
    {"personality", SYS_personality, {PER_LINUX32}},
    {"ioctl", SYS_ioctl, {-1, TIOCSTI, 0}},
    {"fcntl", SYS_fcntl, {-1, F_SETPIPE_SZ, 1 << 20}},
    {"prctl", SYS_prctl, {PR_SET_DUMPABLE, 0}},
    {"arch_prctl", SYS_arch_prctl, {ARCH_SET_CPUID, 0}},
    {"setuid", SYS_setuid, {0}},
    {"chroot", SYS_chroot, {(long)slash}},
    {"mlockall", SYS_mlockall, {MCL_CURRENT}},
    {"shmget", SYS_shmget, {IPC_PRIVATE, 0, 0}},
    {"pidfd_open", SYS_pidfd_open, {1, 0}},
    {"syscall_1000", 1000, {0}},
};

static int make_raw_call(const void *arg)
{
    const struct raw_call *c = arg;
    long r = syscall(c->nr, c->args[0], c->args[1], c->args[2], c->args[3], c->args[4], c->args[5]);
    if (r == 0 && c->nr == SYS_clone)
        _exit(ALLOWED_CALL_SUCCEEDED); /* the would-be namespaced child */
    return r == -1 ? errno : ALLOWED_CALL_SUCCEEDED;
}

START_TEST(forbidden_call_is_reported_by_name)
{
    const struct raw_call *c = &forbidden_calls[_i];
    struct outcome o;
    run_jailed("default", make_raw_call, c, &o);
    assert_reported_by_child(&o, c->name, "x86_64");
    ck_assert_int_eq(o.first.nr, c->nr);
    for (int a = 0; a < 6; a++)
        ck_assert_uint_eq(o.first.args[a], (uint64_t)c->args[a]);
    assert_answered_eperm(&o);
}
END_TEST

START_TEST(socket_reported_with_its_family)
{
    struct outcome o;
    run_jailed(NULL, make_raw_call, &forbidden_calls[0], &o);
    assert_reported(&o, "socket", "x86_64");
    ck_assert_uint_eq(o.first.args[0], 2);
    ck_assert_int_eq(o.notifications, 1);
}
END_TEST

/* ---- foreign ABIs -------------------------------------------------------- */

static int x32_getpid(const void *arg)
{
    (void)arg;
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(0x40000027L) : "rcx", "r11", "memory");
    return (int)-r;
}

static int i386_getpid(const void *arg)
{
    (void)arg;
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
    return (int)-r;
}

START_TEST(x32_call_is_reported_never_allowed)
{
    struct outcome o;
    run_jailed("default", x32_getpid, NULL, &o);
    assert_reported_by_child(&o, "getpid", "x32");
    ck_assert_int_eq(o.first.nr, 39);
    assert_answered_eperm(&o);
}
END_TEST

/* Outside any jail: does this kernel deliver int $0x80 at all? Without IA32
 * emulation (or with ia32_emulation=0) it kills the caller with SIGSEGV
 * before any filter sees the call. */
static bool kernel_delivers_int80(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        long r = 20;
        __asm__ volatile("int $0x80" : "+a"(r) : : "memory");
        _exit(r == (long)getpid() ? 0 : 1);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

START_TEST(i386_call_is_reported_never_allowed)
{
    if (!kernel_delivers_int80()) {
        printf("skip i386_call_is_reported_never_allowed: this kernel does not deliver int $0x80 "
               "(no IA32 emulation), so no i386 call can reach the filter\n");
        return;
    }
    struct outcome o;
    run_jailed("default", i386_getpid, NULL, &o);
    assert_reported_by_child(&o, "getpid", "i386");
    ck_assert_int_eq(o.first.nr, 20);
    assert_answered_eperm(&o);
}
END_TEST

/* ---- allowed calls -------------------------------------------------------- */

static int everyday_calls(const void *arg)
{
    (void)arg;
    struct utsname u;
    int p[2], avail = -1;
    if (syscall(SYS_getppid) <= 0 || uname(&u) < 0 || pipe(p) < 0)
        return 1;
    if (ioctl(p[0], FIONREAD, &avail) < 0 || avail != 0 || fcntl(p[0], F_GETFD) != 0)
        return 2;
    if (prctl(PR_SET_NAME, "bot", 0, 0, 0) < 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)
        return 3;
    return syscall(SYS_personality, 0xffffffffUL) == PER_LINUX ? 0 : 4;
}

START_TEST(everyday_calls_and_personality_query_are_allowed)
{
    struct outcome o;
    run_jailed("default", everyday_calls, NULL, &o);
    assert_clean_exit(&o);
}
END_TEST

static void *thread_answer(void *arg)
{
    (void)arg;
    return (void *)42;
}

static int clone3_then_threads(const void *arg)
{
    (void)arg;
    uint64_t clone_args[11] = {0};
    clone_args[4] = SIGCHLD; /* struct clone_args.exit_signal */
    long r = syscall(SYS_clone3, clone_args, sizeof(clone_args));
    if (r == 0)
        _exit(0);
    if (r != -1 || errno != ENOSYS)
        return 1;
    pthread_t t;
    void *answer = NULL;
    if (pthread_create(&t, NULL, thread_answer, NULL) != 0 || pthread_join(t, &answer) != 0)
        return 2;
    return answer == (void *)42 ? 0 : 3;
}

START_TEST(clone3_fails_enosys_unreported_and_threads_still_work)
{
    struct outcome o;
    run_jailed("default", clone3_then_threads, NULL, &o);
    assert_clean_exit(&o);
}
END_TEST

/* ---- a notification whose caller died first ------------------------------ */

START_TEST(notification_of_a_dead_caller_is_not_taken)
{
    const struct seccomp_program *prog = NULL;
    struct jail_error err = {0};
    ck_assert_int_eq(seccomp_policy_get("default", &prog, &err), 0);
    int fd_pipe[2], go_pipe[2];
    ck_assert_int_eq(pipe2(fd_pipe, O_CLOEXEC), 0);
    ck_assert_int_eq(pipe2(go_pipe, O_CLOEXEC), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0)
        child_main(prog, fd_pipe[1], go_pipe[0], STDERR_FILENO, make_raw_call, &forbidden_calls[0]);
    int listener = take_listener(child, fd_pipe[0]);
    ck_assert_int_eq(write(go_pipe[1], "g", 1), 1);
    wait_readable(listener, "the notification");
    kill(child, SIGKILL);
    ck_assert_int_eq(waitpid(child, NULL, 0), child);
    struct jail_syscall call;
    pid_t pid;
    ck_assert_int_eq(seccomp_notify_take(listener, &call, &pid, &err), 0);
    close(listener);
}
END_TEST

START_TEST(take_on_a_bad_fd_is_an_error)
{
    struct jail_syscall call;
    pid_t pid;
    struct jail_error err = {0};
    ck_assert_int_eq(seccomp_notify_take(-1, &call, &pid, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "seccomp"));
}
END_TEST

/* ---- real programs: which profile each needs ----------------------------- */

struct exec_args {
    const char *const *argv;
    const char *const *envp;
};

static int exec_program(const void *arg)
{
    const struct exec_args *e = arg;
    static const char *const no_env[] = {NULL};
    execve(e->argv[0], (char *const *)e->argv, (char *const *)(e->envp ? e->envp : no_env));
    return EXEC_FAILED;
}

static const char *const path_env[] = {"PATH=/usr/bin:/bin", NULL};
static const char *const python_home_env[] = {"PATH=/usr/bin:/bin", "HOME=/tmp", NULL};
static const char *const python_argv[] = {
    "/usr/bin/python3", "-c",
    "import json, random, threading, os\n"
    "t = threading.Thread(target=lambda: None); t.start(); t.join()\n"
    "print(json.dumps(random.Random(1).randint(1, 1)))",
    NULL};

START_TEST(shell_runs_under_default)
{
    static const char *const argv[] = {"/bin/sh", "-c", "echo hi", NULL};
    struct exec_args e = {argv, path_env};
    struct outcome o;
    run_jailed("default", exec_program, &e, &o);
    assert_clean_exit(&o);
    ck_assert_str_eq(o.output, "hi\n");
}
END_TEST

START_TEST(python_with_home_runs_under_default)
{
    struct exec_args e = {python_argv, python_home_env};
    struct outcome o;
    run_jailed("default", exec_program, &e, &o);
    assert_clean_exit(&o);
    ck_assert_str_eq(o.output, "1\n");
}
END_TEST

/* Without $HOME, site.py looks the user up: glibc asks nscd over AF_UNIX,
 * which fails with an errno under default, and reads /etc/passwd instead. */
START_TEST(python_without_home_runs_under_default)
{
    struct exec_args e = {python_argv, NULL};
    struct outcome o;
    run_jailed("default", exec_program, &e, &o);
    assert_clean_exit(&o);
    ck_assert_str_eq(o.output, "1\n");
}
END_TEST

START_TEST(java_runs_under_default)
{
    static const char *const argv[] = {"/usr/bin/java", "-version", NULL};
    if (access(argv[0], X_OK) != 0)
        return; /* no JVM on this machine: nothing to check */
    struct exec_args e = {argv, path_env};
    struct outcome o;
    run_jailed("default", exec_program, &e, &o);
    assert_clean_exit(&o);
}
END_TEST

/* Harmless probes get an errno, not a kill: a unix socket (glibc's nscd
 * client) and extended attributes (ls -l, ACL and SELinux libraries). */
static int harmless_probes(const void *arg)
{
    (void)arg;
    char value[64];
    if (socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) >= 0 || errno != EACCES) return 1;
    if (getxattr("/", "security.selinux", value, sizeof value) >= 0 || errno != ENODATA) return 2;
    if (lgetxattr("/", "system.posix_acl_access", value, sizeof value) >= 0 || errno != ENODATA) return 3;
    if (listxattr("/", value, sizeof value) >= 0 || errno != ENOTSUP) return 4;
    return 0;
}

START_TEST(harmless_probes_fail_with_an_errno)
{
    struct outcome o;
    run_jailed("default", harmless_probes, NULL, &o);
    ck_assert_int_eq(o.notifications, 0);
    assert_clean_exit(&o);
}
END_TEST

START_TEST(gcc_version_runs_under_compiler)
{
    static const char *const argv[] = {"/usr/bin/gcc", "--version", NULL};
    struct exec_args e = {argv, path_env};
    struct outcome o;
    run_jailed("compiler", exec_program, &e, &o);
    assert_clean_exit(&o);
    ck_assert_ptr_nonnull(strstr(o.output, "gcc"));
}
END_TEST

struct hello_build {
    char dir[64];
    char src[128];
    char exe[128];
};

static void hello_setup(struct hello_build *h)
{
    snprintf(h->dir, sizeof(h->dir), "/tmp/test-seccomp.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(h->dir));
    snprintf(h->src, sizeof(h->src), "%s/hello.c", h->dir);
    snprintf(h->exe, sizeof(h->exe), "%s/hello", h->dir);
    FILE *f = fopen(h->src, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n", f);
    ck_assert_int_eq(fclose(f), 0);
}

static void hello_cleanup(const struct hello_build *h)
{
    unlink(h->src);
    unlink(h->exe);
    rmdir(h->dir);
}

/* Compile hello.c under `profile`, with an extra gcc option (or NULL). */
static void hello_compile(const struct hello_build *h, const char *profile, const char *option,
                          struct outcome *o)
{
    const char *argv[] = {"/usr/bin/gcc", "-O2", h->src, "-o", h->exe, option, NULL};
    struct exec_args e = {argv, path_env};
    run_jailed(profile, exec_program, &e, o);
}

static void hello_run(const struct hello_build *h)
{
    FILE *p = popen(h->exe, "r");
    ck_assert_ptr_nonnull(p);
    char line[32] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_str_eq(line, "hello\n");
}

START_TEST(gcc_compiles_hello_under_compiler)
{
    struct hello_build h;
    struct outcome o;
    hello_setup(&h);
    hello_compile(&h, "compiler", NULL, &o);
    assert_clean_exit(&o);
    hello_run(&h);
    hello_cleanup(&h);
}
END_TEST

/* ld.gold preallocates its output: the reason "compiler" adds fallocate. */
START_TEST(gold_link_needs_compiler)
{
    if (access("/usr/bin/ld.gold", X_OK) != 0)
        return; /* no gold linker here: nothing to check */
    struct hello_build h;
    struct outcome o;
    hello_setup(&h);
    hello_compile(&h, "default", "-fuse-ld=gold", &o);
    assert_reported(&o, "fallocate", "x86_64");
    hello_compile(&h, "compiler", "-fuse-ld=gold", &o);
    assert_clean_exit(&o);
    hello_run(&h);
    hello_cleanup(&h);
}
END_TEST

/* ---- the registry --------------------------------------------------------- */

START_TEST(builtins_are_listed_first)
{
    const char *const *names = seccomp_profile_names();
    ck_assert_str_eq(names[0], "default");
    ck_assert_str_eq(names[1], "interpreter");
    ck_assert_str_eq(names[2], "compiler");
    ck_assert_str_eq(names[3], "jvm");
    ck_assert_ptr_null(names[4]);
    ck_assert(seccomp_profile_exists("compiler"));
    ck_assert(seccomp_profile_exists(NULL));
    ck_assert(!seccomp_profile_exists("nope"));
}
END_TEST

START_TEST(each_profile_compiles_once)
{
    const struct seccomp_program *a = NULL, *b = NULL, *c = NULL;
    struct jail_error err = {0};
    ck_assert_int_eq(seccomp_policy_get(NULL, &a, &err), 0);
    ck_assert_int_eq(seccomp_policy_get("default", &b, &err), 0);
    ck_assert_ptr_eq(a, b);
    ck_assert_int_eq(seccomp_policy_get("interpreter", &c, &err), 0);
    ck_assert_ptr_ne(a, c);
    ck_assert_int_eq(seccomp_policy_get("nope", &c, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "'nope'"));
    ck_assert_int_eq(seccomp_policy_install(NULL), -EINVAL);
}
END_TEST

static const struct sock_filter *prebuilt_insns(const char *name)
{
    for (size_t i = 0; i < seccomp_prebuilt_count; i++)
        if (strcmp(seccomp_prebuilt_programs[i].name, name) == 0)
            return seccomp_prebuilt_programs[i].insns;
    return NULL;
}

/* What libseccomp compiles for the profile now, as the judge does for one with extra calls. */
static void assert_compiles_to(const char *name, const struct seccomp_builtin *base, const int *extra,
                               size_t extra_count, const struct sock_fprog *bpf)
{
    struct sock_filter *insns = NULL;
    size_t count = 0;
    struct jail_error err = {0};
    ck_assert_msg(seccomp_build_program(name, base, extra, extra_count, &insns, &count, &err) == 0, "%s",
                  err.msg);
    ck_assert_msg(bpf->len == count, "%s: %u instructions, libseccomp makes %zu", name, bpf->len, count);
    ck_assert_msg(memcmp(bpf->filter, insns, count * sizeof *insns) == 0, "%s: not libseccomp's program",
                  name);
    free(insns);
}

START_TEST(builtins_come_compiled_by_the_build_as_libseccomp_compiles_them)
{
    ck_assert_uint_eq(seccomp_prebuilt_count, seccomp_builtin_count());
    for (size_t i = 0; i < seccomp_builtin_count(); i++) {
        const struct seccomp_builtin *b = seccomp_builtin_at(i);
        const struct seccomp_program *prog = NULL;
        struct jail_error err = {0};
        ck_assert(!seccomp_policy_needs_compile(b->name));
        ck_assert_msg(seccomp_policy_get(b->name, &prog, &err) == 0, "%s", err.msg);
        const struct sock_fprog *bpf = seccomp_program_bpf(prog);
        ck_assert_msg(bpf->filter == prebuilt_insns(b->name), "%s: not the build's program", b->name);
        assert_compiles_to(b->name, b, NULL, 0, bpf);
    }
}
END_TEST

START_TEST(a_profile_with_extras_is_compiled_at_run_time)
{
    static const char *const extra[] = {"socket", NULL};
    struct jail_error err = {0};
    ck_assert_msg(seccomp_profile_register("with-socket", "default", extra, &err) == 0, "%s", err.msg);
    ck_assert(seccomp_policy_needs_compile("with-socket"));
    const struct seccomp_program *prog = NULL;
    ck_assert_msg(seccomp_policy_get("with-socket", &prog, &err) == 0, "%s", err.msg);
    ck_assert(!seccomp_policy_needs_compile("with-socket"));
    const struct sock_fprog *bpf = seccomp_program_bpf(prog);
    for (size_t i = 0; i < seccomp_prebuilt_count; i++)
        ck_assert_ptr_ne(bpf->filter, seccomp_prebuilt_programs[i].insns);
    const struct seccomp_builtin *base = seccomp_builtin_at(0);
    ck_assert_str_eq(base->name, "default");
    int socket_nr = seccomp_syscall_resolve_name("socket");
    assert_compiles_to("with-socket", base, &socket_nr, 1, bpf);
}
END_TEST

static int unix_socket(const void *arg)
{
    (void)arg;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    return fd >= 0 ? 0 : errno;
}

static int inet_socket(const void *arg)
{
    (void)arg;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    return fd >= 0 ? 0 : errno;
}

START_TEST(registered_profile_allows_its_extra_call)
{
    static const char *const extra[] = {"socket", "socket", NULL};
    struct jail_error err = {0};
    ck_assert_msg(seccomp_profile_register("with-socket", "default", extra, &err) == 0, "%s", err.msg);
    ck_assert(seccomp_profile_exists("with-socket"));
    ck_assert_str_eq(seccomp_profile_names()[4], "with-socket");
    struct outcome o;
    run_jailed("with-socket", inet_socket, NULL, &o);
    assert_clean_exit(&o);
    run_jailed("default", inet_socket, NULL, &o);
    assert_reported(&o, "socket", "x86_64");
}
END_TEST

/* An extra call replaces the base's conditional rule: interpreter (like
 * default) refuses AF_UNIX sockets quietly and reports the rest; its child
 * allows them all. */
START_TEST(extra_call_overrides_a_conditional_base_rule)
{
    static const char *const extra[] = {"socket", NULL};
    struct jail_error err = {0};
    ck_assert_int_eq(seccomp_profile_register("interp-net", "interpreter", extra, &err), 0);
    struct outcome o;
    run_jailed("interpreter", unix_socket, NULL, &o);
    ck_assert_int_eq(o.notifications, 0);
    ck_assert_int_eq(WEXITSTATUS(o.status), EACCES);
    run_jailed("interp-net", unix_socket, NULL, &o);
    assert_clean_exit(&o);
}
END_TEST

START_TEST(registration_errors_name_the_problem)
{
    static const char *const unknown[] = {"getpid", "no_such_call", NULL};
    static const char *const fine[] = {"socket", NULL};
    struct jail_error err = {0};
    ck_assert_int_eq(seccomp_profile_register("bad", "default", unknown, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "'no_such_call'"));
    ck_assert(!seccomp_profile_exists("bad"));
    ck_assert_int_eq(seccomp_profile_register("x", "no-base", fine, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "'no-base'"));
    ck_assert_int_eq(seccomp_profile_register("default", "default", fine, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "already exists"));
    ck_assert_int_eq(seccomp_profile_register("has space", "default", fine, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "has space"));
    for (const char *const *n = seccomp_profile_names(); *n; n++)
        ck_assert_str_ne(*n, "bad");
}
END_TEST

static Suite *seccomp_suite(void)
{
    Suite *s = suite_create("sandbox_seccomp");
    TCase *calls = tcase_create("calls");
    tcase_set_timeout(calls, 60);
    tcase_add_loop_test(calls, forbidden_call_is_reported_by_name, 0,
                        (int)(sizeof(forbidden_calls) / sizeof(forbidden_calls[0])));
    tcase_add_test(calls, socket_reported_with_its_family);
    tcase_add_test(calls, x32_call_is_reported_never_allowed);
    tcase_add_test(calls, i386_call_is_reported_never_allowed);
    tcase_add_test(calls, everyday_calls_and_personality_query_are_allowed);
    tcase_add_test(calls, clone3_fails_enosys_unreported_and_threads_still_work);
    tcase_add_test(calls, notification_of_a_dead_caller_is_not_taken);
    tcase_add_test(calls, take_on_a_bad_fd_is_an_error);
    suite_add_tcase(s, calls);

    TCase *programs = tcase_create("programs");
    tcase_set_timeout(programs, 120);
    tcase_add_test(programs, shell_runs_under_default);
    tcase_add_test(programs, python_with_home_runs_under_default);
    tcase_add_test(programs, python_without_home_runs_under_default);
    tcase_add_test(programs, java_runs_under_default);
    tcase_add_test(programs, harmless_probes_fail_with_an_errno);
    tcase_add_test(programs, gcc_version_runs_under_compiler);
    tcase_add_test(programs, gcc_compiles_hello_under_compiler);
    tcase_add_test(programs, gold_link_needs_compiler);
    suite_add_tcase(s, programs);

    TCase *registry = tcase_create("registry");
    tcase_set_timeout(registry, 60);
    tcase_add_test(registry, builtins_are_listed_first);
    tcase_add_test(registry, each_profile_compiles_once);
    tcase_add_test(registry, builtins_come_compiled_by_the_build_as_libseccomp_compiles_them);
    tcase_add_test(registry, a_profile_with_extras_is_compiled_at_run_time);
    tcase_add_test(registry, registered_profile_allows_its_extra_call);
    tcase_add_test(registry, extra_call_overrides_a_conditional_base_rule);
    tcase_add_test(registry, registration_errors_name_the_problem);
    suite_add_tcase(s, registry);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(seccomp_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
