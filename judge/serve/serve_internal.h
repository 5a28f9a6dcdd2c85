/* serve_internal.h - what the files of `judge serve` share (judge/serve/serve.h has the map). */
#ifndef JUDGE_SERVE_INTERNAL_H
#define JUDGE_SERVE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/seabattle.h"
#include "engine/strbuf.h"
#include "judge/match/match.h"
#include "judge/serve/serve.h"

#define NET_PLAYER_ID_MAX 64

struct serve;
struct ws_conn;
struct wamp_session;
struct house;

/* ---- serve_ws.c: the transport ---------------------------------------------------------- */

struct ws_server;
/* Listen on cfg->host:cfg->port; *port is the port listened on. */
int ws_start(struct serve *s, struct ws_server **out, int *port, char *err, size_t errlen);
void ws_service(struct ws_server *w);    /* one round of the event loop (at most ~100 ms) */
/* Stopping: GOODBYE wamp.close.system_shutdown to every session (ABORT before WELCOME), then
 * serve until their connections are closed, for a second at most. */
void ws_shutdown(struct ws_server *w);
void ws_stop(struct ws_server *w);       /* close every connection, free everything */
void serve_tick(struct serve *s);        /* every 100 ms: clocks, the house bot */

/* Queue one text message; -1 (and the connection is being closed) when a limit refuses it. */
int ws_send(struct ws_conn *c, const char *text, size_t len);
/* Close once everything queued is sent (after an ABORT or a GOODBYE). */
void ws_close_after_send(struct ws_conn *c);
uint64_t serve_now_ms(void);

/* ---- serve_wamp.c: sessions ----------------------------------------------------------------- */

struct wamp_session *wamp_open(struct serve *s, struct ws_conn *c);
void wamp_message(struct wamp_session *ss, const char *data, size_t len);
/* A transport-level protocol violation (binary frame, over a size limit, too slow): ABORT. */
void wamp_abort(struct wamp_session *ss, const char *uri, const char *why);
/* The server ends a session that did nothing wrong (idle): GOODBYE once welcomed, else ABORT. */
void wamp_end(struct wamp_session *ss, const char *uri, const char *why);
void wamp_closed(struct wamp_session *ss);              /* the connection is gone: frees ss */
bool wamp_idle(const struct wamp_session *ss);           /* no seat in a live game, no held call */
uint64_t wamp_session_id(const struct wamp_session *ss);
/* Never given to two sessions of one server, unlike the session's memory. */
uint64_t wamp_session_serial(const struct wamp_session *ss);
/* Answers to a CALL: RESULT [value], or ERROR uri args (args_json a JSON list or NULL). */
void wamp_result(struct wamp_session *ss, uint64_t request, const char *value_json, size_t len);
void wamp_error(struct wamp_session *ss, int request_type, uint64_t request, const char *uri,
                const char *args_json);
/* ERROR seabattle.error.limit naming the limit and its value (D12). */
void wamp_limit_error(struct wamp_session *ss, int request_type, uint64_t request, const char *limit,
                      uint64_t value);

/* ---- serve_json_text.c: values as the client wrote them ------------------------------------------ */

struct json_object;
/* Item `index` of the JSON list `text` (json-c accepted it) as written: its first byte and length;
 * false when there is no such item or the scan cannot follow the text (a comment in it). */
bool json_text_item(const char *text, size_t len, size_t index, const char **at, size_t *n);
/* v as the client wrote it (raw, raw_len; raw NULL: as json-c writes v), on one line, cut to fit
 * out with "..." at the end when longer. */
void json_text_shown(struct json_object *v, const char *raw, size_t raw_len, char *out, size_t outlen);

/* ---- serve_calls.c: the procedures -------------------------------------------------------- */

/* A CALL's arguments: the list (NULL when the CALL has none) and its text as sent (NULL: unknown). */
struct call_args {
    struct json_object *list;
    const char *text;
    size_t len;
};
/* A CALL after WELCOME; answers now or holds it (shoot). The procedure is len bytes, any of them
 * NUL: a client's string is never cut at one. */
void calls_dispatch(struct serve *s, struct wamp_session *ss, uint64_t request, const char *procedure,
                    size_t len, const struct call_args *args);

