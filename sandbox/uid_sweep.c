/*
 * uid_sweep.c - the end of a jail without a cgroup or a pid namespace: every
 * process of its uid slot is killed. A short-lived child takes that uid (so
 * kill(-1) reaches exactly the slot's processes and nothing else) and sends
 * SIGKILL to all of them until the kernel finds none (ESRCH). A fork in flight
 * cannot escape: fork fails once a fatal signal is pending. Then /proc is
 * scanned: a process of the uid that is not a zombie means something escaped.
 */
#include "sandbox/jail_flat.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SWEEP_ROUNDS 200

/* kill(-1) reports success while any process at all exists, even one it may
 * not signal: whether the uid's processes are gone is read from /proc. */
_Noreturn static void sweeper(uid_t uid)
{
    /* raw calls: glibc's would signal threads this clone does not have */
    if (syscall(SYS_setresgid, uid, uid, uid) < 0 || syscall(SYS_setresuid, uid, uid, uid) < 0) _exit(2);
    kill(-1, SIGKILL);
    _exit(0);
}

static int run_sweeper(uid_t uid, struct jail_error *err)
{
    pid_t pid = clone3_fork(0, -1, NULL);
    if (pid < 0) return jail_fail_errno(err, -pid, "fork the uid sweeper");
    if (pid == 0) sweeper(uid);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return jail_fail(err, "the uid %u sweeper failed (status %#x)", (unsigned)uid, (unsigned)status);
    return 0;
}

/* The real uid, state and thread count of /proc/PID; false when it is gone. */
static bool read_status(const char *pid, uid_t *uid, char *state, uint64_t *threads)
{
    char path[300], line[128];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    FILE *f = fopen(path, "re");
    if (!f) return false;
    bool have_uid = false;
    while (fgets(line, sizeof line, f)) {
        unsigned long v;
        if (sscanf(line, "State:\t%c", state) == 1) continue;
        if (sscanf(line, "Uid:\t%lu", &v) == 1) *uid = (uid_t)v, have_uid = true;
        if (sscanf(line, "Threads:\t%lu", &v) == 1) *threads = v;
    }
    fclose(f);
    return have_uid;
}

/* Tasks of uid still running (zombies excluded), and the first such pid. */
static uint64_t scan(uid_t uid, long *first)
{
    DIR *d = opendir("/proc");
    uint64_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        uid_t u = (uid_t)-1;
        char state = '?';
        uint64_t threads = 1;
        if (!read_status(e->d_name, &u, &state, &threads) || u != uid || state == 'Z' || state == 'X') continue;
        if (n == 0 && first) *first = strtol(e->d_name, NULL, 10);
        n += threads;
    }
    if (d) closedir(d);
    return n;
}

uint64_t uid_task_count(uid_t uid)
{
    return scan(uid, NULL);
}

/* SIGKILL'ed processes take a moment to leave /proc's running states: a new
 * sweeper is sent only while some are still there after a short wait. */
int uid_sweep(uid_t uid, struct jail_error *err)
{
    if (uid == 0 || uid == getuid()) return jail_fail(err, "uid sweep of uid %u would kill the judge", (unsigned)uid);
    long left = 0;
    for (int round = 0; round < SWEEP_ROUNDS; round++) {
        if (scan(uid, &left) == 0) return 0;
        if (run_sweeper(uid, err) < 0) return -1;
        for (int i = 0; i < 20 && scan(uid, &left) > 0; i++) usleep(500);
    }
    return jail_fail(err, "pid %ld of uid %u survived %d sweeps", left, (unsigned)uid, SWEEP_ROUNDS);
}

void uid_sweep_released(const struct jail_identity *id)
{
    const struct jail_global *g;
    struct jail_error ignored;
    if (id->slot >= 0 && jail_global_ensure(&g, &ignored) == 0 && g->flat) uid_sweep(id->host_uid, &ignored);
}
