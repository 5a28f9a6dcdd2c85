/* seabattle.h - what the sea battle files share: the parameter table, a board, its checks. */
#ifndef ENGINE_SEABATTLE_H
#define ENGINE_SEABATTLE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"

#define SEA_SIDE      10
#define SEA_CELLS     (SEA_SIDE * SEA_SIDE)
#define SEA_MAX_LEN   4   /* ships are 1..4 cells long (S3) */
#define SEA_MAX_SHIPS 25  /* the most ships that fit without touching: one cell in every 2x2 block */

/* The order of seabattle_params[], and so of the values array of a game_setup. */
enum seabattle_param {
    SP_SHIPS_1,
    SP_SHIPS_2,
    SP_SHIPS_3,
    SP_SHIPS_4,
    SP_SHOT_LIMIT,
    SP_BOARD_WALL_MS,
    SP_BUDGET_BASE_MS,
    SP_BUDGET_PER_MOVE_MS,
    SP_MOVE_WALL_MS,
    SP_MEMORY_LIMIT_MB,
    SP_MAX_LINE_BYTES,
    SP_COUNT
};

extern const struct game_rules seabattle_rules;
extern const struct game_param seabattle_params[SP_COUNT];

/* How many ships of each length 1..SEA_MAX_LEN the fleet has (count[0] unused). */
struct sea_fleet { int count[SEA_MAX_LEN + 1]; };
/* From parameter values in the order of seabattle_params (NULL: the defaults). */
struct sea_fleet sea_fleet_of(const int64_t *params);

/* A ship: its top-left cell (1-based x = column, y = row), length, direction, hits so far. */
struct sea_ship { int x, y, len; bool vertical; int hits; };

/* A player's board. Cell (x, y) is index (y - 1) * SEA_SIDE + (x - 1). */
struct sea_board {
    char line[SEA_SIDE][SEA_SIDE + 1];  /* the 10 cell characters of each line, as received */
    int lines;                           /* lines accepted so far */
    uint8_t ship_at[SEA_CELLS];          /* 1 + the index in ships[], or 0 for water */
    bool shot[SEA_CELLS];                /* shot at by the opponent */
    struct sea_ship ships[SEA_CELLS];    /* filled by sea_board_finish(), row-major by top-left */
    int n_ships, ship_cells, cells_hit;
};

/* The rule a board breaks, in the order D11 reports them. */
enum sea_rule { SEA_RULE_NONE, SEA_RULE_S2, SEA_RULE_S3A, SEA_RULE_S3B, SEA_RULE_S3C };
const char *sea_rule_name(enum sea_rule r);  /* "S2", "S3a", ... */
struct sea_board_error { enum sea_rule rule; char msg[160]; };

/* seabattle_board.c. Lines come one at a time, top to bottom (D11): each is checked for S2
 * (README C3 applies: one final '\r' and surrounding spaces are dropped; longer than
 * max_line_bytes breaks it too) and S3a against the line above. Then sea_board_finish()
 * checks S3b and S3c and lists the ships. Each returns -1 with err set on the first break. */
void sea_board_init(struct sea_board *b);
int sea_board_add_line(struct sea_board *b, const char *line, size_t len, int64_t max_line_bytes,
                       struct sea_board_error *err);
int sea_board_finish(struct sea_board *b, const struct sea_fleet *fleet, struct sea_board_error *err);

enum sea_shot { SEA_MISS, SEA_HIT, SEA_SUNK };
const char *sea_shot_name(enum sea_shot s);  /* "miss", "hit", "sunk" */
/* S5 for a shot at (x, y), both in 1..SEA_SIDE, on a finished board. */
enum sea_shot sea_board_shoot(struct sea_board *b, int x, int y);

/* seabattle_map.c: sea battle has no map; a match file says `generate: {}`. The "map" only
 * fixes the number of players at 2, and its text is empty. */
int seabattle_map_parse(const char *text, size_t len, const int64_t *params, struct game_map **out,
                        struct game_error *err);
int seabattle_map_generate(const struct game_option *opts, size_t n_opts, uint64_t seed,
                           struct game_map **out, struct strbuf *notes, struct game_error *err);
int seabattle_map_write(const struct game_map *map, struct strbuf *out);
int seabattle_map_players(const struct game_map *map);
void seabattle_map_free(struct game_map *map);

/* seabattle_mapgen.c: a random valid board for the fleet, from rng_stream(seed,
 * SEA_BOARD_LABEL), written as a board file (10 lines, each ending in '\n'). Fails, with
 * err set, when the fleet is empty or does not fit. */
#define SEA_BOARD_LABEL "seabattle/board"
int sea_board_generate(const struct sea_fleet *fleet, uint64_t seed, struct strbuf *out,
                       struct game_error *err);

#endif
