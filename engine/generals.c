/*
 * generals.c - the generals rules (generals.md §2), protocol (§5), order of events (§6),
 * ranking (§7), violations (§8) and log (§10).
 *
 * Events (game_take_events), one compact JSON object per line. Every event that changes
 * cells carries "cells": the changed cells only, each [i, j, type, owner, units] as it is
 * after the event; except "growth", which carries the rule instead. Starting from the map,
 * applying every "cells" list in order and doing each growth itself, a viewer rebuilds the
 * board after every event:
 *   {"t":"start","round":0,"order":[2,1],"cells":[...]}       capitals handed out (G3, G4)
 *   {"t":"pass","round":R,"player":P}                          a -1 reply
 *   {"t":"move","round":R,"player":P,"move":[opt,i,j,i2,j2],"cells":[...]}
 *                                                              a valid move (no-op: cells [])
 *   {"t":"eliminated","round":R,"player":Q,"by":"capture","capturer":P,"cells":[...]}
 *                                                              G11, right after P's move event
 *   {"t":"eliminated","round":R,"player":P,"by":VIOLATION,"cells":[...]}
 *                                                              G12; VIOLATION is a
 *                                                              violation_name(), e.g. "time"
 *   {"t":"growth","round":R,"cities":C,"land":L}               G13 at the end of round R,
 *                                                              only when some cell grows
 *       C units are added to every owned city and capital (type 2 or 3, owner > 0), and L
 *       units to every owned empty cell (type 1, owner > 0). C is city_growth_amount when
 *       city_growth_period divides R, L is land_growth_amount when land_growth_period
 *       divides R; each is 0 otherwise, and also when it reached no cell. Neutral cells
 *       never grow. The changes are not listed: the viewer applies them to its board.
 *   {"t":"end","round":R,"reason":"last_player"|"turn_limit"}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/generals.h"
#include "engine/reply_parse.h"
#include "engine/rng.h"

const struct game_param generals_params[GP_COUNT] = {
    [GP_TURN_LIMIT] = {"turn_limit", 1000, 1, 100000, "rounds played before the game is stopped"},
    [GP_CITY_GROWTH_PERIOD] = {"city_growth_period", 2, 1, 1000000,
                               "owned cities and capitals grow after every round divisible by this"},
    [GP_CITY_GROWTH_AMOUNT] = {"city_growth_amount", 1, 0, 1000000, "units added to each such cell"},
    [GP_LAND_GROWTH_PERIOD] = {"land_growth_period", 50, 1, 1000000,
                               "owned empty cells grow after every round divisible by this"},
    [GP_LAND_GROWTH_AMOUNT] = {"land_growth_amount", 1, 0, 1000000, "units added to each such cell"},
    [GP_CAPITAL_START_ARMY] = {"capital_start_army", 1, 0, 1000000000,
                               "units on each capital at the start"},
    [GP_VISION_RADIUS] = {"vision_radius", 1, 0, 100,
                          "a player sees every cell within this Chebyshev distance of its cells"},
    [GP_BUDGET_BASE_MS] = {"budget_base_ms", 2000, 0, 3600000,
                           "CPU budget (README C7); 0 turns it off"},
    [GP_BUDGET_PER_MOVE_MS] = {"budget_per_move_ms", 1, 0, 60000,
                               "added to the budget for every reply"},
    [GP_MOVE_WALL_MS] = {"move_wall_ms", 5000, 0, 3600000,
                         "wall-clock limit per reply; 0 turns it off"},
    [GP_MEMORY_LIMIT_MB] = {"memory_limit_mb", 256, 1, 65536,
                            "memory of all of a bot's processes (README C8)"},
    [GP_MAX_LINE_BYTES] = {"max_line_bytes", 256, 16, 1048576, "longest reply line (README C3)"},
};

struct player {
    bool alive;
    int eliminated_round;
    int elimination_seq;           /* 1 for the first player eliminated, 2 for the next... */
    enum violation_kind violation;
    struct strbuf outbox;
};

