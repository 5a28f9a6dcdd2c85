/*
 * match_runner.c - play one match: start every bot in its jail, drive the
 * engine (game.h), wait for replies without ever blocking on a bot, and
 * write every replay line as it happens. Per-bot work (asking, reading,
 * classifying violations, ending) is in match_seat.c.
 *
 * Replay order, which replay_verify.c relies on: the header; the engine's
 * first events; then for each reply owed either a "reply" line (given to
 * the engine), followed by a "violation" line if the engine refused it, or
 * a "violation" line found by the judge (given to the engine as a
 * violation); after each, the engine's events; finally the result.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/match_seat.h"
#include "judge/replay.h"

#define NS_PER_MS       1000000ull
#define WRITE_RETRY_NS  (2 * NS_PER_MS)   /* how often a full stdin pipe is tried again */
#define MAX_REPLY_LINES 64
#define MAX_ENTRIES     (3 * GAME_MAX_PLAYERS)

struct runner {
    const struct match_setup *s;
    const struct game_rules *rules;
    struct game *g;
    struct replay_writer *replay;
    const struct match_hooks *hooks;
    struct seat seats[GAME_MAX_PLAYERS + 1];
    struct strbuf line, text;
    int replies, last_round;
    struct match_error *err;
    struct jail_error jerr;
};

static int fail(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct runner *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->msg, sizeof r->err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int jail_failed(struct runner *r)
{
    return fail(r, "%s", r->jerr.msg);
}

/* ---- replay lines ------------------------------------------------------------------ */

/* Write r->line (already formatted by rc's producer) to the replay, if any. */
static int emit(struct runner *r, int rc)
{
    if (rc < 0)
        return fail(r, "out of memory");
    struct replay_error rerr;
    if (r->replay && replay_writer_put(r->replay, r->line.data, r->line.len, &rerr) < 0)
        return fail(r, "%s", rerr.msg);
    sb_reset(&r->line);
    return 0;
}

static int record_events(struct runner *r)
{
    sb_reset(&r->text);
    if (r->rules->take_events(r->g, &r->text) < 0)
        return fail(r, "the engine cannot give its events");
    for (size_t at = 0; at < r->text.len;) {
        const char *start = r->text.data + at, *nl = memchr(start, '\n', r->text.len - at);
        size_t n = nl ? (size_t)(nl - start) : r->text.len - at;
        if (n > 0 && emit(r, replay_record_event(&r->line, start, n)) < 0)
            return -1;
        at += n + 1;
    }
    return 0;
}

static int record_violation(struct runner *r, struct seat *st)
{
    struct strbuf tail = STRBUF_INIT;
    int rc = seat_stderr_tail(st, REPLAY_STDERR_TAIL_MAX, &tail);
    if (rc == 0)
        rc = replay_record_violation(&r->line, st->player, &st->violation, tail.data ? tail.data : "");
    sb_free(&tail);
    return emit(r, rc);
}

static int record_header(struct runner *r)
{
    const struct isolation_report *iso[GAME_MAX_PLAYERS];
    struct host_info host;
    host_info_read(&host);
    for (int p = 1; p <= r->s->n_players; p++)
        iso[p - 1] = r->seats[p].jail ? jail_isolation(r->seats[p].jail) : NULL;
    return emit(r, replay_record_header(&r->line, r->s, iso, &host, (int64_t)time(NULL)));
}

/* ---- messages and ends ---------------------------------------------------------------- */

static int deliver_outbox(struct runner *r, int p)
{
    sb_reset(&r->text);
    if (r->rules->outbox(r->g, p, &r->text) < 0)
        return fail(r, "the engine cannot give player %d's messages", p);
    if (seat_send(&r->seats[p], r->text.data, r->text.len, &r->jerr) < 0)
        return jail_failed(r);
    return 0;
}

/* Messages for every player, then the end of every bot the game is over for (C10). */
static int deliver_and_end(struct runner *r)
{
    for (int p = 1; p <= r->s->n_players; p++) {
        if (deliver_outbox(r, p) < 0)
            return -1;
        if (r->rules->player_done(r->g, p) && seat_begin_end(&r->seats[p], &r->jerr) < 0)
            return jail_failed(r);
    }
    return 0;
}

/* ---- waiting ------------------------------------------------------------------------------ */

enum entry_role { ROLE_REPLY, ROLE_STDERR, ROLE_ENDING, ROLE_IDLE };

struct wait_set {
    struct jail_wait_entry e[MAX_ENTRIES];
    struct seat *seat[MAX_ENTRIES];
    enum entry_role role[MAX_ENTRIES];
    size_t n;
};

static void add_entry(struct wait_set *w, struct seat *st, enum entry_role role, int fd, uint64_t cpu_ns,
                      uint64_t deadline_ns)
{
    w->e[w->n] = (struct jail_wait_entry){.jail = st->jail, .fd = fd, .cpu_limit_ns = cpu_ns,
                                          .deadline_ns = deadline_ns};
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

static void add_seat_entries(struct wait_set *w, struct seat *st, bool freeze, uint64_t now)
{
    if (!st->jail || st->phase == SEAT_DONE)
        return;
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
            return jail_failed(r);
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
    return seat_finish(st, &r->jerr) < 0 ? jail_failed(r) : 0;
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
    case JAIL_EVENT_NONE:
        break;
    }
    return rc < 0 ? jail_failed(r) : 0;
}

static int wait_once(struct runner *r, int round)
{
    struct wait_set w;
    uint64_t now = monotonic_ns();
    w.n = 0;
    for (int p = 1; p <= r->s->n_players; p++)
        add_seat_entries(&w, &r->seats[p], r->s->freeze, now);
    if (w.n == 0)
        return fail(r, "internal: waiting with nothing to wait for");
    int i = jail_wait_any(w.e, w.n, &r->jerr);
    if (i < 0)
        return jail_failed(r);
    struct seat *st = w.seat[i];
    enum jail_event ev = w.e[i].event;
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
            return fail(r, "player %d: cannot write to the bot's stdin", p);
        if (rc < 0)
            return jail_failed(r);
        *waiting = *waiting || st->reply == REPLY_WAITING;
    }
    return 0;
}

