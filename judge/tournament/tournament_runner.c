/*
 * tournament_runner.c - play the unfinished matches of a shard, `jobs` at a
 * time, in `jobs` worker processes.
 *
 * Why processes and not threads: every worker gets its own jail set-up (the
 * sandbox keeps process-wide state: its mount template, cgroup pool, uid
 * slots), a crash in one cannot touch another, and the kernel kills a worker
 * and its jails (PR_SET_PDEATHSIG) when the judge dies, so a killed
 * tournament leaves nothing running.
 *
 * A worker plays match after match: its cgroups (pooled by the sandbox) and
 * user namespaces serve every match it plays. Creating and removing cgroups
 * takes the kernel's one cgroup mutex, which the other worker's freeze and
 * thaw around every reply need too: a process per match made both workers
 * wait on it (bench_tournament.sh measures it). A worker is replaced after
 * WORKER_MATCHES_MAX matches, so whatever a match might leak stays bounded,
 * and when it dies, its match failing as any internal error does.
 *
 * The parent sends a worker "INDEX\n" on a socket pair; the worker sets the
 * match up, plays it, commits the replay and answers one line: "ok LINE",
 * "error MESSAGE", "ioerror MESSAGE" (the replay could not be written: the
 * tournament stops, as every other match would fail alike) or "config
 * MESSAGE" (the match could not be set up: the file's error). Only the parent
 * writes the journal: the lines of one wake-up are written, the next matches
 * started, and only then is the journal fsynced, once for them all. A match
 * is told finished after that fsync; a crash before it loses no match, since
 * the replay was committed first and resuming rebuilds the line from it.
 */
#include "judge/tournament/tournament.h"
#include "judge/tournament/tournament_compile.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ATTEMPTS       2 /* an internal error is retried once */
#define WORKER_OUTPUT_MAX  (1u << 20)
#define WORKER_MATCHES_MAX 32

struct job {
    size_t match;
    int attempt;
};

struct worker {
    pid_t pid;  /* 0: none yet (started when a match needs it) */
    int fd;     /* our end of its socket pair, -1 with no worker */
    bool busy;  /* playing job */
    int played; /* matches answered */
    struct job job;
    struct strbuf out;
};

/* A match whose journal line is written but not yet fsynced. */
struct written {
    struct job job;
    json_object *line;
};

struct runner {
    const struct tournament_run *run;
    const struct tournament_hooks *hooks;
    struct worker *workers;
    struct written *unsynced; /* at most one per worker between two syncs */
    int n_unsynced;
    pid_t *leaving; /* workers told to end, reaped once they have */
    size_t n_leaving, cap_leaving;
    struct pollfd *polls; /* one per busy worker, rebuilt for each wait */
    int *polled;          /* the worker of each entry of polls */
    int running;          /* busy workers */
    struct job *queue; /* retries are pushed back at the head */
    size_t head, tail, cap;
    size_t failed;
    enum tournament_status status;
    struct tournament_error *err;
};

static void set_status(struct runner *r, enum tournament_status s, const char *msg)
{
    if (r->status == TOURNAMENT_ALL_PLAYED || r->status == TOURNAMENT_MATCHES_FAILED) {
        r->status = s;
        if (msg) snprintf(r->err->msg, sizeof r->err->msg, "%s", msg);
    }
}

static bool stopping(const struct runner *r)
{
    return r->status == TOURNAMENT_CONFIG_FAILED || r->status == TOURNAMENT_INTERNAL_FAILED ||
           r->status == TOURNAMENT_IO_FAILED;
}

/* Whole or not at all as far as the caller knows; never SIGPIPE. */
static int send_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* ---- the worker process ------------------------------------------------------------ */

/* Closes what the worker must not hold: the other workers' sockets (their EOF
 * tells the parent they ended), the journal and the lock. */
static void close_inherited(const struct runner *r, int own_fd)
{
    for (int i = 0; i < r->run->jobs; i++)
        if (r->workers[i].pid && r->workers[i].fd != own_fd) close(r->workers[i].fd);
    close(r->run->journal->fd);
    close(r->run->out->lock_fd);
}

