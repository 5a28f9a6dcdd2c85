/*
 * match_seat.c - one bot during a match: asking it for a reply, reading it,
 * and classifying what went wrong in the order of README C9 (memory,
 * forbidden system call, time, crash, invalid output; invalid moves are the
 * engine's). Time follows README C7: CPU read exactly when the reply's "\n"
 * arrives, the jail stopping a busy bot at its budget, and a wall deadline
 * counted from the end of writing the prompt.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "judge/match/match_seat.h"

#define NS_PER_MS 1000000ull
#define EXIT_SETTLE_NS (100 * NS_PER_MS)

static void set_error(struct jail_error *err, const char *what, const struct seat *st)
{
    snprintf(err->msg, sizeof err->msg, "player %d: %s", st->player, what);
}

uint64_t seat_budget_ns(const struct seat *st, int reply)
{
    const struct match_limits *l = &st->setup->limits;
    if (l->budget_base_ms == 0)
        return 0;
    return (l->budget_base_ms + (uint64_t)reply * l->budget_per_move_ms) * NS_PER_MS;
}

static uint64_t wall_start_ns(const struct seat *st)
{
    if (st->wall.from_start)
        return st->started_ns;
    return st->written_ns ? st->written_ns : st->due_ns;
}

uint64_t seat_wall_deadline_ns(const struct seat *st)
{
    return st->wall.ms ? wall_start_ns(st) + st->wall.ms * NS_PER_MS : 0;
}

/* ---- life of the jail -------------------------------------------------------------- */

int seat_start(struct seat *st, const struct match_setup *s, const struct match_datadirs *dirs, int player,
               int serial, struct jail_error *err)
{
    struct jail_spec spec;
    st->player = player;
    st->setup = s;
    st->dirs = dirs;
    st->serial = serial;
    st->raw = s->rules->submit_output != NULL;
    match_setup_jail_spec(s, player, &spec);
    if (dirs)
        datadirs_apply(dirs, player, &spec);
    if (jail_start(&spec, &st->jail, err) < 0) {
        st->jail = NULL;
        return -1;
    }
    st->started_ns = monotonic_ns();
    if (bot_channel_init(&st->ch, jail_stdin_fd(st->jail), jail_stdout_fd(st->jail), jail_stderr_fd(st->jail),
                         s->limits.max_line_bytes, s->limits.stderr_limit_kb * 1024) < 0) {
        set_error(err, "out of memory", st);
        return -1;
    }
    st->channel_ready = true;
    if (s->freeze && !jail_has_ended(st->jail))
        return jail_freeze(st->jail, err);
    return 0;
}

/* The jail closes the pipes: the channel must not touch those fds again. */
static void forget_fds(struct seat *st)
{
    st->ch.in_fd = st->ch.out_fd = st->ch.err_fd = -1;
}

int seat_finish(struct seat *st, struct jail_error *err)
{
    st->phase = SEAT_DONE;
    if (!st->jail)
        return 0;
    if (st->channel_ready)
        bot_channel_drain_stderr(&st->ch);
    int rc = jail_finish(st->jail, &st->report, err);
    st->jail = NULL;
    st->has_report = rc == 0;
    forget_fds(st);
    return rc;
}

void seat_abandon(struct seat *st)
{
    if (st->jail) {
        struct jail_error ignored;
        jail_kill(st->jail, VERDICT_INTERNAL_ERROR, "the match was abandoned");
        jail_finish(st->jail, &st->report, &ignored);
        st->jail = NULL;
        forget_fds(st);
    }
    if (st->channel_ready)
        bot_channel_free(&st->ch);
    st->channel_ready = false;
    sb_free(&st->text);
}

int seat_restart(struct seat *st, int serial, struct jail_error *err)
{
    uint64_t cpu, peak;
    struct seat kept = *st;
    if (st->jail) {
        snprintf(err->msg, sizeof err->msg, "player %d: internal: restarted while its process runs", st->player);
        return -1;
    }
    seat_meters(st, &cpu, &peak);
    uint64_t rss = seat_rss_peak(st);
    if (st->channel_ready)
        bot_channel_free(&st->ch);
    sb_free(&st->text);
    memset(st, 0, sizeof *st);
    st->asked = kept.asked;
    st->moves = kept.moves;
    st->violated = kept.violated;
    st->violation = kept.violation;
    st->game = kept.game;
    st->phases = kept.phases;
    st->cpu_before_ns = cpu;
    st->memory_peak_before = peak;
    st->rss_peak_before = rss;
    return seat_start(st, kept.setup, kept.dirs, kept.player, serial, err);
}