struct generals {
    struct game base;
    struct generals_board board;
    int64_t params[GP_COUNT];
    int order[GAME_MAX_PLAYERS];   /* π */
    struct player players[GAME_MAX_PLAYERS + 1];
    int alive_count, eliminations;
    int round, turn;               /* turn indexes order[] */
    bool over;
    bool out_of_memory;            /* a write to events, log or an outbox failed */
    struct strbuf events;
    struct strbuf *log;
};

enum reply_kind { REPLY_PASS, REPLY_MOVE, REPLY_BAD };
struct move { int64_t opt, i, j, i2, j2; };

static struct generals *as_generals(struct game *g) { return (struct generals *)g; }
static const struct generals *as_const_generals(const struct game *g)
{
    return (const struct generals *)g;
}

static int current_player(const struct generals *g)
{
    return g->over ? 0 : g->order[g->turn];
}

/* ---- events and log ------------------------------------------------------- */

/* Records a failed write; the entry point under way reports it. */
static void check_write(struct generals *g, int rc)
{
    if (rc < 0)
        g->out_of_memory = true;
}

static void ev_puts(struct generals *g, const char *s)
{
    check_write(g, sb_puts(&g->events, s));
}

static void ev_i64(struct generals *g, int64_t v)
{
    check_write(g, sb_put_i64(&g->events, v));
}

static void event_begin(struct generals *g, const char *type, int player)
{
    ev_puts(g, "{\"t\":\"");
    ev_puts(g, type);
    ev_puts(g, "\",\"round\":");
    ev_i64(g, g->round);
    if (player) {
        ev_puts(g, ",\"player\":");
        ev_i64(g, player);
    }
}

/* Ends an event, with the cells changed since the previous one when with_cells. */
static void event_end(struct generals *g, bool with_cells)
{
    if (with_cells) {
        ev_puts(g, ",\"cells\":");
        check_write(g, generals_board_write_changes(&g->board, &g->events));
    }
    ev_puts(g, "}\n");
}

static void send_line(struct generals *g, int p, const char *text)
{
    check_write(g, sb_puts(&g->players[p].outbox, text));
}

static void log_frame(struct generals *g)
{
    if (g->log)
        check_write(g, generals_board_write_state(&g->board, 0, g->log));
}

static void log_line(struct generals *g, const char *text)
{
    if (g->log)
        check_write(g, sb_puts(g->log, text));
}

/* ---- the course of the game (§6) ------------------------------------------ */

static void end_game(struct generals *g, const char *reason)
{
    g->over = true;
    for (int p = 1; p <= g->board.k; p++)
        if (g->players[p].alive)
            send_line(g, p, "0\n");
    event_begin(g, "end", 0);
    ev_puts(g, ",\"reason\":\"");
    ev_puts(g, reason);
    ev_puts(g, "\"");
    event_end(g, false);
    log_line(g, "0\n");
}

static void mark_eliminated(struct generals *g, int p, enum violation_kind why)
{
    struct player *pl = &g->players[p];
    pl->alive = false;
    pl->eliminated_round = g->round;
    pl->elimination_seq = ++g->eliminations;
    pl->violation = why;
    g->alive_count--;
    send_line(g, p, "0\n");
}

/* G12: every cell of p turns neutral with its units; its capital becomes a city. */
static void eliminate_for_violation(struct generals *g, int p, enum violation_kind why)
{
    struct generals_board *b = &g->board;
    for (size_t c = 0; c < b->cells; c++) {
        if (b->owner[c] == p) {
            int type = b->type[c] == CELL_CAPITAL ? CELL_CITY : b->type[c];
            generals_board_set(b, c, type, 0, b->units[c]);
        }
    }
    mark_eliminated(g, p, why);
    event_begin(g, "eliminated", p);
    ev_puts(g, ",\"by\":\"");
    ev_puts(g, violation_name(why));
    ev_puts(g, "\"");
    event_end(g, true);
    log_frame(g);
}