/* ---- serve_game.c: one game through the engine ---------------------------------------------- */

enum net_status { NET_WAITING, NET_PLAYING, NET_OVER };

/* A shot as the reply line a bot would write, `x y`, given to the engine as judge run gives a
 * bot's: each coordinate a JSON integer in 1..10 written plainly, any other value as the client
 * wrote it (json_text_shown), so the engine finds the violation and the replay shows the line. */
struct net_shot { char line[96]; };

struct net_seat {
    char id[NET_PLAYER_ID_MAX + 1];
    uint64_t serial;                 /* the seat's session (wamp_session_serial), 0 for the house bot */
    struct wamp_session *session;    /* to answer it: NULL once it left or the game is over */
    bool left;
    bool house;                      /* the house bot's seat */
    int replies, moves;              /* README C7 j; replies the engine accepted */
    bool violated;
    enum match_verdict verdict;
    bool held;                       /* a shoot waiting for this seat's turn */
    uint64_t held_request;
    struct net_shot held_shot;
};

struct net_game {
    int64_t id;
    int64_t params[SP_COUNT];
    enum net_status status;
    const char *result;              /* "player1-win", "player2-win", "draw" once over */
    char why[384];                   /* how it ended, for the log line */
    struct game *g;
    struct net_seat seat[3];         /* 1 and 2 */
    char board[3][SEA_SIDE][SEA_SIDE + 1];
    bool has_board[3];
    struct strbuf lines;             /* the replay after its header, each line ending in '\n' */
    struct strbuf log;               /* seabattle.md §7, written by the engine */
    int64_t started_unix;
    uint64_t started_ns, created_ms, turn_ms;
    int replies;
    bool recorded;
    bool house_reserved;             /* the house bot is giving its board for seat 2 */
    struct net_game *prev, *next;    /* the live list (waiting or playing) */
};

/* A board from a client, checked as the judge checks a bot's (S2, S3): 0, or -1 with
 * "<rule>: <detail>" in why. lines are `n` strings (n may be other than 10). */
int net_board_check(const int64_t *params, const char *const *lines, const size_t *lens, int n,
                    struct sea_board *out, char *why, size_t whylen);
/* Whether the engine plays games of these parameters (D14: a fleet of at least one ship):
 * 0, or -1 with the engine's message. */
int net_params_check(const int64_t *params, char *err, size_t errlen);
struct net_game *net_game_new(const int64_t *params, int64_t id, const char *player1,
                              const struct sea_board *board, char *err, size_t errlen);
int net_game_join(struct net_game *g, const char *player2, const struct sea_board *board);
/* Seat p's shot (p must be the shooter); *result is "miss", "hit", "sunk" or "game-over" (the
 * engine refused the line: p lost). */
int net_game_shoot(struct net_game *g, int p, const struct net_shot *shot, uint64_t wall_ns,
                   const char **result);
/* A violation found by the judge (time, a closed session, the house bot's jail) for the shooter p. */
int net_game_violation(struct net_game *g, int p, enum violation_kind kind, enum match_verdict verdict,
                       const char *reason, uint64_t limit_ns, uint64_t figure_ns);
/* The house bot (serve_house.c): its board as the reply it wrote (10 lines joined by '\n'),
 * or the violation instead of it; then each shot as the line it wrote. */
int net_game_join_reply(struct net_game *g, const char *player2, const char *text, size_t len, uint64_t cpu_ns,
                        uint64_t wall_ns);
int net_game_join_violation(struct net_game *g, const char *player2, enum violation_kind kind,
                            enum match_verdict verdict, const char *reason, uint64_t limit_ns, uint64_t figure_ns);
int net_game_reply_line(struct net_game *g, int p, const char *text, size_t len, uint64_t cpu_ns, uint64_t wall_ns);
int net_game_shooter(const struct net_game *g);          /* 0 unless a shot is due */
void net_game_conclude(struct net_game *g);              /* status and result from the engine */
void net_game_free(struct net_game *g);

/* ---- serve_lobby.c: the table of games, pairing, turns, clocks ------------------------------- */