/* The next match index the parent sends: 1, or 0 at EOF (no more matches), -1 on a bad line. */
static int read_job(int fd, size_t *match)
{
    char line[32];
    size_t len = 0;
    while (len == 0 || line[len - 1] != '\n') {
        if (len == sizeof line) return -1;
        ssize_t n = read(fd, line + len, sizeof line - len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return len == 0 && n == 0 ? 0 : -1;
        len += (size_t)n;
    }
    line[len - 1] = '\0';
    char *end;
    errno = 0;
    unsigned long long v = strtoull(line, &end, 10);
    if (errno || end == line || *end) return -1;
    *match = (size_t)v;
    return 1;
}

/* "KIND MESSAGE\n" with the message on one line, as the parent reads answers. */
static int put_answer(struct strbuf *msg, const char *kind, const char *text)
{
    size_t from = msg->len;
    int rc = sb_printf(msg, "%s %s", kind, text);
    for (size_t i = from; rc == 0 && i < msg->len; i++)
        if (msg->data[i] == '\n' || msg->data[i] == '\r') msg->data[i] = ' ';
    return rc | sb_putc(msg, '\n');
}

/* With a worker on every CPU, every CPU is busy and the kernel wakes a bot where
 * its judge runs without being told: keeping matches to one CPU then only takes
 * the balancing away (bench_tournament.sh: --jobs 2 on 2 CPUs 4-7% slower kept,
 * --jobs 1 twice as fast). */
static int usable_cpus(void)
{
    cpu_set_t set;
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

static int play_job(const struct runner *r, int fd, size_t match, int worker)
{
    const struct tournament_run *run = r->run;
    const struct tournament_match *m = &run->plan->matches[match];
    char id[TOURNAMENT_ID_MAX], replay[PATH_MAX];
    struct strbuf msg = STRBUF_INIT, line = STRBUF_INIT;
    struct match_config mc;
    struct match_overrides ov = {0};
    struct match_setup s;
    struct match_error merr;
    struct tournament_error err;
    int rc;
    tournament_match_id(run->cfg, run->plan, m, id);
    tournament_match_config(run->cfg, m, &mc);
    if (tournament_replay_path(run->out, id, replay, sizeof replay) < 0) {
        rc = put_answer(&msg, "error", "the output directory's path is too long");
    } else if (match_setup_resolve(&mc, &ov, &s, &merr) < 0) {
        rc = put_answer(&msg, "config", merr.msg);
    } else {
        s.match_id = id;
        s.worker = worker;   /* side by side workers keep cheap matches on different CPUs */
        s.spread_cpus = run->jobs >= usable_cpus();
        int played = tournament_worker_play(&s, id, replay, &line, &err);
        if (played == 0)
            rc = put_answer(&msg, "ok", line.data);
        else
            rc = put_answer(&msg, played == TOURNAMENT_STORAGE_FAILED ? "ioerror" : "error", err.msg);
        match_setup_free(&s);
    }
    if (rc == 0) rc = send_all(fd, msg.data, msg.len);
    sb_free(&msg);
    sb_free(&line);
    return rc;
}

_Noreturn static void worker_main(const struct runner *r, pid_t parent, int fd, int worker)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    close_inherited(r, fd);
    size_t match;
    int got;
    while ((got = read_job(fd, &match)) == 1)
        if (match >= r->run->plan->n || play_job(r, fd, match, worker) < 0) exit(1);
    exit(got == 0 ? 0 : 1); /* exit, not _exit: the sandbox removes its pooled cgroups at exit */
}

/* ---- workers' lives ---------------------------------------------------------------- */

static int spawn(struct runner *r, struct worker *w)
{
    int fds[2];
    pid_t parent = getpid(), pid = -1;
    fflush(NULL); /* nothing buffered is written twice */
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) return -1;
    if ((pid = fork()) == 0) {
        close(fds[0]);
        worker_main(r, parent, fds[1], (int)(w - r->workers) + 1);
    }
    int saved = errno;
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        errno = saved;
        return -1;
    }
    *w = (struct worker){.pid = pid, .fd = fds[0]};
    return 0;
}

static void let_leave(struct runner *r, pid_t pid)
{
    if (r->n_leaving == r->cap_leaving) {
        size_t cap = r->cap_leaving ? 2 * r->cap_leaving : 4;
        pid_t *grown = realloc(r->leaving, cap * sizeof *grown);
        if (!grown) { /* no room to remember it: wait for its exit now */
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
            return;
        }
        r->leaving = grown;
        r->cap_leaving = cap;
    }
    r->leaving[r->n_leaving++] = pid;
}

