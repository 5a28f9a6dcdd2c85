/*
 * warlight.c - the warlight match (warlight.md): parameters (§1, D13), rounds and turns (§6,
 * W11, W12), violations (§8, §9), points and places (§7, D18), and the game_rules entry points.
 * The board is in warlight_board.c and warlight_setup.c, replies in warlight_orders.c, the
 * execution in warlight_resolve.c, the §10 log in warlight_log.c, events in warlight_events.c.
 * Player number p (1-based, game.h) is warlight id p - 1 (0-based, D1).
 *
 * What the runner does (docs/games/warlight.md says the same):
 *   - No map: the map_* entries are NULL. Limits by parameter name: turn_wall_ms (wall limit
 *     of one reply), memory_limit_mb, max_output_bytes (keep at most this + 1 bytes of a reply),
 *     data_quota_kb. No CPU budget (TIME_REPLY_WALL).
 *   - Each player has one data directory, created empty when the match starts, the working
 *     directory of all its processes, kept across every turn and round, deleted after the
 *     match; capped at data_quota_kb, invisible to other bots. The engine never asks to wipe it.
 *   - pending() lists, in player order, every player whose reply is due this turn. Run them
 *     all (one snapshot: the order of running cannot matter), then hand each reply in, in the
 *     order of pending(); the last one resolves the turn. round() is the warlight round R.
 *   - Per-turn mode (match_process_model() = PROCESS_PER_TURN, persistent = 0): for each
 *     pending player start `command + prompt_argv()` (each argument ends with a NUL) with empty
 *     stdin (prompt() gives 0 bytes); wall clock from the start; reply_lines() is 0: read stdout
 *     until the process exits, then kill what is left of its tree. Then, first that applies:
 *     killed for memory -> violation(MEMORY); for a system call -> violation(SYSCALL); running
 *     at turn_wall_ms -> kill, violation(TIME); ended by a signal -> violation(CRASH); else
 *     submit_output(stdout bytes), 0 bytes when it printed nothing or could not be executed
 *     (D16: skip-nooutput). outbox() stays empty; player_done() is true once the match is over.
 *   - Persistent mode (PROCESS_PER_MATCH, persistent = 1): process_serial() is the round. Start
 *     `command` (no extra argument) for each player at the match start and, when the serial
 *     changes, after ending the old process (deliver outbox(): "END\n"; close stdin; grace;
 *     kill) and waiting until every old process is gone (D19). Each turn write prompt() (one
 *     line) to each pending player; the wall clock starts when the write completes; reply_lines()
 *     is 2: read raw bytes up to and including the second '\n' (later bytes are the next reply)
 *     and submit_output() them. EOF first -> violation(CRASH), whatever the exit status; time,
 *     memory, syscall as above. After those four the player is not asked again this round
 *     (player_done() is true: end the process); its turns are skipped with the same status.
 *     After every turn deliver outbox() (END after an eliminated player's last turn, and to every
 *     running bot at a round's end) and end each process whose player_done() is true.
 *   - submit() takes lines (each as if followed by '\n'); the runner and the replay verifier use
 *     submit_output() so that NULs and a missing last '\n' are judged as written.
 *
 * Events (game_take_events), one JSON object per line; ids, rows, columns 0-based as in the log:
 *   {"t":"round","round":R,"bonuses":[{"id":B,"value":V,"cells":[[r,c],...]},...],
 *    "starts":[[r,c],...]}      a new board (W4, W5): every territory neutral with
 *                               neutral_armies except starts[id], owned by id with start_armies
 *   {"t":"turn","round":R,"turn":T,"players":[[id,income,"status",dropped],...],
 *    "deploy":[[id,r,c,a],...],"moves":[[id,sr,sc,dr,dc,a,n,"outcome"],...],
 *    "cells":[[r,c,owner,armies],...],"out":[id,...]}
 *                               a resolved turn: every player alive at its start with its income,
 *                               §10 status and the number of commands W8 dropped; the deployments
 *                               added; the commands in the order they ran; every territory the
 *                               turn changed, row-major, as it is after the turn; the eliminated
 *   {"t":"endround","round":R,"points":[p0,...]}     §7 points of the round, by id
 *   {"t":"end","points":[p0,...]}                    total points after the last round
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/warlight.h"

#define MAXV WARLIGHT_MAX_VALUE

const struct game_param warlight_params[WP_COUNT] = {
    [WP_ROWS] = {"rows", 10, 3, WARLIGHT_MAX_SIDE, "board rows"},
    [WP_COLS] = {"cols", 10, 3, WARLIGHT_MAX_SIDE, "board columns"},
    [WP_ROUNDS] = {"rounds", 20, 1, MAXV, "rounds in a match"},
    [WP_TURN_LIMIT] = {"turn_limit", 1000, 1, MAXV, "most turns in a round"},
    [WP_BONUS_COUNT] = {"bonus_count", 10, 1, MAXV, "bonuses; bonus_count * bonus_size = rows * cols"},
    [WP_BONUS_SIZE] = {"bonus_size", 10, 1, MAXV, "territories in each bonus"},
    [WP_BONUS_VALUE_MIN] = {"bonus_value_min", 5, 0, MAXV, "least value of a bonus"},
    [WP_BONUS_VALUE_MAX] = {"bonus_value_max", 10, 0, MAXV, "greatest value of a bonus"},
    [WP_BASE_INCOME] = {"base_income", 5, 1, MAXV, "armies every player receives each turn"},
    [WP_START_ARMIES] = {"start_armies", 5, 0, MAXV, "armies on a player's starting territory"},
    [WP_NEUTRAL_ARMIES] = {"neutral_armies", 2, 0, MAXV, "armies on every other territory"},
    [WP_ATTACK_KILL_PCT] = {"attack_kill_pct", 60, 0, MAXV, "defenders killed per 100 attackers"},
    [WP_DEFEND_KILL_PCT] = {"defend_kill_pct", 70, 0, MAXV, "attackers killed per 100 defenders"},
    [WP_ROUND_POINTS] = {"round_points", 100, 0, MAXV, "points shared out at the end of each round"},
    [WP_TURN_WALL_MS] = {"turn_wall_ms", 1000, 1, MAXV, "wall-clock limit on one turn's reply"},
    [WP_MEMORY_LIMIT_MB] = {"memory_limit_mb", 256, 1, MAXV, "memory of a bot's processes (README C8)"},
    [WP_MAX_OUTPUT_BYTES] = {"max_output_bytes", 65536, 1, MAXV, "most stdout bytes of one reply"},
    [WP_DATA_QUOTA_KB] = {"data_quota_kb", 1024, 0, MAXV, "size limit of a bot's data directory"},
    [WP_PERSISTENT] = {"persistent", 0, 0, 1, "1 = one process per player per round (spec §9)"},
};

static const char *const status_names[] = {
    [WS_MEMORY] = "skip-memory", [WS_SYSCALL] = "skip-syscall", [WS_TIME] = "skip-time",
    [WS_CRASH] = "skip-crash",   [WS_NOOUTPUT] = "skip-nooutput", [WS_OUTPUT] = "skip-output",
    [WS_DEPLOY] = "skip-deploy", [WS_BADMOVES] = "badmoves",     [WS_OK] = "ok",
};

static const char *const outcome_names[] = {
    [WO_TRANSFER] = "transfer",     [WO_CAPTURE] = "capture",         [WO_REPELLED] = "repelled",
    [WO_STALEMATE] = "stalemate",   [WO_LOST_SOURCE] = "lost-source", [WO_NOTHING_LEFT] = "nothing-left",
};

const char *wl_status_name(enum wl_status s)
{
    return (unsigned)s <= WS_OK ? status_names[s] : "unknown";
}

bool wl_status_skips(enum wl_status s)
{
    return s < WS_BADMOVES;
}

const char *wl_outcome_name(enum wl_outcome o)
{
    return (unsigned)o <= WO_NOTHING_LEFT ? outcome_names[o] : "unknown";
}

struct wl_player {
    bool alive;                /* owns a territory in this round (W11) */
    bool replied;              /* its reply to this turn is in */
    bool dead_process;         /* persistent: killed this round; its turns are skipped (D19) */
    enum wl_status dead_status;
    bool ended;                /* persistent: END written, or no process to write it to */
    int64_t income;
    struct wl_orders orders;
    int64_t points, rounds_won, rounds_survived, skipped;
    struct strbuf outbox;
};

