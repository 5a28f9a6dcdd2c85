/*
 * serve_lobby.c - the table of network games (ids never reused, D11), pairing (N1), turns
 * and held shots (N2, D9), the clocks (N5, D10), sessions that leave (N6), and the end of a
 * game: every held call answered, the replay written, the game kept for get-game-* until
 * kept_games newer ones have finished.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/serve/serve_internal.h"

struct lobby {
    const struct serve_config *cfg;
    int64_t first_id;                /* games[i] has id first_id + i */
    struct net_game **games;
    size_t n, cap;
    struct net_game *live_head, *live_tail;
    uint64_t live;
    int64_t *finished;               /* ids in the order they finished, for eviction */
    size_t fin_head, fin_len, fin_cap;
};

struct lobby *lobby_new(const struct serve_config *cfg, int64_t first_id)
{
    struct lobby *l = calloc(1, sizeof *l);
    if (l) {
        l->cfg = cfg;
        l->first_id = first_id;
    }
    return l;
}

void lobby_free(struct lobby *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        net_game_free(l->games[i]);
    free(l->games);
    free(l->finished);
    free(l);
}

struct net_game *lobby_find(struct lobby *l, int64_t id)
{
    if (id < l->first_id || (uint64_t)(id - l->first_id) >= l->n)
        return NULL;
    return l->games[id - l->first_id];
}

uint64_t lobby_live_games(struct lobby *l) { return l->live; }

uint64_t lobby_live_games_of(struct lobby *l, const char *player)
{
    uint64_t n = 0;
    for (struct net_game *g = l->live_head; g; g = g->next)
        for (int p = 1; p <= 2; p++)
            n += !g->seat[p].left && !strcmp(g->seat[p].id, player);
    return n;
}

/* By serial, not by address: a session's memory is reused by a later one, whose seat this is not. */
static bool seated(const struct net_seat *st, const struct wamp_session *ss)
{
    return st->serial != 0 && st->serial == wamp_session_serial(ss);
}

int lobby_seat_of(const struct net_game *g, const struct wamp_session *ss)
{
    return seated(&g->seat[1], ss) ? 1 : seated(&g->seat[2], ss) ? 2 : 0;
}

bool lobby_session_busy(struct lobby *l, const struct wamp_session *ss)
{
    for (struct net_game *g = l->live_head; g; g = g->next)
        if (lobby_seat_of(g, ss))
            return true;
    return false;
}

int lobby_ids_json(struct lobby *l, struct strbuf *out)
{
    int rc = sb_putc(out, '[');
    bool first = true;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        if (!l->games[i])
            continue;
        rc = sb_printf(out, first ? "%" PRId64 : ",%" PRId64, l->games[i]->id);
        first = false;
    }
    return rc < 0 ? -1 : sb_putc(out, ']');
}

struct net_game *lobby_waiting_since(struct lobby *l, uint64_t before_ms)
{
    for (struct net_game *g = l->live_head; g; g = g->next)
        if (g->status == NET_WAITING && !g->house_reserved && g->created_ms <= before_ms)
            return g;
    return NULL;
}

/* ---- the live list ----------------------------------------------------------------------- */

static int add_game(struct lobby *l, struct net_game *g)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        struct net_game **more = realloc(l->games, cap * sizeof *more);
        if (!more)
            return -1;
        l->games = more;
        l->cap = cap;
    }
    l->games[l->n++] = g;
    g->prev = l->live_tail;
    if (l->live_tail)
        l->live_tail->next = g;
    else
        l->live_head = g;
    l->live_tail = g;
    l->live++;
    return 0;
}

/* Off the live list nothing is sent to a seat, and its session may be gone: only its serial stays. */
static void unlink_live(struct lobby *l, struct net_game *g)
{
    g->seat[1].session = g->seat[2].session = NULL;
    if (g->prev)
        g->prev->next = g->next;
    else
        l->live_head = g->next;
    if (g->next)
        g->next->prev = g->prev;
    else
        l->live_tail = g->prev;
    g->prev = g->next = NULL;
    l->live--;
}

