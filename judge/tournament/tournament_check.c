/*
 * tournament_check.c - before any match is played, set up (without playing)
 * the first match of every arena and the first match of every player, so a
 * bad map, a generator setting that cannot be met or a missing bot program
 * stops the tournament at once, with the set-up's one-line error.
 */
#include "judge/tournament/tournament.h"
#include "judge/tournament/tournament_compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int try_setup(const struct tournament_config *cfg, const struct tournament_match *m,
                     struct tournament_error *err)
{
    struct match_config mc;
    struct match_overrides ov = {0};
    struct match_setup s;
    struct match_error merr;
    tournament_match_config(cfg, m, &mc);
    if (match_setup_resolve(&mc, &ov, &s, &merr) < 0) {
        snprintf(err->msg, sizeof err->msg, "%s", merr.msg);
        return -1;
    }
    match_setup_free(&s);
    return 0;
}

/* Whether m is the first of its arena or seats a player seen in no earlier match. */
static bool covers_something_new(const struct tournament_match *m, bool *arena_seen, bool *player_seen)
{
    bool fresh = !arena_seen[m->arena];
    arena_seen[m->arena] = true;
    for (int i = 0; i < m->n_seats; i++) {
        fresh |= !player_seen[m->seats[i]];
        player_seen[m->seats[i]] = true;
    }
    return fresh;
}

int tournament_check(const struct tournament_config *cfg, const struct tournament_plan *plan,
                     struct tournament_error *err)
{
    bool *arena_seen = calloc(cfg->n_arenas, sizeof *arena_seen);
    bool *player_seen = calloc(cfg->n_players, sizeof *player_seen);
    int rc = arena_seen && player_seen ? 0 : -1;
    if (rc < 0) snprintf(err->msg, sizeof err->msg, "out of memory");
    for (size_t i = 0; rc == 0 && i < plan->n; i++)
        if (!tournament_match_unplayable(cfg, &plan->matches[i]) &&
            covers_something_new(&plan->matches[i], arena_seen, player_seen))
            rc = try_setup(cfg, &plan->matches[i], err);
    free(arena_seen);
    free(player_seen);
    return rc;
}
