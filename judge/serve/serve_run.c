/*
 * serve_run.c - `judge serve seabattle` as a whole: the defaults of its configuration, the
 * event loop until a stop is asked for, the ends of games (replays, the caller's hooks),
 * and a clean end: games in progress recorded as aborted, every session told GOODBYE and its
 * connection closed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "judge/serve/serve_internal.h"

void serve_config_defaults(struct serve_config *c)
{
    memset(c, 0, sizeof *c);
    c->host = "127.0.0.1";
    c->port = 8080;
    game_params_defaults(&seabattle_rules, c->params);
    c->move_wall_ms = 60000;
    c->wait_ms = 600000;
    c->house_wait_ms = 3000;
    c->limits = (struct serve_limits){
        .max_connections = 512,
        .max_games_per_player = 8,
        .max_live_games = 4096,
        .calls_per_second = 100,
        .max_message_bytes = 65536,
        .max_queued_bytes = 1u << 20,
        .max_buffered_total = 256u << 20,
        .idle_ms = 120000,
        .message_ms = 10000,
        .send_ms = 30000,
        .kept_games = 10000,
    };
}

void serve_warn(struct serve *s, const char *fmt, ...)
{
    char text[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (s->hooks->warning)
        s->hooks->warning(s->hooks->ctx, text);
}

void serve_game_started(struct serve *s, const struct net_game *g)
{
    if (s->hooks->game_started)
        s->hooks->game_started(s->hooks->ctx, g->id, g->seat[1].id, g->seat[2].id);
}

/* Record a game that is over (no replay for a game that never began: D11), then keep only
 * what get-game-* needs. */
void serve_game_ended(struct serve *s, struct net_game *g)
{
    char path[4096] = "", err[640];
    bool played = g->seat[2].id[0] != '\0';
    const struct match_player *house = s->house ? house_player(s->house) : NULL;
    if (played && record_game(s->cfg, g, house, path, sizeof path, err, sizeof err) < 0) {
        serve_warn(s, "game %" PRId64 ": %s", g->id, err);
        path[0] = '\0';
    }
    g->recorded = true;
    if (!g->why[0])
        snprintf(g->why, sizeof g->why, "%s", "played to the end");
    if (s->hooks->game_ended)
        s->hooks->game_ended(s->hooks->ctx, g->id, g->result, g->why, path[0] ? path : NULL);
    if (g->g) {
        g->g->rules->set_log(g->g, NULL);
        g->g->rules->destroy(g->g);
        g->g = NULL;
    }
    sb_free(&g->lines);
}

void serve_tick(struct serve *s)
{
    lobby_tick(s);
    if (s->house)
        house_tick(s, s->house);
}

int serve_run(const struct serve_config *c, const struct serve_hooks *hooks, volatile sig_atomic_t *stop,
              struct serve_error *err)
{
    struct serve s = {.cfg = c, .hooks = hooks};
    struct ws_server *w = NULL;
    int port;
    err->input = false;
    if (net_params_check(c->params, err->msg, sizeof err->msg) < 0) {
        err->input = true;   /* every game would be refused */
        return -1;
    }
    s.lobby = lobby_new(c, record_last_id(c->replays_dir) + 1);
    if (!s.lobby) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    if (c->house_bot && house_open(c, &s.house, err->msg, sizeof err->msg) < 0) {
        err->input = true;
        lobby_free(s.lobby);
        return -1;
    }
    if (ws_start(&s, &w, &port, err->msg, sizeof err->msg) < 0) {
        err->input = true;   /* the address given cannot be listened on */
        house_close(s.house);
        lobby_free(s.lobby);
        return -1;
    }
    if (hooks->listening)
        hooks->listening(hooks->ctx, c->host && c->host[0] ? c->host : "0.0.0.0", port);
    while (!*stop)
        ws_service(w);
    lobby_abort_all(&s);   /* first: a session closing now must not lose its game */
    ws_shutdown(w);
    house_close(s.house);
    ws_stop(w);
    lobby_free(s.lobby);
    return 0;
}