void seat_meters(const struct seat *st, uint64_t *cpu_ns, uint64_t *memory_peak)
{
    *cpu_ns = st->cpu_before_ns + (st->has_report ? st->report.cpu_ns : 0);
    *memory_peak = st->memory_peak_before;
    if (st->has_report && st->report.memory_peak_bytes > *memory_peak)
        *memory_peak = st->report.memory_peak_bytes;
}

uint64_t seat_rss_peak(const struct seat *st)
{
    uint64_t now = st->has_report ? st->report.rss_peak_bytes : 0;
    return now > st->rss_peak_before ? now : st->rss_peak_before;
}

int seat_stderr_tail(struct seat *st, size_t max, struct strbuf *out)
{
    if (!st->channel_ready)
        return 0;
    bot_channel_drain_stderr(&st->ch);
    return bot_channel_stderr_tail(&st->ch, max, out);
}

/* ---- violations ------------------------------------------------------------------------ */

static void note_violation(struct seat *st, enum violation_kind kind, bool wall, int round)
{
    struct match_violation *v = &st->violation;
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->verdict = match_verdict_of(kind, wall);
    v->round = round;
    v->reply = st->asked;
    st->violated = true;
    st->reply = REPLY_VIOLATION;
}

static void note_line(struct seat *st, const char *text, size_t len)
{
    match_violation_set_line(&st->violation, text, len);
}

/* The sandbox killed the bot for memory or a system call (C9 1 and 2)? */
bool seat_note_sandbox_kill(struct seat *st, int round)
{
    const struct jail_report *r = &st->report;
    if (!st->has_report)
        return false;
    if (r->verdict == VERDICT_MEMORY_LIMIT) {
        note_violation(st, VIOLATION_MEMORY, false, round);
        st->violation.limit_bytes = st->setup->limits.memory_limit_mb << 20;
        st->violation.figure_bytes = r->memory_peak_bytes;
        snprintf(st->violation.reason, sizeof st->violation.reason, "memory limit of %llu MiB reached",
                 (unsigned long long)st->setup->limits.memory_limit_mb);
        return true;
    }
    if (r->verdict == VERDICT_FORBIDDEN_SYSCALL) {
        note_violation(st, VIOLATION_SYSCALL, false, round);
        st->violation.has_syscall = r->has_syscall;
        st->violation.syscall = r->syscall;
        snprintf(st->violation.reason, sizeof st->violation.reason, "forbidden system call %s",
                 r->has_syscall ? r->syscall.name : "(unknown)");
        return true;
    }
    return false;
}

/* The CPU its process used since the reply owed was asked for, once the jail is finished. */
static uint64_t cpu_since_asked(const struct seat *st)
{
    return st->has_report && st->report.cpu_ns > st->cpu_asked_ns ? st->report.cpu_ns - st->cpu_asked_ns : 0;
}

static void note_time(struct seat *st, int round, bool wall, uint64_t figure_ns)
{
    note_violation(st, VIOLATION_TIME, wall, round);
    st->violation.limit_ns = wall ? st->wall.ms * NS_PER_MS : seat_budget_ns(st, st->asked);
    st->violation.figure_ns = figure_ns;
    st->violation.cpu_waited_ns = wall ? cpu_since_asked(st) : 0;
    if (wall)
        snprintf(st->violation.reason, sizeof st->violation.reason, "no complete reply within %s",
                 st->wall.param ? st->wall.param : match_wall_param(&st->setup->limits));
    else
        snprintf(st->violation.reason, sizeof st->violation.reason, "CPU time over the budget");
}

