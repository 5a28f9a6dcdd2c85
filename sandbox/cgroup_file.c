/*
 * cgroup_file.c - reading and writing cgroup control files. Every file is
 * opened with openat() on a directory fd we hold, never following a link, and
 * every error names the file.
 */
#include "sandbox/cgroup_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PIDS_CHUNK 4096
/* No spinning (re-reading at once): a freeze usually takes over 10 us, and
 * the judge's CPU spent re-reading costs more than one short sleep. */
#define WAIT_STEP_FIRST_NS 20000u /* sleep (letting a task on our CPU stop), doubling */
#define WAIT_STEP_MAX_NS 2000000u
#define WAIT_SLACK_NS 1000u       /* timer slack while sleeping those steps */

static int join_path(char *out, size_t cap, const char *parent, const char *name)
{
    int n = snprintf(out, cap, "%s/%s", parent, name);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int cgroup_dir_open(struct cgroup_dir *d, int parent_fd, const char *parent_path,
                    const char *name, struct jail_error *err)
{
    d->fd = -1;
    if (join_path(d->path, sizeof d->path, parent_path, name) < 0)
        return cgroup_fail(err, "cgroup path too long: %s/%s", parent_path, name);
    d->fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d->fd < 0)
        return cgroup_fail_errno(err, errno, "open", parent_path, name);
    return 0;
}

/* Parents come from the mount table or the administrator (JUDGE_CGROUP_ROOT),
 * where a link (e.g. cpuacct -> cpu,cpuacct) is legitimate: it is followed. */
int cgroup_dir_open_path(struct cgroup_dir *d, const char *path, struct jail_error *err)
{
    d->fd = -1;
    if (strlen(path) >= sizeof d->path)
        return cgroup_fail(err, "cgroup path too long: %s", path);
    strcpy(d->path, path);
    d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->fd < 0)
        return cgroup_fail(err, "open %s: %s", path, strerror(errno));
    return 0;
}

int cgroup_dir_make(struct cgroup_dir *d, const char *root, const char *name, bool adopted,
                    struct jail_error *err)
{
    struct cgroup_dir parent;
    if (cgroup_dir_open_path(&parent, root, err) < 0)
        return -1;
    int rc = mkdirat(parent.fd, name, 0755);
    if (rc < 0 && adopted && errno == EEXIST)
        rc = 0;
    if (rc < 0)
        cgroup_fail_errno(err, errno, "mkdir", parent.path, name);
    else if ((rc = cgroup_dir_open(d, parent.fd, parent.path, name, err)) < 0)
        unlinkat(parent.fd, name, AT_REMOVEDIR);
    cgroup_dir_close(&parent);
    return rc;
}

void cgroup_dir_close(struct cgroup_dir *d)
{
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
}

int cgroup_file_open(const struct cgroup_dir *d, const char *name, int flags, struct jail_error *err)
{
    int fd = openat(d->fd, name, flags | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return cgroup_fail_errno(err, errno, "open", d->path, name);
    return fd;
}

bool cgroup_file_exists(const struct cgroup_dir *d, const char *name)
{
    struct stat st;
    return fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

/* Read until EOF or a full buffer; NUL-terminates. */
static ssize_t read_all(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    while (len + 1 < cap) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        len += (size_t)n;
    }
    buf[len] = '\0';
    return (ssize_t)len;
}

int cgroup_file_read(const struct cgroup_dir *d, const char *name, char *buf, size_t cap,
                     struct jail_error *err)
{
    int fd = cgroup_file_open(d, name, O_RDONLY, err);
    if (fd < 0)
        return -1;
    ssize_t n = read_all(fd, buf, cap);
    int saved = errno;
    close(fd);
    if (n < 0)
        return cgroup_fail_errno(err, saved, "read", d->path, name);
    return 0;
}

int cgroup_file_write(const struct cgroup_dir *d, const char *name, const char *value,
                      struct jail_error *err)
{
    int fd = cgroup_file_open(d, name, O_WRONLY, err);
    if (fd < 0)
        return -1;
    int rc = cgroup_fd_write(fd, value, d->path, name, err);
    int saved = errno; /* callers branch on it (EBUSY) */
    close(fd);
    errno = saved;
    return rc;
}

int cgroup_file_write_u64(const struct cgroup_dir *d, const char *name, uint64_t value,
                          struct jail_error *err)
{
    char text[24];
    snprintf(text, sizeof text, "%" PRIu64, value);
    return cgroup_file_write(d, name, text, err);
}

bool cgroup_parse_u64(const char *text, uint64_t *out)
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (strncmp(text, "max", 3) == 0) {
        *out = UINT64_MAX;
        return true;
    }
    if (*text < '0' || *text > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || (*end != '\0' && *end != '\n' && *end != ' '))
        return false;
    *out = v;
    return true;
}

int cgroup_file_read_u64(const struct cgroup_dir *d, const char *name, uint64_t *out,
                         struct jail_error *err)
{
    char buf[64];
    if (cgroup_file_read(d, name, buf, sizeof buf, err) < 0)
        return -1;
    if (!cgroup_parse_u64(buf, out))
        return cgroup_fail(err, "%s/%s: not a number: \"%.20s\"", d->path, name, buf);
    return 0;
}

