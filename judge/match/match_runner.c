/*
 * match_runner.c - play one match: drive the engine (game.h), run every bot
 * in the jail and write every replay line as it happens. Bots that run for a
 * whole match (or round) are seats (match_seat.c, waited on by match_wait.c);
 * games that start a process per turn run through match_turns.c. Players'
 * data directories (match_datadir.c) live as long as the match.
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

#include "judge/match/match_runner.h"
#include "replay/replay.h"
#include "judge/match/match_replay.h"

#define MAX_REPLY_LINES 64

int runner_fail(struct runner *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->msg, sizeof r->err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int runner_jail_failed(struct runner *r)
{
    return runner_fail(r, "%s", r->jerr.msg);
}

/* ---- replay lines ------------------------------------------------------------------ */

/* Write r->line (already formatted by rc's producer) to the replay, if any. */
static int emit(struct runner *r, int rc)
{
    if (rc < 0)
        return runner_fail(r, "out of memory");
    struct replay_error rerr;
    if (r->replay) {
        enum match_phase was = match_phase_enter(r->phases, MATCH_PHASE_COMPRESS);
        rc = replay_writer_put(r->replay, r->line.data, r->line.len, &rerr);
        match_phase_enter(r->phases, was);
        if (rc < 0)
            return runner_fail(r, "%s", rerr.msg);
    }
    sb_reset(&r->line);
    return 0;
}

static int record_events_now(struct runner *r)
{
    sb_reset(&r->text);
    if (r->rules->take_events(r->g, &r->text) < 0)
        return runner_fail(r, "the engine cannot give its events");
    for (size_t at = 0; at < r->text.len;) {
        const char *start = r->text.data + at, *nl = memchr(start, '\n', r->text.len - at);
        size_t n = nl ? (size_t)(nl - start) : r->text.len - at;
        if (n > 0 && emit(r, replay_record_event(&r->line, start, n)) < 0)
            return -1;
        at += n + 1;
    }
    return 0;
}

static int record_events(struct runner *r)
{
    enum match_phase was = match_phase_enter(r->phases, MATCH_PHASE_EVENT);
    int rc = record_events_now(r);
    match_phase_enter(r->phases, was);
    return rc;
}

static int stderr_tail(struct runner *r, int p, size_t max, struct strbuf *out)
{
    if (r->model == PROCESS_PER_TURN)
        return r->turns ? turns_stderr_tail(r->turns, p, max, out) : 0;
    return seat_stderr_tail(&r->seats[p], max, out);
}

static int record_violation(struct runner *r, struct seat *st)
{
    struct strbuf tail = STRBUF_INIT;
    int rc = stderr_tail(r, st->player, REPLAY_STDERR_TAIL_MAX, &tail);
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
        iso[p - 1] = r->model == PROCESS_PER_TURN ? turns_isolation(r->turns, p)
                     : r->seats[p].jail            ? jail_isolation(r->seats[p].jail)
                                                   : NULL;
    return emit(r, replay_record_header(&r->line, r->s, iso, &host, (int64_t)time(NULL)));
}

/* ---- messages and ends ---------------------------------------------------------------- */

static int deliver_outbox(struct runner *r, int p)
{
    sb_reset(&r->text);
    if (r->rules->outbox(r->g, p, &r->text) < 0)
        return runner_fail(r, "the engine cannot give player %d's messages", p);
    if (r->model == PROCESS_PER_TURN)
        return 0;   /* no process lives on to read them */
    if (seat_send(&r->seats[p], r->text.data, r->text.len, &r->jerr) < 0)
        return runner_jail_failed(r);
    return 0;
}

/* Messages for every player, then the end of every bot the game is over for (C10). */
static int deliver_and_end(struct runner *r)
{
    for (int p = 1; p <= r->s->n_players; p++) {
        if (deliver_outbox(r, p) < 0)
            return -1;
        if (r->model != PROCESS_PER_TURN && r->rules->player_done(r->g, p) &&
            seat_begin_end(&r->seats[p], &r->jerr) < 0)
            return runner_jail_failed(r);
    }
    return 0;
}

/* ---- replies and violations ----------------------------------------------------------- */

