/*
 * seabattle.c - the sea battle rules (seabattle.md §2), protocol (§4), order of events (§5),
 * violations (§6) and log (§7). Boards are read and checked in seabattle_board.c.
 *
 * Play: both players are pending for their board (10 lines, no prompt, round 0); once both
 * are in, the shooter is pending for one line at a time (round = the number of the shot,
 * counting both players' shots). Each result goes to the shooter's outbox; the judge
 * writes nothing else (D8).
 *
 * Events (game_take_events), one compact JSON object per line:
 *   {"t":"board","round":0,"player":P,"board":["____###___",...]}   a valid board (10 lines)
 *   {"t":"board_invalid","round":0,"player":P,"by":VIOLATION,"rule":"S3a"}
 *       S4; VIOLATION is a violation_name(); "rule" (S2, S3a, S3b, S3c) only when the
 *       board itself breaks it, not for a time, crash, memory or system call violation
 *   {"t":"shot","round":R,"player":P,"x":X,"y":Y,"result":"miss"|"hit"|"sunk"}
 *   {"t":"end","round":R,"reason":REASON,"winner":W}                W = 0 for a draw
 *       REASON: "boards" (S4), "fleet_sunk" (S8), "shot_limit" (S9), or "violation"
 *       (S10, with "player":P,"by":VIOLATION naming the shooter who lost)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/reply_parse.h"
#include "engine/seabattle.h"

#define PLAYERS 2

const struct game_param seabattle_params[SP_COUNT] = {
    [SP_SHIPS_1] = {"ships_1", 4, 0, SEA_MAX_SHIPS, "ships of length 1"},
    [SP_SHIPS_2] = {"ships_2", 3, 0, SEA_MAX_SHIPS, "ships of length 2"},
    [SP_SHIPS_3] = {"ships_3", 2, 0, SEA_MAX_SHIPS, "ships of length 3"},
    [SP_SHIPS_4] = {"ships_4", 1, 0, SEA_MAX_SHIPS, "ships of length 4"},
    [SP_SHOT_LIMIT] = {"shot_limit", 400, 1, 1000000, "most shots in one game, both players together (S9)"},
    [SP_BOARD_WALL_MS] = {"board_wall_ms", 5000, 0, 3600000,
                          "wall limit from the bot's start to the end of its board; 0 turns it off"},
    [SP_BUDGET_BASE_MS] = {"budget_base_ms", 2000, 0, 3600000, "CPU budget (README C7); 0 turns it off"},
    [SP_BUDGET_PER_MOVE_MS] = {"budget_per_move_ms", 1, 0, 60000,
                               "added to the budget for every reply (the board is reply 1)"},
    [SP_MOVE_WALL_MS] = {"move_wall_ms", 5000, 0, 3600000, "wall limit for each shot; 0 turns it off"},
    [SP_MEMORY_LIMIT_MB] = {"memory_limit_mb", 256, 1, 65536, "memory of all of a bot's processes (README C8)"},
    [SP_MAX_LINE_BYTES] = {"max_line_bytes", 64, 10, 1048576, "longest reply line (README C3)"},
};

enum phase { PHASE_BOARDS, PHASE_SHOOTING, PHASE_OVER };

struct player {
    bool board_in, board_ok;
    bool lost;                 /* an invalid board, a violation, or its fleet sunk */
    int lost_at;               /* the round it happened in */
    enum violation_kind violation;
    int shots, sunk;
    struct strbuf outbox;
};

struct seabattle {
    struct game base;
    int64_t params[SP_COUNT];
    struct sea_fleet fleet;
    struct sea_board board[PLAYERS + 1];   /* board[p] is player p's own */
    struct sea_board probe[PLAYERS + 1];   /* the board lines read so far (reply_line_check) */
    struct player players[PLAYERS + 1];
    enum phase phase;
    int shooter, shots, winner;
    bool out_of_memory;
    struct strbuf events;
    struct strbuf history;                 /* the §7 log so far */
    struct strbuf *log;
};