struct warlight {
    struct game base;
    int64_t params[WP_COUNT];
    uint64_t seed;
    int k;
    bool persistent;
    struct warlight_board board;
    struct rng play;           /* "warlight/play/R", one stream per round (D11) */
    int64_t round, turn, turns_played;
    bool over, out_of_memory;
    struct wl_player pl[GAME_MAX_PLAYERS];
    struct wl_moves moves;
    struct strbuf events;
    struct strbuf *log;
};

static struct warlight *as_wl(struct game *g) { return (struct warlight *)g; }
static const struct warlight *as_const_wl(const struct game *g)
{
    return (const struct warlight *)g;
}

static void check_write(struct warlight *g, int rc)
{
    if (rc < 0)
        g->out_of_memory = true;
}

/* ---- the course of a round (§6) --------------------------------------------------- */

static void begin_turn(struct warlight *g)
{
    for (int id = 0; id < g->k; id++) {
        struct wl_player *pl = &g->pl[id];
        if (!pl->alive)
            continue;
        pl->income = wl_board_income(&g->board, id, g->params[WP_BASE_INCOME]);
        wl_orders_reset(&pl->orders);
        pl->replied = pl->dead_process;
        if (pl->dead_process)
            pl->orders.status = pl->dead_status;
    }
}

static void send_end(struct warlight *g, int id)
{
    struct wl_player *pl = &g->pl[id];
    if (g->persistent && !pl->ended)
        check_write(g, sb_puts(&pl->outbox, "END\n"));
    pl->ended = true;
}