/* Lines joined by "\n" (as a multi-line reply is recorded) to the engine. */
static int submit_lines(struct runner *r, int p, int max_lines, char *s, struct game_verdict *verdict)
{
    const char *lines[MAX_REPLY_LINES];
    int n = 0;
    while (n < max_lines && n < MAX_REPLY_LINES) {
        lines[n++] = s;
        char *nl = strchr(s, '\n');
        if (!nl)
            break;
        *nl = '\0';
        s = nl + 1;
    }
    return r->rules->submit(r->g, p, lines, n, verdict);
}

/* The text is cut into lines in place (a strbuf is NUL-terminated). */
static int submit(struct runner *r, int p, int want_lines, struct strbuf *text, struct game_verdict *verdict)
{
    char empty[1] = "";
    char *data = text->data ? text->data : empty;
    int rc = r->rules->submit_output ? r->rules->submit_output(r->g, p, data, text->len, verdict)
                                     : submit_lines(r, p, want_lines, data, verdict);
    if (rc < 0)
        return runner_fail(r, "the engine refuses player %d's reply: %s", p, verdict->reason);
    return 0;
}

/* A reply for the engine: recorded, submitted, and any refusal recorded. */
static int apply_reply(struct runner *r, struct seat *st, int round, struct strbuf *text, int want_lines,
                       uint64_t cpu_ns, uint64_t wall_ns)
{
    struct replay_reply rec = {.n = ++r->replies, .player = st->player, .round = round, .reply = st->asked,
                               .line = text->data ? text->data : "", .len = text->len,
                               .cpu_ns = cpu_ns, .wall_ns = wall_ns};
    enum match_phase was = match_phase_enter(r->phases, MATCH_PHASE_EVENT);
    int rc = emit(r, replay_record_reply(&r->line, &rec));
    match_phase_enter(r->phases, MATCH_PHASE_APPLY);
    struct match_violation refused = {.by_game = true, .round = round, .reply = st->asked};
    match_violation_set_line(&refused, text->data ? text->data : "", text->len);
    struct game_verdict verdict = {0};
    if (rc == 0)
        rc = submit(r, st->player, want_lines, text, &verdict);
    match_phase_enter(r->phases, was);
    if (rc < 0)
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
        return runner_fail(r, "the engine refuses player %d's violation", st->player);
    return 0;
}

/* ---- a turn of bots that live for the match (or a round) -------------------------------- */

static int build_prompt(struct runner *r, int p)
{
    enum match_phase was = match_phase_enter(r->phases, MATCH_PHASE_PROMPT);
    int rc = deliver_outbox(r, p);
    sb_reset(&r->text);
    if (rc == 0 && r->rules->prompt(r->g, p, &r->text) < 0)
        rc = runner_fail(r, "the engine cannot give player %d's prompt", p);
    match_phase_enter(r->phases, was);
    return rc;
}

static int ask(struct runner *r, int p, int round)
{
    struct seat *st = &r->seats[p];
    if (build_prompt(r, p) < 0)
        return -1;
    int lines = r->rules->reply_lines(r->g, p);
    if (lines < 1 || lines > MAX_REPLY_LINES)
        return runner_fail(r, "the engine asks player %d for %d lines", p, lines);
    struct game_reply_wall wall = {.ms = r->s->limits.move_wall_ms, .param = match_wall_param(&r->s->limits)};
    if (r->rules->reply_wall)
        r->rules->reply_wall(r->g, p, &wall);
    if (seat_ask(st, r->text.data ? r->text.data : "", r->text.len, lines, &wall, round, &r->jerr) < 0)
        return runner_jail_failed(r);
    return 0;
}

static int process_serial(const struct runner *r, int p)
{
    return r->rules->process_serial ? r->rules->process_serial(r->g, p) : 1;
}

/* Players due a new process (game.h process_serial): the old ones end first,
 * all of them, and only then do the new ones start (warlight D19). */