static struct seabattle *as_sea(struct game *g) { return (struct seabattle *)g; }
static const struct seabattle *as_const_sea(const struct game *g) { return (const struct seabattle *)g; }

static int opponent(int p) { return PLAYERS + 1 - p; }

static bool is_pending(const struct seabattle *g, int p)
{
    if (p < 1 || p > PLAYERS)
        return false;
    if (g->phase == PHASE_BOARDS)
        return !g->players[p].board_in;
    return g->phase == PHASE_SHOOTING && p == g->shooter;
}

static int current_round(const struct seabattle *g)
{
    return g->phase == PHASE_SHOOTING ? g->shots + 1 : g->shots;
}

/* ---- events, messages and the log ------------------------------------------------------ */

static void check_write(struct seabattle *g, int rc)
{
    if (rc < 0)
        g->out_of_memory = true;
}

static void ev_puts(struct seabattle *g, const char *s) { check_write(g, sb_puts(&g->events, s)); }
static void ev_i64(struct seabattle *g, int64_t v) { check_write(g, sb_put_i64(&g->events, v)); }

static void ev_key_i64(struct seabattle *g, const char *key, int64_t v)
{
    ev_puts(g, ",\"");
    ev_puts(g, key);
    ev_puts(g, "\":");
    ev_i64(g, v);
}

static void ev_key_str(struct seabattle *g, const char *key, const char *v)
{
    ev_puts(g, ",\"");
    ev_puts(g, key);
    ev_puts(g, "\":\"");
    ev_puts(g, v);
    ev_puts(g, "\"");
}

static void event_begin(struct seabattle *g, const char *type, int round, int player)
{
    ev_puts(g, "{\"t\":\"");
    ev_puts(g, type);
    ev_puts(g, "\"");
    ev_key_i64(g, "round", round);
    if (player)
        ev_key_i64(g, "player", player);
}

static void log_puts(struct seabattle *g, const char *s)
{
    check_write(g, sb_puts(&g->history, s));
    if (g->log)
        check_write(g, sb_puts(g->log, s));
}

/* §7: both boards, each followed by an empty line. */
static void log_boards(struct seabattle *g)
{
    for (int p = 1; p <= PLAYERS; p++) {
        for (int y = 0; y < SEA_SIDE; y++) {
            log_puts(g, g->board[p].line[y]);
            log_puts(g, "\n");
        }
        log_puts(g, "\n");
    }
}

/* ---- the end ------------------------------------------------------------------------------ */

/* The end in round `round`: the shot that ended it, or the reply that broke a rule. */
static void end_game(struct seabattle *g, const char *reason, int round, int winner, int loser)
{
    g->phase = PHASE_OVER;
    g->winner = winner;
    event_begin(g, "end", round, 0);
    ev_key_str(g, "reason", reason);
    ev_key_i64(g, "winner", winner);
    if (loser && g->players[loser].violation != VIOLATION_NONE) {
        ev_key_i64(g, "player", loser);
        ev_key_str(g, "by", violation_name(g->players[loser].violation));
    }
    ev_puts(g, "}\n");
}

static void mark_lost(struct seabattle *g, int p, enum violation_kind why)
{
    g->players[p].lost = true;
    g->players[p].lost_at = current_round(g);
    g->players[p].violation = why;
}

/* ---- boards (S4) -------------------------------------------------------------------------- */

static void board_event(struct seabattle *g, int p)
{
    event_begin(g, "board", 0, p);
    for (int y = 0; y < SEA_SIDE; y++) {
        ev_puts(g, y ? ",\"" : ",\"board\":[\"");
        ev_puts(g, g->board[p].line[y]);
        ev_puts(g, "\"");
    }
    ev_puts(g, "]}\n");
}