static void start_round(struct warlight *g, int64_t round)
{
    char label[48];
    g->round = round;
    g->turn = 1;
    g->turns_played = 0;
    if (wl_setup_round(&g->board, g->params, g->seed, round) < 0)
        g->out_of_memory = true;
    snprintf(label, sizeof label, "warlight/play/%lld", (long long)round);
    g->play = rng_stream(g->seed, label);
    for (int id = 0; id < g->k; id++) {
        g->pl[id].alive = true;
        g->pl[id].dead_process = false;
        g->pl[id].ended = false;
    }
    check_write(g, wl_event_round(&g->events, &g->board, round));
    if (g->log)
        check_write(g, wl_log_round(g->log, &g->board, round));
    begin_turn(g);
}

/* §7, then the next round or the end of the match. */
static void end_round(struct warlight *g)
{
    int64_t points[GAME_MAX_PLAYERS] = {0};
    int alive = 0;
    for (int id = 0; id < g->k; id++)
        alive += g->pl[id].alive;
    for (int id = 0; id < g->k; id++) {
        struct wl_player *pl = &g->pl[id];
        if (!pl->alive)
            continue;
        points[id] = g->params[WP_ROUND_POINTS] / alive;
        pl->points = wl_sat_add(pl->points, points[id]);
        pl->rounds_survived++;
        pl->rounds_won += alive == 1;
        send_end(g, id);
    }
    check_write(g, wl_event_points(&g->events, "endround", g->round, points, g->k));
    if (g->log)
        check_write(g, wl_log_points(g->log, "endround", g->round, points, g->k));
    if (g->round < g->params[WP_ROUNDS]) {
        start_round(g, g->round + 1);
        return;
    }
    g->over = true;
    for (int id = 0; id < g->k; id++)
        points[id] = g->pl[id].points;
    check_write(g, wl_event_points(&g->events, "end", 0, points, g->k));
    if (g->log)
        check_write(g, wl_log_points(g->log, "total", 0, points, g->k));
}

static void fill_turn(struct warlight *g, struct wl_turn *t, struct wl_orders **orders)
{
    memset(t, 0, sizeof *t);
    t->round = g->round;
    t->turn = g->turn;
    t->moves = &g->moves;
    for (int id = 0; id < g->k; id++) {
        struct wl_player *pl = &g->pl[id];
        orders[id] = pl->alive ? &pl->orders : NULL;
        t->ran[id] = pl->alive;
        t->income[id] = pl->income;
        t->status[id] = pl->orders.status;
        t->orders[id] = &pl->orders;
        pl->skipped += pl->alive && wl_status_skips(pl->orders.status);
    }
}

