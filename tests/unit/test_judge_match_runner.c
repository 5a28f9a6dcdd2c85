/*
 * test_judge_match_runner.c - the match runner with real jailed bots (/bin/sh
 * scripts) and a scripted fake game, so every runner rule is tested on its own:
 * replies, README C3 output errors, C7 time (CPU budget and wall limit), C9
 * classification, C10 end of a bot, freezing, a bot that never reads stdin, the
 * stderr tail, and the order of the replay lines.
 *
 * The "echo" game: every player in turn gets "ask R\n" (R = the round) and must
 * answer R. "x" is invalid output, another number an invalid move; either
 * eliminates the player, as any violation does. The game ends after `rounds`
 * rounds or when one player is left; each bot then gets "bye\n".
 */
#include <check.h>
#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/match/match.h"
#include "judge/match/match_phases.h"
#include "replay/replay.h"

/* ---- the echo game ------------------------------------------------------------------- */

enum { EP_ROUNDS, EP_BUDGET_BASE, EP_BUDGET_PER_MOVE, EP_MOVE_WALL, EP_MEMORY, EP_MAX_LINE, EP_PROMPT_PAD, EP_COUNT };
static const struct game_param echo_params[EP_COUNT] = {
    [EP_ROUNDS] = {"rounds", 3, 1, 1000, "rounds"},
    [EP_BUDGET_BASE] = {"budget_base_ms", 2000, 0, 100000, "CPU budget"},
    [EP_BUDGET_PER_MOVE] = {"budget_per_move_ms", 1, 0, 1000, "per reply"},
    [EP_MOVE_WALL] = {"move_wall_ms", 5000, 0, 100000, "wall limit"},
    [EP_MEMORY] = {"memory_limit_mb", 64, 1, 1024, "memory"},
    [EP_MAX_LINE] = {"max_line_bytes", 32, 16, 4096, "line"},
    [EP_PROMPT_PAD] = {"prompt_pad", 0, 0, 1 << 20, "bytes of '.' lines before each ask"},
};

struct echo_map { int players; };
struct echo {
    struct game base;
    int players, round, turn, alive_count;
    int64_t rounds, pad;
    bool alive[GAME_MAX_PLAYERS + 1], over;
    struct strbuf outbox[GAME_MAX_PLAYERS + 1], events;
};

static int echo_map_players(const struct game_map *m) { return ((const struct echo_map *)m)->players; }
static void echo_map_free(struct game_map *m) { free(m); }

static int echo_create(const struct game_setup *s, struct game **out, struct game_error *err)
{
    (void)err;
    struct echo *g = calloc(1, sizeof *g);
    g->players = g->alive_count = s->players;
    g->rounds = s->params[EP_ROUNDS];
    g->pad = s->params[EP_PROMPT_PAD];
    g->round = g->turn = 1;
    for (int p = 1; p <= g->players; p++) {
        g->alive[p] = true;
        sb_printf(&g->outbox[p], "hello %d\n", p);
    }
    sb_puts(&g->events, "{\"t\":\"start\"}\n");
    *out = &g->base;
    return 0;
}

static void echo_destroy(struct game *gg)
{
    struct echo *g = (struct echo *)gg;
    for (int p = 0; p <= GAME_MAX_PLAYERS; p++)
        sb_free(&g->outbox[p]);
    sb_free(&g->events);
    free(g);
}

static void echo_end(struct echo *g)
{
    g->over = true;
    for (int p = 1; p <= g->players; p++)
        if (g->alive[p])
            sb_puts(&g->outbox[p], "bye\n");
}

/* The next living player's turn, or the end. */
static void echo_advance(struct echo *g)
{
    if (g->alive_count < 2)
        return echo_end(g);
    do {
        if (++g->turn > g->players) {
            g->turn = 1;
            if (++g->round > g->rounds)
                return echo_end(g);
        }
    } while (!g->alive[g->turn]);
}

static void echo_eliminate(struct echo *g, int p, enum violation_kind kind)
{
    g->alive[p] = false;
    g->alive_count--;
    sb_puts(&g->outbox[p], "bye\n");
    sb_printf(&g->events, "{\"t\":\"out\",\"player\":%d,\"by\":\"%s\"}\n", p, violation_name(kind));
}

static int echo_pending(const struct game *gg, int *players, int max)
{
    const struct echo *g = (const struct echo *)gg;
    if (g->over || max < 1)
        return 0;
    players[0] = g->turn;
    return 1;
}