/* A time violation while the bot still runs: kill it now, then classify. */
static int violate_time(struct seat *st, int round, bool wall, uint64_t figure_ns, const char *line,
                        size_t len, struct jail_error *err)
{
    jail_kill(st->jail, wall ? VERDICT_WALL_LIMIT : VERDICT_CPU_LIMIT,
              wall ? "move_wall_ms passed" : "CPU budget passed");
    if (seat_finish(st, err) < 0)
        return -1;
    if (!seat_note_sandbox_kill(st, round)) {
        note_time(st, round, wall, figure_ns);
        match_violation_note_process_limit(&st->violation, &st->report, st->setup->limits.pids);
    }
    if (line)
        note_line(st, line, len);
    return 0;
}

static void note_crash(struct seat *st, int round, const char *why)
{
    note_violation(st, VIOLATION_CRASH, false, round);
    char *reason = st->violation.reason;
    size_t size = sizeof st->violation.reason;
    if (why)
        snprintf(reason, size, "%s before the reply was complete", why);
    else if (st->report.signal)
        snprintf(reason, size, "killed by signal %d (%s) before the reply was complete", st->report.signal,
                 sigabbrev_np(st->report.signal) ? sigabbrev_np(st->report.signal) : "?");
    else
        snprintf(reason, size, "exited with status %d before the reply was complete", st->report.exit_code);
}

/* C9 in order, once the jail is finished: memory, system call, time, crash. */
static void note_end_cause(struct seat *st, int round, const char *why, uint64_t ended_at_ns)
{
    uint64_t budget = seat_budget_ns(st, st->asked), deadline = seat_wall_deadline_ns(st);
    if (seat_note_sandbox_kill(st, round))
        return;
    if (budget && st->report.cpu_ns > budget)
        note_time(st, round, false, st->report.cpu_ns);
    else if (deadline && ended_at_ns > deadline)
        note_time(st, round, true, ended_at_ns - wall_start_ns(st));
    else
        note_crash(st, round, why);
    match_violation_note_process_limit(&st->violation, &st->report, st->setup->limits.pids);
}

/* A bot's stdout reaches EOF as it exits, a moment before the jail sees the exit:
 * wait that moment before deciding it closed stdout and lives on. */
static bool ends_soon(struct seat *st, struct jail_error *err)
{
    struct jail_wait_entry e = {.jail = st->jail, .fd = -1, .deadline_ns = monotonic_ns() + EXIT_SETTLE_NS};
    while (!jail_has_ended(st->jail) && monotonic_ns() < e.deadline_ns)
        if (jail_wait_any(&e, 1, err) < 0 || e.event == JAIL_EVENT_WALL_LIMIT)
            break;
    return jail_has_ended(st->jail);
}

/* The bot ended, or closed its stdout (why), before its reply was complete. */
static int classify_end(struct seat *st, int round, const char *why, const struct bot_line *partial,
                        struct jail_error *err)
{
    uint64_t now = monotonic_ns();
    bool ended_by_itself = jail_has_ended(st->jail) || ends_soon(st, err);
    if (!ended_by_itself)
        jail_kill(st->jail, VERDICT_RUNTIME_ERROR, why ? why : "stopped before its reply");
    if (seat_finish(st, err) < 0)
        return -1;
    note_end_cause(st, round, ended_by_itself ? NULL : why, now);
    if (partial && partial->len) {
        note_line(st, partial->text, partial->len);
        st->violation.line_cut_short = true;
    }
    return 0;
}

/* ---- the reply -------------------------------------------------------------------------- */

static int freeze(struct seat *st, struct jail_error *err)
{
    enum match_phase was = match_phase_enter(st->phases, MATCH_PHASE_FREEZE);
    int rc = jail_freeze(st->jail, err);
    match_phase_enter(st->phases, was);
    return rc;
}

static int thaw(struct seat *st, struct jail_error *err)
{
    enum match_phase was = match_phase_enter(st->phases, MATCH_PHASE_THAW);
    int rc = jail_thaw(st->jail, err);
    match_phase_enter(st->phases, was);
    return rc;
}

/* CPU time, exact: read as it is when the bot is provably asleep (its reply
 * written, blocked on its stdin), else frozen first (left frozen when bots are). */