/* Until no reply is owed any more (each is complete or a violation). */
static int wait_replies(struct runner *r, int round)
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
static int wait_endings(struct runner *r)
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

/* ---- one turn --------------------------------------------------------------------------------- */

static int ask(struct runner *r, int p, int round)
{
    struct seat *st = &r->seats[p];
    if (deliver_outbox(r, p) < 0)
        return -1;
    sb_reset(&r->text);
    if (r->rules->prompt(r->g, p, &r->text) < 0)
        return fail(r, "the engine cannot give player %d's prompt", p);
    int lines = r->rules->reply_lines(r->g, p);
    if (lines < 1 || lines > MAX_REPLY_LINES)
        return fail(r, "the engine asks player %d for %d lines", p, lines);
    if (seat_ask(st, r->text.data ? r->text.data : "", r->text.len, lines, round, &r->jerr) < 0)
        return jail_failed(r);
    return 0;
}

static int submit(struct runner *r, struct seat *st, struct game_verdict *verdict)
{
    const char *lines[MAX_REPLY_LINES];
    int n = 0;
    char *s = st->text.data ? st->text.data : (char *)"";
    while (n < st->want_lines) {   /* the reply's lines were joined with "\n" */
        lines[n++] = s;
        char *nl = strchr(s, '\n');
        if (!nl)
            break;
        *nl = '\0';
        s = nl + 1;
    }
    if (r->rules->submit(r->g, st->player, lines, n, verdict) < 0)
        return fail(r, "the engine refuses player %d's reply: %s", st->player, verdict->reason);
    return 0;
}

static int apply_reply(struct runner *r, struct seat *st, int round)
{
    struct replay_reply rec = {.n = ++r->replies, .player = st->player, .round = round, .reply = st->asked,
                               .line = st->text.data ? st->text.data : "", .len = st->text.len,
                               .cpu_ns = st->reply_cpu_ns, .wall_ns = st->reply_wall_ns};
    if (emit(r, replay_record_reply(&r->line, &rec)) < 0)
        return -1;
    struct match_violation refused = {.by_game = true, .round = round, .reply = st->asked};
    match_violation_set_line(&refused, rec.line, rec.len);
    struct game_verdict verdict = {0};
    if (submit(r, st, &verdict) < 0)
        return -1;
    st->reply = REPLY_IDLE;
    if (verdict.kind == VIOLATION_NONE) {
        st->moves++;
        return 0;
    }
    refused.kind = verdict.kind;
    refused.verdict = match_verdict_of(verdict.kind, false);
    snprintf(refused.reason, sizeof refused.reason, "%s", verdict.reason);
    st->violation = refused;
    st->violated = true;
    return record_violation(r, st);
}

static int apply_violation(struct runner *r, struct seat *st)
{
    if (record_violation(r, st) < 0)
        return -1;
    st->reply = REPLY_IDLE;
    if (r->rules->violation(r->g, st->player, st->violation.kind) < 0)
        return fail(r, "the engine refuses player %d's violation", st->player);
    return 0;
}

static void note_round(struct runner *r, int round)
{
    if (round != r->last_round && r->hooks && r->hooks->round_started)
        r->hooks->round_started(r->hooks->ctx, round);
    r->last_round = round;
}

static int play_turn(struct runner *r)
{
    int pending[GAME_MAX_PLAYERS];
    int n = r->rules->pending(r->g, pending, GAME_MAX_PLAYERS);
    int round = r->rules->round(r->g);
    if (n <= 0 || n > r->s->n_players)
        return fail(r, "the engine asks no player for a reply, yet the game is not over");
    note_round(r, round);
    for (int i = 0; i < n; i++)
        if (ask(r, pending[i], round) < 0)
            return -1;
    if (wait_replies(r, round) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        struct seat *st = &r->seats[pending[i]];
        int rc = st->reply == REPLY_COMPLETE ? apply_reply(r, st, round) : apply_violation(r, st);
        if (rc < 0 || record_events(r) < 0 || deliver_and_end(r) < 0)
            return -1;
    }
    return 0;
}