static void reap_leaving(struct runner *r, bool block)
{
    for (size_t i = 0; i < r->n_leaving;) {
        pid_t got;
        while ((got = waitpid(r->leaving[i], NULL, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
            ;
        if (got == 0) {
            i++;
            continue;
        }
        r->leaving[i] = r->leaving[--r->n_leaving];
    }
}

/* Tells an idle worker to end (EOF on its socket); it is reaped once it has. */
static void retire(struct runner *r, struct worker *w)
{
    close(w->fd);
    let_leave(r, w->pid);
    sb_free(&w->out);
    *w = (struct worker){.fd = -1};
}

/* ---- starting a match --------------------------------------------------------------- */

static int send_job(struct worker *w, size_t match)
{
    char line[32];
    int len = snprintf(line, sizeof line, "%zu\n", match);
    return send_all(w->fd, line, (size_t)len);
}

static void start(struct runner *r, struct worker *w, struct job job)
{
    char why[128];
    /* A worker found dead between matches is replaced once. */
    for (int tries = 0; tries < 2; tries++) {
        if (!w->pid && spawn(r, w) < 0) break;
        if (send_job(w, job.match) == 0) {
            w->busy = true;
            w->job = job;
            r->running++;
            return;
        }
        retire(r, w);
    }
    snprintf(why, sizeof why, "starting a worker: %s", strerror(errno));
    set_status(r, TOURNAMENT_INTERNAL_FAILED, why);
}

static bool next_job(struct runner *r, struct job *out)
{
    if (r->head == r->tail) return false;
    *out = r->queue[r->head++];
    return true;
}

static void start_idle(struct runner *r)
{
    struct job job;
    for (int i = 0; i < r->run->jobs && !stopping(r); i++)
        if (!r->workers[i].busy && next_job(r, &job)) start(r, &r->workers[i], job);
}

/* ---- a worker answers ---------------------------------------------------------------- */

static void tell(struct runner *r, const struct job *job, const char *id, json_object *line,
                 const char *error, bool retrying)
{
    struct tournament_event e = {&r->run->plan->matches[job->match], id, line, error, retrying};
    if (r->hooks->finished) r->hooks->finished(r->hooks->ctx, &e);
}

static void match_failed(struct runner *r, const struct job *job, const char *id, const char *why)
{
    bool retry = job->attempt < MAX_ATTEMPTS;
    if (retry) /* the slot this job was taken from, or an earlier one, is free */
        r->queue[--r->head] = (struct job){job->match, job->attempt + 1};
    else
        r->failed++;
    tell(r, job, id, NULL, why, retry);
}

/* The line is written now; the match is told finished by sync_journal. */
static void match_done(struct runner *r, const struct job *job, const char *id, const char *text)
{
    json_object *line = json_tokener_parse(text), *v;
    if (!line || !json_object_object_get_ex(line, "id", &v) || strcmp(json_object_get_string(v), id) != 0) {
        json_object_put(line);
        match_failed(r, job, id, "the worker's journal line is malformed");
        return;
    }
    struct tournament_error err;
    if (tournament_journal_write(r->run->journal, text, &err) < 0) {
        set_status(r, TOURNAMENT_IO_FAILED, err.msg);
        json_object_put(line);
        return;
    }
    r->unsynced[r->n_unsynced++] = (struct written){*job, line};
}

/* One fsync makes every line written since the last durable; their matches are then finished. */
static void sync_journal(struct runner *r)
{
    if (r->n_unsynced == 0) return;
    struct tournament_error err;
    bool synced = tournament_journal_sync(r->run->journal, &err) == 0;
    if (!synced) set_status(r, TOURNAMENT_IO_FAILED, err.msg);
    for (int i = 0; i < r->n_unsynced; i++) {
        struct written *w = &r->unsynced[i];
        if (synced) {
            char id[TOURNAMENT_ID_MAX];
            tournament_match_id(r->run->cfg, r->run->plan, &r->run->plan->matches[w->job.match], id);
            tell(r, &w->job, id, w->line, NULL, false);
        }
        json_object_put(w->line);
    }
    r->n_unsynced = 0;
}

static void describe_exit(int status, char *out, size_t size)
{
    if (WIFSIGNALED(status))
        snprintf(out, size, "the worker process died of signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(out, size, "the worker process exited with status %d and no result", WEXITSTATUS(status));
}

/* A worker that died mid-match left its temporary replay: removed now, not at the next start. */
static void remove_dead_worker_files(struct runner *r, const char *id, char *why, size_t size)
{
    struct tournament_error err;
    if (tournament_outdir_remove_temps(r->run->out, id, &err) < 0) {
        size_t len = strlen(why);
        snprintf(why + len, size - len, "; its temporary replay stays: %s", err.msg);
    }
}

static void take_answer(struct runner *r, struct worker *w)
{
    char id[TOURNAMENT_ID_MAX];
    tournament_match_id(r->run->cfg, r->run->plan, &r->run->plan->matches[w->job.match], id);
    w->out.data[--w->out.len] = '\0';
    const char *text = w->out.data;
    if (!strncmp(text, "ok ", 3))
        match_done(r, &w->job, id, text + 3);
    else if (!strncmp(text, "error ", 6))
        match_failed(r, &w->job, id, text + 6);
    else if (!strncmp(text, "ioerror ", 8))
        set_status(r, TOURNAMENT_IO_FAILED, text + 8);
    else if (!strncmp(text, "config ", 7))
        set_status(r, TOURNAMENT_CONFIG_FAILED, text + 7);
    else
        match_failed(r, &w->job, id, "the worker's answer is malformed");
    sb_free(&w->out);
    w->busy = false;
    r->running--;
    if (++w->played >= WORKER_MATCHES_MAX) retire(r, w);
}

/* EOF mid-match: the worker is gone, and its match failed. */
static void died(struct runner *r, struct worker *w)
{
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(w->fd);
    char id[TOURNAMENT_ID_MAX], why[800];
    tournament_match_id(r->run->cfg, r->run->plan, &r->run->plan->matches[w->job.match], id);
    describe_exit(status, why, sizeof why);
    remove_dead_worker_files(r, id, why, sizeof why);
    match_failed(r, &w->job, id, why);
    sb_free(&w->out);
    *w = (struct worker){.fd = -1};
    r->running--;
}

/* Reads what the worker wrote: a line ending in a newline is its whole answer. */
static void drain(struct runner *r, struct worker *w)
{
    char buf[8192];
    ssize_t n = read(w->fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {
        died(r, w);
        return;
    }
    if (w->out.len + (size_t)n > WORKER_OUTPUT_MAX || sb_append(&w->out, buf, (size_t)n) < 0) {
        kill(w->pid, SIGKILL); /* past the cap: no answer comes of it */
        return;
    }
    if (w->out.data[w->out.len - 1] == '\n') take_answer(r, w);
}

static void wait_some(struct runner *r)
{
    int n = 0;
    for (int i = 0; i < r->run->jobs; i++)
        if (r->workers[i].busy) {
            r->polls[n] = (struct pollfd){.fd = r->workers[i].fd, .events = POLLIN};
            r->polled[n++] = i;
        }
    int timeout = r->hooks->tick ? (int)r->hooks->tick_ms : -1;
    int ready = poll(r->polls, (nfds_t)n, timeout);
    if (ready == 0 && r->hooks->tick) r->hooks->tick(r->hooks->ctx);
    for (int i = 0; ready > 0 && i < n; i++)
        if (r->polls[i].revents) drain(r, &r->workers[r->polled[i]]);
}

/* ---- the run ------------------------------------------------------------------------ */

static int fill_queue(struct runner *r)
{
    const struct tournament_run *run = r->run;
    r->cap = run->plan->n;
    r->queue = calloc(r->cap ? r->cap : 1, sizeof *r->queue);
    if (!r->queue) return -1;
    r->head = r->tail = 0;
    for (size_t i = 0; i < run->plan->n; i++)
        if (tournament_in_shard(&run->plan->matches[i], run->shard) && !run->journal->done[i] &&
            !tournament_match_unplayable(run->cfg, &run->plan->matches[i]))
            r->queue[r->tail++] = (struct job){i, 1};
    return 0;
}

static void free_runner(struct runner *r)
{
    free(r->leaving);
    free(r->unsynced);
    free(r->workers);
    free(r->polls);
    free(r->polled);
    free(r->queue);
}

enum tournament_status tournament_run(const struct tournament_run *run, const struct tournament_hooks *hooks,
                                      size_t *n_failed, struct tournament_error *err)
{
    struct runner r = {.run = run, .hooks = hooks, .status = TOURNAMENT_ALL_PLAYED, .err = err};
    *n_failed = 0;
    r.workers = calloc((size_t)run->jobs, sizeof *r.workers);
    r.polls = calloc((size_t)run->jobs, sizeof *r.polls);
    r.polled = calloc((size_t)run->jobs, sizeof *r.polled);
    r.unsynced = calloc((size_t)run->jobs, sizeof *r.unsynced);
    if (!r.workers || !r.polls || !r.polled || !r.unsynced || fill_queue(&r) < 0) {
        free_runner(&r);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return TOURNAMENT_INTERNAL_FAILED;
    }
    for (int i = 0; i < run->jobs; i++)
        r.workers[i].fd = -1;
    for (;;) {
        if (!stopping(&r)) start_idle(&r);
        sync_journal(&r); /* after the next matches started: the fsync overlaps them */
        reap_leaving(&r, false);
        if (r.running == 0) break;
        wait_some(&r);
    }
    for (int i = 0; i < run->jobs; i++)
        if (r.workers[i].pid) retire(&r, &r.workers[i]);
    reap_leaving(&r, true);
    free_runner(&r);
    *n_failed = r.failed;
    if (r.status == TOURNAMENT_ALL_PLAYED && r.failed) r.status = TOURNAMENT_MATCHES_FAILED;
    return r.status;
}