static void forget(struct lobby *l, struct net_game *g)
{
    l->games[g->id - l->first_id] = NULL;
    net_game_free(g);
}

/* A finished game stays for get-game-* until kept_games newer ones have finished. */
static void keep_finished(struct lobby *l, struct net_game *g)
{
    if (l->fin_len == l->fin_cap) {
        size_t cap = l->fin_cap ? l->fin_cap * 2 : 64;
        int64_t *more = malloc(cap * sizeof *more);
        if (!more) {
            forget(l, g);
            return;
        }
        for (size_t i = 0; i < l->fin_len; i++)
            more[i] = l->finished[(l->fin_head + i) % l->fin_cap];
        free(l->finished);
        l->finished = more;
        l->fin_cap = cap;
        l->fin_head = 0;
    }
    l->finished[(l->fin_head + l->fin_len++) % l->fin_cap] = g->id;
    while (l->fin_len > l->cfg->limits.kept_games) {
        struct net_game *old = lobby_find(l, l->finished[l->fin_head]);
        l->fin_head = (l->fin_head + 1) % l->fin_cap;
        l->fin_len--;
        if (old)
            forget(l, old);
    }
}

/* ---- pairing (N1, D8) ------------------------------------------------------------------------- */

static void take_seat(struct net_seat *st, struct wamp_session *ss)
{
    st->session = ss;
    st->serial = wamp_session_serial(ss);
}

