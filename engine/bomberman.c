/*
 * bomberman.c - the bomberman match (bomberman.md): parameters (§1, D17), replies (§4, D15),
 * the course of the game (§5, D19, D21), end and scoring (§6, D14), violations (§7, B12, D20),
 * the §8 log, and the game_rules entry points. One step's rules are in bomberman_rules.c, the
 * texts in bomberman_text.c, the map in bomberman_map.c.
 *
 * What the runner does: every living player whose bot has not crashed is pending each tick;
 * prompt() is the §4 state, reply_lines() 1, reply_wall() first_tick_wall_ms at tick 0 and
 * tick_wall_ms after, from the end of writing the state. Once the last pending reply (or
 * violation) is in, the step runs. A time, crash, memory or system call violation crashes the
 * player (B12: it WAITs to the end, is never asked again, gets no OVER); invalid output is one
 * INVALID (WAIT). When every living player has crashed the steps run on by themselves (D21).
 *
 * Events (game_take_events), one JSON object per line; x is the column, y the row, 1-based.
 * The events of round T take the board from the state of tick T to that of tick T+1:
 *   {"t":"start","round":0,"players":[{"player":1,"x":1,"y":1,"health":1,"bombs_max":1,
 *    "bombs_left":1,"radius":2},...]}                          B3; the map is the header's
 *   {"t":"crashed","round":T,"player":P,"violation":"time"}    B12, when the violation comes in
 *   {"t":"step","round":T,"order":[3,1,4,2]}                   §5: the shuffled living players
 *   {"t":"cmd","round":T,"player":P,"cmd":"UP","effect":"moved","x":X,"y":Y}
 *        one per player in that order; x, y where it stands after; "placed" adds
 *        "bomb":{"radius":R,"timer":L} (the bomb on x, y, timer before B8)
 *   {"t":"lava_decay","round":T,"removed":[[x,y,owner],...]}   B7: every lava part lost 1 of
 *        its live time; these reached 0 (only written when some did)
 *   {"t":"boom","round":T,"x":X,"y":Y,"owner":O,"radius":R,"cells":[[x,y],...]}
 *        B8..B10, by y then x: every bomb's timer went down by 1 first; this bomb exploded,
 *        its flame is `cells` (its own cell first), each of which now holds lava of O with
 *        live time lava_livetime; the bomb is gone and O has one more bomb left
 *   {"t":"block","round":T,"x":X,"y":Y,"owners":[1,3],"bonus":"A"|"R"|null}
 *        B10, by y then x: the block is free now, its hidden bonus (if any) lies visible,
 *        each owner gained player_cell_destroy_points
 *   {"t":"damage","round":T,"player":P,"health":H}             B11, health after
 *   {"t":"death","round":T,"player":P,"x":X,"y":Y,"killers":[2,P]}
 *        D12: the owners of lava on its cell; the others gained player_kill_points
 *   {"t":"status","round":T,"players":[[x,y,alive,health,points,bombs_max,bombs_left,radius],...]}
 *        every player after the step, by number (the state of tick T+1)
 *   {"t":"end","round":T,"reason":"last_player"|"no_player"|"tick_limit",
 *    "award":[[p,points],...],"points":[...],"places":[...]}   §6 at the final tick T
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bomberman.h"
#include "engine/reply_parse.h"
#include "engine/rng.h"

#define BIG 1000000000

const struct game_param bomberman_params[BP_COUNT] = {
    [BP_GAME_TICKS_MAX] = {"game_ticks_max", 500, 0, BIG, "the game stops after this many steps"},
    [BP_BANG_START_RADIUS] = {"bang_start_radius", 2, 0, BIG, "starting blast radius"},
    [BP_BOMBS_COUNT_START] = {"player_bombs_count_start", 1, 0, BIG,
                              "bombs on the field at once, at the start"},
    [BP_LAVA_LIVETIME] = {"lava_livetime", 2, 1, BIG, "steps a lava part stays"},
    [BP_BOMB_LIVE_TIME] = {"bomb_live_time", 5, 1, BIG, "steps from placing a bomb to its explosion"},
    [BP_KILL_POINTS] = {"player_kill_points", 20, 0, BIG, "for killing another player"},
    [BP_SURVIVE_POINTS] = {"player_survive_points", 20, 0, BIG, "to each survivor when several survive"},
    [BP_CELL_DESTROY_POINTS] = {"player_cell_destroy_points", 1, 0, BIG, "for destroying a block"},
    [BP_WIN_POINTS] = {"player_win_points", 40, 0, BIG, "to the only survivor"},
    [BP_BONUS_FIND_POINTS] = {"player_bonus_find_points", 4, 0, BIG, "for picking up a bonus"},
    [BP_HEALTH_START] = {"player_health_start", 1, 1, BIG, "starting health"},
    [BP_LAVA_DAMAGE] = {"lava_damage", 1, 0, BIG, "health lost in each step that ends on lava"},
    [BP_TICK_WALL_MS] = {"tick_wall_ms", 1000, 1, BIG, "wall limit for each reply"},
    [BP_FIRST_TICK_WALL_MS] = {"first_tick_wall_ms", 3000, 1, BIG, "wall limit for the tick-0 reply"},
    [BP_MEMORY_LIMIT_MB] = {"memory_limit_mb", 64, 1, BIG, "memory of all of a bot's processes (README C8)"},
    [BP_MAX_LINE_BYTES] = {"max_line_bytes", 64, 1, BIG, "longest reply line (README C3)"},
};

struct seat_state {
    bool crashed, replied;
    enum bm_command cmd;
    enum violation_kind violation; /* what crashed it */
    int died_at;                   /* tick of its death (D21), 0 if alive */
    struct strbuf outbox;
};