static int echo_prompt(struct game *gg, int p, struct strbuf *out)
{
    struct echo *g = (struct echo *)gg;
    (void)p;
    for (int64_t i = 0; i < g->pad; i += 64)
        sb_puts(out, "...............................................................\n");
    return sb_printf(out, "ask %d\n", g->round);
}

static int echo_reply_lines(const struct game *g, int p) { (void)g; (void)p; return 1; }

static int echo_submit(struct game *gg, int p, const char *const *lines, int n, struct game_verdict *v)
{
    struct echo *g = (struct echo *)gg;
    char *end;
    long x = strtol(lines[0], &end, 10);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(p, g->turn);
    v->kind = VIOLATION_NONE;
    if (end == lines[0] || *end)
        v->kind = VIOLATION_INVALID_OUTPUT;
    else if (x != g->round)
        v->kind = VIOLATION_INVALID_MOVE;
    if (v->kind != VIOLATION_NONE) {
        snprintf(v->reason, sizeof v->reason, "expected %d", g->round);
        echo_eliminate(g, p, v->kind);
    } else {
        sb_printf(&g->events, "{\"t\":\"ok\",\"player\":%d,\"round\":%d}\n", p, g->round);
    }
    echo_advance(g);
    return 0;
}

static int echo_violation(struct game *gg, int p, enum violation_kind kind)
{
    struct echo *g = (struct echo *)gg;
    echo_eliminate(g, p, kind);
    echo_advance(g);
    return 0;
}

static int echo_outbox(struct game *gg, int p, struct strbuf *out)
{
    struct echo *g = (struct echo *)gg;
    int rc = sb_append(out, g->outbox[p].data ? g->outbox[p].data : "", g->outbox[p].len);
    sb_reset(&g->outbox[p]);
    return rc;
}

static bool echo_player_done(const struct game *gg, int p)
{
    const struct echo *g = (const struct echo *)gg;
    return g->over || !g->alive[p];
}

static bool echo_over(const struct game *gg) { return ((const struct echo *)gg)->over; }

static int echo_result(const struct game *gg, struct game_result *out)
{
    const struct echo *g = (const struct echo *)gg;
    memset(out, 0, sizeof *out);
    out->players = g->players;
    out->rounds = g->round > g->rounds ? (int)g->rounds : g->round;
    for (int p = 1; p <= g->players; p++) {
        out->p[p].alive = g->alive[p];
        out->p[p].place = g->alive[p] ? 1 : g->alive_count + 1;
    }
    out->draw = g->alive_count > 1;
    for (int p = 1; p <= g->players && g->alive_count == 1; p++)
        if (g->alive[p])
            out->winner = p;
    return 0;
}

static int echo_take_events(struct game *gg, struct strbuf *out)
{
    struct echo *g = (struct echo *)gg;
    int rc = sb_append(out, g->events.data ? g->events.data : "", g->events.len);
    sb_reset(&g->events);
    return rc;
}

static int echo_round(const struct game *gg) { return ((const struct echo *)gg)->round; }

static const struct game_rules echo_rules = {
    .name = "echo", .params = echo_params, .n_params = EP_COUNT, .process_model = PROCESS_PER_MATCH,
    .time_model = TIME_CPU_BUDGET, .min_players = 2, .max_players = 8,
    .map_players = echo_map_players, .map_free = echo_map_free,
    .create = echo_create, .destroy = echo_destroy, .pending = echo_pending, .prompt = echo_prompt,
    .reply_lines = echo_reply_lines, .submit = echo_submit, .violation = echo_violation,
    .outbox = echo_outbox, .player_done = echo_player_done, .over = echo_over, .result = echo_result,
    .take_events = echo_take_events, .round = echo_round,
};

/* ---- bots ---------------------------------------------------------------------------- */

/* Answers every "ask R" with R; exits at anything else ("bye"). */
#define GOOD_BOT "read hello; while read word round; do [ \"$word\" = ask ] || exit 0; echo $round; done"
/* Like GOOD_BOT, but skips the padding lines of prompt_pad. */
#define GOOD_PAD_BOT \
    "read hello; while read word round; do case $word in .*) continue;; ask) echo $round;; *) exit 0;; esac; done"
/* GOOD_BOT for its first `n` asks, then runs `then`. */
#define BOT_THEN(n, then) \
    "read hello; i=0; while read word round; do i=$((i+1)); if [ $i -gt " #n " ]; then " then "; fi; echo $round; done"

