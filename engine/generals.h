/* generals.h - what the generals files share: the map, its limits, the parameter table. */
#ifndef ENGINE_GENERALS_H
#define ENGINE_GENERALS_H

#include <stdint.h>

#include "engine/game.h"

enum generals_cell_type { CELL_EMPTY = 1, CELL_CITY = 2, CELL_CAPITAL = 3, CELL_MOUNTAIN = 4 };

#define GENERALS_MAX_SIDE 50
#define GENERALS_MAX_CITY_ARMY 1000000
#define GENERALS_LINE_SLOT 32 /* "1 t oo " + 20 digits + '\n' fits */

/* The order of generals_params[], and so of the values array of a game_setup. */
enum generals_param {
    GP_TURN_LIMIT,
    GP_CITY_GROWTH_PERIOD,
    GP_CITY_GROWTH_AMOUNT,
    GP_LAND_GROWTH_PERIOD,
    GP_LAND_GROWTH_AMOUNT,
    GP_CAPITAL_START_ARMY,
    GP_VISION_RADIUS,
    GP_BUDGET_BASE_MS,
    GP_BUDGET_PER_MOVE_MS,
    GP_MOVE_WALL_MS,
    GP_MEMORY_LIMIT_MB,
    GP_MAX_LINE_BYTES,
    GP_COUNT
};

/* A map of §3: cell c = (i - 1) * m + (j - 1); army is the neutral army of a city. */
struct generals_map {
    int n, m, k;
    uint8_t *type;
    int32_t *army;
};

extern const struct game_rules generals_rules;
extern const struct game_param generals_params[GP_COUNT];

/* generals_map.c */
struct generals_map *generals_map_new(int n, int m);  /* every cell empty, k = 0; NULL if no memory */
int generals_map_parse(const char *text, size_t len, const int64_t *params, struct game_map **out,
                       struct game_error *err);
int generals_map_write(const struct game_map *map, struct strbuf *out);
int generals_map_players(const struct game_map *map);
void generals_map_free(struct game_map *map);

/* generals_board.c: the cells in play, with each player's totals and vision kept up to date
 * and the cells generals_board_set() changed since the last generals_board_write_changes(). */
struct generals_board {
    int n, m, k;
    size_t cells;
    int vision_radius;
    uint8_t *type, *owner;
    int64_t *units;
    uint16_t *vision; /* k planes: vision[(p - 1) * cells + c] = cells p owns within the radius */
    int64_t army[GAME_MAX_PLAYERS + 1], land[GAME_MAX_PLAYERS + 1], cities[GAME_MAX_PLAYERS + 1];
    size_t *changed, n_changed;
    uint8_t *is_changed;
    /* Each cell's visible §5 line ("1 t owner units\n" or "1 4\n"), kept formatted so a
     * prompt is one fixed-size copy per visible cell. */
    char (*line)[GENERALS_LINE_SLOT];
    uint8_t *line_len;
    /* Each cell's hidden §5 line ("0 1\n" or "0 2\n"), 4 bytes each, back to back: a run
     * of hidden cells is one copy. */
    char *hidden;
    /* Every city and capital cell, in row-major order. The set never changes (G11 and G12
     * only turn capitals into cities), so city growth (G13) need not visit every cell. */
    size_t *towns, n_towns;
};
/* Every capital neutral with 0 units, other cells as the map gives them, nothing changed. */
int generals_board_init(struct generals_board *b, const struct generals_map *map, int vision_radius);
void generals_board_free(struct generals_board *b);
void generals_board_set(struct generals_board *b, size_t c, int type, int owner, int64_t units);
/* G13: adds city_amount to every owned city and capital, land_amount to every owned empty
 * cell. Totals and lines follow; no change is recorded (the growth event carries the rule,
 * not the cells). Each amount comes back as it was applied: 0 if it reached no cell. */
struct generals_growth { int64_t cities, land; };
struct generals_growth generals_board_grow(struct generals_board *b, int64_t city_amount,
                                           int64_t land_amount);
/* The §5 state as `viewer` sees it (fog of war); viewer 0 sees everything (the §10 frame). */
int generals_board_write_state(const struct generals_board *b, int viewer, struct strbuf *out);
/* The changed cells as a JSON array of [i, j, type, owner, units]; forgets them. */
int generals_board_write_changes(struct generals_board *b, struct strbuf *out);

/* generals.c: the board of a generals game, read-only (for tests and inspection). */
const struct generals_board *generals_board_of(const struct game *g);

/* generals_mapgen.c */
int generals_map_generate(const struct game_option *opts, size_t n_opts, uint64_t seed,
                          struct game_map **out, struct strbuf *notes, struct game_error *err);

#endif