/* Every reply of the turn is in: run it (§6), eliminate (W11), log, check W12. */
static void resolve_turn(struct warlight *g)
{
    struct wl_turn t;
    struct wl_orders *orders[GAME_MAX_PLAYERS];
    fill_turn(g, &t, orders);
    if (wl_resolve(&g->board, orders, g->params, &g->play, &g->moves, t.dropped) < 0)
        g->out_of_memory = true;
    int alive = 0;
    for (int id = 0; id < g->k; id++) {
        struct wl_player *pl = &g->pl[id];
        if (pl->alive && g->board.land[id] == 0) {
            pl->alive = false;
            t.out[id] = true;
            send_end(g, id);
        }
        alive += pl->alive;
    }
    check_write(g, wl_event_turn(&g->events, &g->board, &t));
    if (g->log)
        check_write(g, wl_log_turn(g->log, &g->board, &t));
    g->turns_played++;
    if (alive <= 1 || g->turn >= g->params[WP_TURN_LIMIT]) {
        end_round(g);
    } else {
        g->turn++;
        begin_turn(g);
    }
}

static bool is_pending(const struct warlight *g, int id)
{
    return !g->over && g->pl[id].alive && !g->pl[id].replied;
}

/* Resolves turns until a reply is due or the match is over (D19: a persistent player whose
 * process was killed is not asked again this round). */
static void settle(struct warlight *g)
{
    for (;;) {
        bool any = false;
        for (int id = 0; id < g->k; id++)
            any = any || is_pending(g, id);
        if (any || g->over || g->out_of_memory)
            return;
        resolve_turn(g);
    }
}

/* ---- creating a match --------------------------------------------------------------- */