static int read_cpu_exact(struct seat *st, uint64_t *cpu, struct jail_error *err)
{
    enum match_phase was = match_phase_enter(st->phases, MATCH_PHASE_CPU_READ);
    /* jail_cpu_ns_if_idle answers 0 for a jail that has ended, without a system call of its own */
    bool idle = !jail_is_frozen(st->jail) && jail_cpu_ns_if_idle(st->jail, cpu) == 1;
    match_phase_enter(st->phases, was);
    st->idle_on_stdin = idle && jail_idle_reads_stdin(st->jail);
    st->idle_cpu_ns = idle ? *cpu : 0;
    if (idle)
        return 0;
    bool ended = jail_has_ended(st->jail);
    if (!ended && st->setup->freeze && !jail_is_frozen(st->jail) && freeze(st, err) < 0)
        return -1;
    was = match_phase_enter(st->phases, MATCH_PHASE_CPU_READ);
    int rc = jail_cpu_ns_exact(st->jail, cpu, err);
    match_phase_enter(st->phases, was);
    if (rc == 0)
        return 0;
    if (!jail_has_ended(st->jail))
        return -1;
    *cpu = jail_cpu_ns(st->jail);
    return 0;
}

/* C9 3: over the CPU budget when the reply was complete, or past the wall deadline? */
static int check_time(struct seat *st, int round, const char *line, size_t len, bool *violated,
                      struct jail_error *err)
{
    uint64_t cpu, now = monotonic_ns(), budget = seat_budget_ns(st, st->asked);
    uint64_t deadline = seat_wall_deadline_ns(st);
    *violated = false;
    if (read_cpu_exact(st, &cpu, err) < 0)
        return -1;
    st->reply_used_ns = cpu > st->reply_cpu_ns ? cpu - st->reply_cpu_ns : cpu;
    st->reply_cpu_ns = cpu;
    st->reply_wall_ns = now - wall_start_ns(st);
    bool over_cpu = budget && cpu > budget;
    bool over_wall = !over_cpu && deadline && now > deadline;
    if (!over_cpu && !over_wall)
        return 0;
    *violated = true;
    return violate_time(st, round, over_wall, over_cpu ? cpu : st->reply_wall_ns, line, len, err);
}

static int complete_reply(struct seat *st, int round, struct jail_error *err)
{
    bool late;
    if (check_time(st, round, st->text.data, st->text.len, &late, err) < 0)
        return -1;
    if (!late)
        st->reply = REPLY_COMPLETE;
    return 0;
}

static int invalid_output(struct seat *st, int round, const struct bot_line *ln, struct jail_error *err)
{
    bool late;
    if (check_time(st, round, ln->text, ln->len, &late, err) < 0)
        return -1;
    if (late)
        return 0;
    note_violation(st, VIOLATION_INVALID_OUTPUT, false, round);
    snprintf(st->violation.reason, sizeof st->violation.reason, "%s", ln->reason);
    note_line(st, ln->text, ln->len);
    return 0;
}

static int add_line(struct seat *st, const struct bot_line *ln)
{
    if (st->got_lines > 0 && sb_putc(&st->text, '\n') < 0)
        return -1;
    st->got_lines++;
    return sb_append(&st->text, ln->text, ln->len);
}

/* game.h reply_line_check on a line that is not the reply's last: 1 when the game refuses the
 * reply at once (D11 of sea battle), which then ends at this line. */
static int line_refused(struct seat *st, const struct bot_line *ln, struct jail_error *err)
{
    const struct game_rules *rules = st->setup->rules;
    struct game_verdict v = {0};
    if (!rules->reply_line_check || st->got_lines >= st->want_lines)
        return 0;
    if (rules->reply_line_check(st->game, st->player, st->got_lines - 1, ln->text, ln->len, &v) < 0) {
        set_error(err, "internal: the engine cannot check a reply line", st);
        return -1;
    }
    return v.kind != VIOLATION_NONE;
}