/* G13, for the round just finished. The event states the amounts, not the cells. */
static void grow(struct generals *g)
{
    bool cities = g->round % g->params[GP_CITY_GROWTH_PERIOD] == 0;
    bool land = g->round % g->params[GP_LAND_GROWTH_PERIOD] == 0;
    if (!cities && !land)
        return;
    struct generals_growth grown =
        generals_board_grow(&g->board, cities ? g->params[GP_CITY_GROWTH_AMOUNT] : 0,
                            land ? g->params[GP_LAND_GROWTH_AMOUNT] : 0);
    if (grown.cities || grown.land) {
        event_begin(g, "growth", 0);
        ev_puts(g, ",\"cities\":");
        ev_i64(g, grown.cities);
        ev_puts(g, ",\"land\":");
        ev_i64(g, grown.land);
        event_end(g, false);
    }
    if (cities)
        log_frame(g);
}

/* Moves on to the next living player in π, ending rounds and the game on the way. */
static void advance(struct generals *g)
{
    g->turn++;
    for (;;) {
        if (g->alive_count < 2) {
            end_game(g, "last_player");
            return;
        }
        if (g->turn == g->board.k) {
            grow(g);
            if (g->round == g->params[GP_TURN_LIMIT]) {
                end_game(g, "turn_limit");
                return;
            }
            g->round++;
            g->turn = 0;
        }
        if (g->players[g->order[g->turn]].alive)
            return;
        g->turn++;
    }
}

/* ---- moves (G7..G11) ------------------------------------------------------ */

static bool on_board(const struct generals_board *b, int64_t i, int64_t j)
{
    return i >= 1 && i <= b->n && j >= 1 && j <= b->m;
}

static size_t cell_index(const struct generals_board *b, int64_t i, int64_t j)
{
    return (size_t)(i - 1) * (size_t)b->m + (size_t)(j - 1);
}

/* G7: why the move is invalid, or false when it is valid. */
static bool invalid_move(const struct generals *g, int p, const struct move *mv, char *why,
                         size_t size)
{
    const struct generals_board *b = &g->board;
    if (mv->opt != 1 && mv->opt != 2) {
        snprintf(why, size, "opt %lld is neither 1 nor 2", (long long)mv->opt);
        return true;
    }
    if (!on_board(b, mv->i, mv->j) || !on_board(b, mv->i2, mv->j2)) {
        snprintf(why, size, "a cell of (%lld, %lld) -> (%lld, %lld) is off the %dx%d board",
                 (long long)mv->i, (long long)mv->j, (long long)mv->i2, (long long)mv->j2, b->n,
                 b->m);
        return true;
    }
    if (llabs(mv->i - mv->i2) + llabs(mv->j - mv->j2) != 1) {
        snprintf(why, size, "(%lld, %lld) and (%lld, %lld) are not adjacent", (long long)mv->i,
                 (long long)mv->j, (long long)mv->i2, (long long)mv->j2);
        return true;
    }
    if (b->owner[cell_index(b, mv->i, mv->j)] != p) {
        snprintf(why, size, "player %d does not own (%lld, %lld)", p, (long long)mv->i,
                 (long long)mv->j);
        return true;
    }
    if (b->type[cell_index(b, mv->i2, mv->j2)] == CELL_MOUNTAIN) {
        snprintf(why, size, "(%lld, %lld) is a mountain", (long long)mv->i2, (long long)mv->j2);
        return true;
    }
    return false;
}

/* G11: q's capital fell to p; every other cell of q passes to p with half its units. */
static void capture_capital(struct generals *g, int p, int q)
{
    struct generals_board *b = &g->board;
    for (size_t c = 0; c < b->cells; c++)
        if (b->owner[c] == q)
            generals_board_set(b, c, b->type[c], p, (b->units[c] + 1) / 2);
    mark_eliminated(g, q, VIOLATION_NONE);
    event_begin(g, "eliminated", q);
    ev_puts(g, ",\"by\":\"capture\",\"capturer\":");
    ev_i64(g, p);
    event_end(g, true);
}

static void write_move_event(struct generals *g, int p, const struct move *mv)
{
    event_begin(g, "move", p);
    const int64_t v[5] = {mv->opt, mv->i, mv->j, mv->i2, mv->j2};
    for (int x = 0; x < 5; x++) {
        ev_puts(g, x ? "," : ",\"move\":[");
        ev_i64(g, v[x]);
    }
    ev_puts(g, "]");
    event_end(g, true);
}