/* ---- the match -------------------------------------------------------------------------------- */

static int start_seats(struct runner *r)
{
    for (int p = 1; p <= r->s->n_players; p++) {
        r->seats[p].player = p;
        if (seat_start(&r->seats[p], r->s, p, &r->jerr) < 0)
            return jail_failed(r);
    }
    return 0;
}

static int create_game(struct runner *r)
{
    struct game_setup gs = {.map = r->s->map, .params = r->s->params, .seed = r->s->seed,
                            .players = r->s->n_players};
    struct game_error gerr = {0};
    if (r->rules->create(&gs, &r->g, &gerr) < 0)
        return fail(r, "the engine refuses the match: %s", gerr.msg);
    return 0;
}

static void fill_outcome(struct runner *r, const struct game_result *gr, struct match_outcome *out)
{
    out->players = r->s->n_players;
    out->winner = gr->winner;
    out->draw = gr->draw;
    out->rounds = gr->rounds;
    out->replies = r->replies;
    for (int p = 1; p <= out->players; p++) {
        struct seat *st = &r->seats[p];
        struct match_player_outcome *po = &out->p[p];
        struct strbuf tail = STRBUF_INIT;
        po->player = p;
        po->place = gr->p[p].place;
        po->points = gr->p[p].points;
        memcpy(po->stats, gr->p[p].stats, sizeof po->stats);
        po->violation = st->violation;
        po->violation.kind = gr->p[p].violation;
        po->verdict = st->violated ? st->violation.verdict : MATCH_OK;
        po->moves = st->moves;
        po->budget_ns = seat_budget_ns(st, st->asked);
        po->cpu_ns = st->report.cpu_ns;
        po->memory_peak_bytes = st->report.memory_peak_bytes;
        if (st->channel_ready && bot_channel_stderr_tail(&st->ch, SIZE_MAX, &tail) == 0)
            po->stderr_tail = sb_steal(&tail);
        sb_free(&tail);
    }
}

static int finish_match(struct runner *r, struct match_outcome *out, uint64_t started_ns)
{
    struct game_result gr;
    if (deliver_and_end(r) < 0 || wait_endings(r) < 0)
        return -1;
    if (r->rules->result(r->g, &gr) < 0)
        return fail(r, "the engine gives no result");
    fill_outcome(r, &gr, out);
    return emit(r, replay_record_result(&r->line, r->s, out, monotonic_ns() - started_ns));
}

static int play(struct runner *r, struct match_outcome *out)
{
    struct isolation_report probe;
    uint64_t started_ns = monotonic_ns();
    if (jail_global_init(r->s->isolation, &probe, &r->jerr) < 0)
        return jail_failed(r);
    if (create_game(r) < 0 || start_seats(r) < 0 || record_header(r) < 0 || record_events(r) < 0 ||
        deliver_and_end(r) < 0)
        return -1;
    while (!r->rules->over(r->g))
        if (play_turn(r) < 0)
            return -1;
    return finish_match(r, out, started_ns);
}

static void internal_outcome(const struct match_setup *s, struct match_outcome *out)
{
    match_outcome_free(out);
    memset(out, 0, sizeof *out);
    out->players = s->n_players;
    for (int p = 1; p <= s->n_players; p++) {
        out->p[p].player = p;
        out->p[p].verdict = MATCH_INTERNAL_ERROR;
    }
}

/* A write to a bot that is gone raises SIGPIPE: keep it blocked during the match
 * and swallow any that arrived. */
static void block_sigpipe(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void restore_sigpipe(const sigset_t *old)
{
    sigset_t set;
    struct timespec zero = {0, 0};
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    while (sigtimedwait(&set, NULL, &zero) == SIGPIPE)
        ;
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

int match_play(const struct match_setup *s, struct replay_writer *replay, const struct match_hooks *hooks,
               struct match_outcome *out, struct match_error *err)
{
    struct runner *r = calloc(1, sizeof *r);
    memset(out, 0, sizeof *out);
    if (!r) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        internal_outcome(s, out);
        return -1;
    }
    *r = (struct runner){.s = s, .rules = s->rules, .replay = replay, .hooks = hooks, .err = err};
    sigset_t old;
    block_sigpipe(&old);
    int rc = play(r, out);
    if (rc < 0)
        internal_outcome(s, out);
    for (int p = 1; p <= s->n_players; p++)
        seat_abandon(&r->seats[p]);
    restore_sigpipe(&old);
    if (r->g)
        r->rules->destroy(r->g);
    sb_free(&r->line);
    sb_free(&r->text);
    free(r);
    return rc;
}

void match_outcome_free(struct match_outcome *o)
{
    for (int p = 1; p <= o->players && p <= GAME_MAX_PLAYERS; p++) {
        free(o->p[p].stderr_tail);
        o->p[p].stderr_tail = NULL;
    }
}