static int renew_processes(struct runner *r, int n, const int *pending)
{
    bool renew[GAME_MAX_PLAYERS + 1] = {false}, any = false;
    for (int i = 0; i < n; i++) {
        renew[pending[i]] = process_serial(r, pending[i]) != r->seats[pending[i]].serial;
        any = any || renew[pending[i]];
    }
    if (!any)
        return 0;
    for (int p = 1; p <= r->s->n_players; p++) {
        if (!renew[p])
            continue;
        if (deliver_outbox(r, p) < 0)
            return -1;
        if (seat_begin_end(&r->seats[p], &r->jerr) < 0)
            return runner_jail_failed(r);
    }
    if (runner_wait_endings(r) < 0)
        return -1;
    for (int p = 1; p <= r->s->n_players; p++)
        if (renew[p] && seat_restart(&r->seats[p], process_serial(r, p), &r->jerr) < 0)
            return runner_jail_failed(r);
    return 0;
}

static int play_turn_dialogue(struct runner *r, int n, const int *pending, int round)
{
    if (renew_processes(r, n, pending) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (ask(r, pending[i], round) < 0)
            return -1;
    if (runner_wait_replies(r, round) < 0)
        return -1;
    match_pin_round(&r->pin, r->seats, r->s->n_players, pending, n);
    for (int i = 0; i < n; i++) {
        struct seat *st = &r->seats[pending[i]];
        int rc = st->reply == REPLY_COMPLETE
                     ? apply_reply(r, st, round, &st->text, st->want_lines, st->reply_cpu_ns, st->reply_wall_ns)
                     : apply_violation(r, st);
        if (rc < 0 || record_events(r) < 0 || deliver_and_end(r) < 0)
            return -1;
    }
    return 0;
}

/* ---- a turn of processes started for it ---------------------------------------------------- */

static int turn_arguments(struct runner *r, int p, struct strbuf *args)
{
    int argc = 0;
    if (deliver_outbox(r, p) < 0)
        return -1;
    if (!r->rules->prompt_argv || r->rules->prompt_argv(r->g, p, args, &argc) < 0)
        return runner_fail(r, "the engine cannot give player %d's arguments", p);
    r->seats[p].asked++;
    return 0;
}

static int apply_turn_reply(struct runner *r, int p, int round, struct turn_reply *tr)
{
    struct seat *st = &r->seats[p];
    if (!tr->violated)
        return apply_reply(r, st, round, &tr->output, MAX_REPLY_LINES, tr->cpu_ns, tr->wall_ns);
    st->violation = tr->violation;
    st->violated = true;
    return apply_violation(r, st);
}

static int play_turn_processes(struct runner *r, int n, const int *pending, int round)
{
    struct strbuf args[GAME_MAX_PLAYERS];
    struct turn_reply replies[GAME_MAX_PLAYERS];
    int reply_no[GAME_MAX_PLAYERS] = {0}, rc = 0;
    memset(args, 0, sizeof args);
    memset(replies, 0, sizeof replies);
    for (int i = 0; i < n && rc == 0; i++) {
        rc = turn_arguments(r, pending[i], &args[i]);
        reply_no[i] = r->seats[pending[i]].asked;
    }
    if (rc == 0 && turns_play(r->turns, n, pending, args, round, reply_no, replies, &r->jerr) < 0)
        rc = runner_jail_failed(r);
    for (int i = 0; i < n && rc == 0; i++)
        if (apply_turn_reply(r, pending[i], round, &replies[i]) < 0 || record_events(r) < 0 ||
            deliver_and_end(r) < 0)
            rc = -1;
    for (int i = 0; i < n; i++) {
        sb_free(&args[i]);
        turn_reply_free(&replies[i]);
    }
    return rc;
}

/* ---- the match -------------------------------------------------------------------------------- */

static void note_round(struct runner *r, int round)
{
    if (round != r->last_round && r->hooks && r->hooks->round_started)
        r->hooks->round_started(r->hooks->ctx, round);
    r->last_round = round;
}

/* Where the filesystem cannot cap a data directory, the cap is checked after each turn. */
static int enforce_quotas(struct runner *r, int n, const int *pending)
{
    for (int i = 0; i < n; i++)
        if (datadirs_enforce(&r->dirs, pending[i], &r->jerr) < 0)
            return runner_jail_failed(r);
    return 0;
}

static int play_turn(struct runner *r)
{
    int pending[GAME_MAX_PLAYERS];
    int n = r->rules->pending(r->g, pending, GAME_MAX_PLAYERS);
    int round = r->rules->round(r->g);
    if (n <= 0 || n > r->s->n_players)
        return runner_fail(r, "the engine asks no player for a reply, yet the game is not over");
    note_round(r, round);
    int rc = r->model == PROCESS_PER_TURN ? play_turn_processes(r, n, pending, round)
                                          : play_turn_dialogue(r, n, pending, round);
    return rc < 0 ? -1 : enforce_quotas(r, n, pending);
}

static int start_bots(struct runner *r)
{
    if (datadirs_open(&r->dirs, r->s, &r->jerr) < 0)
        return runner_jail_failed(r);
    for (int p = 1; p <= r->s->n_players; p++) {
        r->seats[p].player = p;
        r->seats[p].setup = r->s;   /* the record of a player whose bot is not a seat */
        r->seats[p].game = r->g;
        r->seats[p].phases = r->phases;
    }
    if (r->model == PROCESS_PER_TURN)
        return turns_open(&r->turns, r->s, &r->dirs, &r->jerr) < 0 ? runner_jail_failed(r) : 0;
    for (int p = 1; p <= r->s->n_players; p++)
        if ((!r->s->smoke_player || p == r->s->smoke_player) &&
            seat_start(&r->seats[p], r->s, &r->dirs, p, process_serial(r, p), &r->jerr) < 0)
            return runner_jail_failed(r);
    return 0;
}

static int create_game(struct runner *r)
{
    struct game_setup gs = {.map = r->s->map, .params = r->s->params, .seed = r->s->seed,
                            .players = r->s->n_players};
    struct game_error gerr = {0};
    if (r->rules->create(&gs, &r->g, &gerr) < 0)
        return runner_fail(r, "the engine refuses the match: %s", gerr.msg);
    r->model = r->rules->match_process_model ? r->rules->match_process_model(r->g) : r->rules->process_model;
    return 0;
}

static void player_meters(struct runner *r, int p, struct match_player_outcome *po)
{
    if (r->model == PROCESS_PER_TURN) {
        turns_meters(r->turns, p, &po->cpu_ns, &po->memory_peak_bytes);
        po->rss_peak_bytes = turns_rss_peak(r->turns, p);
    } else {
        seat_meters(&r->seats[p], &po->cpu_ns, &po->memory_peak_bytes);
        po->rss_peak_bytes = seat_rss_peak(&r->seats[p]);
    }
}

/* No cgroup counted the CPU of its children while they ran (the rlimit fallback)? */
static bool cpu_metered_late(const struct runner *r, int p)
{
    const struct seat *st = &r->seats[p];
    const struct isolation_report *iso = r->model == PROCESS_PER_TURN ? turns_isolation(r->turns, p)
                                         : st->has_report              ? &st->report.isolation
                                                                       : NULL;
    return iso && iso->state[LAYER_CPU_METER] != LAYER_ON;
}

/* Its CPU, its children's counted once reaped, passed its budget after the game was told of its
 * last reply (match_cpu_over_budget_at_end): CPU_LIMIT, with the figures, for the table's why. */
static void note_cpu_over_at_end(struct match_player_outcome *po, const struct seat *st, int rounds)
{
    struct match_violation *v = &po->violation;
    po->verdict = v->verdict = MATCH_CPU_LIMIT;
    v->round = rounds;
    v->reply = st->asked;
    v->limit_ns = po->budget_ns;
    v->figure_ns = po->cpu_ns;
    snprintf(v->reason, sizeof v->reason, "CPU time over the budget, found at its end with its children's");
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
        player_meters(r, p, po);
        if (po->verdict == MATCH_OK && cpu_metered_late(r, p) &&
            match_cpu_over_budget_at_end(po->cpu_ns, po->budget_ns))
            note_cpu_over_at_end(po, st, gr->rounds);
        if (stderr_tail(r, p, SIZE_MAX, &tail) == 0)
            po->stderr_tail = sb_steal(&tail);
        sb_free(&tail);
    }
}