static void board_invalid(struct seabattle *g, int p, enum violation_kind why, enum sea_rule rule)
{
    g->players[p].board_in = true;
    mark_lost(g, p, why);
    event_begin(g, "board_invalid", 0, p);
    ev_key_str(g, "by", violation_name(why));
    if (rule != SEA_RULE_NONE)
        ev_key_str(g, "rule", sea_rule_name(rule));
    ev_puts(g, "}\n");
}

/* Once both boards are in: S4, or the battle begins with player 1 (D3). */
static void boards_done(struct seabattle *g)
{
    if (!g->players[1].board_in || !g->players[2].board_in)
        return;
    bool ok1 = g->players[1].board_ok, ok2 = g->players[2].board_ok;
    if (!ok1 || !ok2) {
        end_game(g, "boards", 0, ok1 ? 1 : ok2 ? 2 : 0, 0);
        return;
    }
    log_boards(g);
    g->phase = PHASE_SHOOTING;
    g->shooter = 1;
}

/* Player p's board: checked line by line (D11), then as a whole. Fewer than 10 lines come
 * from a reply refused at its last line (reply_line_check); -1 when that line is not bad. */
static int take_board(struct seabattle *g, int p, const char *const *lines, int n_lines,
                      struct game_verdict *v)
{
    struct sea_board b;
    struct sea_board_error err = {SEA_RULE_NONE, ""};
    int rc = 0;
    sea_board_init(&b);
    for (int y = 0; y < n_lines && rc == 0; y++)
        rc = sea_board_add_line(&b, lines[y], strlen(lines[y]), g->params[SP_MAX_LINE_BYTES], &err);
    if (rc == 0 && n_lines < SEA_SIDE)
        return -1;
    if (rc == 0)
        rc = sea_board_finish(&b, &g->fleet, &err);
    g->board[p] = b;
    if (rc < 0) {
        v->kind = err.rule == SEA_RULE_S2 ? VIOLATION_INVALID_OUTPUT : VIOLATION_INVALID_MOVE;
        snprintf(v->reason, sizeof v->reason, "%s", err.msg);
        board_invalid(g, p, v->kind, err.rule);
    } else {
        g->players[p].board_in = g->players[p].board_ok = true;
        board_event(g, p);
    }
    boards_done(g);
    return 0;
}

/* ---- shots (S5..S10) ----------------------------------------------------------------------- */

static void lose_by_violation(struct seabattle *g, int p, enum violation_kind why)
{
    mark_lost(g, p, why);
    end_game(g, "violation", current_round(g), opponent(p), p);
}

/* D13: exactly two README C4 integers (else invalid output), each in 1..10 (else invalid move). */
static bool read_shot(const struct seabattle *g, const char *line, int *x, int *y, struct game_verdict *v)
{
    size_t len = strlen(line);
    int64_t n[2];
    int count;
    struct game_error err;
    v->kind = VIOLATION_INVALID_OUTPUT;
    if ((int64_t)len > g->params[SP_MAX_LINE_BYTES])
        snprintf(v->reason, sizeof v->reason, "the line is longer than max_line_bytes (%lld)",
                 (long long)g->params[SP_MAX_LINE_BYTES]);
    else if (reply_numbers(line, len, n, 2, &count, &err) < 0)
        snprintf(v->reason, sizeof v->reason, "column %d: %.140s", err.col, err.msg);
    else if (count == 0)
        snprintf(v->reason, sizeof v->reason, "empty line: expected a shot `x y` (two numbers)");
    else if (count != 2)
        snprintf(v->reason, sizeof v->reason, "expected a shot `x y` (two numbers), got %d number(s)", count);
    else if (n[0] < 1 || n[0] > SEA_SIDE || n[1] < 1 || n[1] > SEA_SIDE) {
        v->kind = VIOLATION_INVALID_MOVE;
        snprintf(v->reason, sizeof v->reason, "the shot (%lld, %lld) is off the board: x and y are 1..%d",
                 (long long)n[0], (long long)n[1], SEA_SIDE);
    } else {
        v->kind = VIOLATION_NONE;
        *x = (int)n[0];
        *y = (int)n[1];
        return true;
    }
    return false;
}