struct match {
    struct match_setup s;
    char *argv[GAME_MAX_PLAYERS][4];
    struct match_outcome out;
    struct match_error err;
    char replay_path[128];
    int rc;
};

static struct echo_map the_map;

static void setup_match(struct match *m, int players, const char *const *scripts)
{
    memset(m, 0, sizeof *m);
    m->s.rules = &echo_rules;
    game_params_defaults(&echo_rules, m->s.params);
    the_map.players = players;
    m->s.map = (struct game_map *)&the_map;
    m->s.map_text = "echo";
    m->s.map_source = "test";
    m->s.seed = 1;
    m->s.n_players = players;
    m->s.isolation = ISOLATION_STRICT;
    m->s.freeze = true;
    m->s.limits = (struct match_limits){.pids = 64, .stderr_limit_kb = 64, .grace_ms = 1000, .tmp_mb = 16};
    static char *names[] = {"p1", "p2", "p3", "p4"};
    for (int p = 0; p < players; p++) {
        m->argv[p][0] = "/bin/sh";
        m->argv[p][1] = "-c";
        m->argv[p][2] = (char *)scripts[p];
        m->s.players[p] = (struct match_player){.name = names[p], .argv = m->argv[p], .argc = 3, .profile = "default"};
    }
}

static void set_param(struct match *m, const char *name, int64_t v)
{
    struct game_error gerr;
    ck_assert_int_eq(game_param_set(&echo_rules, m->s.params, name, v, &gerr), 0);
}

static void take_limits(struct match *m)
{
    m->s.limits.budget_base_ms = (uint64_t)m->s.params[EP_BUDGET_BASE];
    m->s.limits.budget_per_move_ms = (uint64_t)m->s.params[EP_BUDGET_PER_MOVE];
    m->s.limits.move_wall_ms = (uint64_t)m->s.params[EP_MOVE_WALL];
    m->s.limits.memory_limit_mb = (uint64_t)m->s.params[EP_MEMORY];
    m->s.limits.max_line_bytes = (uint64_t)m->s.params[EP_MAX_LINE];
}

static void play(struct match *m)
{
    struct replay_writer *w;
    struct replay_error rerr;
    take_limits(m);
    snprintf(m->replay_path, sizeof m->replay_path, "/tmp/test_match_runner.%d.jsonl.gz", (int)getpid());
    ck_assert_int_eq(replay_writer_open(m->replay_path, &w, &rerr), 0);
    m->rc = match_play(&m->s, w, NULL, &m->out, &m->err);
    ck_assert_msg(m->rc == 0, "match_play: %s", m->err.msg);
    ck_assert_int_eq(replay_writer_commit(w, &rerr), 0);
}

static void done(struct match *m)
{
    match_outcome_free(&m->out);
    unlink(m->replay_path);
}

/* The replay's lines, as "type" or "type:detail" words joined by spaces. */
static void replay_shape(struct match *m, struct strbuf *shape)
{
    struct replay_reader *rd;
    struct replay_error err;
    struct json_object *o, *v;
    ck_assert_int_eq(replay_reader_open(m->replay_path, &rd, &err), 0);
    int rc;
    while ((rc = replay_reader_next(rd, &o, &err)) == 1) {
        json_object_object_get_ex(o, "type", &v);
        const char *type = json_object_get_string(v);
        if (shape->len)
            sb_putc(shape, ' ');
        if (!strcmp(type, "reply") && json_object_object_get_ex(o, "line", &v))
            sb_printf(shape, "reply:%s", json_object_get_string(v));
        else if (!strcmp(type, "event") && json_object_object_get_ex(o, "event", &v) &&
                 json_object_object_get_ex(v, "t", &v))
            sb_printf(shape, "event:%s", json_object_get_string(v));
        else if (!strcmp(type, "violation") && json_object_object_get_ex(o, "verdict", &v))
            sb_printf(shape, "violation:%s", json_object_get_string(v));
        else
            sb_puts(shape, type);
        json_object_put(o);
    }
    ck_assert_msg(rc == 0, "%s", err.msg);
    replay_reader_close(rd);
}