struct bomberman {
    struct game base;
    int64_t params[BP_COUNT];
    struct bm_board board;
    struct bm_step_record *rec;
    struct seat_state seat[BM_MAX_PLAYERS + 1];
    struct rng order_rng;
    int tick;
    bool over;
    int64_t award[BM_MAX_PLAYERS + 1];
    bool out_of_memory;
    struct strbuf events;
    struct strbuf *log;
};

static struct bomberman *as_bm(struct game *g)
{
    return (struct bomberman *)g;
}
static const struct bomberman *as_const_bm(const struct game *g)
{
    return (const struct bomberman *)g;
}

static void check_write(struct bomberman *g, int rc)
{
    if (rc < 0) g->out_of_memory = true;
}

static int alive_count(const struct bomberman *g)
{
    int n = 0;
    for (int p = 1; p <= g->board.players; p++) n += g->board.p[p].alive;
    return n;
}

static bool is_pending(const struct bomberman *g, int p)
{
    return !g->over && p >= 1 && p <= g->board.players && g->board.p[p].alive && !g->seat[p].crashed &&
           !g->seat[p].replied;
}

/* ---- the end (§6, D14) -------------------------------------------------------------------------- */

static int place_of(const struct bomberman *g, int p)
{
    int place = 1;
    for (int q = 1; q <= g->board.players; q++) place += g->board.p[q].points > g->board.p[p].points;
    return place;
}

static void write_end_event(struct bomberman *g, const char *reason)
{
    struct strbuf *ev = &g->events;
    int P = g->board.players;
    check_write(g,
                sb_printf(ev, "{\"t\":\"end\",\"round\":%d,\"reason\":\"%s\",\"award\":[", g->tick, reason));
    const char *sep = "";
    for (int p = 1; p <= P; p++)
        if (g->award[p]) {
            check_write(g, sb_printf(ev, "%s[%d,%lld]", sep, p, (long long)g->award[p]));
            sep = ",";
        }
    check_write(g, sb_puts(ev, "],\"points\":["));
    for (int p = 1; p <= P; p++)
        check_write(g, sb_printf(ev, "%s%lld", p > 1 ? "," : "", (long long)g->board.p[p].points));
    check_write(g, sb_puts(ev, "],\"places\":["));
    for (int p = 1; p <= P; p++) check_write(g, sb_printf(ev, "%s%d", p > 1 ? "," : "", place_of(g, p)));
    check_write(g, sb_puts(ev, "]}\n"));
}

static void write_result_lines(struct bomberman *g, struct strbuf *log)
{
    for (int p = 1; p <= g->board.players; p++)
        check_write(
            g, sb_printf(log, "RESULT %d %lld %d\n", p, (long long)g->board.p[p].points, place_of(g, p)));
}

static void end_game(struct bomberman *g)
{
    int alive = alive_count(g);
    int64_t award = alive == 1 ? g->params[BP_WIN_POINTS] : g->params[BP_SURVIVE_POINTS];
    g->over = true;
    for (int p = 1; p <= g->board.players; p++) {
        if (!g->board.p[p].alive) continue;
        g->award[p] = award;
        g->board.p[p].points += award;
        if (!g->seat[p].crashed) check_write(g, sb_puts(&g->seat[p].outbox, "OVER\n"));
    }
    write_end_event(g, alive == 1 ? "last_player" : alive == 0 ? "no_player" : "tick_limit");
    if (g->log) write_result_lines(g, g->log);
}

