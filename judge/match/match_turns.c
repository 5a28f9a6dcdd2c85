/*
 * match_turns.c - the per-turn process driver (match_turns.h).
 *
 * A turn launches every player's prepared jail with its arguments, then
 * prepares the next turn's jails while these run, so that most of a jail's
 * set-up overlaps the bots instead of adding to the turn (bench_turns
 * measures what is left). Waiting follows every process at
 * once: stdout is read as it comes (a full pipe would stall a bot), stderr
 * goes to a bounded tail, and a process still running at its deadline is
 * killed. A process ends when its command exits: the jail's pid namespace
 * takes the rest of its tree with it, and jail_finish checks nothing is left.
 * Classification, first that applies (warlight D15): the sandbox's memory or
 * system-call kill, the wall limit, a signal, else the output; a command that
 * cannot be executed exits (status 127) having printed nothing (D16).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/match/bot_channel.h"
#include "judge/match/match_raw_reply.h"
#include "judge/match/match_turns.h"
#include "sandbox/jail_prewarm.h"

#define NS_PER_MS   1000000ull
#define MAX_ENTRIES (2 * GAME_MAX_PLAYERS)

struct turn_seat {
    int player;
    struct jail_spec spec;
    struct jail_prewarm *ready;       /* the next process's jail */
    struct isolation_report iso;
    bool has_iso;
    struct jail *jail;                /* the process of this turn, while it runs */
    struct bot_channel ch;            /* its stderr tail (no stdin, no stdout) */
    bool channel_ready;
    int out_fd;                       /* -1 at end of file */
    struct turn_reply *reply;
    int round, reply_no;
    uint64_t deadline_ns;
    bool timed_out;
    uint64_t cpu_ns, memory_peak, rss_peak;
};

struct match_turns {
    const struct match_setup *s;
    const struct match_datadirs *dirs;
    size_t out_cap;                   /* max_output_bytes + 1 */
    uint64_t wall_ns;                 /* 0: no wall limit */
    struct turn_seat seats[GAME_MAX_PLAYERS + 1];
};

static int fail(struct jail_error *err, int player, const char *what)
{
    char copy[sizeof err->msg];
    snprintf(copy, sizeof copy, "%s", what);
    snprintf(err->msg, sizeof err->msg, "player %d: %.230s", player, copy);
    return -1;
}

/* ---- preparing ------------------------------------------------------------------ */

static int prepare(struct turn_seat *ts, struct jail_error *err)
{
    if (ts->ready)
        return 0;
    if (jail_prewarm_start(&ts->spec, &ts->ready, err) < 0) {
        ts->ready = NULL;
        return fail(err, ts->player, err->msg);
    }
    if (!ts->has_iso) {
        ts->iso = *jail_prewarm_isolation(ts->ready);
        ts->has_iso = true;
    }
    return 0;
}

static int open_seat(struct match_turns *t, int p, struct jail_error *err)
{
    struct turn_seat *ts = &t->seats[p];
    const struct match_limits *l = &t->s->limits;
    ts->player = p;
    ts->out_fd = -1;
    match_setup_jail_spec(t->s, p, &ts->spec);
    datadirs_apply(t->dirs, p, &ts->spec);
    if (bot_channel_init(&ts->ch, -1, -1, -1, 1, l->stderr_limit_kb * 1024) < 0)
        return fail(err, p, "out of memory");
    ts->channel_ready = true;
    return prepare(ts, err);
}

int turns_open(struct match_turns **out, const struct match_setup *s, const struct match_datadirs *dirs,
               struct jail_error *err)
{
    struct match_turns *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    t->s = s;
    t->dirs = dirs;
    t->out_cap = raw_reply_cap(s);
    t->wall_ns = s->limits.move_wall_ms * NS_PER_MS;
    *out = t;
    for (int p = 1; p <= s->n_players; p++)
        if (open_seat(t, p, err) < 0)
            return -1;
    return 0;
}

const struct isolation_report *turns_isolation(const struct match_turns *t, int player)
{
    return t && t->seats[player].has_iso ? &t->seats[player].iso : NULL;
}

/* ---- reading ---------------------------------------------------------------------- */