bool cgroup_parse_keyed(const char *text, const char *key, uint64_t *out)
{
    size_t klen = strlen(key);
    for (const char *line = text; line && *line; ) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ')
            return cgroup_parse_u64(line + klen + 1, out);
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return false;
}

int cgroup_file_read_keyed(const struct cgroup_dir *d, const char *name, const char *key,
                           uint64_t *out, struct jail_error *err)
{
    char buf[1024];
    if (cgroup_file_read(d, name, buf, sizeof buf, err) < 0)
        return -1;
    if (!cgroup_parse_keyed(buf, key, out))
        return cgroup_fail(err, "%s/%s: no \"%s\" line", d->path, name, key);
    return 0;
}

ssize_t cgroup_fd_pread(int fd, char *buf, size_t cap)
{
    ssize_t n;
    do
        n = pread(fd, buf, cap - 1, 0);
    while (n < 0 && errno == EINTR);
    buf[n < 0 ? 0 : n] = '\0';
    return n;
}

/* Control files take a value in one write(); a short write is a failure. */
int cgroup_fd_write(int fd, const char *value, const char *dir, const char *name,
                    struct jail_error *err)
{
    size_t len = strlen(value);
    ssize_t n;
    do
        n = pwrite(fd, value, len, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return cgroup_fail_errno(err, errno, "write", dir, name);
    if ((size_t)n != len)
        return cgroup_fail(err, "write %s/%s: short write", dir, name);
    return 0;
}

/* Parse the whole lines in buf[0..len); return how many bytes were consumed. */
static size_t each_pid_in(const char *buf, size_t len, void (*fn)(pid_t, void *), void *ctx)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] != '\n')
            continue;
        long pid = strtol(buf + start, NULL, 10);
        if (pid > 0)
            fn((pid_t)pid, ctx);
        start = i + 1;
    }
    return start;
}

int cgroup_file_for_each_pid(const struct cgroup_dir *d, const char *name,
                             void (*fn)(pid_t pid, void *ctx), void *ctx, struct jail_error *err)
{
    int fd = cgroup_file_open(d, name, O_RDONLY, err);
    if (fd < 0)
        return -1;
    char buf[PIDS_CHUNK + 1];
    size_t kept = 0;
    for (;;) {
        ssize_t n = read(fd, buf + kept, PIDS_CHUNK - kept);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int saved = errno;
            close(fd);
            return n < 0 ? cgroup_fail_errno(err, saved, "read", d->path, name) : 0;
        }
        size_t len = kept + (size_t)n;
        buf[len] = '\0';
        size_t used = each_pid_in(buf, len, fn, ctx);
        kept = len - used;
        memmove(buf, buf + used, kept);
    }
}

static void count_one(pid_t pid, void *ctx)
{
    (void)pid;
    (*(int *)ctx)++;
}

struct thread_check {
    pid_t only, also;
    bool seen_only, other;
};

static void check_thread(pid_t tid, void *ctx)
{
    struct thread_check *c = ctx;
    if (tid == c->only)
        c->seen_only = true;
    else if (tid != c->also)
        c->other = true;
}

/* The file cgroup_freeze writes: cgroup.freeze of v2 or of the hybrid's twin,
 * else v1's freezer.state, whose FREEZING state THAWED may follow too. */
int cgroup_freeze_request(struct cgroup *cg, struct jail_error *err)
{
    bool v2 = cg->caps.version == CGROUP_V2 || cg->caps.hybrid;
    if (cgroup_fd_write(cg->freeze_fd, v2 ? "1" : "FROZEN", cgroup_path(cg), v2 ? "cgroup.freeze" : "freezer.state",
                        err) < 0)
        return -1;
    cg->frozen = true;
    return 0;
}

/* The thread list ("tasks" in v1, "cgroup.threads" in v2) names every thread,
 * where cgroup.procs and pids.current would not tell a thread from a process. */
static const char *threads_file(const struct cgroup *cg)
{
    return cg->caps.version == CGROUP_V2 ? "cgroup.threads" : "tasks";
}

int cgroup_threads_open(struct cgroup *cg)
{
    return cgroup_file_open(cg->ops->procs_dir(cg), threads_file(cg), O_RDONLY, NULL);
}

int cgroup_for_each_thread(struct cgroup *cg, void (*fn)(pid_t tid, void *ctx), void *ctx, struct jail_error *err)
{
    return cgroup_file_for_each_pid(cg->ops->procs_dir(cg), threads_file(cg), fn, ctx, err);
}

static int pids_file_open(struct cgroup *cg, const char *name)
{
    if (!cg->caps.pids)
        return -1;
    const struct cgroup_dir *d = cg->caps.version == CGROUP_V2 ? &cg->dirs[0] : &cg->dirs[CG_V1_PIDS];
    return cgroup_file_open(d, name, O_RDONLY, NULL);
}

int cgroup_task_count_open(struct cgroup *cg)
{
    return pids_file_open(cg, "pids.current");
}