static void check_end(struct bomberman *g)
{
    if (g->tick >= g->params[BP_GAME_TICKS_MAX] || alive_count(g) <= 1) end_game(g);
}

/* ---- a step (§5) ------------------------------------------------------------------------------ */

static void run_step(struct bomberman *g)
{
    struct bm_board *b = &g->board;
    int order[BM_MAX_PLAYERS], n = 0;
    enum bm_command cmds[BM_MAX_PLAYERS + 1];
    for (int p = 1; p <= b->players; p++) {
        cmds[p] = g->seat[p].crashed ? BM_CRASHED : g->seat[p].cmd;
        if (b->p[p].alive) order[n++] = p;
    }
    rng_shuffle_int(&g->order_rng, order, (size_t)n);
    bm_board_step(b, order, n, cmds, g->rec);
    check_write(g, bm_write_step_events(b, g->rec, g->tick, &g->events));
    g->tick++;
    for (int i = 0; i < g->rec->n_damaged; i++) {
        int p = g->rec->damaged[i].player;
        if (!g->rec->damaged[i].died) continue;
        g->seat[p].died_at = g->tick;
        if (!g->seat[p].crashed) check_write(g, sb_puts(&g->seat[p].outbox, "OVER\n"));
    }
    for (int p = 1; p <= b->players; p++) {
        g->seat[p].replied = false;
        g->seat[p].cmd = BM_WAIT;
    }
    if (g->log) {
        check_write(g, bm_write_step_log(g->rec, g->log));
        check_write(g, bm_write_state(b, g->tick, 0, g->log));
    }
    check_end(g);
}

/* Steps run once no reply is owed; they run on by themselves while every living player has
 * crashed (D21). */
static int settle(struct bomberman *g)
{
    for (;;) {
        bool any = false;
        for (int p = 1; p <= g->board.players; p++) any = any || is_pending(g, p);
        if (any || g->over || g->out_of_memory) return g->out_of_memory ? -1 : 0;
        run_step(g);
    }
}

/* ---- a reply (§4, §7, D15) --------------------------------------------------------------------- */

static const char *const words[] = {
    [BM_WAIT] = "WAIT", [BM_UP] = "UP",       [BM_DOWN] = "DOWN",
    [BM_LEFT] = "LEFT", [BM_RIGHT] = "RIGHT", [BM_BOMB] = "BOMB",
};

static enum bm_command read_command(const struct bomberman *g, const char *line, struct game_verdict *v)
{
    size_t len = strlen(line);
    struct reply_token tok[2];
    int count;
    struct game_error err = {0};
    v->kind = VIOLATION_INVALID_OUTPUT;
    if ((int64_t)len > g->params[BP_MAX_LINE_BYTES]) {
        snprintf(v->reason, sizeof v->reason, "line longer than max_line_bytes (%lld)",
                 (long long)g->params[BP_MAX_LINE_BYTES]);
        return BM_INVALID;
    }
    if (reply_tokens(line, len, tok, 2, &count, &err) < 0) {
        snprintf(v->reason, sizeof v->reason, "column %d: %.140s", err.col, err.msg);
        return BM_INVALID;
    }
    if (count != 1) {
        snprintf(v->reason, sizeof v->reason,
                 count ? "expected one word, got %d" : "empty line: expected a command", count);
        return BM_INVALID;
    }
    for (int c = BM_WAIT; c <= BM_BOMB; c++)
        if (tok[0].len == strlen(words[c]) && !memcmp(tok[0].text, words[c], tok[0].len)) {
            v->kind = VIOLATION_NONE;
            return (enum bm_command)c;
        }
    snprintf(v->reason, sizeof v->reason, "'%.*s' is not one of WAIT, UP, DOWN, LEFT, RIGHT, BOMB",
             (int)(tok[0].len > 40 ? 40 : tok[0].len), tok[0].text);
    return BM_INVALID;
}

/* ---- creating a match ------------------------------------------------------------------------- */

