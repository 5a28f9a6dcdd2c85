/*
 * jail_init.c - pid 1 of every jail is a tiny init, as in bubblewrap, tini
 * or isolate's keeper: the command runs as its child, pid 2.
 *
 * Why: the kernel drops default-action signals a namespace's init sends
 * itself, so a command that is pid 1 cannot abort() (SIGABRT is ignored and
 * glibc falls back to a fault), raise(SIGTERM) returns, SIGXFSZ never comes,
 * and nobody reaps its orphans.
 *
 * The init runs no bot code and reads nothing from the bot: it already has
 * the command's uid, rlimits, no capabilities and no_new_privs (set before
 * the fork), makes itself non-dumpable so the bot (same uid) can neither
 * trace it nor read its memory, and blanks the judge's command line and
 * environment it was copied with (/proc/1/cmdline is world-readable). It
 * keeps every signal blocked (a namespace's init gets no signal from inside
 * without a handler), closes every fd but the status pipe, reaps every child
 * as SIGCHLD comes, and when the command ends kills what is left of the
 * namespace, reaps it, and writes the command's raw wait status there as one
 * fixed-size record with the CPU of every child it reaped, then exits. Killing
 * the rest itself (the kernel would, once the init exits) puts their CPU in
 * the record: without a cgroup's counter, children that outlive the command
 * are counted nowhere else. In a jail without namespaces (jail_flat.h) the
 * init is a child subreaper instead, and the rest is killed by uid.
 *
 * Judge side: find the command's host pid (the init's only child) and read
 * the record after the init is reaped.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define INIT_RECORD_MAGIC 0x4a494e49u /* "JINI" */
#define INIT_LOST_COMMAND 126         /* the init's exit code when it never saw the command end */
#define STAT_ARG_START    48          /* /proc/PID/stat: arg_start, then arg_end */
#define STAT_ENV_START    50          /* env_start, then env_end */

struct init_record {
    uint32_t magic;
    int32_t status;       /* the command's raw wait status */
    uint64_t children_cpu_ns; /* every child the init reaped, the command included */
};

/* ---- child side: system calls only ---- */

static uint64_t reaped_children_cpu_ns(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) < 0) return 0;
    return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
           (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

static void write_record(int fd, int status)
{
    struct init_record rec = {INIT_RECORD_MAGIC, status, reaped_children_cpu_ns()};
    while (write(fd, &rec, sizeof rec) < 0 && errno == EINTR) {
    }
}

/* Field N (1-based, N > 2) of /proc/self/stat, parsed without allocating. */
static unsigned long stat_field(const char *buf, int n)
{
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    for (int field = 2; p && field < n; field++) p = strchr(p + 1, ' ');
    return p ? strtoul(p + 1, NULL, 10) : 0;
}

/* The judge's command line in the init's memory: found with the environment, blanked after the fork. */
static unsigned long arg_start, arg_end;

static void blank(unsigned long start, unsigned long end)
{
    if (start && end > start) memset((void *)start, 0, end - start);
}

/* The init is a copy of the judge and never executes anything: blank the
 * judge's command line and environment in its memory, so /proc/1/cmdline (which
 * any process may read) shows the bot none of it, nor could /proc/1/environ.
 * One read of /proc/self/stat finds both areas. */
void jail_init_blank_environment(void)
{
    char buf[1024];
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return;
    buf[n] = '\0';
    arg_start = stat_field(buf, STAT_ARG_START);
    arg_end = stat_field(buf, STAT_ARG_START + 1);
    blank(stat_field(buf, STAT_ENV_START), stat_field(buf, STAT_ENV_START + 1));
}

static void blank_command_line(void)
{
    blank(arg_start, arg_end);
}

static void close_all_but(int keep)
{
    if (keep > 0) close_range(0, (unsigned)keep - 1, 0);
    close_range((unsigned)keep + 1, ~0U, 0);
}

/* As pid 1 of its namespace, kill(-1) reaches every other process in it and
 * nothing outside (a subreaper without a namespace must not: -1 would be
 * every process of its uid). Again after each reap: a child forked while the
 * first kill went round is found by the next; orphans come to the init. */
static void end_the_rest(void)
{
    if (getpid() != 1) return;
    while (kill(-1, SIGKILL) == 0) {
        pid_t got;
        while ((got = waitpid(-1, NULL, __WALL)) < 0 && errno == EINTR) {
        }
        if (got < 0) return;
    }
}

/* Reap every child that has ended; at the command's end, end the rest, report and exit. */
static void reap_ended(pid_t command, int status_fd)
{
    for (;;) {
        int status;
        pid_t got = waitpid(-1, &status, __WALL | WNOHANG);
        if (got == command) {
            end_the_rest();
            write_record(status_fd, status);
            _exit(0);
        }
        if (got == 0) return;
        if (got < 0 && errno != EINTR) _exit(INIT_LOST_COMMAND);
    }
}

/* Sleeping in sigwaitinfo (not waitpid) lets the cgroup freezer freeze the
 * init without waking it, so it spends no CPU while the jail is metered. */
_Noreturn void jail_init_run(pid_t command, int status_fd)
{
    sigset_t all, child;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL); /* SIGCHLD stays queued for sigwaitinfo */
    sigemptyset(&child);
    sigaddset(&child, SIGCHLD);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    blank_command_line(); /* after the fork: the command's argv may point there */
    close_all_but(status_fd);
    for (;;) {
        reap_ended(command, status_fd);
        sigwaitinfo(&child, NULL);
    }
}

/* ---- judge side ---- */

int jail_init_command_pid(pid_t init, pid_t *out, struct jail_error *err)
{
    char path[80];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)init, (int)init);
    FILE *f = fopen(path, "re");
    if (!f) return jail_fail_errno(err, errno, "open %s", path);
    long pid = 0;
    int got = fscanf(f, "%ld", &pid);
    fclose(f);
    if (got != 1 || pid <= 0) return jail_fail(err, "the jail's init has no child in %s", path);
    *out = (pid_t)pid;
    return 0;
}

bool jail_init_read_status(int fd, int *status, uint64_t *children_cpu_ns)
{
    struct init_record rec;
    ssize_t n;
    while ((n = read(fd, &rec, sizeof rec)) < 0 && errno == EINTR) {
    }
    if (n != (ssize_t)sizeof rec || rec.magic != INIT_RECORD_MAGIC) return false;
    *status = rec.status;
    *children_cpu_ns = rec.children_cpu_ns;
    return true;
}