static int finish_match(struct runner *r, struct match_outcome *out, uint64_t started_ns)
{
    struct game_result gr;
    if (deliver_and_end(r) < 0 || runner_wait_endings(r) < 0)
        return -1;
    if (r->rules->result(r->g, &gr) < 0)
        return runner_fail(r, "the engine gives no result");
    fill_outcome(r, &gr, out);
    return emit(r, replay_record_result(&r->line, r->s, out, monotonic_ns() - started_ns));
}

/* A smoke test: the player's first reply alone, judged as in a match; then its bot is ended. Nobody gets a
 * place: the outcome holds the player's verdict, violation, meters and stderr. */
static int play_smoke(struct runner *r, struct match_outcome *out)
{
    int pending[GAME_MAX_PLAYERS], p = r->s->smoke_player;
    int n = r->rules->pending(r->g, pending, GAME_MAX_PLAYERS);
    bool asked = false;
    for (int i = 0; i < n; i++)
        asked = asked || pending[i] == p;
    if (!asked)
        return runner_fail(r, "smoke test: player %d is not asked for the first reply", p);
    int round = r->rules->round(r->g);
    int rc = r->model == PROCESS_PER_TURN ? play_turn_processes(r, 1, &p, round)
                                          : play_turn_dialogue(r, 1, &p, round);
    if (rc < 0)
        return -1;
    if (r->model != PROCESS_PER_TURN && seat_begin_end(&r->seats[p], &r->jerr) < 0)
        return runner_jail_failed(r);
    if (runner_wait_endings(r) < 0)
        return -1;
    /* A forbidden call is answered EPERM before the kill lands, so a reply may get out first. */
    if (r->model != PROCESS_PER_TURN && !r->seats[p].violated)
        seat_note_sandbox_kill(&r->seats[p], round);
    struct game_result gr = {.players = r->s->n_players};
    gr.p[p].violation = r->seats[p].violated ? r->seats[p].violation.kind : VIOLATION_NONE;
    fill_outcome(r, &gr, out);
    return 0;
}