struct net_game *lobby_pair(struct serve *s, struct wamp_session *ss, const char *player,
                            const struct sea_board *board, char *err, size_t errlen)
{
    struct lobby *l = s->lobby;
    for (struct net_game *g = l->live_head; g; g = g->next) {
        /* Two seats of one player-id would make a replay judge results refuses. */
        if (g->status != NET_WAITING || seated(&g->seat[1], ss) || g->house_reserved ||
            !strcmp(g->seat[1].id, player))
            continue;
        take_seat(&g->seat[2], ss);
        if (net_game_join(g, player, board) < 0) {
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        serve_game_started(s, g);
        lobby_game_changed(s, g);
        return g;
    }
    struct net_game *g = net_game_new(s->cfg->params, l->first_id + (int64_t)l->n, player, board, err, errlen);
    if (!g)
        return NULL;
    if (add_game(l, g) < 0) {
        net_game_free(g);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    take_seat(&g->seat[1], ss);
    return g;
}

/* ---- turns, held shots and ends ----------------------------------------------------------------- */

static void answer_held(struct net_seat *st, const char *status)
{
    char text[24];
    int n = snprintf(text, sizeof text, "\"%s\"", status);
    if (st->held && st->session)
        wamp_result(st->session, st->held_request, text, (size_t)n);
    st->held = false;
}

static void game_over(struct serve *s, struct net_game *g)
{
    for (int p = 1; p <= 2; p++)
        answer_held(&g->seat[p], "game-over");
    if (g->seat[2].house)
        house_game_changed(s, s->house, g);
    unlink_live(s->lobby, g);
    serve_game_ended(s, g);
    keep_finished(s->lobby, g);
}

static void internal_failure(struct serve *s, struct net_game *g)
{
    serve_warn(s, "game %" PRId64 ": out of memory while applying a move; the game is dropped", g->id);
    for (int p = 1; p <= 2; p++)
        answer_held(&g->seat[p], "game-over");
    unlink_live(s->lobby, g);
    forget(s->lobby, g);
}

void lobby_game_changed(struct serve *s, struct net_game *g)
{
    for (;;) {
        if (g->status == NET_OVER) {
            game_over(s, g);
            return;
        }
        int p = net_game_shooter(g);
        struct net_seat *st = &g->seat[p];
        if (p == 0)
            return;
        int rc = 0;
        if (st->left) {
            snprintf(g->why, sizeof g->why, "player %d's session closed (N6)", p);
            rc = net_game_violation(g, p, VIOLATION_CRASH, MATCH_RUNTIME_ERROR,
                                    "the session closed while the game was in progress", 0, 0);
        } else if (st->held) {
            const char *result = "game-over";
            uint64_t now = serve_now_ms();
            struct net_shot shot = st->held_shot;
            st->held = false;
            rc = net_game_shoot(g, p, &shot, (now - g->turn_ms) * 1000000ull, &result);
            if (rc == 0 && st->session) {
                char text[24];
                int n = snprintf(text, sizeof text, "\"%s\"", result);
                wamp_result(st->session, st->held_request, text, (size_t)n);
            }
        } else if (st->house) {
            house_game_changed(s, s->house, g);   /* it is asked; its reply comes on a later tick */
            return;
        } else {
            return;
        }
        if (rc < 0) {
            internal_failure(s, g);
            return;
        }
    }
}

void lobby_shoot(struct serve *s, struct net_game *g, int p, uint64_t request, const struct net_shot *shot)
{
    struct net_seat *st = &g->seat[p];
    st->held = true;
    st->held_request = request;
    st->held_shot = *shot;
    lobby_game_changed(s, g);
}

/* ---- sessions that leave (N6) and clocks (N5) -------------------------------------------------- */

void lobby_session_closed(struct serve *s, struct wamp_session *ss)
{
    struct lobby *l = s->lobby;
    for (struct net_game *g = l->live_head, *next; g; g = next) {
        next = g->next;
        for (int p = 1; p <= 2; p++) {
            struct net_seat *st = &g->seat[p];
            if (!st->session || !seated(st, ss))
                continue;
            st->session = NULL;
            st->held = false;
            st->left = true;
            if (g->status == NET_WAITING) {   /* D11: it disappears */
                unlink_live(l, g);
                forget(l, g);
                break;
            }
            int64_t id = g->id;
            lobby_game_changed(s, g);
            if (lobby_find(l, id) != g || g->status == NET_OVER)
                break;
        }
    }
}

static void close_waiting(struct serve *s, struct net_game *g)
{
    g->status = NET_OVER;
    g->result = "draw";
    snprintf(g->why, sizeof g->why, "no opponent within net_wait_ms (%" PRIu64 " ms)", s->cfg->wait_ms);
    for (int p = 1; p <= 2; p++)
        answer_held(&g->seat[p], "game-over");
    unlink_live(s->lobby, g);
    serve_game_ended(s, g);
    keep_finished(s->lobby, g);
}

void lobby_tick(struct serve *s)
{
    uint64_t now = serve_now_ms();
    for (struct net_game *g = s->lobby->live_head, *next; g; g = next) {
        next = g->next;
        if (g->status == NET_WAITING) {
            if (s->cfg->wait_ms && now - g->created_ms >= s->cfg->wait_ms)
                close_waiting(s, g);
            continue;
        }
        int p = net_game_shooter(g);
        uint64_t waited = now - g->turn_ms;
        if (p == 0 || g->seat[p].house || !s->cfg->move_wall_ms || waited < s->cfg->move_wall_ms)
            continue;
        snprintf(g->why, sizeof g->why, "player %d did not shoot within net_move_wall_ms (%" PRIu64 " ms)", p,
                 s->cfg->move_wall_ms);
        if (net_game_violation(g, p, VIOLATION_TIME, MATCH_WALL_LIMIT, "no shot within net_move_wall_ms",
                               s->cfg->move_wall_ms * 1000000ull, waited * 1000000ull) < 0)
            internal_failure(s, g);
        else
            lobby_game_changed(s, g);
    }
}

void lobby_abort_game(struct serve *s, struct net_game *g, const char *why)
{
    char path[4096] = "", err[512];
    for (int p = 1; p <= 2; p++)
        answer_held(&g->seat[p], "game-over");
    unlink_live(s->lobby, g);
    if (record_aborted(s->cfg, g, why, path, sizeof path, err, sizeof err) < 0) {
        serve_warn(s, "%s", err);
        path[0] = '\0';
    }
    if (s->hooks->game_ended)
        s->hooks->game_ended(s->hooks->ctx, g->id, "aborted", why, path[0] ? path : NULL);
    forget(s->lobby, g);
}

void lobby_abort_all(struct serve *s)
{
    while (s->lobby->live_head)
        lobby_abort_game(s, s->lobby->live_head, "the server stopped");
}
