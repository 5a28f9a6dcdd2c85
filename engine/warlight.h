/* warlight.h - what the warlight files share: parameters, the board, orders, a turn's record. */
#ifndef ENGINE_WARLIGHT_H
#define ENGINE_WARLIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "engine/rng.h"

#define WARLIGHT_MAX_SIDE 50           /* D13 */
#define WARLIGHT_MAX_VALUE 999999999999999999LL /* D13: every value at most 18 digits */

/* The order of warlight_params[] (spec §1), and so of the values array of a game_setup. */
enum warlight_param {
    WP_ROWS,
    WP_COLS,
    WP_ROUNDS,
    WP_TURN_LIMIT,
    WP_BONUS_COUNT,
    WP_BONUS_SIZE,
    WP_BONUS_VALUE_MIN,
    WP_BONUS_VALUE_MAX,
    WP_BASE_INCOME,
    WP_START_ARMIES,
    WP_NEUTRAL_ARMIES,
    WP_ATTACK_KILL_PCT,
    WP_DEFEND_KILL_PCT,
    WP_ROUND_POINTS,
    WP_TURN_WALL_MS,
    WP_MEMORY_LIMIT_MB,
    WP_MAX_OUTPUT_BYTES,
    WP_DATA_QUOTA_KB,
    WP_PERSISTENT,
    WP_COUNT
};

extern const struct game_rules warlight_rules;
extern const struct game_param warlight_params[WP_COUNT];

/* A player's status in a turn (§10), in the precedence order of D15. */
enum wl_status {
    WS_MEMORY,
    WS_SYSCALL,
    WS_TIME,
    WS_CRASH,
    WS_NOOUTPUT,
    WS_OUTPUT,
    WS_DEPLOY,
    WS_BADMOVES,
    WS_OK,
};
const char *wl_status_name(enum wl_status s);     /* "skip-memory", ..., "badmoves", "ok" */
bool wl_status_skips(enum wl_status s);           /* the whole turn is skipped (§8) */

/* What happened to a command when it ran (W9, W10). */
enum wl_outcome { WO_TRANSFER, WO_CAPTURE, WO_REPELLED, WO_STALEMATE, WO_LOST_SOURCE, WO_NOTHING_LEFT };
const char *wl_outcome_name(enum wl_outcome o);

/* warlight.c: the board of a warlight game, read-only (for tests and inspection). */
const struct warlight_board *warlight_board_of(const struct game *g);

/* ---- warlight_board.c: territories t = r * cols + c, the state of one round ---- */
struct warlight_board {
    int rows, cols, n;                 /* n = rows * cols territories */
    int k;                             /* players, ids 0..k-1 */
    int bonus_count;
    int32_t *owner;                    /* -1 neutral */
    int64_t *armies;
    int32_t *bonus;                    /* bonus id of each territory */
    int64_t *bonus_value;              /* bonus_count values */
    int32_t *bonus_size;               /* territories in each bonus */
    int32_t start[GAME_MAX_PLAYERS];   /* W5: each player's starting territory */
    int32_t land[GAME_MAX_PLAYERS];    /* territories each player owns */
    uint8_t *changed;                  /* set by wl_board_set until wl_board_take_changes */
    int32_t *changes, n_changes;
    int *scratch;                      /* n ints of working space */
};
int wl_board_init(struct warlight_board *b, int rows, int cols, int bonus_count, int k);
void wl_board_free(struct warlight_board *b);
void wl_board_set(struct warlight_board *b, int t, int owner, int64_t armies);
bool wl_board_adjacent(const struct warlight_board *b, int t, int u);   /* W1, wrapping */
int wl_board_neighbour(const struct warlight_board *b, int t, int i);   /* i = 0..7 */
int64_t wl_board_income(const struct warlight_board *b, int id, int64_t base_income); /* W6 */
/* The §4 arguments of player id (argv: each followed by '\0'; line: joined by ' ', then '\n'). */
int wl_board_prompt(struct warlight_board *b, int id, int64_t income, bool first_turn, bool as_line,
                    struct strbuf *out, int *argc);
/* The territories wl_board_set changed, in the order first changed; forgets them. */
int wl_board_take_changes(struct warlight_board *b, const int32_t **list);
int64_t wl_sat_add(int64_t a, int64_t b);  /* a + b for a, b >= 0, at most INT64_MAX */

/* ---- warlight_setup.c: a round's board from the seed (W4, W5) ---- */
int wl_setup_round(struct warlight_board *b, const int64_t *params, uint64_t seed, int64_t round);

/* ---- warlight_orders.c: reading a reply (W7, W8 parse, §4, D14) ---- */
struct wl_deploy { int64_t r, c, a; };
struct wl_command { int64_t sr, sc, dr, dc, a; };
struct wl_orders {
    enum wl_status status;
    struct wl_deploy *deploy;
    size_t n_deploy, cap_deploy;
    struct wl_command *cmd;
    size_t n_cmd, cap_cmd;
    char reason[160];
};
void wl_orders_reset(struct wl_orders *o);   /* empty lists, status ok */
void wl_orders_free(struct wl_orders *o);
/* Classifies one reply of player id (raw bytes) against the board at the start of the turn.
 * Sets status, the lists and, unless ok, reason. -1 only when out of memory. */
int wl_orders_read(struct wl_orders *o, const struct warlight_board *b, int id, int64_t income,
                   int64_t max_output_bytes, const char *data, size_t len);

/* ---- warlight_resolve.c: deployments, W8 checks, the shuffled run, combat (W8..W10) ---- */
struct wl_move { int id; struct wl_command cmd; int64_t n; enum wl_outcome outcome; };
struct wl_moves { struct wl_move *v; size_t n, cap; };
/* kd or ka of W10: (armies * pct + 50) div 100, exactly, at most INT64_MAX. */
int64_t wl_kills(int64_t armies, int64_t pct);
/* Adds the deployments of every player whose status keeps them, drops commands by W8
 * (counting them in dropped[id]), shuffles the rest with `play` and runs them. */
int wl_resolve(struct warlight_board *b, struct wl_orders *const *orders, const int64_t *params,
               struct rng *play, struct wl_moves *ran, int *dropped);

/* ---- warlight_log.c and warlight_events.c: a turn as the §10 log and as a replay event ---- */
struct wl_turn {
    int64_t round, turn;
    bool ran[GAME_MAX_PLAYERS];        /* alive at the start of the turn */
    int64_t income[GAME_MAX_PLAYERS];
    enum wl_status status[GAME_MAX_PLAYERS];
    int dropped[GAME_MAX_PLAYERS];
    const struct wl_orders *orders[GAME_MAX_PLAYERS];
    const struct wl_moves *moves;
    bool out[GAME_MAX_PLAYERS];        /* eliminated by this turn */
};
int wl_log_header(struct strbuf *log, const int64_t *params, int k);
int wl_log_round(struct strbuf *log, const struct warlight_board *b, int64_t round);
int wl_log_turn(struct strbuf *log, const struct warlight_board *b, const struct wl_turn *t);
int wl_log_points(struct strbuf *log, const char *word, int64_t round, const int64_t *points, int k);

int wl_event_round(struct strbuf *ev, const struct warlight_board *b, int64_t round);
int wl_event_turn(struct strbuf *ev, struct warlight_board *b, const struct wl_turn *t);
int wl_event_points(struct strbuf *ev, const char *type, int64_t round, const int64_t *points, int k);

#endif