int cgroup_task_peak_open(struct cgroup *cg)
{
    return pids_file_open(cg, "pids.peak");
}

int cgroup_task_count(int fd)
{
    char buf[32];
    uint64_t n;
    if (cgroup_fd_pread(fd, buf, sizeof buf) < 0 || !cgroup_parse_u64(buf, &n))
        return -1;
    return n > INT_MAX ? INT_MAX : (int)n;
}

/* Read again from the start on every call: a list longer than the buffer is
 * more threads than two, an answer already. */
int cgroup_threads_are(int fd, pid_t only, pid_t also)
{
    char buf[128];
    struct thread_check c = {only, also, false, false};
    ssize_t n = cgroup_fd_pread(fd, buf, sizeof buf);
    if (n < 0)
        return -1;
    if ((size_t)n >= sizeof buf - 1)
        return 0;
    size_t used = each_pid_in(buf, (size_t)n, check_thread, &c);
    if (buf[used] != '\0')   /* a line cut off */
        return 0;
    return c.seen_only && !c.other;
}

int cgroup_file_count_lines(const struct cgroup_dir *d, const char *name, struct jail_error *err)
{
    int count = 0;
    if (cgroup_file_for_each_pid(d, name, count_one, &count, err) < 0)
        return -1;
    return count;
}

/* One read of the keyed file at fd. */
static int read_key(int fd, const char *dir, const char *name, const char *key, uint64_t *value,
                    struct jail_error *err)
{
    char buf[256];
    if (cgroup_fd_pread(fd, buf, sizeof buf) < 0)
        return cgroup_fail_errno(err, errno, "read", dir, name);
    if (!cgroup_parse_keyed(buf, key, value))
        return cgroup_fail(err, "%s/%s: no \"%s\" line", dir, name, key);
    return 0;
}

/* The thread's own timer slack, read once (only the waiter changes it, and
 * always puts it back); -1 until read. */
static _Thread_local int own_slack = -1;

/* Short sleeps are only short with a small timer slack (50 us by default):
 * lowered while waiting, then put back. */
static void lower_slack(struct cgroup_waiter *w)
{
    if (own_slack < 0) {
        int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
        own_slack = slack > 0 ? slack : 0;
    }
    w->saved_slack = own_slack;
    if (own_slack > (int)WAIT_SLACK_NS)
        prctl(PR_SET_TIMERSLACK, (unsigned long)WAIT_SLACK_NS, 0, 0, 0);
}

void cgroup_waiter_start(struct cgroup_waiter *w)
{
    uint64_t now = cgroup_now_ns();
    w->deadline = now + CGROUP_WAIT_NS;
    w->step = WAIT_STEP_FIRST_NS;
    w->saved_slack = -1;
}

int cgroup_waiter_pause(struct cgroup_waiter *w, int poll_fd, const char *dir, const char *name,
                        struct jail_error *err)
{
    uint64_t now = cgroup_now_ns();
    if (now >= w->deadline)
        return 0;
    if (w->saved_slack < 0)
        lower_slack(w);
    struct pollfd p = { .fd = poll_fd, .events = POLLPRI };
    struct timespec timeout = { .tv_sec = 0, .tv_nsec = (long)w->step };
    if (ppoll(&p, poll_fd >= 0 ? 1 : 0, &timeout, NULL) < 0 && errno != EINTR)
        return cgroup_fail_errno(err, errno, "poll", dir, name);
    if (w->step < WAIT_STEP_MAX_NS)
        w->step *= 2;
    return 1;
}

void cgroup_waiter_end(struct cgroup_waiter *w)
{
    if (w->saved_slack > (int)WAIT_SLACK_NS)
        prctl(PR_SET_TIMERSLACK, (unsigned long)w->saved_slack, 0, 0, 0);
    w->saved_slack = -1;
}

bool cgroup_spin_yield(uint64_t spin_until)
{
    if (!spin_until || cgroup_now_ns() >= spin_until)
        return false;
    sched_yield();
    return true;
}

/* kernfs wakes POLLPRI pollers when the file changes after our last read, but
 * cgroup core rate-limits those notifications (one per 10 ms per file), so
 * the poll times out early to re-read (see struct cgroup_waiter). */
int cgroup_wait_keyed(int fd, const char *dir, const char *name, const char *key, uint64_t want,
                      uint64_t spin_ns, struct jail_error *err)
{
    struct cgroup_waiter w;
    cgroup_waiter_start(&w);
    uint64_t value = 0, spin_until = spin_ns ? cgroup_now_ns() + spin_ns : 0;
    int rc;
    while ((rc = read_key(fd, dir, name, key, &value, err)) == 0 && value != want
           && (cgroup_spin_yield(spin_until) || (rc = cgroup_waiter_pause(&w, fd, dir, name, err)) > 0))
        ;
    cgroup_waiter_end(&w);
    if (rc < 0)
        return -1;
    if (value != want)
        return cgroup_fail(err, "%s/%s: \"%s\" still %" PRIu64 " after %llu ms (want %" PRIu64 ")",
                           dir, name, key, value, CGROUP_WAIT_NS / 1000000ull, want);
    return 0;
}
