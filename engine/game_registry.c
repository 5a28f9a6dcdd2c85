/* game_registry.c - the games this judge can run, by name. */
#include <string.h>

#include "engine/game.h"
#include "engine/bomberman.h"
#include "engine/generals.h"
#include "engine/warlight.h"
#include "engine/seabattle.h"

static const struct game_rules *const all_games[] = {
    &generals_rules,
    &warlight_rules,
    &seabattle_rules,
    &bomberman_rules,
};
#define N_GAMES (sizeof all_games / sizeof all_games[0])

const struct game_rules *game_find(const char *name)
{
    for (size_t i = 0; i < N_GAMES; i++)
        if (!strcmp(all_games[i]->name, name))
            return all_games[i];
    return NULL;
}

const char *game_title(const struct game_rules *r)
{
    return r->title ? r->title : r->name;
}

const char *game_rounds_word(const char *game, int64_t n)
{
    const struct game_rules *r = game ? game_find(game) : NULL;
    bool own = r && r->round_word[0] && r->round_word[1];
    return n == 1 ? (own ? r->round_word[0] : "round") : (own ? r->round_word[1] : "rounds");
}

const struct game_rules *const *game_all(size_t *count)
{
    *count = N_GAMES;
    return all_games;
}
