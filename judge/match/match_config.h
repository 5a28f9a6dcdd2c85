/*
 * match_config.h - a match file (YAML) read with libyaml into plain data.
 *
 * match_config.c reads the match document; match_config_readers.c holds the
 * reader of each section (game, map, generate, params, limits, a player,
 * isolation, freeze), which tournament files (judge/tournament/tournament.h) share.
 */
#ifndef JUDGE_MATCH_CONFIG_H
#define JUDGE_MATCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"
#include "common/yaml_reader.h"
#include "sandbox/jail.h"

#define MATCH_MAX_NAMED 64

/* A `name: integer` entry with where it was written, for error messages. */
struct named_value { char *name; int64_t value; int line, col; };

struct language_profile;

/* A player runs a `command` (argv, dir, profile = its seccomp profile) or is
 * compiled from `source` (a directory; profile = its language profile, loaded
 * into `language`). A source player plays once bot_dir is set: the compile
 * step (judge/compile/source_player.h) sets it, or compile_failed. */
struct player_config {
    char *name;
    char **argv;        /* NULL-terminated; NULL for a source player */
    int argc;
    char *dir;          /* host directory, bound read-only as the bot's working directory; may be NULL */
    char *profile;      /* run/seccomp profile, or a source player's language; NULL = "default" */
    char *source;       /* a source player's submission directory (absolute), else NULL */
    struct language_profile *language; /* a source player's profile, owned */
    char *bot_dir;      /* a source player's compiled bot, once compiled */
    bool compile_failed;
    bool reference;     /* a gauntlet's `references:` entry: marked so in the replay header */
    bool smoke_failed;  /* failed the tournament's smoke test with smoke_test: drop: its matches are not played */
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

/* ---- section readers (match_config_readers.c) -------------------------------------
 * Each reads one node into its target and returns 0, or -1 with r->err set to
 * "FILE:LINE:COL: message". Strings they return are owned by the caller. */

#define CONFIG_MAX_KEYS 24

struct config_reader {
    const struct yr_file *file;
    const char *path;               /* the file read: relative paths are resolved beside it */
    const struct game_rules *rules; /* set by config_read_game; params need it */
    struct yr_error err;
};

/* The value node of each known key of a mapping (NULL when absent) and where its key is. */
struct config_keys {
    const yaml_node_t *value[CONFIG_MAX_KEYS];
    struct yr_mark key_mark[CONFIG_MAX_KEYS];
};
/* Every key of map must be one of names[0..n), n <= CONFIG_MAX_KEYS. */
int config_read_keys(struct config_reader *r, const yaml_node_t *map, const char *const *names, size_t n,
                     struct config_keys *keys);

int config_read_game(struct config_reader *r, const yaml_node_t *node, char **name);
/* A game whose map is empty (sea battle) or that has none (warlight): no
 * `map:` or `generate:` needed. */
bool config_game_needs_no_map(const struct game_rules *rules);
int config_read_map(struct config_reader *r, const yaml_node_t *node, char **path);
int config_read_generate(struct config_reader *r, const yaml_node_t *node, struct named_value *list,
                         size_t *n);
int config_read_params(struct config_reader *r, const yaml_node_t *node, struct named_value *list, size_t *n);
int config_read_limits(struct config_reader *r, const yaml_node_t *node, struct named_value *list, size_t *n);
int config_read_isolation(struct config_reader *r, const yaml_node_t *node, enum isolation_mode *out);
int config_read_freeze(struct config_reader *r, const yaml_node_t *node, bool *no_freeze);
/* One player entry; its name must differ from those of earlier[0..n_earlier). */
int config_read_player(struct config_reader *r, const yaml_node_t *node, struct player_config *p,
                       const struct player_config *earlier, size_t n_earlier);
int config_add_named(struct config_reader *r, struct named_value *list, size_t *n, const char *name,
                     int64_t value, struct yr_mark at);
int config_fail_no_memory(struct config_reader *r);

void config_named_free(struct named_value *list, size_t n);
void config_player_free(struct player_config *p);

#endif