struct lobby;
struct lobby *lobby_new(const struct serve_config *cfg, int64_t first_id);
void lobby_free(struct lobby *l);
struct net_game *lobby_find(struct lobby *l, int64_t id);  /* NULL: unknown, removed or evicted */
/* N1: join the oldest waiting game of another session and another player-id, or open a new one. */
struct net_game *lobby_pair(struct serve *s, struct wamp_session *ss, const char *player,
                            const struct sea_board *board, char *err, size_t errlen);
/* N2: a shoot of seat p, applied now or held until its turn. */
void lobby_shoot(struct serve *s, struct net_game *g, int p, uint64_t request, const struct net_shot *shot);
void lobby_session_closed(struct serve *s, struct wamp_session *ss);   /* N6 */
void lobby_tick(struct serve *s);                                      /* N5 clocks */
void lobby_abort_all(struct serve *s);                                 /* shutting down */
/* A live game the server cannot go on with: recorded as aborted, held calls get game-over. */
void lobby_abort_game(struct serve *s, struct net_game *g, const char *why);
uint64_t lobby_live_games_of(struct lobby *l, const char *player);
uint64_t lobby_live_games(struct lobby *l);
bool lobby_session_busy(struct lobby *l, const struct wamp_session *ss);
int lobby_seat_of(const struct net_game *g, const struct wamp_session *ss);   /* 1, 2 or 0: none */
/* Every game id still known, oldest first, as a JSON list. */
int lobby_ids_json(struct lobby *l, struct strbuf *out);
/* The house bot: the oldest game waiting longer than house_wait_ms, or NULL. */
struct net_game *lobby_waiting_since(struct lobby *l, uint64_t before_ms);
void lobby_game_changed(struct serve *s, struct net_game *g);  /* after any shot: turns, ends */

/* ---- serve_limits.c ---------------------------------------------------------------------------- */

struct rate { double tokens; uint64_t at_ms; };
/* A token bucket of `per_second` calls with a burst of twice as many: true when allowed. */
bool rate_allow(struct rate *r, uint64_t per_second, uint64_t now_ms);
bool limits_player_id_ok(const char *id, size_t len);   /* 1..64 printable ASCII (D7) */

/* ---- serve_record.c ------------------------------------------------------------------------------ */

/* The largest N of game-N.* in dir, so ids go on from there (D11); 0 when none or no dir. */
int64_t record_last_id(const char *dir);
/* A finished game as DIR/game-N.jsonl.gz; path receives the file's path. */
int record_game(const struct serve_config *cfg, struct net_game *g, const struct match_player *house, char *path,
                size_t pathlen, char *err, size_t errlen);
/* A game cut short by the server's end as DIR/game-N.aborted.json. */
int record_aborted(const struct serve_config *cfg, const struct net_game *g, const char *why, char *path,
                   size_t pathlen, char *err, size_t errlen);

/* ---- serve_page.c ---------------------------------------------------------------------------- */

const char *serve_page(size_t *len);

/* ---- serve_house.c: the house bot (optional) ---------------------------------------------------- */

int house_open(const struct serve_config *cfg, struct house **out, char *err, size_t errlen);
void house_close(struct house *h);
void house_tick(struct serve *s, struct house *h);            /* take seats, read replies, reap */
void house_game_changed(struct serve *s, struct house *h, struct net_game *g);  /* its turn, its end */
const struct match_player *house_player(const struct house *h);
const char *house_name(const struct house *h);   /* its player-id, which no client may take */

/* ---- the server ---------------------------------------------------------------------------------- */

struct serve {
    const struct serve_config *cfg;
    const struct serve_hooks *hooks;
    struct lobby *lobby;
    struct house *house;         /* NULL without --house-bot */
    uint64_t connections;        /* WebSocket connections open */
    uint64_t buffered;           /* received + unsent bytes of every connection */
    uint64_t rng;                /* session ids */
    uint64_t sessions_opened;    /* session serials */
};

void serve_game_started(struct serve *s, const struct net_game *g);
void serve_game_ended(struct serve *s, struct net_game *g);   /* records it, tells the hooks */
void serve_warn(struct serve *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