/* A raw reply (game.h submit_output): bytes up to its last "\n", judged by the game. */
static int pump_raw(struct seat *st, int round, struct jail_error *err)
{
    struct bot_line partial;
    switch (raw_reply_read(&st->ch, &st->raw_reply, &st->text)) {
    case RAW_REPLY_NONE:
        return 0;
    case RAW_REPLY_COMPLETE:
        return complete_reply(st, round, err);
    case RAW_REPLY_EOF:
        partial = (struct bot_line){.text = st->text.data ? st->text.data : "", .len = st->text.len};
        return classify_end(st, round, "closed its stdout", &partial, err);
    case RAW_REPLY_ERROR:
        break;
    }
    set_error(err, "cannot read the bot's stdout", st);
    return -1;
}

int seat_pump(struct seat *st, int round, struct jail_error *err)
{
    if (st->reply != REPLY_WAITING)
        return 0;
    enum match_phase was = match_phase_enter(st->phases, MATCH_PHASE_WRITE);
    int flushed = bot_channel_flush(&st->ch);
    match_phase_enter(st->phases, was);
    if (flushed < 0) {
        set_error(err, "cannot write to the bot's stdin", st);
        return -1;
    }
    if (flushed == 1 && st->written_ns == 0)
        st->written_ns = monotonic_ns();
    if (st->raw)
        return pump_raw(st, round, err);
    for (;;) {
        struct bot_line ln;
        was = match_phase_enter(st->phases, MATCH_PHASE_READ);
        bot_channel_read_line(&st->ch, &ln);
        match_phase_enter(st->phases, was);
        switch (ln.status) {
        case BOT_LINE_NONE:
            return 0;
        case BOT_LINE_OK:
            if (add_line(st, &ln) < 0) {
                set_error(err, "out of memory", st);
                return -1;
            }
            int refused = line_refused(st, &ln, err);
            if (refused < 0)
                return -1;
            if (refused || st->got_lines == st->want_lines)
                return complete_reply(st, round, err);
            break;
        case BOT_LINE_INVALID:
            return invalid_output(st, round, &ln, err);
        case BOT_LINE_EOF:
            return classify_end(st, round, "closed its stdout", &ln, err);
        case BOT_LINE_ERROR:
            set_error(err, ln.reason, st);
            return -1;
        }
    }
}

/* Before its next prompt: did a bot left unheld run meanwhile? */
static void note_self_wake(struct seat *st)
{
    if (st->hold_skipped && jail_cpu_ns(st->jail) > st->idle_cpu_ns)
        st->wakes_itself = true;
    st->hold_skipped = false;
}

int seat_ask(struct seat *st, const char *prompt, size_t len, int lines, const struct game_reply_wall *wall,
             int round, struct jail_error *err)
{
    st->asked++;
    st->wall = *wall;
    st->reply = REPLY_WAITING;
    st->want_lines = lines > 0 ? lines : 1;
    st->got_lines = 0;
    raw_reply_begin(&st->raw_reply, raw_reply_cap(st->setup), st->want_lines);
    sb_reset(&st->text);
    st->due_ns = monotonic_ns();
    st->written_ns = 0;
    st->cpu_asked_ns = st->reply_cpu_ns;
    st->reply_used_ns = UINT64_MAX;
    if (st->overspent)
        return violate_time(st, round, false, st->overspent_cpu_ns, NULL, 0, err);
    if (st->ended_unseen || jail_has_ended(st->jail))
        return seat_ended(st, round, err);
    note_self_wake(st);
    if (seat_send(st, prompt, len, err) < 0)
        return -1;
    if (!bot_channel_has_unsent(&st->ch))
        st->written_ns = monotonic_ns();
    if (jail_is_frozen(st->jail) && thaw(st, err) < 0)
        return -1;
    bot_channel_stdout_await(&st->ch);   /* the reply cannot be there yet: the wait reports it */
    return seat_pump(st, round, err);
}

int seat_hold(struct seat *st, struct jail_error *err)
{
    if (!st->setup->freeze || st->phase != SEAT_PLAYING || !st->jail || st->reply == REPLY_WAITING ||
        st->hold_skipped || jail_is_frozen(st->jail))
        return 0;
    if (st->idle_on_stdin && !st->wakes_itself) {
        st->hold_skipped = true;
        return 0;
    }
    if (jail_has_ended(st->jail))   /* a system call: asked only where a freeze would follow */
        return 0;
    enum match_phase was = match_phase_enter(st->phases, MATCH_PHASE_FREEZE);
    int rc = jail_hold(st->jail, err);
    match_phase_enter(st->phases, was);
    return rc;
}