static int play(struct runner *r, struct match_outcome *out)
{
    struct isolation_report probe;
    uint64_t started_ns = monotonic_ns();
    if (jail_global_init(r->s->isolation, &probe, &r->jerr) < 0)
        return runner_jail_failed(r);
    if (create_game(r) < 0 || start_bots(r) < 0 || record_header(r) < 0 || record_events(r) < 0 ||
        deliver_and_end(r) < 0)
        return -1;
    if (r->s->smoke_player)
        return play_smoke(r, out);
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

static void release(struct runner *r)
{
    for (int p = 1; p <= r->s->n_players; p++)
        seat_abandon(&r->seats[p]);
    turns_close(r->turns);
    datadirs_close(&r->dirs);
    if (r->g)
        r->rules->destroy(r->g);
    sb_free(&r->line);
    sb_free(&r->text);
}

int match_play(const struct match_setup *s, struct replay_writer *replay, const struct match_hooks *hooks,
               struct match_outcome *out, struct match_error *err)
{
    return match_play_measured(s, replay, hooks, NULL, out, err);
}

int match_play_measured(const struct match_setup *s, struct replay_writer *replay,
                        const struct match_hooks *hooks, struct match_phases *phases, struct match_outcome *out,
                        struct match_error *err)
{
    struct runner *r = calloc(1, sizeof *r);
    memset(out, 0, sizeof *out);
    if (!r) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        internal_outcome(s, out);
        return -1;
    }
    *r = (struct runner){
        .s = s, .rules = s->rules, .replay = replay, .hooks = hooks, .phases = phases, .err = err};
    match_phases_start(phases);
    match_pin_begin(&r->pin, s);
    sigset_t old;
    block_sigpipe(&old);
    bool batch = jail_sched_referee_begin();
    int rc = play(r, out);
    if (rc < 0)
        internal_outcome(s, out);
    release(r);
    match_pin_end(&r->pin);
    jail_sched_referee_end(batch);
    restore_sigpipe(&old);
    free(r);
    match_phase_enter(phases, MATCH_PHASE_OTHER);   /* the last phase's time, counted */
    return rc;
}

void match_outcome_free(struct match_outcome *o)
{
    for (int p = 1; p <= o->players && p <= GAME_MAX_PLAYERS; p++) {
        free(o->p[p].stderr_tail);
        o->p[p].stderr_tail = NULL;
    }
}
