/* fuzz_map.c - every game's map reader (engine map_parse), then a game on the map read:
 * the first byte picks the game, the rest is the map file. */
#include "engine/game.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const games[] = {"generals", "seabattle", "warlight"};
    if (size < 1)
        return 0;
    const struct game_rules *rules = game_find(games[data[0] % 3]);
    if (!rules || !rules->map_parse)
        return 0;
    int64_t params[GAME_MAX_PARAMS];
    game_params_defaults(rules, params);
    struct game_map *map = NULL;
    struct game_error err;
    if (rules->map_parse((const char *)data + 1, size - 1, params, &map, &err) < 0)
        return 0;
    struct strbuf text = STRBUF_INIT;
    if (rules->map_write)
        rules->map_write(map, &text);
    struct game_setup setup = {map, params, 1, rules->map_players ? rules->map_players(map) : 2};
    struct game *g;
    if (rules->create(&setup, &g, &err) == 0)
        rules->destroy(g);
    sb_free(&text);
    rules->map_free(map);
    return 0;
}
