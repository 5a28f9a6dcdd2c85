/*
 * judge/serve/ - the network server.
 *
 * serve.h - `judge serve seabattle`: sea battle over the network, a WAMP v2 router
 * (Basic Profile, wamp.2.json over WebSocket on /ws) that is itself the only callee
 * (docs/network.md). Nothing here prints: what happens reaches the caller through
 * serve_hooks, and errors are one-line messages.
 *
 *   serve_ws.c         the WebSocket transport (libwebsockets), the page on "/"
 *   serve_wamp.c       WAMP sessions: HELLO/WELCOME, CALL/RESULT/ERROR, GOODBYE, ABORT
 *   serve_calls.c      the procedures: new-game, shoot, get-games, get-game-info, get-game-log
 *   serve_json_text.c  a client's values as it wrote them, for messages and the replay
 *   serve_game.c       one game driven through the engine, its replay lines and log
 *   serve_lobby.c      the games table, pairing, turns and clocks
 *   serve_limits.c     connections, games per player-id, calls per second, buffers
 *   serve_record.c     finished games as replays, aborted games as records
 *   serve_page.c       the human page, embedded in the binary
 */
#ifndef JUDGE_SERVE_H
#define JUDGE_SERVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/seabattle.h"

struct serve_limits {
    uint64_t max_connections;        /* WebSocket connections at once */
    uint64_t max_games_per_player;   /* waiting or in-progress games of one player-id */
    uint64_t max_live_games;         /* waiting or in-progress games in all */
    uint64_t calls_per_second;       /* per session, with a burst of twice as many */
    uint64_t max_message_bytes;      /* net_max_message_bytes: one WebSocket message's payload */
    uint64_t max_queued_bytes;       /* unsent bytes to one connection */
    uint64_t max_buffered_total;     /* received + unsent bytes held for all connections */
    uint64_t idle_ms;                /* a connection with nothing going on is closed */
    uint64_t message_ms;             /* a started message must be complete within this */
    uint64_t send_ms;                /* queued bytes must start leaving within this */
    uint64_t kept_games;             /* finished games kept in memory for get-game-* */
};

struct serve_config {
    const char *host;                /* NULL or "" = every interface */
    int port;                        /* 0 = any free port */
    const char *replays_dir;         /* NULL = no replays */
    const char *realm;               /* NULL = any realm */
    int64_t params[SP_COUNT];        /* the game's parameters (fleet, shot_limit, ...) */
    uint64_t move_wall_ms;           /* net_move_wall_ms (N5) */
    uint64_t wait_ms;                /* net_wait_ms (N5) */
    struct serve_limits limits;
    const char *house_bot;           /* a match-player YAML file, or NULL (serve_house.c) */
    uint64_t house_wait_ms;          /* how long a lone player waits before the house bot joins */
};

void serve_config_defaults(struct serve_config *c);

/* What the server tells its caller (each may be NULL). Texts are plain ASCII, escaped. */
struct serve_hooks {
    void (*listening)(void *ctx, const char *host, int port);
    void (*game_started)(void *ctx, int64_t game, const char *player1, const char *player2);
    /* status: "player1-win", "player2-win", "draw" or "aborted"; record: the file written, or NULL */
    void (*game_ended)(void *ctx, int64_t game, const char *status, const char *why, const char *record);
    void (*warning)(void *ctx, const char *text);  /* e.g. a replay that could not be written */
    void *ctx;
};

struct serve_error { char msg[1024]; bool input; /* a bad file or option, not a failure to serve */ };

/* Serve until *stop becomes non-zero, then end every connection, record the games in
 * progress as aborted and return 0; -1 with err when the server cannot start. */
int serve_run(const struct serve_config *c, const struct serve_hooks *hooks, volatile sig_atomic_t *stop,
              struct serve_error *err);

#endif
