/* match_config.h - a match file (YAML) read with libyaml into plain data. */
#ifndef JUDGE_MATCH_CONFIG_H
#define JUDGE_MATCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"
#include "sandbox/jail.h"

#define MATCH_MAX_NAMED 64

/* A `name: integer` entry with where it was written, for error messages. */
struct named_value { char *name; int64_t value; int line, col; };

struct player_config {
    char *name;
    char **argv;        /* NULL-terminated */
    int argc;
    char *dir;          /* host directory, bound read-only as the bot's working directory; may be NULL */
    char *profile;      /* run/seccomp profile; NULL = "default" */
    int line, col;      /* where the player entry starts */
};

struct match_config {
    char *path;         /* the match file, as given */
    char *game;
    char *map_path;     /* resolved relative to the match file's directory; NULL when generated */
    bool has_generate;
    struct named_value generate[MATCH_MAX_NAMED]; size_t n_generate; /* generator options */
    bool has_seed;
    uint64_t seed;
    struct named_value params[MATCH_MAX_NAMED]; size_t n_params;     /* game parameter overrides */
    struct named_value limits[MATCH_MAX_NAMED]; size_t n_limits;     /* time/memory overrides */
    struct player_config players[GAME_MAX_PLAYERS]; int n_players;
    char *replay_path;  /* resolved relative to the current directory; NULL = default name */
    enum isolation_mode isolation;
    bool no_freeze;
};

/* Errors are one line: "FILE:LINE:COL: message". Relative `map` and player `dir`
 * paths are resolved against the match file's directory. */
struct config_error { char msg[512]; };
int match_config_load(const char *path, struct match_config *out, struct config_error *err);
void match_config_free(struct match_config *cfg);

#endif
