/* bomberman.h - what the bomberman files share: the parameter table, the map, the board and
 * the record of one step (bomberman.md). Cell (x, y) is index (y - 1) * BM_SIDE + (x - 1). */
#ifndef ENGINE_BOMBERMAN_H
#define ENGINE_BOMBERMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"

#define BM_SIDE        15
#define BM_CELLS       (BM_SIDE * BM_SIDE)
#define BM_MAX_PLAYERS 4
#define BM_FLAME_MAX   (1 + 4 * (BM_SIDE - 1)) /* a bomb's own cell and four arms */

/* The order of bomberman_params[] (§1), and so of the values array of a game_setup. The first
 * BP_GAME_COUNT are sent to the bots on tick 0. */
enum bomberman_param {
    BP_GAME_TICKS_MAX,
    BP_BANG_START_RADIUS,
    BP_BOMBS_COUNT_START,
    BP_LAVA_LIVETIME,
    BP_BOMB_LIVE_TIME,
    BP_KILL_POINTS,
    BP_SURVIVE_POINTS,
    BP_CELL_DESTROY_POINTS,
    BP_WIN_POINTS,
    BP_BONUS_FIND_POINTS,
    BP_HEALTH_START,
    BP_LAVA_DAMAGE,
    BP_TICK_WALL_MS,
    BP_FIRST_TICK_WALL_MS,
    BP_MEMORY_LIMIT_MB,
    BP_MAX_LINE_BYTES,
    BP_COUNT
};
#define BP_GAME_COUNT BP_TICK_WALL_MS

extern const struct game_rules bomberman_rules;
extern const struct game_param bomberman_params[BP_COUNT];

enum bm_terrain { BM_FREE, BM_WALL, BM_BLOCK };

/* A map file (§3): terrain, the bonus each block hides ('A', 'R' or 0), the start cells. */
struct bomberman_map {
    uint8_t terrain[BM_CELLS];
    char hidden[BM_CELLS];
    int start[BM_MAX_PLAYERS + 1]; /* cell of start marker p, 1..starts */
    int starts;
};

static inline int bm_cell(int x, int y)
{
    return (y - 1) * BM_SIDE + (x - 1);
}
static inline int bm_x(int cell)
{
    return cell % BM_SIDE + 1;
}
static inline int bm_y(int cell)
{
    return cell / BM_SIDE + 1;
}

/* bomberman_map.c */
int bomberman_map_parse(const char *text, size_t len, const int64_t *params, struct game_map **out,
                        struct game_error *err);
int bomberman_map_write(const struct game_map *map, struct strbuf *out);
int bomberman_map_players(const struct game_map *map);
void bomberman_map_free(struct game_map *map);

/* bomberman_mapgen.c: options players (2..4), blocks (percent), bonuses (count), symmetric. */
int bomberman_map_generate(const struct game_option *opts, size_t n_opts, uint64_t seed,
                           struct game_map **out, struct strbuf *notes, struct game_error *err);

/* ---- the board in play (bomberman_rules.c) ---------------------------------------------- */

enum bm_command { BM_WAIT, BM_UP, BM_DOWN, BM_LEFT, BM_RIGHT, BM_BOMB, BM_INVALID, BM_CRASHED };
enum bm_effect { BM_NONE, BM_MOVED, BM_BLOCKED, BM_PLACED, BM_PICKUP_A, BM_PICKUP_R };
const char *bm_command_name(enum bm_command c); /* "WAIT", ..., "INVALID", "CRASHED" */
const char *bm_effect_name(enum bm_effect e);   /* "none", "moved", ..., "pickup-R" */

struct bm_player {
    int cell; /* where it stands, or where it died */
    bool alive;
    int64_t health, points, bombs_max, bombs_left, radius;
    int64_t kills, blocks, bonuses; /* credited so far (the result's stats) */
};

struct bm_bomb {
    int owner;
    int64_t radius, timer;
}; /* owner 0: no bomb */

struct bm_board {
    const int64_t *params; /* BP_COUNT values, owned by the game */
    int players;
    uint8_t terrain[BM_CELLS];
    char hidden[BM_CELLS]; /* bonus under a block, 0 if none */
    char bonus[BM_CELLS];  /* visible bonus, 0 if none */
    struct bm_bomb bomb[BM_CELLS];
    int64_t lava[BM_CELLS][BM_MAX_PLAYERS + 1]; /* live time of the part of each owner, 0: none */
    uint8_t occupant[BM_CELLS];                 /* living player on the cell, 0 if none */
    struct bm_player p[BM_MAX_PLAYERS + 1];
};

/* What one step did, in the order it happened, for the events and the log. */
struct bm_boom {
    int cell, owner;
    int64_t radius;
    int n_flame;
    int flame[BM_FLAME_MAX];
};
struct bm_step_record {
    int n_order, order[BM_MAX_PLAYERS];
    struct {
        int player;
        enum bm_command cmd;
        enum bm_effect effect;
        int cell;
    } cmd[BM_MAX_PLAYERS];
    int n_decayed; /* lava parts removed by B7 */
    struct {
        int cell, owner;
    } decayed[BM_CELLS * BM_MAX_PLAYERS];
    int n_booms; /* by y, then x */
    struct bm_boom boom[BM_CELLS];
    int n_blocks; /* by y, then x; owners: bit p for player p */
    struct {
        int cell;
        unsigned owners;
        char bonus;
    } block[BM_CELLS];
    int n_damaged; /* by player number */
    struct {
        int player;
        int64_t health;
        bool died;
        unsigned killers;
    } damaged[BM_MAX_PLAYERS];
    bool points_changed;
};

void bm_board_init(struct bm_board *b, const struct bomberman_map *map, const int64_t *params, int players);
/* One step (§5 a..d) with the commands indexed by player number, run in `order`. */
void bm_board_step(struct bm_board *b, const int *order, int n_order, const enum bm_command *cmds,
                   struct bm_step_record *rec);
bool bm_lava_at(const struct bm_board *b, int cell);

/* ---- text (bomberman_text.c) --------------------------------------------------------------- */

/* The §4 state of tick t as `viewer` gets it (0: the spectator of the §8 log). */
int bm_write_state(const struct bm_board *b, int tick, int viewer, struct strbuf *out);
/* The §8 lines of one step: ORDER, CMD, BOOM, BLOCK, DEATH. */
int bm_write_step_log(const struct bm_step_record *rec, struct strbuf *out);
/* The replay events of one step (the kinds listed in bomberman.c). */
int bm_write_step_events(const struct bm_board *b, const struct bm_step_record *rec, int tick,
                         struct strbuf *out);

/* bomberman.c: the board of a game, read-only (tests, inspection). */
const struct bm_board *bomberman_board_of(const struct game *g);

#endif
