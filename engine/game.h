/*
 * game.h - the one small interface every game implements.
 *
 * An engine is pure rules: no I/O, no clock, no processes; randomness only
 * from rng_stream(seed, label). The match runner (judge/) drives it:
 *
 *   game_create()                      outbox: e.g. generals' "n m k id" line
 *   loop until game_over():
 *     game_pending()                   players whose reply is due now (1 for
 *                                      turn-based games, all alive ones for
 *                                      simultaneous games)
 *     for each pending player p:
 *       drain game_outbox(p), then game_prompt(p) (stdin text) or
 *       game_prompt_argv(p) (process-per-turn games), read game_reply_lines(p)
 *       lines, then game_submit(p, lines) (or submit_output(p, bytes)) or
 *       game_violation(p, kind)
 *     (simultaneous games resolve once every pending reply is in)
 *     drain game_outbox() of every player; a player with game_player_done()
 *     gets its stdin closed and its process ended (README C10)
 *   game_result()
 *
 * prompt, submit and violation are for a pending player only; otherwise they
 * return -1 and change nothing. A -1 from submit also means a malformed call
 * (wrong n_lines); a reply the bot got wrong is a 0 return with a verdict.
 *
 * game_take_events() yields what changed, as JSON objects, for the replay
 * (each game documents its event kinds at the top of its .c file).
 * game_set_log() makes the engine write the game's original log format.
 */
#ifndef ENGINE_GAME_H
#define ENGINE_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"

#define GAME_MAX_PLAYERS 16
#define GAME_MAX_PARAMS  48

/* README C9, in classification order. */
enum violation_kind {
    VIOLATION_NONE = 0,
    VIOLATION_MEMORY,
    VIOLATION_SYSCALL,
    VIOLATION_TIME,
    VIOLATION_CRASH,
    VIOLATION_INVALID_OUTPUT,
    VIOLATION_INVALID_MOVE,
};
const char *violation_name(enum violation_kind k); /* "memory_limit", "forbidden_syscall", "time",
                                                       "crash", "invalid_output", "invalid_move" */
int violation_parse(const char *name, enum violation_kind *out);

struct game_error { char msg[256]; int line, col; }; /* line/col 0 when not about a text position */

/* A named default of the spec (README C5); constraints are checked on override. */
struct game_param { const char *name; int64_t def, min, max; const char *meaning; };

/* A named option of a map generator (e.g. rows, cols, players, mountains, cities, symmetric). */
struct game_option { const char *name; int64_t value; };

enum process_model { PROCESS_PER_MATCH, PROCESS_PER_TURN };
enum time_model { TIME_CPU_BUDGET, TIME_REPLY_WALL };

struct game_map;  /* opaque, owned by the game */
struct game;      /* every game's state struct starts with `struct game base;` */

struct game_setup {
    const struct game_map *map;
    const int64_t *params;  /* values in the order of rules->params */
    uint64_t seed;
    int players;            /* bots named by the match */
};

/* A reply's wall limit (game_rules.reply_wall): `ms` (0 = none) counted from the moment its
 * prompt is written, or from the start of the player's process when from_start; `param` names
 * the limit in a time verdict's reason. */
struct game_reply_wall { uint64_t ms; bool from_start; const char *param; };

/* The verdict of game_submit(): NONE, INVALID_OUTPUT or INVALID_MOVE, with why. */
struct game_verdict { enum violation_kind kind; char reason[160]; };

struct game_player_result {
    int place;               /* competition rank, 1-based (1, 1, 3) */
    int64_t points;          /* the game's own scoring (generals: 1 win, 0 otherwise...) */
    bool alive;              /* still in the game at the end */
    int eliminated_at;       /* round/turn of elimination, 0 if never */
    enum violation_kind violation; /* why eliminated, NONE if by play */
    int64_t stats[3];        /* tie-break figures (generals: army, cities, cells) */
};
struct game_result {
    int players;
    int winner;              /* player number, 0 for a draw */
    bool draw;
    int rounds;              /* rounds/turns played */
    struct game_player_result p[GAME_MAX_PLAYERS + 1]; /* indexed by player number 1..players */
};

struct game_rules {
    const char *name;
    const char *title;   /* the game's name in a sentence ("sea battle"); NULL: name */
    const struct game_param *params;
    size_t n_params;
    enum process_model process_model;
    enum time_model time_model;
    int min_players, max_players;
    /* A map's map_players() is the most players it seats, not the exact number: a match may
     * name min_players up to that many (bomberman: starts numbered above them are free). */
    bool map_players_at_most;

    /* Maps: parse a map file of the game's own format, generate one, write one. A game
     * without map files (warlight: each round's board comes from the seed) leaves all five
     * NULL; its game_setup.map is NULL and the match file alone sets the player count. */
    int (*map_parse)(const char *text, size_t len, const int64_t *params, struct game_map **out,
                     struct game_error *err);
    int (*map_generate)(const struct game_option *opts, size_t n_opts, uint64_t seed,
                        struct game_map **out, struct strbuf *notes, struct game_error *err);
    int (*map_write)(const struct game_map *map, struct strbuf *out);
    int (*map_players)(const struct game_map *map);
    void (*map_free)(struct game_map *map);

