/*
 * match_wait.c - waiting on the bots of a match without ever blocking on one:
 * the reply owed (its CPU budget and wall deadline), stderr, bots at their end
 * (grace period), and, with --no-freeze, bots thinking on others' time.
 */
#include "judge/match/match_runner.h"

#define NS_PER_MS       1000000ull
#define WRITE_RETRY_NS  (2 * NS_PER_MS)   /* how often a full stdin pipe is tried again */
#define MAX_ENTRIES     (3 * GAME_MAX_PLAYERS)

enum entry_role { ROLE_REPLY, ROLE_STDERR, ROLE_ENDING, ROLE_IDLE };

struct wait_set {
    struct jail_wait_entry e[MAX_ENTRIES];
    struct seat *seat[MAX_ENTRIES];
    enum entry_role role[MAX_ENTRIES];
    size_t n;
    uint64_t busy_ns;   /* of the seat being added (match_pin.h) */
};

static void add_entry(struct wait_set *w, struct seat *st, enum entry_role role, int fd, uint64_t cpu_ns,
                      uint64_t deadline_ns)
{
    w->e[w->n] = (struct jail_wait_entry){.jail = st->jail, .fd = fd, .cpu_limit_ns = cpu_ns,
                                          .deadline_ns = deadline_ns, .busy_ns = role == ROLE_REPLY ? w->busy_ns : 0};
    w->seat[w->n] = st;
    w->role[w->n++] = role;
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
    return !a ? b : !b ? a : a < b ? a : b;
}

/* While bytes wait for a full stdin pipe, wake up now and then to write them. */
static uint64_t retry_deadline(const struct seat *st, uint64_t now)
{
    return bot_channel_has_unsent(&st->ch) ? now + WRITE_RETRY_NS : 0;
}

static void add_seat_entries(struct wait_set *w, const struct match_pin *pin, struct seat *st, bool freeze,
                             uint64_t now)
{
    if (!st->jail || st->phase == SEAT_DONE)
        return;
    w->busy_ns = match_pin_busy_ns(pin, st);
    if (st->phase == SEAT_ENDING) {
        add_entry(w, st, ROLE_ENDING, st->ch.out_fd, 0, earliest(st->grace_deadline_ns, retry_deadline(st, now)));
    } else if (st->reply == REPLY_WAITING) {
        add_entry(w, st, ROLE_REPLY, st->ch.out_fd, seat_budget_ns(st, st->asked),
                  earliest(seat_wall_deadline_ns(st), retry_deadline(st, now)));
    } else if (!freeze && !st->overspent && !st->ended_unseen) {
        /* --no-freeze: it thinks on others' time; stop it once past its next budget. */
        add_entry(w, st, ROLE_IDLE, st->ch.err_fd, seat_budget_ns(st, st->asked + 1), retry_deadline(st, now));
        return;
    } else {
        return;
    }
    if (st->ch.err_fd >= 0)
        add_entry(w, st, ROLE_STDERR, st->ch.err_fd, 0, 0);
}

static int on_idle_event(struct runner *r, struct seat *st, enum jail_event ev)
{
    if (ev == JAIL_EVENT_READABLE)
        bot_channel_drain_stderr(&st->ch);
    else if (ev == JAIL_EVENT_ENDED || ev == JAIL_EVENT_SYSCALL)
        st->ended_unseen = true;   /* noticed at its next reply (C9) */
    else if (ev == JAIL_EVENT_CPU_LIMIT) {
        if (jail_cpu_ns_exact(st->jail, &st->overspent_cpu_ns, &r->jerr) < 0)
            return runner_jail_failed(r);
        st->overspent = true;      /* left frozen by the jail */
    }
    return 0;
}

static int on_ending_event(struct runner *r, struct seat *st, enum entry_role role, enum jail_event ev)
{
    if (ev == JAIL_EVENT_READABLE) {
        if (role == ROLE_STDERR)
            bot_channel_drain_stderr(&st->ch);
        else
            bot_channel_discard_stdout(&st->ch);
        return 0;
    }
    if (ev == JAIL_EVENT_WALL_LIMIT && monotonic_ns() < st->grace_deadline_ns)
        return 0;
    return seat_finish(st, &r->jerr) < 0 ? runner_jail_failed(r) : 0;
}