/* G8..G11 for a valid move of player p. */
static void apply_move(struct generals *g, int p, const struct move *mv)
{
    struct generals_board *b = &g->board;
    size_t from = cell_index(b, mv->i, mv->j), to = cell_index(b, mv->i2, mv->j2);
    int64_t x = b->units[from];
    int64_t y = x < 2 ? 0 : mv->opt == 1 ? x - 1 : x / 2;
    int q = b->owner[to], captured = 0;
    if (y > 0) {
        generals_board_set(b, from, b->type[from], p, x - y);
        int64_t u = b->units[to];
        if (q == p) {
            generals_board_set(b, to, b->type[to], p, u + y);
        } else if (y <= u) {
            generals_board_set(b, to, b->type[to], q, u - y);
        } else {
            bool capital = b->type[to] == CELL_CAPITAL;
            generals_board_set(b, to, capital ? CELL_CITY : b->type[to], p, y - u);
            captured = capital ? q : 0;
        }
    }
    write_move_event(g, p, mv);
    if (captured)
        capture_capital(g, p, captured);
    log_frame(g);
}

/* ---- reading a reply (D17) ------------------------------------------------ */

static enum reply_kind read_reply(const struct generals *g, const char *line, struct move *mv,
                                  struct game_verdict *v)
{
    size_t len = strlen(line);
    if (len > 0 && line[len - 1] == '\n')
        len--;
    v->kind = VIOLATION_INVALID_OUTPUT;
    if ((int64_t)len > g->params[GP_MAX_LINE_BYTES]) {
        snprintf(v->reason, sizeof v->reason, "the line is longer than max_line_bytes (%lld)",
                 (long long)g->params[GP_MAX_LINE_BYTES]);
        return REPLY_BAD;
    }
    int64_t n[5];
    int count;
    struct game_error err;
    if (reply_numbers(line, len, n, 5, &count, &err) < 0) {
        snprintf(v->reason, sizeof v->reason, "column %d: %.140s", err.col, err.msg);
        return REPLY_BAD;
    }
    if (count == 1 && n[0] == -1) {
        v->kind = VIOLATION_NONE;
        return REPLY_PASS;
    }
    if (count != 5) {
        snprintf(v->reason, sizeof v->reason,
                 count == 0 ? "empty line: expected -1 or five numbers"
                            : "expected -1 or five numbers, got %d number(s)", count);
        return REPLY_BAD;
    }
    *mv = (struct move){n[0], n[1], n[2], n[3], n[4]};
    v->kind = VIOLATION_NONE;
    return REPLY_MOVE;
}

/* ---- the game_rules entry points ----------------------------------------- */

static int create_error(struct game_error *err, const char *msg)
{
    err->line = err->col = 0;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return -1;
}

static int check_setup(const struct game_setup *setup, struct game_error *err)
{
    if (!setup->map)
        return create_error(err, "generals needs a map");
    const struct generals_map *map = (const struct generals_map *)setup->map;
    if (setup->players != map->k) {
        err->line = err->col = 0;
        snprintf(err->msg, sizeof err->msg,
                 "the map has %d capitals, so the match needs %d players, not %d", map->k,
                 map->k, setup->players);
        return -1;
    }
    for (int x = 0; setup->params && x < GP_COUNT; x++) {
        const struct game_param *p = &generals_params[x];
        if (setup->params[x] < p->min || setup->params[x] > p->max) {
            err->line = err->col = 0;
            snprintf(err->msg, sizeof err->msg, "parameter %s = %lld is out of range %lld..%lld",
                     p->name, (long long)setup->params[x], (long long)p->min, (long long)p->max);
            return -1;
        }
    }
    return 0;
}