static void shot_event(struct seabattle *g, int p, int x, int y, enum sea_shot res)
{
    event_begin(g, "shot", g->shots, p);
    ev_key_i64(g, "x", x);
    ev_key_i64(g, "y", y);
    ev_key_str(g, "result", sea_shot_name(res));
    ev_puts(g, "}\n");
}

static void log_shot(struct seabattle *g, int p, int x, int y, enum sea_shot res)
{
    char line[48];
    snprintf(line, sizeof line, "%d %d %d %s\n", p, x, y, sea_shot_name(res));
    log_puts(g, line);
}

/* S5..S9 for a valid shot of player p. */
static void fire(struct seabattle *g, int p, int x, int y)
{
    int q = opponent(p);
    struct sea_board *target = &g->board[q];
    enum sea_shot res = sea_board_shoot(target, x, y);
    g->shots++;
    g->players[p].shots++;
    g->players[p].sunk += res == SEA_SUNK;
    check_write(g, sb_printf(&g->players[p].outbox, "%s\n", sea_shot_name(res)));
    shot_event(g, p, x, y, res);
    log_shot(g, p, x, y, res);
    if (target->cells_hit == target->ship_cells) {
        g->players[q].lost = true;
        g->players[q].lost_at = g->shots;
        end_game(g, "fleet_sunk", g->shots, p, q);
        return;
    }
    if (res == SEA_MISS)
        g->shooter = q;
    if (g->shots >= g->params[SP_SHOT_LIMIT]) {
        int h1 = g->board[2].cells_hit, h2 = g->board[1].cells_hit;
        end_game(g, "shot_limit", g->shots, h1 > h2 ? 1 : h2 > h1 ? 2 : 0, 0);
    }
}

/* ---- the game_rules entry points --------------------------------------------------------- */

