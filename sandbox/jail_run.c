/*
 * jail_run.c - run one command to completion (what `judge exec` uses): feed
 * stdin from a file descriptor, copy stdout and stderr out (to a descriptor, or
 * through the caller's writer) with byte caps, enforce the CPU and wall limits
 * through jail_wait_core, and finish. A bot that closes its output and keeps
 * running is still stopped by its limits.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COPY_CHUNK       65536
#define DRAIN_TIMEOUT_NS 1000000000u

/* in_fd -> the jail's stdin. */
struct feeder {
    int in_fd;
    bool in_eof;
    size_t len, off;
    char buf[COPY_CHUNK];
};

/* A jail pipe -> writer, or else out_fd (-1: discard), at most max bytes (0: no cap). */
struct sink {
    int pipe_fd, out_fd;
    const struct jail_writer *writer;
    uint64_t max, total;
    const char *name;
    bool write_failed;
    int write_errno;
};

struct run {
    struct jail *j;
    struct feeder in;
    struct sink out[2];
    uint64_t deadline_ns;
};

/* Writing to a pipe whose reader is gone must not kill the judge with SIGPIPE. */
static ssize_t write_no_sigpipe(int fd, const void *buf, size_t len)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE);
    ssize_t n = write(fd, buf, len);
    int saved = errno;
    if (n < 0 && saved == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return n;
}

static bool feeder_active(const struct run *r)
{
    return jail_stdin_fd(r->j) >= 0;
}

static void stop_feeding(struct run *r)
{
    jail_close_stdin(r->j);
    r->in.len = r->in.off = 0;
}

static void feed_read(struct run *r)
{
    ssize_t n = read(r->in.in_fd, r->in.buf, sizeof r->in.buf);
    if (n > 0) {
        r->in.len = (size_t)n;
        r->in.off = 0;
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        r->in.in_eof = true; /* a read error ends the input like end of file */
    }
}

static void feed_write(struct run *r)
{
    ssize_t n = write_no_sigpipe(jail_stdin_fd(r->j), r->in.buf + r->in.off, r->in.len - r->in.off);
    if (n > 0 && (r->in.off += (size_t)n) == r->in.len)
        r->in.len = r->in.off = 0;
    else if (n < 0 && errno != EAGAIN && errno != EINTR)
        stop_feeding(r); /* the bot closed its stdin (EPIPE): the rest is not wanted */
}

/* The pollfds the feeder needs now: the jail's stdin when we hold data, else in_fd. */
static size_t feeder_pollfds(struct run *r, struct pollfd *fds)
{
    if (!feeder_active(r)) return 0;
    if (r->in.len == 0 && r->in.in_eof) {
        stop_feeding(r);
        return 0;
    }
    if (r->in.len > 0)
        fds[0] = (struct pollfd){.fd = jail_stdin_fd(r->j), .events = POLLOUT};
    else
        fds[0] = (struct pollfd){.fd = r->in.in_fd, .events = POLLIN};
    return 1;
}

static void feeder_event(struct run *r, const struct pollfd *fd)
{
    if (!fd->revents) return;
    if (fd->events & POLLOUT)
        feed_write(r);
    else
        feed_read(r);
}

static void sink_write(struct sink *s, const char *data, size_t len)
{
    if (s->writer && len > 0 && !s->write_failed && s->writer->write(s->writer->ctx, data, len) < 0) {
        s->write_failed = true;
        s->write_errno = errno;
    }
    while (len > 0 && !s->writer && s->out_fd >= 0 && !s->write_failed) {
        ssize_t n = write(s->out_fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            s->write_failed = true;
            s->write_errno = errno;
            return;
        }
        data += n;
        len -= (size_t)n;
    }
}

/* How many of n new bytes still fit under the cap. */
static size_t within_cap(const struct sink *s, size_t n)
{
    if (!s->max) return n;
    uint64_t room = s->total < s->max ? s->max - s->total : 0;
    return n < room ? n : (size_t)room;
}