/* The violation line of the replay (the first one). */
static struct json_object *replay_violation(struct match *m)
{
    struct replay_reader *rd;
    struct replay_error err;
    struct json_object *o, *v, *found = NULL;
    ck_assert_int_eq(replay_reader_open(m->replay_path, &rd, &err), 0);
    while (replay_reader_next(rd, &o, &err) == 1) {
        json_object_object_get_ex(o, "type", &v);
        if (!found && !strcmp(json_object_get_string(v), "violation"))
            found = o;
        else
            json_object_put(o);
    }
    replay_reader_close(rd);
    ck_assert_ptr_nonnull(found);
    return found;
}

static int64_t evidence_int(struct json_object *violation, const char *key)
{
    struct json_object *e, *v;
    ck_assert(json_object_object_get_ex(violation, "evidence", &e));
    ck_assert_msg(json_object_object_get_ex(e, key, &v), "no evidence.%s", key);
    return json_object_get_int64(v);
}

static const char *evidence_str(struct json_object *violation, const char *key)
{
    struct json_object *e, *v;
    ck_assert(json_object_object_get_ex(violation, "evidence", &e));
    ck_assert_msg(json_object_object_get_ex(e, key, &v), "no evidence.%s", key);
    return json_object_get_string(v);
}

/* ---- tests ------------------------------------------------------------------------------ */

START_TEST(two_good_bots_play_every_round_and_the_replay_records_it_in_order)
{
    struct match m;
    const char *const bots[] = {GOOD_BOT, GOOD_BOT};
    struct strbuf shape = STRBUF_INIT;
    setup_match(&m, 2, bots);
    play(&m);
    ck_assert_int_eq(m.out.replies, 6);
    ck_assert(m.out.draw);
    for (int p = 1; p <= 2; p++) {
        ck_assert_int_eq(m.out.p[p].verdict, MATCH_OK);
        ck_assert_int_eq(m.out.p[p].moves, 3);
        ck_assert_int_eq(m.out.p[p].place, 1);
        ck_assert_uint_gt(m.out.p[p].cpu_ns, 0);
        ck_assert_uint_eq(m.out.p[p].budget_ns, 2003000000ull);
    }
    replay_shape(&m, &shape);
    ck_assert_str_eq(shape.data, "header event:start reply:1 event:ok reply:1 event:ok reply:2 event:ok "
                                 "reply:2 event:ok reply:3 event:ok reply:3 event:ok result");
    sb_free(&shape);
    done(&m);
}
END_TEST

/* Each phase of a reply is entered once per reply, and the phases share out the
 * judge thread's CPU without counting any of it twice. */
START_TEST(a_measured_match_shares_the_judges_cpu_out_by_phase)
{
    struct match m;
    const char *const bots[] = {GOOD_BOT, GOOD_BOT};
    struct match_phases ph = {0};
    setup_match(&m, 2, bots);
    take_limits(&m);
    uint64_t before = match_phases_thread_ns();
    m.rc = match_play_measured(&m.s, NULL, NULL, &ph, &m.out, &m.err);
    uint64_t spent = match_phases_thread_ns() - before, shared = 0;
    ck_assert_msg(m.rc == 0, "match_play: %s", m.err.msg);
    ck_assert_int_eq(m.out.replies, 6);
    ck_assert_uint_eq(ph.entries[MATCH_PHASE_PROMPT], 6);
    ck_assert_uint_eq(ph.entries[MATCH_PHASE_APPLY], 6);
    ck_assert_uint_ge(ph.entries[MATCH_PHASE_CPU_READ], 6);   /* twice when the bot is not seen asleep */
    ck_assert_uint_ge(ph.entries[MATCH_PHASE_WRITE], 6);
    ck_assert_uint_ge(ph.entries[MATCH_PHASE_READ], 6);
    ck_assert_uint_eq(ph.entries[MATCH_PHASE_COMPRESS], 0);   /* no replay writer */
    for (int i = 0; i < MATCH_PHASE_COUNT; i++) {
        shared += ph.ns[i];
        ck_assert_str_ne(match_phase_name((enum match_phase)i), "?");
    }
    ck_assert_uint_gt(ph.ns[MATCH_PHASE_PROMPT] + ph.ns[MATCH_PHASE_WRITE], 0);
    ck_assert_uint_le(shared, spent);
    match_outcome_free(&m.out);
}
END_TEST