static int create_error(struct game_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int create_error(struct game_error *err, const char *fmt, ...)
{
    va_list ap;
    err->line = err->col = 0;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* D14 beyond each parameter's range: at least one ship in all. */
static int seabattle_params_check(const int64_t *params, int *param, struct game_error *err)
{
    int64_t ships = 0;
    for (int x = SP_SHIPS_1; x <= SP_SHIPS_4; x++)
        ships += params[x];
    *param = SP_SHIPS_1;
    return ships > 0 ? 0 : create_error(err, "the fleet has no ship: ships_1..ships_4 are all 0 (D14)");
}

static int check_setup(const struct game_setup *setup, struct game_error *err)
{
    if (setup->players != PLAYERS)
        return create_error(err, "sea battle is played by %d players, not %d", PLAYERS, setup->players);
    int64_t values[SP_COUNT];
    for (int x = 0; x < SP_COUNT; x++) {
        const struct game_param *p = &seabattle_params[x];
        int64_t v = values[x] = setup->params ? setup->params[x] : p->def;
        if (v < p->min || v > p->max)
            return create_error(err, "parameter %s = %lld is out of range %lld..%lld", p->name, (long long)v,
                                (long long)p->min, (long long)p->max);
    }
    int param;
    return seabattle_params_check(values, &param, err);
}

static void seabattle_destroy(struct game *gg)
{
    struct seabattle *g = as_sea(gg);
    if (!g)
        return;
    for (int p = 0; p <= PLAYERS; p++)
        sb_free(&g->players[p].outbox);
    sb_free(&g->events);
    sb_free(&g->history);
    free(g);
}

static int seabattle_create(const struct game_setup *setup, struct game **out, struct game_error *err)
{
    if (check_setup(setup, err) < 0)
        return -1;
    struct seabattle *g = calloc(1, sizeof *g);
    if (!g)
        return create_error(err, "out of memory");
    g->base.rules = &seabattle_rules;
    for (int x = 0; x < SP_COUNT; x++)
        g->params[x] = setup->params ? setup->params[x] : seabattle_params[x].def;
    g->fleet = sea_fleet_of(g->params);
    for (int p = 1; p <= PLAYERS; p++)
        sea_board_init(&g->board[p]);
    g->phase = PHASE_BOARDS;
    *out = &g->base;
    return 0;
}

static int seabattle_pending(const struct game *gg, int *players, int max)
{
    const struct seabattle *g = as_const_sea(gg);
    int n = 0;
    for (int p = 1; p <= PLAYERS && n < max; p++)
        if (is_pending(g, p))
            players[n++] = p;
    return n;
}

static int seabattle_prompt(struct game *gg, int player, struct strbuf *out)
{
    (void)out; /* a reply is due without any prompt: results go through the outbox */
    return is_pending(as_sea(gg), player) ? 0 : -1;
}

static int seabattle_reply_lines(const struct game *gg, int player)
{
    (void)player;
    return as_const_sea(gg)->phase == PHASE_BOARDS ? SEA_SIDE : 1;
}

static int seabattle_submit(struct game *gg, int player, const char *const *lines, int n_lines,
                            struct game_verdict *v)
{
    struct seabattle *g = as_sea(gg);
    int want = seabattle_reply_lines(gg, player);
    if (!is_pending(g, player) || !lines || n_lines < 1 || n_lines > want ||
        (n_lines < want && g->phase != PHASE_BOARDS))
        return -1;
    for (int i = 0; i < n_lines; i++)
        if (!lines[i])
            return -1;
    v->kind = VIOLATION_NONE;
    v->reason[0] = '\0';
    int x, y;
    if (g->phase == PHASE_BOARDS) {
        if (take_board(g, player, lines, n_lines, v) < 0)
            return -1;
    } else if (read_shot(g, lines[0], &x, &y, v))
        fire(g, player, x, y);
    else
        lose_by_violation(g, player, v->kind);
    return g->out_of_memory ? -1 : 0;
}

/* §6: the board within board_wall_ms of the bot's start (0: none, D12), each shot within
 * move_wall_ms of the moment its turn begins. */
static void seabattle_reply_wall(const struct game *gg, int player, struct game_reply_wall *out)
{
    const struct seabattle *g = as_const_sea(gg);
    (void)player;
    bool board = g->phase == PHASE_BOARDS;
    out->ms = (uint64_t)g->params[board ? SP_BOARD_WALL_MS : SP_MOVE_WALL_MS];
    out->from_start = board;
    out->param = board ? "board_wall_ms" : "move_wall_ms";
}

/* D11: each board line as it arrives, S2 then S3a against the line above. */
static int seabattle_reply_line_check(struct game *gg, int player, int index, const char *line, size_t len,
                                      struct game_verdict *v)
{
    struct seabattle *g = as_sea(gg);
    struct sea_board_error err;
    if (!is_pending(g, player) || g->phase != PHASE_BOARDS || !line || index < 0 || index >= SEA_SIDE)
        return -1;
    struct sea_board *b = &g->probe[player];
    if (index == 0)
        sea_board_init(b);
    if (index != b->lines)
        return -1;
    v->kind = VIOLATION_NONE;
    v->reason[0] = '\0';
    if (sea_board_add_line(b, line, len, g->params[SP_MAX_LINE_BYTES], &err) == 0)
        return 0;
    v->kind = err.rule == SEA_RULE_S2 ? VIOLATION_INVALID_OUTPUT : VIOLATION_INVALID_MOVE;
    snprintf(v->reason, sizeof v->reason, "%s", err.msg);
    b->lines = SEA_SIDE;   /* nothing more of this reply is checked */
    return 0;
}

static int seabattle_violation(struct game *gg, int player, enum violation_kind kind)
{
    struct seabattle *g = as_sea(gg);
    if (!is_pending(g, player) || kind <= VIOLATION_NONE || kind > VIOLATION_INVALID_MOVE)
        return -1;
    if (g->phase == PHASE_BOARDS) {
        board_invalid(g, player, kind, SEA_RULE_NONE);
        boards_done(g);
    } else {
        lose_by_violation(g, player, kind);
    }
    return g->out_of_memory ? -1 : 0;
}

static int seabattle_outbox(struct game *gg, int player, struct strbuf *out)
{
    struct seabattle *g = as_sea(gg);
    if (player < 1 || player > PLAYERS)
        return -1;
    struct strbuf *box = &g->players[player].outbox;
    int rc = sb_append(out, box->data ? box->data : "", box->len);
    sb_reset(box);
    return rc;
}

static bool seabattle_player_done(const struct game *gg, int player)
{
    (void)player;
    return as_const_sea(gg)->phase == PHASE_OVER;
}

static bool seabattle_over(const struct game *gg)
{
    return as_const_sea(gg)->phase == PHASE_OVER;
}

static int seabattle_result(const struct game *gg, struct game_result *out)
{
    const struct seabattle *g = as_const_sea(gg);
    memset(out, 0, sizeof *out);
    out->players = PLAYERS;
    out->rounds = g->shots;
    out->winner = g->winner;
    out->draw = g->phase == PHASE_OVER && g->winner == 0;
    for (int p = 1; p <= PLAYERS; p++) {
        const struct player *pl = &g->players[p];
        struct game_player_result *r = &out->p[p];
        r->place = g->winner && g->winner != p ? 2 : 1;
        r->points = g->winner == p;
        r->alive = !pl->lost;
        r->eliminated_at = pl->lost ? pl->lost_at : 0;
        r->violation = pl->violation;
        r->stats[0] = g->board[opponent(p)].cells_hit;
        r->stats[1] = pl->shots;
        r->stats[2] = pl->sunk;
    }
    return 0;
}

static int seabattle_take_events(struct game *gg, struct strbuf *jsonl)
{
    struct seabattle *g = as_sea(gg);
    int rc = sb_append(jsonl, g->events.data ? g->events.data : "", g->events.len);
    sb_reset(&g->events);
    return rc < 0 || g->out_of_memory ? -1 : 0;
}

static void seabattle_set_log(struct game *gg, struct strbuf *log)
{
    struct seabattle *g = as_sea(gg);
    g->log = log;
    if (log)
        check_write(g, sb_append(log, g->history.data ? g->history.data : "", g->history.len));
}

static int seabattle_round(const struct game *gg)
{
    return current_round(as_const_sea(gg));
}

const struct game_rules seabattle_rules = {
    .name = "seabattle",
    .title = "sea battle",
    .round_word = {"shot", "shots"},
    .params = seabattle_params,
    .n_params = SP_COUNT,
    .process_model = PROCESS_PER_MATCH,
    .time_model = TIME_CPU_BUDGET,
    .min_players = PLAYERS,
    .max_players = PLAYERS,
    .map_parse = seabattle_map_parse,
    .map_generate = seabattle_map_generate,
    .map_write = seabattle_map_write,
    .map_players = seabattle_map_players,
    .map_free = seabattle_map_free,
    .create = seabattle_create,
    .destroy = seabattle_destroy,
    .pending = seabattle_pending,
    .prompt = seabattle_prompt,
    .prompt_argv = NULL,
    .reply_lines = seabattle_reply_lines,
    .submit = seabattle_submit,
    .violation = seabattle_violation,
    .outbox = seabattle_outbox,
    .player_done = seabattle_player_done,
    .over = seabattle_over,
    .result = seabattle_result,
    .take_events = seabattle_take_events,
    .set_log = seabattle_set_log,
    .round = seabattle_round,
    .reply_wall = seabattle_reply_wall,
    .reply_line_check = seabattle_reply_line_check,
    .params_check = seabattle_params_check,
};
