/*
 * seabattle_map.c - the "map" of sea battle, which has none: the boards come from the bots
 * (seabattle.md §4). A match file says `generate: {}` (the judge adds players: 2); the map's
 * text is empty, and an empty text is all a map file may hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/seabattle.h"

#define SEA_PLAYERS 2

struct sea_map { int players; };

static int map_error(struct game_error *err, int line, int col, const char *msg)
{
    err->line = line;
    err->col = col;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return -1;
}

static int new_map(struct game_map **out, struct game_error *err)
{
    struct sea_map *m = calloc(1, sizeof *m);
    if (!m)
        return map_error(err, 0, 0, "out of memory");
    m->players = SEA_PLAYERS;
    *out = (struct game_map *)m;
    return 0;
}

int seabattle_map_parse(const char *text, size_t len, const int64_t *params, struct game_map **out,
                        struct game_error *err)
{
    (void)text;
    (void)params;
    if (len > 0)
        return map_error(err, 1, 1,
                         "sea battle has no map: the file must be empty (a match file says `generate: {}`)");
    return new_map(out, err);
}

int seabattle_map_generate(const struct game_option *opts, size_t n_opts, uint64_t seed,
                           struct game_map **out, struct strbuf *notes, struct game_error *err)
{
    (void)seed;
    (void)notes;
    char msg[160];
    for (size_t i = 0; i < n_opts; i++) {
        if (strcmp(opts[i].name, "players") != 0) {
            snprintf(msg, sizeof msg, "sea battle has no map and no generator option '%.40s'", opts[i].name);
            return map_error(err, 0, 0, msg);
        }
        if (opts[i].value != SEA_PLAYERS) {
            snprintf(msg, sizeof msg, "sea battle is played by %d players, not %lld", SEA_PLAYERS,
                     (long long)opts[i].value);
            return map_error(err, 0, 0, msg);
        }
    }
    return new_map(out, err);
}

int seabattle_map_write(const struct game_map *map, struct strbuf *out)
{
    (void)map;
    return sb_puts(out, "");
}

int seabattle_map_players(const struct game_map *map)
{
    return ((const struct sea_map *)map)->players;
}

void seabattle_map_free(struct game_map *map)
{
    free(map);
}