static int create_error(struct game_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int create_error(struct game_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->line = err->col = 0;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_setup(const struct game_setup *setup, const int64_t *v, struct game_error *err)
{
    if (!setup->map) return create_error(err, "bomberman needs a map");
    int starts = bomberman_map_players(setup->map);
    if (setup->players < 2 || setup->players > starts)
        return create_error(err, "the map has %d starts, so the match takes 2 to %d players, not %d", starts,
                            starts, setup->players);
    for (int x = 0; x < BP_COUNT; x++) {
        const struct game_param *p = &bomberman_params[x];
        if (v[x] < p->min || v[x] > p->max)
            return create_error(err, "parameter %s = %lld is out of range %lld..%lld", p->name,
                                (long long)v[x], (long long)p->min, (long long)p->max);
    }
    return 0;
}

static void write_start_event(struct bomberman *g)
{
    check_write(g, sb_puts(&g->events, "{\"t\":\"start\",\"round\":0,\"players\":["));
    for (int p = 1; p <= g->board.players; p++) {
        const struct bm_player *pl = &g->board.p[p];
        check_write(g, sb_printf(&g->events,
                                 "%s{\"player\":%d,\"x\":%d,\"y\":%d,\"health\":%lld,\"bombs_max\":%lld,"
                                 "\"bombs_left\":%lld,\"radius\":%lld}",
                                 p > 1 ? "," : "", p, bm_x(pl->cell), bm_y(pl->cell), (long long)pl->health,
                                 (long long)pl->bombs_max, (long long)pl->bombs_left, (long long)pl->radius));
    }
    check_write(g, sb_puts(&g->events, "]}\n"));
}

static void bomberman_destroy(struct game *gg)
{
    struct bomberman *g = as_bm(gg);
    if (!g) return;
    for (int p = 0; p <= BM_MAX_PLAYERS; p++) sb_free(&g->seat[p].outbox);
    sb_free(&g->events);
    free(g->rec);
    free(g);
}

static int bomberman_create(const struct game_setup *setup, struct game **out, struct game_error *err)
{
    int64_t v[BP_COUNT];
    for (int x = 0; x < BP_COUNT; x++) v[x] = setup->params ? setup->params[x] : bomberman_params[x].def;
    if (check_setup(setup, v, err) < 0) return -1;
    struct bomberman *g = calloc(1, sizeof *g);
    if (!g || !(g->rec = malloc(sizeof *g->rec))) {
        free(g);
        return create_error(err, "out of memory");
    }
    g->base.rules = &bomberman_rules;
    memcpy(g->params, v, sizeof v);
    g->order_rng = rng_stream(setup->seed, "bomberman/order");
    bm_board_init(&g->board, (const struct bomberman_map *)setup->map, g->params, setup->players);
    write_start_event(g);
    check_end(g);
    if (g->out_of_memory) {
        bomberman_destroy(&g->base);
        return create_error(err, "out of memory");
    }
    *out = &g->base;
    return 0;
}

/* ---- the entry points ------------------------------------------------------------------------ */

static int bomberman_pending(const struct game *gg, int *players, int max)
{
    const struct bomberman *g = as_const_bm(gg);
    int n = 0;
    for (int p = 1; p <= g->board.players && n < max; p++)
        if (is_pending(g, p)) players[n++] = p;
    return n;
}

static int bomberman_prompt(struct game *gg, int player, struct strbuf *out)
{
    struct bomberman *g = as_bm(gg);
    if (!is_pending(g, player)) return -1;
    return bm_write_state(&g->board, g->tick, player, out);
}

static int bomberman_reply_lines(const struct game *g, int player)
{
    (void)g;
    (void)player;
    return 1;
}

static void bomberman_reply_wall(const struct game *gg, int player, struct game_reply_wall *out)
{
    const struct bomberman *g = as_const_bm(gg);
    (void)player;
    bool first = g->tick == 0;
    *out =
        (struct game_reply_wall){.ms = (uint64_t)g->params[first ? BP_FIRST_TICK_WALL_MS : BP_TICK_WALL_MS],
                                 .param = first ? "first_tick_wall_ms" : "tick_wall_ms"};
}

static int bomberman_submit(struct game *gg, int player, const char *const *lines, int n_lines,
                            struct game_verdict *v)
{
    struct bomberman *g = as_bm(gg);
    if (!is_pending(g, player) || n_lines != 1 || !lines || !lines[0]) return -1;
    v->reason[0] = '\0';
    g->seat[player].cmd = read_command(g, lines[0], v);
    g->seat[player].replied = true;
    return settle(g);
}

static int bomberman_violation(struct game *gg, int player, enum violation_kind kind)
{
    struct bomberman *g = as_bm(gg);
    if (!is_pending(g, player) || kind <= VIOLATION_NONE || kind > VIOLATION_INVALID_MOVE) return -1;
    struct seat_state *s = &g->seat[player];
    s->replied = true;
    s->cmd = BM_INVALID;
    if (kind <= VIOLATION_CRASH) {
        s->crashed = true;
        s->violation = kind;
        check_write(g, sb_printf(&g->events,
                                 "{\"t\":\"crashed\",\"round\":%d,\"player\":%d,\"violation\":\"%s\"}\n",
                                 g->tick, player, violation_name(kind)));
    }
    return settle(g);
}

static int bomberman_outbox(struct game *gg, int player, struct strbuf *out)
{
    struct bomberman *g = as_bm(gg);
    if (player < 1 || player > g->board.players) return -1;
    struct strbuf *box = &g->seat[player].outbox;
    int rc = sb_append(out, box->data ? box->data : "", box->len);
    sb_reset(box);
    return rc;
}

static bool bomberman_player_done(const struct game *gg, int player)
{
    const struct bomberman *g = as_const_bm(gg);
    if (player < 1 || player > g->board.players) return true;
    return g->over || !g->board.p[player].alive || g->seat[player].crashed;
}

static bool bomberman_over(const struct game *gg)
{
    return as_const_bm(gg)->over;
}

static int bomberman_result(const struct game *gg, struct game_result *out)
{
    const struct bomberman *g = as_const_bm(gg);
    int first = 0;
    memset(out, 0, sizeof *out);
    out->players = g->board.players;
    out->rounds = g->tick;
    for (int p = 1; p <= g->board.players; p++) {
        struct game_player_result *r = &out->p[p];
        const struct bm_player *pl = &g->board.p[p];
        r->place = place_of(g, p);
        r->points = pl->points;
        r->alive = pl->alive;
        r->eliminated_at = g->seat[p].died_at;
        r->violation = g->seat[p].violation;
        r->stats[0] = pl->kills;
        r->stats[1] = pl->blocks;
        r->stats[2] = pl->bonuses;
        if (r->place == 1) first = first ? -1 : p;
    }
    out->draw = first < 0;
    out->winner = first > 0 ? first : 0;
    return 0;
}

static int bomberman_take_events(struct game *gg, struct strbuf *jsonl)
{
    struct bomberman *g = as_bm(gg);
    int rc = sb_append(jsonl, g->events.data ? g->events.data : "", g->events.len);
    sb_reset(&g->events);
    return rc < 0 || g->out_of_memory ? -1 : 0;
}

/* Call right after create: the state of tick 0 (and, for a game over at once, the result).
 * That state shows the points before the end award (D14), which create already gave. */
static void bomberman_set_log(struct game *gg, struct strbuf *log)
{
    struct bomberman *g = as_bm(gg);
    g->log = log;
    if (!log || g->tick != 0) return;
    for (int p = 1; p <= g->board.players; p++) g->board.p[p].points -= g->award[p];
    check_write(g, bm_write_state(&g->board, 0, 0, log));
    for (int p = 1; p <= g->board.players; p++) g->board.p[p].points += g->award[p];
    if (g->over) write_result_lines(g, log);
}

static int bomberman_round(const struct game *gg)
{
    return as_const_bm(gg)->tick;
}

const struct bm_board *bomberman_board_of(const struct game *g)
{
    return &as_const_bm(g)->board;
}

const struct game_rules bomberman_rules = {
    .name = "bomberman",
    .params = bomberman_params,
    .n_params = BP_COUNT,
    .process_model = PROCESS_PER_MATCH,
    .time_model = TIME_REPLY_WALL,
    .min_players = 2,
    .max_players = BM_MAX_PLAYERS,
    .map_players_at_most = true,
    .map_parse = bomberman_map_parse,
    .map_generate = bomberman_map_generate,
    .map_write = bomberman_map_write,
    .map_players = bomberman_map_players,
    .map_free = bomberman_map_free,
    .create = bomberman_create,
    .destroy = bomberman_destroy,
    .pending = bomberman_pending,
    .prompt = bomberman_prompt,
    .prompt_argv = NULL,
    .reply_lines = bomberman_reply_lines,
    .submit = bomberman_submit,
    .violation = bomberman_violation,
    .outbox = bomberman_outbox,
    .player_done = bomberman_player_done,
    .over = bomberman_over,
    .result = bomberman_result,
    .take_events = bomberman_take_events,
    .set_log = bomberman_set_log,
    .round = bomberman_round,
    .reply_wall = bomberman_reply_wall,
};