START_TEST(a_crash_is_a_runtime_error_and_the_others_play_on)
{
    struct match m;
    const char *const bots[] = {GOOD_BOT, BOT_THEN(1, "echo dying >&2; exit 3"), GOOD_BOT};
    struct strbuf shape = STRBUF_INIT;
    setup_match(&m, 3, bots);
    play(&m);
    ck_assert_int_eq(m.out.p[2].verdict, MATCH_RUNTIME_ERROR);
    ck_assert_int_eq(m.out.p[2].moves, 1);
    ck_assert_int_eq(m.out.p[2].violation.reply, 2);
    ck_assert_int_eq(m.out.p[2].violation.round, 2);
    ck_assert_str_eq(m.out.p[2].violation.reason, "exited with status 3 before the reply was complete");
    ck_assert_int_eq(m.out.p[1].moves, 3);
    ck_assert_int_eq(m.out.p[3].moves, 3);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_OK);
    struct json_object *v = replay_violation(&m);
    struct json_object *tail;
    ck_assert(json_object_object_get_ex(v, "stderr_tail", &tail));
    ck_assert_str_eq(json_object_get_string(tail), "dying\n");
    ck_assert_str_eq(evidence_str(v, "reason"), "exited with status 3 before the reply was complete");
    json_object_put(v);
    replay_shape(&m, &shape);
    ck_assert_msg(strstr(shape.data, "reply:2 event:ok violation:RUNTIME_ERROR event:out reply:2 event:ok"),
                  "%s", shape.data);
    sb_free(&shape);
    done(&m);
}
END_TEST

START_TEST(a_bot_that_stops_replying_gets_wall_limit)
{
    struct match m;
    const char *const bots[] = {BOT_THEN(1, "sleep 100"), GOOD_BOT};
    setup_match(&m, 2, bots);
    set_param(&m, "move_wall_ms", 200);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_WALL_LIMIT);
    ck_assert_int_eq(m.out.p[1].violation.reply, 2);
    ck_assert_uint_eq(m.out.p[1].violation.limit_ns, 200000000ull);
    ck_assert_uint_ge(m.out.p[1].violation.figure_ns, 200000000ull);
    ck_assert(!m.out.p[1].violation.has_line);
    ck_assert_int_eq(m.out.winner, 2);
    done(&m);
}
END_TEST

/* "2" came, its newline never did: the bytes are the evidence, in the outcome and the replay. */
START_TEST(a_reply_cut_short_at_the_wall_limit_is_kept_as_evidence)
{
    struct match m;
    const char *const bots[] = {BOT_THEN(1, "printf $round; sleep 100"), GOOD_BOT};
    setup_match(&m, 2, bots);
    set_param(&m, "move_wall_ms", 300);
    play(&m);
    const struct match_violation *v = &m.out.p[1].violation;
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_WALL_LIMIT);
    ck_assert_int_eq(v->reply, 2);
    ck_assert(v->has_line && v->line_cut_short);
    ck_assert_str_eq(v->line, "2");
    struct json_object *rec = replay_violation(&m);
    ck_assert_str_eq(evidence_str(rec, "line"), "2");
    ck_assert_str_eq(evidence_str(rec, "reason"), "no complete reply within move_wall_ms");
    json_object_put(rec);
    done(&m);
}
END_TEST

START_TEST(a_busy_bot_is_stopped_just_past_its_cpu_budget)
{
    struct match m;
    const char *const bots[] = {BOT_THEN(1, "while :; do :; done"), GOOD_BOT};
    setup_match(&m, 2, bots);
    set_param(&m, "budget_base_ms", 300);
    set_param(&m, "budget_per_move_ms", 5);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_CPU_LIMIT);
    struct json_object *v = replay_violation(&m);
    int64_t limit = evidence_int(v, "limit_ns"), figure = evidence_int(v, "figure_ns");
    ck_assert_int_eq(limit, 310000000);   /* base + 2 replies * 5 ms */
    ck_assert_int_ge(figure, limit);
    ck_assert_int_lt(figure, limit + 5000000);
    json_object_put(v);
    done(&m);
}
END_TEST

/* It answers once, then burns CPU; the other bot takes 0.5 s per reply. Frozen, it
 * burns at its own next turn; with --no-freeze it burns on the other bot's time and
 * the jail stops it at its next budget. Either way the violation is at reply 2. */