    /* Play. */
    int (*create)(const struct game_setup *setup, struct game **out, struct game_error *err);
    void (*destroy)(struct game *g);
    int (*pending)(const struct game *g, int *players, int max);
    int (*prompt)(struct game *g, int player, struct strbuf *out);
    int (*prompt_argv)(struct game *g, int player, struct strbuf *argv_nul_separated, int *argc); /* NULL unless PROCESS_PER_TURN */
    /* Lines per reply; 0 = a PROCESS_PER_TURN reply: all of the process's stdout until it exits. */
    int (*reply_lines)(const struct game *g, int player);
    int (*submit)(struct game *g, int player, const char *const *lines, int n_lines,
                  struct game_verdict *out);
    int (*violation)(struct game *g, int player, enum violation_kind kind);
    int (*outbox)(struct game *g, int player, struct strbuf *out); /* appends and clears */
    bool (*player_done)(const struct game *g, int player);
    bool (*over)(const struct game *g);
    int (*result)(const struct game *g, struct game_result *out);
    int (*take_events)(struct game *g, struct strbuf *jsonl);  /* appends "{...}\n" lines, clears */
    void (*set_log)(struct game *g, struct strbuf *log);       /* NULL stops logging */
    int (*round)(const struct game *g);                         /* current round/turn number */

    /* Optional entries (NULL in a game that does not need them). */
    /* The process model of this match when a parameter picks it (NULL: rules->process_model).
     * Warlight: PROCESS_PER_TURN, or PROCESS_PER_MATCH with process_serial when persistent = 1. */
    enum process_model (*match_process_model)(const struct game *g);
    /* PROCESS_PER_MATCH: which process the player should be running now, numbered 1, 2, ...
     * (NULL: always 1). Before asking a pending player whose process has another number, the
     * runner ends that process (outbox delivered, stdin closed, grace, kill: README C10), waits
     * until every process it is ending is gone, then starts a new one (same command, no extra
     * argument, same data directory). player_done() is about the current process: the runner
     * ends it, and starts the next one once the number moves on. */
    int (*process_serial)(const struct game *g, int player);
    /* Games that read raw output themselves: when set, every reply goes here instead of to
     * submit, as the bytes read (NULs and '\r' included, nothing checked by the runner): all
     * of stdout until the process exits when reply_lines() is 0, else everything up to and
     * including the reply_lines()-th '\n'. The runner keeps at most max_output_bytes + 1 bytes
     * (the game's parameter of that name) and throws the rest away; the replay's "line" holds
     * exactly the bytes given. Returns as submit. */
    int (*submit_output)(struct game *g, int player, const char *data, size_t len,
                         struct game_verdict *out);
    /* The wall limit of the reply due from a pending player (NULL: move_wall_ms from the moment
     * the prompt is written). The runner asks it each time it asks for a reply. */
    void (*reply_wall)(const struct game *g, int player, struct game_reply_wall *out);
    /* Multi-line replies: line `index` (0-based) of the pending player's reply, as it arrives;
     * each reply's lines come in order 0, 1, ... (not the last line: submit judges the whole).
     * A verdict other than NONE refuses the reply at once: the runner reads no more of it and
     * gives submit the lines so far (n_lines = index + 1), for which submit gives that same
     * verdict. Returns -1 on a malformed call (not pending, out of order). */
    int (*reply_line_check)(struct game *g, int player, int index, const char *line, size_t len,
                            struct game_verdict *out);
    /* The parameters as a whole, each already within its min..max (NULL: nothing more). On a
     * refusal returns -1 with *param the index of the parameter to name, and why in err. */
    int (*params_check)(const int64_t *params, int *param, struct game_error *err);
    /* What game_result.rounds counts, singular and plural, when it is not rounds: sea battle's
     * are shots. NULL: "round", "rounds". */
    const char *round_word[2];
};

struct game { const struct game_rules *rules; };

/* Registry and parameter helpers (engine/game_registry.c, engine/game_params.c). */
const struct game_rules *game_find(const char *name);
const struct game_rules *const *game_all(size_t *count);
int game_param_index(const struct game_rules *r, const char *name);        /* -1 if unknown */
void game_params_defaults(const struct game_rules *r, int64_t *values);
int game_param_set(const struct game_rules *r, int64_t *values, const char *name, int64_t v,
                   struct game_error *err);                                 /* checks min/max */
/* The value of a named parameter: its default when values is NULL, 0 if the game has none. */
int64_t game_param(const struct game_rules *r, const int64_t *values, const char *name);
/* The game's name in a sentence: its title, else its name. */
const char *game_title(const struct game_rules *r);
/* "round"/"rounds" for n of game's rounds (its round_word: "shot"/"shots"); any game name, even unknown. */
const char *game_rounds_word(const char *game, int64_t n);

#endif