static int create_error(struct game_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int create_error(struct game_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->line = err->col = 0;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* D13 and W3. */
static int check_setup(const int64_t *v, int players, struct game_error *err)
{
    for (int x = 0; x < WP_COUNT; x++) {
        const struct game_param *p = &warlight_params[x];
        if (v[x] < p->min || v[x] > p->max)
            return create_error(err, "parameter %s = %lld is out of range %lld..%lld", p->name,
                                (long long)v[x], (long long)p->min, (long long)p->max);
    }
    if ((__int128)v[WP_BONUS_COUNT] * v[WP_BONUS_SIZE] != (__int128)v[WP_ROWS] * v[WP_COLS])
        return create_error(err, "bonus_count * bonus_size (%lld * %lld) must equal rows * cols "
                            "(%lld * %lld)", (long long)v[WP_BONUS_COUNT],
                            (long long)v[WP_BONUS_SIZE], (long long)v[WP_ROWS], (long long)v[WP_COLS]);
    if (v[WP_BONUS_VALUE_MIN] > v[WP_BONUS_VALUE_MAX])
        return create_error(err, "bonus_value_min (%lld) is greater than bonus_value_max (%lld)",
                            (long long)v[WP_BONUS_VALUE_MIN], (long long)v[WP_BONUS_VALUE_MAX]);
    int64_t most = v[WP_ROWS] * v[WP_COLS] < GAME_MAX_PLAYERS ? v[WP_ROWS] * v[WP_COLS] : GAME_MAX_PLAYERS;
    if (players < 2 || players > most)
        return create_error(err, "warlight needs 2 to %lld players here, not %d", (long long)most,
                            players);
    return 0;
}

static void warlight_destroy(struct game *gg)
{
    struct warlight *g = as_wl(gg);
    if (!g)
        return;
    wl_board_free(&g->board);
    for (int id = 0; id < GAME_MAX_PLAYERS; id++) {
        wl_orders_free(&g->pl[id].orders);
        sb_free(&g->pl[id].outbox);
    }
    free(g->moves.v);
    sb_free(&g->events);
    free(g);
}

static int warlight_create(const struct game_setup *setup, struct game **out, struct game_error *err)
{
    int64_t v[WP_COUNT];
    for (int x = 0; x < WP_COUNT; x++)
        v[x] = setup->params ? setup->params[x] : warlight_params[x].def;
    if (check_setup(v, setup->players, err) < 0)
        return -1;
    struct warlight *g = calloc(1, sizeof *g);
    if (!g)
        return create_error(err, "out of memory");
    g->base.rules = &warlight_rules;
    memcpy(g->params, v, sizeof v);
    g->seed = setup->seed;
    g->k = setup->players;
    g->persistent = v[WP_PERSISTENT] == 1;
    if (wl_board_init(&g->board, (int)v[WP_ROWS], (int)v[WP_COLS], (int)v[WP_BONUS_COUNT], g->k) < 0) {
        free(g);
        return create_error(err, "out of memory");
    }
    start_round(g, 1);
    if (g->out_of_memory) {
        warlight_destroy(&g->base);
        return create_error(err, "out of memory");
    }
    *out = &g->base;
    return 0;
}

/* ---- play ------------------------------------------------------------------------------- */

/* The id of player number p when its reply is due, else -1. */
static int pending_id(const struct warlight *g, int p)
{
    return p >= 1 && p <= g->k && is_pending(g, p - 1) ? p - 1 : -1;
}

static int warlight_pending(const struct game *gg, int *players, int max)
{
    const struct warlight *g = as_const_wl(gg);
    int n = 0;
    for (int id = 0; id < g->k && n < max; id++)
        if (is_pending(g, id))
            players[n++] = id + 1;
    return n;
}

static int warlight_prompt(struct game *gg, int player, struct strbuf *out)
{
    struct warlight *g = as_wl(gg);
    int id = pending_id(g, player), argc;
    if (id < 0)
        return -1;
    if (!g->persistent)
        return 0;  /* per-turn processes get an empty stdin */
    return wl_board_prompt(&g->board, id, g->pl[id].income, g->turn == 1, true, out, &argc);
}

static int warlight_prompt_argv(struct game *gg, int player, struct strbuf *out, int *argc)
{
    struct warlight *g = as_wl(gg);
    int id = pending_id(g, player);
    *argc = 0;
    if (id < 0)
        return -1;
    if (g->persistent)
        return 0;  /* persistent processes start with no extra argument */
    return wl_board_prompt(&g->board, id, g->pl[id].income, g->turn == 1, false, out, argc);
}

static int warlight_reply_lines(const struct game *gg, int player)
{
    (void)player;
    return as_const_wl(gg)->persistent ? 2 : 0;
}

static int finish_call(struct warlight *g)
{
    settle(g);
    return g->out_of_memory ? -1 : 0;
}

static int warlight_submit_output(struct game *gg, int player, const char *data, size_t len,
                                  struct game_verdict *v)
{
    struct warlight *g = as_wl(gg);
    int id = pending_id(g, player);
    if (id < 0 || (!data && len))
        return -1;
    struct wl_player *pl = &g->pl[id];
    if (wl_orders_read(&pl->orders, &g->board, id, pl->income, g->params[WP_MAX_OUTPUT_BYTES],
                       data ? data : "", len) < 0)
        return -1;
    enum wl_status s = pl->orders.status;
    v->kind = s == WS_OK ? VIOLATION_NONE : s == WS_DEPLOY ? VIOLATION_INVALID_MOVE
                                                           : VIOLATION_INVALID_OUTPUT;
    v->reason[0] = '\0';
    if (s != WS_OK)
        snprintf(v->reason, sizeof v->reason, "%s: %.140s", wl_status_name(s), pl->orders.reason);
    pl->replied = true;
    return finish_call(g);
}

static int warlight_submit(struct game *gg, int player, const char *const *lines, int n_lines,
                           struct game_verdict *v)
{
    struct warlight *g = as_wl(gg);
    if (pending_id(g, player) < 0 || !lines || n_lines < 1 || (g->persistent && n_lines != 2))
        return -1;
    struct strbuf text = STRBUF_INIT;
    int rc = 0;
    for (int i = 0; i < n_lines && rc == 0; i++) {
        rc = lines[i] ? sb_puts(&text, lines[i]) : -1;
        rc = rc < 0 ? rc : sb_putc(&text, '\n');
    }
    if (rc == 0)
        rc = warlight_submit_output(gg, player, text.data, text.len, v);
    sb_free(&text);
    return rc;
}

static int warlight_violation(struct game *gg, int player, enum violation_kind kind)
{
    static const enum wl_status status_of[] = {
        [VIOLATION_MEMORY] = WS_MEMORY,        [VIOLATION_SYSCALL] = WS_SYSCALL,
        [VIOLATION_TIME] = WS_TIME,            [VIOLATION_CRASH] = WS_CRASH,
        [VIOLATION_INVALID_OUTPUT] = WS_OUTPUT, [VIOLATION_INVALID_MOVE] = WS_DEPLOY,
    };
    struct warlight *g = as_wl(gg);
    int id = pending_id(g, player);
    if (id < 0 || kind <= VIOLATION_NONE || kind > VIOLATION_INVALID_MOVE)
        return -1;
    struct wl_player *pl = &g->pl[id];
    pl->orders.status = status_of[kind];
    pl->orders.n_deploy = pl->orders.n_cmd = 0;
    if (g->persistent && kind <= VIOLATION_CRASH) {  /* §9: the process is gone for the round */
        pl->dead_process = true;
        pl->dead_status = status_of[kind];
        pl->ended = true;
    }
    pl->replied = true;
    return finish_call(g);
}

static int warlight_outbox(struct game *gg, int player, struct strbuf *out)
{
    struct warlight *g = as_wl(gg);
    if (player < 1 || player > g->k)
        return -1;
    struct strbuf *box = &g->pl[player - 1].outbox;
    int rc = sb_append(out, box->data ? box->data : "", box->len);
    sb_reset(box);
    return rc;
}

static bool warlight_player_done(const struct game *gg, int player)
{
    const struct warlight *g = as_const_wl(gg);
    if (player < 1 || player > g->k || g->over)
        return true;
    const struct wl_player *pl = &g->pl[player - 1];
    return g->persistent && (!pl->alive || pl->dead_process);
}

static bool warlight_over(const struct game *gg)
{
    return as_const_wl(gg)->over;
}

/* §7, D18: places by total points, competition ranking; the sole first wins. */
static int warlight_result(const struct game *gg, struct game_result *out)
{
    const struct warlight *g = as_const_wl(gg);
    int first = 0;
    memset(out, 0, sizeof *out);
    out->players = g->k;
    out->rounds = g->round > INT_MAX ? INT_MAX : (int)g->round;
    for (int id = 0; id < g->k; id++) {
        struct game_player_result *r = &out->p[id + 1];
        const struct wl_player *pl = &g->pl[id];
        r->place = 1;
        for (int q = 0; q < g->k; q++)
            r->place += g->pl[q].points > pl->points;
        r->points = pl->points;
        r->alive = true;  /* nobody leaves a warlight match; W11 is per round */
        r->stats[0] = pl->rounds_won;
        r->stats[1] = pl->rounds_survived;
        r->stats[2] = pl->skipped;
        if (r->place == 1)
            first = first ? -1 : id + 1;
    }
    out->draw = first < 0;
    out->winner = first > 0 ? first : 0;
    return 0;
}

static int warlight_take_events(struct game *gg, struct strbuf *jsonl)
{
    struct warlight *g = as_wl(gg);
    int rc = sb_append(jsonl, g->events.data ? g->events.data : "", g->events.len);
    sb_reset(&g->events);
    return rc < 0 || g->out_of_memory ? -1 : 0;
}

/* Call right after create: the header, then round 1 as it was set up. */
static void warlight_set_log(struct game *gg, struct strbuf *log)
{
    struct warlight *g = as_wl(gg);
    g->log = log;
    if (!log)
        return;
    check_write(g, wl_log_header(log, g->params, g->k));
    if (g->round == 1 && g->turns_played == 0)
        check_write(g, wl_log_round(log, &g->board, 1));
}

const struct warlight_board *warlight_board_of(const struct game *g)
{
    return &as_const_wl(g)->board;
}

static int warlight_round(const struct game *gg)
{
    int64_t r = as_const_wl(gg)->round;
    return r > INT_MAX ? INT_MAX : (int)r;
}

static enum process_model warlight_process_model(const struct game *gg)
{
    return as_const_wl(gg)->persistent ? PROCESS_PER_MATCH : PROCESS_PER_TURN;
}

static int warlight_process_serial(const struct game *gg, int player)
{
    (void)player;
    return warlight_round(gg);
}

const struct game_rules warlight_rules = {
    .name = "warlight",
    .params = warlight_params,
    .n_params = WP_COUNT,
    .process_model = PROCESS_PER_TURN,
    .time_model = TIME_REPLY_WALL,
    .min_players = 2,
    .max_players = GAME_MAX_PLAYERS,
    .create = warlight_create,
    .destroy = warlight_destroy,
    .pending = warlight_pending,
    .prompt = warlight_prompt,
    .prompt_argv = warlight_prompt_argv,
    .reply_lines = warlight_reply_lines,
    .submit = warlight_submit,
    .violation = warlight_violation,
    .outbox = warlight_outbox,
    .player_done = warlight_player_done,
    .over = warlight_over,
    .result = warlight_result,
    .take_events = warlight_take_events,
    .set_log = warlight_set_log,
    .round = warlight_round,
    .match_process_model = warlight_process_model,
    .process_serial = warlight_process_serial,
    .submit_output = warlight_submit_output,
};