static void expect_spinner_caught_at_reply_2(bool freeze)
{
    struct match m;
    const char *const bots[] = {"read hello; read w r; echo $r; while :; do :; done", BOT_THEN(0, "sleep 0.5")};
    setup_match(&m, 2, bots);
    m.s.freeze = freeze;
    set_param(&m, "budget_base_ms", 300);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_CPU_LIMIT);
    ck_assert_int_eq(m.out.p[1].violation.reply, 2);
    ck_assert_uint_eq(m.out.p[1].violation.limit_ns, 302000000ull);
    /* How far past the budget it got is a figure of make bench (bench_jail: overshoot), not a test. */
    ck_assert_uint_ge(m.out.p[1].violation.figure_ns, m.out.p[1].violation.limit_ns);
    ck_assert_int_eq(m.out.p[1].moves, 1);
    ck_assert_int_eq(m.out.p[2].verdict, MATCH_OK);
    done(&m);
}

START_TEST(a_bot_that_thinks_while_not_its_turn_is_caught_at_its_next_reply)
{
    expect_spinner_caught_at_reply_2(false);
}
END_TEST

START_TEST(a_frozen_bot_is_caught_during_its_own_turn)
{
    expect_spinner_caught_at_reply_2(true);
}
END_TEST

START_TEST(bad_bytes_and_long_lines_are_invalid_output_found_by_the_judge)
{
    struct match m;
    const char *const bots[] = {BOT_THEN(0, "printf '1\\t2\\n'"), GOOD_BOT};
    setup_match(&m, 2, bots);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_INVALID_OUTPUT);
    ck_assert(!m.out.p[1].violation.by_game);
    ck_assert_str_eq(m.out.p[1].violation.reason, "control byte 0x09");
    ck_assert_str_eq(m.out.p[1].violation.line, "1\t");
    done(&m);

    const char *const long_line[] = {BOT_THEN(0, "echo 1111111111111111111111111111111111111111"), GOOD_BOT};
    setup_match(&m, 2, long_line);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_INVALID_OUTPUT);
    ck_assert_str_eq(m.out.p[1].violation.reason, "line longer than 32 bytes");
    done(&m);
}
END_TEST

START_TEST(a_reply_the_game_refuses_is_recorded_after_the_reply)
{
    struct match m;
    const char *const bots[] = {GOOD_BOT, BOT_THEN(1, "echo 7; exit 0")};
    struct strbuf shape = STRBUF_INIT;
    setup_match(&m, 2, bots);
    play(&m);
    ck_assert_int_eq(m.out.p[2].verdict, MATCH_INVALID_MOVE);
    ck_assert(m.out.p[2].violation.by_game);
    ck_assert_str_eq(m.out.p[2].violation.line, "7");
    ck_assert_int_eq(m.out.p[2].moves, 1);   /* the refused reply is not a move */
    replay_shape(&m, &shape);
    ck_assert_str_eq(shape.data, "header event:start reply:1 event:ok reply:1 event:ok reply:2 event:ok "
                                 "reply:7 violation:INVALID_MOVE event:out result");
    sb_free(&shape);
    done(&m);
}
END_TEST

START_TEST(lines_written_early_answer_the_next_asks)
{
    struct match m;
    const char *const bots[] = {"printf '1\\n2\\n3\\n'; while read line; do :; done", GOOD_BOT};
    setup_match(&m, 2, bots);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_OK);
    ck_assert_int_eq(m.out.p[1].moves, 3);
    done(&m);
}
END_TEST

START_TEST(a_bot_that_never_reads_cannot_block_the_judge)
{
    /* Each prompt is 256 KiB, more than a pipe holds: the judge keeps the rest
     * and polls; the bot never answers, so the wall limit ends it. */
    struct match m;
    const char *const bots[] = {"sleep 100", GOOD_PAD_BOT};
    setup_match(&m, 2, bots);
    set_param(&m, "prompt_pad", 256 * 1024);
    set_param(&m, "move_wall_ms", 300);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_WALL_LIMIT);
    ck_assert_int_eq(m.out.p[1].violation.reply, 1);
    ck_assert_int_eq(m.out.p[2].verdict, MATCH_OK);
    done(&m);
}
END_TEST

START_TEST(a_bot_that_ignores_the_end_is_killed_after_its_grace)
{
    struct match m;
    const char *const bots[] = {GOOD_BOT, "read hello; while read w r; do [ \"$w\" = ask ] && echo $r; done; "
                                          "exec sleep 100"};
    setup_match(&m, 2, bots);
    m.s.limits.grace_ms = 200;
    uint64_t t0 = monotonic_ns();
    play(&m);
    ck_assert_int_eq(m.out.p[2].verdict, MATCH_OK);   /* after its end, its exit is not judged */
    /* Killed after its grace, not waited for: the sleep would take 100 s. */
    ck_assert_uint_lt(monotonic_ns() - t0, 100000000000ull);
    done(&m);
}
END_TEST