int seat_cpu_limit_hit(struct seat *st, int round, struct jail_error *err)
{
    uint64_t cpu;
    if (jail_cpu_ns_exact(st->jail, &cpu, err) < 0)
        cpu = jail_cpu_ns(st->jail);
    if (cpu <= seat_budget_ns(st, st->asked))   /* not over after all: it is its turn, let it run */
        return jail_is_frozen(st->jail) ? jail_thaw(st->jail, err) : 0;
    return violate_time(st, round, false, cpu, NULL, 0, err);
}

/* What came of the reply owed, for the evidence: in text its lines so far, each with its "\n",
 * then the bytes of the line begun (a raw reply's text holds every byte read already). */
static int take_cut_short(struct seat *st)
{
    if (st->raw)
        return 0;
    const char *begun;
    size_t n = bot_channel_partial_line(&st->ch, &begun);
    if (st->got_lines > 0 && sb_putc(&st->text, '\n') < 0)
        return -1;
    return sb_append(&st->text, begun, n);
}

int seat_deadline_passed(struct seat *st, int round, struct jail_error *err)
{
    uint64_t now = monotonic_ns(), deadline = seat_wall_deadline_ns(st);
    if (!deadline || now < deadline)
        return 0;   /* only time to retry writing the prompt */
    uint64_t waited = now - wall_start_ns(st);   /* before the pump, which may finish writing the prompt */
    if (seat_pump(st, round, err) < 0)   /* what came before the deadline is read, and judged, first */
        return -1;
    if (st->reply != REPLY_WAITING)
        return 0;
    if (take_cut_short(st) < 0) {
        set_error(err, "out of memory", st);
        return -1;
    }
    const char *line = st->text.len ? st->text.data : NULL;
    if (violate_time(st, round, true, waited, line, st->text.len, err) < 0)
        return -1;
    st->violation.line_cut_short = st->violation.has_line;
    return 0;
}

int seat_ended(struct seat *st, int round, struct jail_error *err)
{
    bot_channel_stdout_woken(&st->ch);   /* what it wrote before it ended is read to its EOF */
    if (seat_pump(st, round, err) < 0)
        return -1;
    if (st->reply != REPLY_WAITING)
        return 0;
    return classify_end(st, round, NULL, NULL, err);
}

/* ---- messages and the end ----------------------------------------------------------------- */

int seat_send(struct seat *st, const char *data, size_t len, struct jail_error *err)
{
    if (!st->jail || !st->channel_ready || len == 0)
        return 0;
    enum match_phase was = match_phase_enter(st->phases, MATCH_PHASE_WRITE);
    int rc = bot_channel_send(&st->ch, data, len);
    match_phase_enter(st->phases, was);
    if (rc < 0) {
        set_error(err, "cannot write to the bot's stdin", st);
        return -1;
    }
    return 0;
}

int seat_end_progress(struct seat *st, struct jail_error *err)
{
    if (st->phase != SEAT_ENDING || !st->jail)
        return 0;
    if (bot_channel_flush(&st->ch) < 0) {
        set_error(err, "cannot write to the bot's stdin", st);
        return -1;
    }
    if (!bot_channel_has_unsent(&st->ch) && st->ch.in_fd >= 0) {
        jail_close_stdin(st->jail);
        bot_channel_stdin_closed(&st->ch);
    }
    return 0;
}

int seat_begin_end(struct seat *st, struct jail_error *err)
{
    if (st->phase != SEAT_PLAYING)
        return 0;
    if (!st->jail) {
        st->phase = SEAT_DONE;
        return 0;
    }
    st->phase = SEAT_ENDING;
    st->reply = REPLY_IDLE;
    st->grace_deadline_ns = monotonic_ns() + st->setup->limits.grace_ms * NS_PER_MS;
    if (!jail_has_ended(st->jail) && jail_is_frozen(st->jail) && jail_thaw(st->jail, err) < 0)
        return -1;
    return seat_end_progress(st, err);
}