/* G3, G4, D13. */
static void start(struct generals *g, uint64_t seed)
{
    struct generals_board *b = &g->board;
    int k = b->k, p = 0;
    for (size_t c = 0; c < b->cells; c++)
        if (b->type[c] == CELL_CAPITAL)
            generals_board_set(b, c, CELL_CAPITAL, ++p, g->params[GP_CAPITAL_START_ARMY]);
    for (int x = 0; x < k; x++)
        g->order[x] = x + 1;
    struct rng order_rng = rng_stream(seed, "generals/order");
    rng_shuffle_int(&order_rng, g->order, (size_t)k);
    for (p = 1; p <= k; p++) {
        g->players[p].alive = true;
        check_write(g, sb_printf(&g->players[p].outbox, "%d %d %d %d\n", b->n, b->m, k, p));
    }
    g->alive_count = k;
    event_begin(g, "start", 0);
    for (int x = 0; x < k; x++) {
        ev_puts(g, x ? "," : ",\"order\":[");
        ev_i64(g, g->order[x]);
    }
    ev_puts(g, "]");
    event_end(g, true);
    g->round = 1;
}

static void generals_destroy(struct game *gg)
{
    struct generals *g = as_generals(gg);
    if (!g)
        return;
    generals_board_free(&g->board);
    for (int p = 0; p <= GAME_MAX_PLAYERS; p++)
        sb_free(&g->players[p].outbox);
    sb_free(&g->events);
    free(g);
}

static int generals_create(const struct game_setup *setup, struct game **out,
                           struct game_error *err)
{
    if (check_setup(setup, err) < 0)
        return -1;
    struct generals *g = calloc(1, sizeof *g);
    if (!g)
        return create_error(err, "out of memory");
    g->base.rules = &generals_rules;
    for (int x = 0; x < GP_COUNT; x++)
        g->params[x] = setup->params ? setup->params[x] : generals_params[x].def;
    if (generals_board_init(&g->board, (const struct generals_map *)setup->map,
                            (int)g->params[GP_VISION_RADIUS]) < 0) {
        free(g);
        return create_error(err, "out of memory");
    }
    start(g, setup->seed);
    if (g->out_of_memory) {
        generals_destroy(&g->base);
        return create_error(err, "out of memory");
    }
    *out = &g->base;
    return 0;
}

static int generals_pending(const struct game *gg, int *players, int max)
{
    int p = current_player(as_const_generals(gg));
    if (p == 0 || max < 1)
        return 0;
    players[0] = p;
    return 1;
}

static int generals_prompt(struct game *gg, int player, struct strbuf *out)
{
    struct generals *g = as_generals(gg);
    if (player == 0 || player != current_player(g))
        return -1;
    return generals_board_write_state(&g->board, player, out);
}

static int generals_reply_lines(const struct game *g, int player)
{
    (void)g;
    (void)player;
    return 1;
}

static int generals_submit(struct game *gg, int player, const char *const *lines, int n_lines,
                           struct game_verdict *v)
{
    struct generals *g = as_generals(gg);
    if (player == 0 || player != current_player(g) || n_lines != 1 || !lines || !lines[0])
        return -1;
    struct move mv;
    v->reason[0] = '\0';
    enum reply_kind kind = read_reply(g, lines[0], &mv, v);
    if (kind == REPLY_PASS) {
        event_begin(g, "pass", player);
        event_end(g, false);
    } else if (kind == REPLY_MOVE && invalid_move(g, player, &mv, v->reason, sizeof v->reason)) {
        v->kind = VIOLATION_INVALID_MOVE;
        eliminate_for_violation(g, player, VIOLATION_INVALID_MOVE);
    } else if (kind == REPLY_MOVE) {
        apply_move(g, player, &mv);
    } else {
        eliminate_for_violation(g, player, v->kind);
    }
    advance(g);
    return g->out_of_memory ? -1 : 0;
}

static int generals_violation(struct game *gg, int player, enum violation_kind kind)
{
    struct generals *g = as_generals(gg);
    if (player == 0 || player != current_player(g) || kind <= VIOLATION_NONE ||
        kind > VIOLATION_INVALID_MOVE)
        return -1;
    eliminate_for_violation(g, player, kind);
    advance(g);
    return g->out_of_memory ? -1 : 0;
}

static int generals_outbox(struct game *gg, int player, struct strbuf *out)
{
    struct generals *g = as_generals(gg);
    if (player < 1 || player > g->board.k)
        return -1;
    struct strbuf *box = &g->players[player].outbox;
    int rc = sb_append(out, box->data ? box->data : "", box->len);
    sb_reset(box);
    return rc;
}