/* Copy what is readable now; false at end of file. */
static bool sink_pump(struct run *r, struct sink *s)
{
    char buf[COPY_CHUNK];
    for (;;) {
        ssize_t n = read(s->pipe_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno == EAGAIN;
        if (n == 0) return false;
        sink_write(s, buf, within_cap(s, (size_t)n));
        s->total += (uint64_t)n;
        if (s->max && s->total > s->max) {
            char note[80];
            snprintf(note, sizeof note, "%s over %" PRIu64 " bytes", s->name, s->max);
            jail_kill(r->j, VERDICT_OUTPUT_LIMIT, note);
        }
    }
}

/* Every writer is dead: end of file is a moment away (bounded all the same,
 * should a stray fork elsewhere in the judge still hold a write end). */
static void drain_all(struct run *r)
{
    uint64_t deadline = monotonic_ns() + DRAIN_TIMEOUT_NS;
    for (int i = 0; i < 2; i++)
        while (r->out[i].pipe_fd >= 0 && sink_pump(r, &r->out[i]) && monotonic_ns() < deadline) {
            struct pollfd p = {.fd = r->out[i].pipe_fd, .events = POLLIN};
            poll(&p, 1, 10);
        }
}

static size_t build_entries(struct run *r, struct jail_wait_entry *e)
{
    size_t n = 0;
    const struct jail_limits *lim = &r->j->limits;
    for (int i = 0; i < 2; i++)
        if (r->out[i].pipe_fd >= 0)
            e[n++] = (struct jail_wait_entry){.jail = r->j, .fd = r->out[i].pipe_fd, .cpu_limit_ns = lim->cpu_ns,
                                              .deadline_ns = r->deadline_ns};
    if (n == 0) /* both closed: still wait for the end or a limit */
        e[n++] = (struct jail_wait_entry){.jail = r->j, .fd = -1, .cpu_limit_ns = lim->cpu_ns,
                                          .deadline_ns = r->deadline_ns};
    return n;
}

static void limit_reached(struct run *r, enum jail_verdict v, const char *what, uint64_t ns)
{
    char note[80];
    snprintf(note, sizeof note, "%s limit %" PRIu64 " ms", what, ns / 1000000u);
    jail_kill(r->j, v, note);
}

/* One event; false once the command has ended. */
static bool handle(struct run *r, struct jail_wait_entry *e)
{
    switch (e->event) {
    case JAIL_EVENT_READABLE:
        for (int i = 0; i < 2; i++)
            if (r->out[i].pipe_fd == e->fd && !sink_pump(r, &r->out[i])) r->out[i].pipe_fd = -1;
        return true;
    case JAIL_EVENT_CPU_LIMIT:
        limit_reached(r, VERDICT_CPU_LIMIT, "cpu", r->j->limits.cpu_ns);
        return true;
    case JAIL_EVENT_WALL_LIMIT:
        limit_reached(r, VERDICT_WALL_LIMIT, "wall", r->j->limits.wall_ns);
        return true;
    default: /* ENDED, or SYSCALL (the jail is already being killed) */
        drain_all(r);
        return false;
    }
}

static int supervise(struct run *r, struct jail_error *err)
{
    for (;;) {
        struct jail_wait_entry entries[2];
        struct pollfd feed[1];
        size_t n = build_entries(r, entries), n_feed = feeder_pollfds(r, feed);
        int got = jail_wait_core(entries, n, feed, n_feed, err);
        if (got < 0) return -1;
        if ((size_t)got == n)
            feeder_event(r, &feed[0]);
        else if (!handle(r, &entries[got]))
            return 0;
    }
}

static int output_error(const struct run *r, struct jail_error *err)
{
    for (int i = 0; i < 2; i++)
        if (r->out[i].write_failed)
            return jail_fail_errno(err, r->out[i].write_errno, "copying the command's %s", r->out[i].name);
    return 0;
}

static int run_supervised(struct run *r, const struct jail_spec *spec, const struct jail_io *io,
                          struct jail_report *report, struct jail_error *err)
{
    if (jail_start(spec, &r->j, err) < 0) return -1;
    r->in.in_fd = io->in_fd;
    if (io->in_fd < 0) jail_close_stdin(r->j);
    r->out[0] = (struct sink){.pipe_fd = jail_stdout_fd(r->j), .out_fd = io->out_fd, .writer = io->out_writer,
                              .max = io->stdout_max, .name = "stdout"};
    r->out[1] = (struct sink){.pipe_fd = jail_stderr_fd(r->j), .out_fd = io->err_fd, .writer = io->err_writer,
                              .max = io->stderr_max, .name = "stderr"};
    r->deadline_ns = spec->limits.wall_ns ? r->j->start_ns + spec->limits.wall_ns : 0;
    int rc = supervise(r, err);
    if (rc < 0) jail_kill(r->j, VERDICT_INTERNAL_ERROR, err->msg);
    struct jail_error finish_err = {0};
    if (jail_finish(r->j, report, &finish_err) < 0 && rc == 0) {
        *err = finish_err;
        rc = -1;
    }
    return rc < 0 ? -1 : output_error(r, err);
}

int jail_run(const struct jail_spec *spec, const struct jail_io *io, struct jail_report *report,
             struct jail_error *err)
{
    if (err) err->exec_errno = 0;
    struct run *r = calloc(1, sizeof *r);
    if (!r) return jail_fail(err, "out of memory");
    int rc = run_supervised(r, spec, io, report, err);
    free(r);
    return rc;
}