static int on_reply_event(struct runner *r, struct seat *st, enum entry_role role, enum jail_event ev,
                          int round)
{
    int rc = 0;
    switch (ev) {
    case JAIL_EVENT_READABLE:
        if (role == ROLE_STDERR)
            bot_channel_drain_stderr(&st->ch);
        break;   /* stdout is read by seat_pump */
    case JAIL_EVENT_CPU_LIMIT:
        rc = seat_cpu_limit_hit(st, round, &r->jerr);
        break;
    case JAIL_EVENT_WALL_LIMIT:
        rc = seat_deadline_passed(st, round, &r->jerr);
        break;
    case JAIL_EVENT_SYSCALL:
    case JAIL_EVENT_ENDED:
        rc = seat_ended(st, round, &r->jerr);
        break;
    case JAIL_EVENT_BUSY:   /* it thinks: no bot waits for it on a shared CPU */
        match_pin_release(&r->pin, r->seats, r->s->n_players);
        break;
    case JAIL_EVENT_NONE:
        break;
    }
    return rc < 0 ? runner_jail_failed(r) : 0;
}

/* Bots owing no reply are frozen before the judge waits on the others (C7):
 * nobody thinks on another's time. */
static int hold_idle(struct runner *r)
{
    for (int p = 1; p <= r->s->n_players; p++)
        if (seat_hold(&r->seats[p], &r->jerr) < 0)
            return runner_jail_failed(r);
    return 0;
}

static int wait_once(struct runner *r, int round)
{
    struct wait_set w;
    if (hold_idle(r) < 0)
        return -1;
    uint64_t now = monotonic_ns();
    w.n = 0;
    for (int p = 1; p <= r->s->n_players; p++)
        add_seat_entries(&w, &r->pin, &r->seats[p], r->s->freeze, now);
    if (w.n == 0)
        return runner_fail(r, "internal: waiting with nothing to wait for");
    enum match_phase was = match_phase_enter(r->phases, MATCH_PHASE_WAIT);
    int i = jail_wait_any(w.e, w.n, &r->jerr);
    match_phase_enter(r->phases, was);
    if (i < 0)
        return runner_jail_failed(r);
    struct seat *st = w.seat[i];
    enum jail_event ev = w.e[i].event;
    bot_channel_stdout_woken(&st->ch);   /* whatever woke us, its stdout may hold bytes now */
    if (st->phase == SEAT_ENDING)
        return on_ending_event(r, st, w.role[i], ev);
    if (w.role[i] == ROLE_IDLE)
        return on_idle_event(r, st, ev);
    return on_reply_event(r, st, w.role[i], ev, round);
}

/* Write what is queued for every bot; bots at their end get stdin closed once it is out. */
static int pump_all(struct runner *r, int round, bool *waiting)
{
    *waiting = false;
    for (int p = 1; p <= r->s->n_players; p++) {
        struct seat *st = &r->seats[p];
        int rc = 0;
        if (st->phase == SEAT_ENDING)
            rc = seat_end_progress(st, &r->jerr);
        else if (st->reply == REPLY_WAITING)
            rc = seat_pump(st, round, &r->jerr);
        else if (st->jail && st->channel_ready && bot_channel_flush(&st->ch) < 0)
            return runner_fail(r, "player %d: cannot write to the bot's stdin", p);
        if (rc < 0)
            return runner_jail_failed(r);
        *waiting = *waiting || st->reply == REPLY_WAITING;
    }
    return 0;
}

/* Until no reply is owed any more (each is complete or a violation). */
int runner_wait_replies(struct runner *r, int round)
{
    for (;;) {
        bool waiting;
        if (pump_all(r, round, &waiting) < 0)
            return -1;
        if (!waiting)
            return 0;
        if (wait_once(r, round) < 0)
            return -1;
    }
}

/* Until every bot has ended or been killed after its grace period. */
int runner_wait_endings(struct runner *r)
{
    for (;;) {
        bool waiting, ending = false;
        if (pump_all(r, 0, &waiting) < 0)
            return -1;
        for (int p = 1; p <= r->s->n_players; p++)
            ending = ending || r->seats[p].phase == SEAT_ENDING;
        if (!ending)
            return 0;
        if (wait_once(r, 0) < 0)
            return -1;
    }
}