START_TEST(a_bot_that_closes_stdout_crashes)
{
    struct match m;
    const char *const bots[] = {BOT_THEN(1, "exec >&-; sleep 100"), GOOD_BOT};
    setup_match(&m, 2, bots);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_RUNTIME_ERROR);
    ck_assert_str_eq(m.out.p[1].violation.reason, "closed its stdout before the reply was complete");
    done(&m);
}
END_TEST

START_TEST(zero_turns_the_cpu_budget_and_the_wall_limit_off)
{
    /* Its budget would be 1 ms of CPU and its wall limit 1 ms; both are off. */
    struct match m;
    const char *const bots[] = {BOT_THEN(0, "sleep 0.2; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"), GOOD_BOT};
    setup_match(&m, 2, bots);
    set_param(&m, "rounds", 1);
    set_param(&m, "budget_base_ms", 0);
    set_param(&m, "move_wall_ms", 0);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_OK);
    ck_assert_uint_eq(m.out.p[1].budget_ns, 0);
    ck_assert_uint_gt(m.out.p[1].cpu_ns, 1000000ull);
    done(&m);
}
END_TEST

START_TEST(a_bot_gets_only_path_lang_and_home_and_runs_in_its_directory)
{
    struct match m;
    char dir[] = "/tmp/test_match_runner_dir.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(chmod(dir, 0755), 0);
    /* pid 2 is the shell (pid 1 is the jail's init): /proc/2/environ is the environment the judge gave it. */
    const char *const bots[] = {"tr '\\0' '\\n' </proc/2/environ >&2; pwd >&2; " GOOD_BOT, GOOD_BOT};
    setup_match(&m, 2, bots);
    m.s.players[0].dir = dir;
    play(&m);
    rmdir(dir);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_OK);
    ck_assert_str_eq(m.out.p[1].stderr_tail, "PATH=/usr/local/bin:/usr/bin:/bin\nLANG=C.UTF-8\nHOME=/tmp\n/bot\n");
    done(&m);
}
END_TEST

/* The CPUs the calling process may run on, as /proc/PID/status lists them ("0-1"). */
static void own_cpus(char *out, size_t size)
{
    char line[256];
    FILE *f = fopen("/proc/self/status", "re");
    ck_assert_ptr_nonnull(f);
    out[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (size >= 64 && sscanf(line, "Cpus_allowed_list: %63s", out) == 1)
            break;
    fclose(f);
    ck_assert_msg(out[0], "no Cpus_allowed_list in /proc/self/status");
}

/* Each reply, the bot writes "ASK:ITS CPUS" to stderr (read from its own status by
 * the shell, no process started); at its 8th it thinks (300 000 turns of a shell loop:
 * 0.4 s here, and no machine runs them in 20 ms), then writes "0:ITS CPUS" before replying. */
#define CPU_REPORTING_BOT                                                                         \
    "cpus() { while read k v; do [ \"$k\" = Cpus_allowed_list: ] && echo \"$1:$v\" >&2; done "  \
    "</proc/self/status; }; read hello; while read word round; do [ \"$word\" = ask ] || exit 0; " \
    "cpus $round; if [ $round = 8 ]; then i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; "     \
    "cpus 0; fi; echo $round; done"
#define CPU_ASKS 10

START_TEST(cheap_replies_keep_the_match_on_one_cpu_until_a_bot_thinks)
{
    char all[64], seen[CPU_ASKS + 1][64];
    own_cpus(all, sizeof all);
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || (!strchr(all, '-') && !strchr(all, ','))) {
        printf("SKIP cheap_replies_keep_the_match_on_one_cpu_until_a_bot_thinks: one CPU here (%s)\n", all);
        return;
    }
    struct match m;
    const char *const bots[] = {CPU_REPORTING_BOT, CPU_REPORTING_BOT};
    setup_match(&m, 2, bots);
    set_param(&m, "rounds", CPU_ASKS);
    play(&m);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_OK);
    ck_assert_int_eq(m.out.p[2].verdict, MATCH_OK);
    const char *line = m.out.p[1].stderr_tail;
    char thinking[64] = "";
    for (int ask = 1; ask <= CPU_ASKS; ask++) {
        int got = -1, used = 0;
        ck_assert_ptr_nonnull(line);
        ck_assert_int_eq(sscanf(line, "%d:%63s%n", &got, seen[ask], &used), 2);
        ck_assert_int_eq(got, ask);
        line = strchr(line + used, '\n') ? strchr(line + used, '\n') + 1 : NULL;
        if (ask == 8) {
            ck_assert_ptr_nonnull(line);
            ck_assert_int_eq(sscanf(line, "0:%63s%n", thinking, &used), 1);
            line = strchr(line + used, '\n') ? strchr(line + used, '\n') + 1 : NULL;
        }
    }
    /* The match starts spread (start-up is often the dearest reply); three cheap turns in a
     * row place it on one CPU, which every later ask sees, up to the 8th, whose 20 ms spread
     * the match again, for good. */
    ck_assert_str_eq(seen[1], all);
    int first = 2;
    while (first <= 8 && strcmp(seen[first], all) == 0)
        first++;
    ck_assert_msg(first <= 8, "never on one CPU: asks 1-8 saw %s", all);
    ck_assert_msg(!strchr(seen[first], '-') && !strchr(seen[first], ','), "ask %d saw %s", first, seen[first]);
    for (int ask = first; ask <= 8; ask++)
        ck_assert_str_eq(seen[ask], seen[first]);
    for (int ask = 9; ask <= CPU_ASKS; ask++)
        ck_assert_str_eq(seen[ask], all);
    ck_assert_str_eq(thinking, all);   /* spread while it thought, not once its reply came */
    done(&m);
}
END_TEST