/* Read what stdout holds now: keep up to out_cap bytes, throw the rest away. */
static int read_stdout(struct match_turns *t, struct turn_seat *ts, struct jail_error *err)
{
    char buf[BOT_READ_CHUNK];
    struct strbuf *o = &ts->reply->output;
    while (ts->out_fd >= 0) {
        ssize_t n = read(ts->out_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        if (n <= 0) {
            ts->out_fd = -1;   /* end of file (or an error: nothing more will come) */
            return 0;
        }
        size_t keep = o->len < t->out_cap ? t->out_cap - o->len : 0;
        if (keep > (size_t)n)
            keep = (size_t)n;
        if (keep && sb_append(o, buf, keep) < 0)
            return fail(err, ts->player, "out of memory");
    }
    return 0;
}

/* ---- how it ended ----------------------------------------------------------------- */

static struct match_violation *violate(struct turn_seat *ts, enum violation_kind kind, bool wall)
{
    struct match_violation *v = &ts->reply->violation;
    memset(v, 0, sizeof *v);
    ts->reply->violated = true;
    v->kind = kind;
    v->verdict = match_verdict_of(kind, wall);
    v->round = ts->round;
    v->reply = ts->reply_no;
    return v;
}

static void classify(struct match_turns *t, struct turn_seat *ts, const struct jail_report *rep)
{
    struct match_violation *v = NULL;
    if (rep->verdict == VERDICT_MEMORY_LIMIT) {
        v = violate(ts, VIOLATION_MEMORY, false);
        v->limit_bytes = t->s->limits.memory_limit_mb << 20;
        v->figure_bytes = rep->memory_peak_bytes;
        snprintf(v->reason, sizeof v->reason, "memory limit of %llu MiB reached",
                 (unsigned long long)t->s->limits.memory_limit_mb);
    } else if (rep->verdict == VERDICT_FORBIDDEN_SYSCALL) {
        v = violate(ts, VIOLATION_SYSCALL, false);
        v->has_syscall = rep->has_syscall;
        v->syscall = rep->syscall;
        snprintf(v->reason, sizeof v->reason, "forbidden system call %s",
                 rep->has_syscall ? rep->syscall.name : "(unknown)");
    } else if (ts->timed_out) {
        v = violate(ts, VIOLATION_TIME, true);
        v->limit_ns = t->wall_ns;
        v->figure_ns = ts->reply->wall_ns;
        v->cpu_waited_ns = rep->cpu_ns;
        snprintf(v->reason, sizeof v->reason, "still running after %s", match_wall_param(&t->s->limits));
    } else if (rep->signal) {
        v = violate(ts, VIOLATION_CRASH, false);
        const char *abbrev = sigabbrev_np(rep->signal);
        snprintf(v->reason, sizeof v->reason, "killed by signal %d (%s)", rep->signal, abbrev ? abbrev : "?");
    }
    if (v)
        match_violation_note_process_limit(v, rep, t->s->limits.pids);
    if (v && ts->reply->output.len)
        match_violation_set_line(v, ts->reply->output.data, ts->reply->output.len);
}

/* The process has ended, or was killed: take the rest of its output, finish the jail. */
static int end_process(struct match_turns *t, struct turn_seat *ts, struct jail_error *err)
{
    struct jail_report rep;
    if (read_stdout(t, ts, err) < 0)
        return -1;
    bot_channel_drain_stderr(&ts->ch);
    ts->out_fd = ts->ch.err_fd = -1;   /* jail_finish closes them */
    int rc = jail_finish(ts->jail, &rep, err);
    ts->jail = NULL;
    if (rc < 0)
        return fail(err, ts->player, err->msg);
    ts->reply->cpu_ns = rep.cpu_ns;
    ts->reply->wall_ns = rep.wall_ns;
    ts->cpu_ns += rep.cpu_ns;
    if (rep.memory_peak_bytes > ts->memory_peak)
        ts->memory_peak = rep.memory_peak_bytes;
    if (rep.rss_peak_bytes > ts->rss_peak)
        ts->rss_peak = rep.rss_peak_bytes;
    classify(t, ts, &rep);
    return 0;
}

/* ---- one turn ----------------------------------------------------------------------- */

/* A NUL-terminated copy is what the jail takes; the engine may leave off the last NUL. */
static int terminated(const struct strbuf *args, struct strbuf *out)
{
    sb_reset(out);
    if (args->len && sb_append(out, args->data, args->len) < 0)
        return -1;
    if (args->len && args->data[args->len - 1] != '\0' && sb_putc(out, '\0') < 0)
        return -1;
    return 0;
}

static int launch(struct match_turns *t, struct turn_seat *ts, const struct strbuf *args, struct jail_error *err)
{
    struct strbuf packed = STRBUF_INIT;
    if (prepare(ts, err) < 0)
        return -1;
    if (terminated(args, &packed) < 0) {
        sb_free(&packed);
        return fail(err, ts->player, "out of memory");
    }
    struct jail_prewarm *pw = ts->ready;
    ts->ready = NULL;
    int rc = jail_prewarm_launch(pw, packed.data, packed.len, &ts->jail, err);
    sb_free(&packed);
    if (rc < 0) {
        ts->jail = NULL;
        return fail(err, ts->player, err->msg);
    }
    jail_close_stdin(ts->jail);
    ts->out_fd = jail_stdout_fd(ts->jail);
    ts->ch.err_fd = jail_stderr_fd(ts->jail);
    ts->deadline_ns = t->wall_ns ? monotonic_ns() + t->wall_ns : 0;
    return 0;
}

static void begin_reply(struct turn_seat *ts, struct turn_reply *reply, int round, int reply_no)
{
    sb_reset(&reply->output);
    reply->violated = false;
    memset(&reply->violation, 0, sizeof reply->violation);
    reply->cpu_ns = reply->wall_ns = 0;
    ts->reply = reply;
    ts->round = round;
    ts->reply_no = reply_no;
    ts->timed_out = false;
}

struct wait_set {
    struct jail_wait_entry e[MAX_ENTRIES];
    struct turn_seat *seat[MAX_ENTRIES];
    size_t n;
};

static void add_entry(struct wait_set *w, struct turn_seat *ts, int fd)
{
    w->e[w->n] = (struct jail_wait_entry){.jail = ts->jail, .fd = fd, .deadline_ns = ts->deadline_ns};
    w->seat[w->n++] = ts;
}

static void add_seat(struct wait_set *w, struct turn_seat *ts)
{
    if (!ts->jail)
        return;
    if (ts->out_fd >= 0)
        add_entry(w, ts, ts->out_fd);
    if (ts->ch.err_fd >= 0)
        add_entry(w, ts, ts->ch.err_fd);
    if (ts->out_fd < 0 && ts->ch.err_fd < 0)
        add_entry(w, ts, -1);
}

static int on_event(struct match_turns *t, struct turn_seat *ts, const struct jail_wait_entry *e,
                    struct jail_error *err)
{
    switch (e->event) {
    case JAIL_EVENT_READABLE:
        if (e->fd == ts->out_fd)
            return read_stdout(t, ts, err);
        bot_channel_drain_stderr(&ts->ch);
        return 0;
    case JAIL_EVENT_WALL_LIMIT:
        if (!jail_has_ended(ts->jail)) {   /* one that ended just now is not late */
            ts->timed_out = true;
            jail_kill(ts->jail, VERDICT_WALL_LIMIT, "the wall limit passed");
        }
        return end_process(t, ts, err);
    case JAIL_EVENT_ENDED:
    case JAIL_EVENT_SYSCALL:
    case JAIL_EVENT_CPU_LIMIT:   /* none is set */
        return end_process(t, ts, err);
    case JAIL_EVENT_NONE:
    case JAIL_EVENT_BUSY:   /* not asked for */
        break;
    }
    return 0;
}

/* Until every process of the turn has ended or been killed. */
static int wait_all(struct match_turns *t, int n, const int *players, struct jail_error *err)
{
    for (;;) {
        struct wait_set w = {.n = 0};
        for (int i = 0; i < n; i++)
            add_seat(&w, &t->seats[players[i]]);
        if (w.n == 0)
            return 0;
        int i = jail_wait_any(w.e, w.n, err);
        if (i < 0 || on_event(t, w.seat[i], &w.e[i], err) < 0)
            return -1;
    }
}

static int check_players(const struct match_turns *t, int n, const int *players, struct jail_error *err)
{
    if (n < 0 || n > t->s->n_players) {
        snprintf(err->msg, sizeof err->msg, "internal: %d players in one turn", n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (players[i] < 1 || players[i] > t->s->n_players) {
            snprintf(err->msg, sizeof err->msg, "internal: no player %d", players[i]);
            return -1;
        }
    return 0;
}

int turns_play(struct match_turns *t, int n, const int *players, const struct strbuf *args, int round,
               const int *reply_no, struct turn_reply *replies, struct jail_error *err)
{
    if (check_players(t, n, players, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        struct turn_seat *ts = &t->seats[players[i]];
        begin_reply(ts, &replies[i], round, reply_no[i]);
        if (launch(t, ts, &args[i], err) < 0)
            return -1;
    }
    for (int i = 0; i < n; i++)   /* the next turn's jails get ready while these run */
        if (prepare(&t->seats[players[i]], err) < 0)
            return -1;
    return wait_all(t, n, players, err);
}

/* ---- the rest --------------------------------------------------------------------------- */

int turns_stderr_tail(struct match_turns *t, int player, size_t max, struct strbuf *out)
{
    struct turn_seat *ts = &t->seats[player];
    if (!ts->channel_ready)
        return 0;
    bot_channel_drain_stderr(&ts->ch);
    return bot_channel_stderr_tail(&ts->ch, max, out);
}

void turns_meters(const struct match_turns *t, int player, uint64_t *cpu_ns, uint64_t *memory_peak)
{
    *cpu_ns = t ? t->seats[player].cpu_ns : 0;
    *memory_peak = t ? t->seats[player].memory_peak : 0;
}

uint64_t turns_rss_peak(const struct match_turns *t, int player)
{
    return t ? t->seats[player].rss_peak : 0;
}

static void close_seat(struct turn_seat *ts)
{
    if (ts->jail) {
        struct jail_report ignored_report;
        struct jail_error ignored;
        jail_kill(ts->jail, VERDICT_INTERNAL_ERROR, "the match was abandoned");
        jail_finish(ts->jail, &ignored_report, &ignored);
        ts->jail = NULL;
    }
    jail_prewarm_discard(ts->ready);
    ts->ready = NULL;
    if (ts->channel_ready)
        bot_channel_free(&ts->ch);
    ts->channel_ready = false;
}

void turns_close(struct match_turns *t)
{
    if (!t)
        return;
    for (int p = 1; p <= t->s->n_players; p++)
        close_seat(&t->seats[p]);
    free(t);
}

void turn_reply_free(struct turn_reply *r)
{
    sb_free(&r->output);
}