static bool generals_player_done(const struct game *gg, int player)
{
    const struct generals *g = as_const_generals(gg);
    if (player < 1 || player > g->board.k)
        return true;
    return g->over || !g->players[player].alive;
}

static bool generals_over(const struct game *gg)
{
    return as_const_generals(gg)->over;
}

/* §7 order: survivors by army, cities, cells; then the later eliminated first. */
static int compare_standing(const struct generals *g, int a, int b)
{
    const struct player *pa = &g->players[a], *pb = &g->players[b];
    const struct generals_board *bd = &g->board;
    if (pa->alive != pb->alive)
        return pa->alive ? -1 : 1;
    if (!pa->alive)
        return pb->elimination_seq - pa->elimination_seq;
    if (bd->army[a] != bd->army[b])
        return bd->army[a] > bd->army[b] ? -1 : 1;
    if (bd->cities[a] != bd->cities[b])
        return bd->cities[a] > bd->cities[b] ? -1 : 1;
    if (bd->land[a] != bd->land[b])
        return bd->land[a] > bd->land[b] ? -1 : 1;
    return 0;
}

static int generals_result(const struct game *gg, struct game_result *out)
{
    const struct generals *g = as_const_generals(gg);
    int k = g->board.k, first = 0;
    memset(out, 0, sizeof *out);
    out->players = k;
    out->rounds = g->round;
    for (int p = 1; p <= k; p++) {
        struct game_player_result *r = &out->p[p];
        r->place = 1;
        for (int q = 1; q <= k; q++)
            if (compare_standing(g, q, p) < 0)
                r->place++; /* competition ranks (D19): 1 + the number strictly ahead */
        r->alive = g->players[p].alive;
        r->eliminated_at = g->players[p].eliminated_round;
        r->violation = g->players[p].violation;
        r->stats[0] = g->board.army[p];
        r->stats[1] = g->board.cities[p];
        r->stats[2] = g->board.land[p];
        if (r->place == 1)
            first = first ? -1 : p;
    }
    /* A win scores 1 point; a draw (several players in place 1) scores 0 for everyone,
     * and the results stage ranks draws by place. */
    out->draw = first < 0;
    out->winner = first > 0 ? first : 0;
    if (out->winner)
        out->p[out->winner].points = 1;
    return 0;
}

static int generals_take_events(struct game *gg, struct strbuf *jsonl)
{
    struct generals *g = as_generals(gg);
    int rc = sb_append(jsonl, g->events.data ? g->events.data : "", g->events.len);
    sb_reset(&g->events);
    return rc < 0 || g->out_of_memory ? -1 : 0;
}

static void generals_set_log(struct game *gg, struct strbuf *log)
{
    struct generals *g = as_generals(gg);
    g->log = log;
    if (!log)
        return;
    check_write(g, sb_printf(log, "%d %d %d 0\n", g->board.n, g->board.m, g->board.k));
    if (g->over)
        log_line(g, "0\n");
}

const struct generals_board *generals_board_of(const struct game *g)
{
    return &as_const_generals(g)->board;
}

static int generals_round(const struct game *gg)
{
    return as_const_generals(gg)->round;
}

const struct game_rules generals_rules = {
    .name = "generals",
    .params = generals_params,
    .n_params = GP_COUNT,
    .process_model = PROCESS_PER_MATCH,
    .time_model = TIME_CPU_BUDGET,
    .min_players = 2,
    .max_players = GAME_MAX_PLAYERS,
    .map_parse = generals_map_parse,
    .map_generate = generals_map_generate,
    .map_write = generals_map_write,
    .map_players = generals_map_players,
    .map_free = generals_map_free,
    .create = generals_create,
    .destroy = generals_destroy,
    .pending = generals_pending,
    .prompt = generals_prompt,
    .prompt_argv = NULL,
    .reply_lines = generals_reply_lines,
    .submit = generals_submit,
    .violation = generals_violation,
    .outbox = generals_outbox,
    .player_done = generals_player_done,
    .over = generals_over,
    .result = generals_result,
    .take_events = generals_take_events,
    .set_log = generals_set_log,
    .round = generals_round,
};