START_TEST(a_missing_command_is_an_internal_error_that_blames_nobody)
{
    struct match m;
    const char *const bots[] = {GOOD_BOT, GOOD_BOT};
    setup_match(&m, 2, bots);
    m.argv[1][0] = "/nonexistent/bot";
    take_limits(&m);
    ck_assert_int_eq(match_play(&m.s, NULL, NULL, &m.out, &m.err), -1);
    ck_assert_int_eq(m.out.p[1].verdict, MATCH_INTERNAL_ERROR);
    ck_assert_int_eq(m.out.p[2].verdict, MATCH_INTERNAL_ERROR);
    ck_assert_msg(m.err.msg[0], "an error message");
    match_outcome_free(&m.out);
}
END_TEST

static Suite *runner_suite(void)
{
    Suite *s = suite_create("match_runner");
    TCase *tc = tcase_create("match");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_good_bots_play_every_round_and_the_replay_records_it_in_order);
    tcase_add_test(tc, a_measured_match_shares_the_judges_cpu_out_by_phase);
    tcase_add_test(tc, a_crash_is_a_runtime_error_and_the_others_play_on);
    tcase_add_test(tc, a_bot_that_stops_replying_gets_wall_limit);
    tcase_add_test(tc, a_reply_cut_short_at_the_wall_limit_is_kept_as_evidence);
    tcase_add_test(tc, a_busy_bot_is_stopped_just_past_its_cpu_budget);
    tcase_add_test(tc, a_bot_that_thinks_while_not_its_turn_is_caught_at_its_next_reply);
    tcase_add_test(tc, a_frozen_bot_is_caught_during_its_own_turn);
    tcase_add_test(tc, bad_bytes_and_long_lines_are_invalid_output_found_by_the_judge);
    tcase_add_test(tc, a_reply_the_game_refuses_is_recorded_after_the_reply);
    tcase_add_test(tc, lines_written_early_answer_the_next_asks);
    tcase_add_test(tc, a_bot_that_never_reads_cannot_block_the_judge);
    tcase_add_test(tc, a_bot_that_ignores_the_end_is_killed_after_its_grace);
    tcase_add_test(tc, a_bot_that_closes_stdout_crashes);
    tcase_add_test(tc, zero_turns_the_cpu_budget_and_the_wall_limit_off);
    tcase_add_test(tc, a_bot_gets_only_path_lang_and_home_and_runs_in_its_directory);
    tcase_add_test(tc, a_missing_command_is_an_internal_error_that_blames_nobody);
    tcase_add_test(tc, cheap_replies_keep_the_match_on_one_cpu_until_a_bot_thinks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (geteuid() != 0) {
        printf("test_judge_match_runner: strict jails need root; run as root\n");
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(runner_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
