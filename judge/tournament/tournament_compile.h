/*
 * tournament_compile.h - the compile-once step of `judge tournament`: every
 * source player (judge/compile/source_player.h) seated in a match of the
 * shard (the others are another shard's to compile) compiled in the jail into
 * OUT/bots/PLAYER/, its compile record at OUT/compile/PLAYER.jsonl.gz, and
 * OUT/bots/.build/PLAYER saying which source it was built from (the key of
 * source_hash()) and how it went. A resumed tournament reuses a bot whose key
 * is unchanged, failures included. A player that did not compile plays no
 * match: its matches are left out of the run, and the results stage shows
 * its compile record. Nothing here prints.
 */
#ifndef JUDGE_TOURNAMENT_COMPILE_H
#define JUDGE_TOURNAMENT_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/tournament/tournament.h"

#define TOURNAMENT_BOTS_DIR  "bots"
#define TOURNAMENT_BUILD_DIR ".build" /* in bots/: no player's directory can be named so */

/* What the hook is told about each source player of the shard, in file order, as soon as its
 * compile and those of the players before it have ended. */
struct tournament_compiled {
    const struct player_config *player;
    const char *verdict; /* "OK", "COMPILE_ERROR", ... */
    bool reused;         /* compiled by an earlier run of the same tournament */
    bool changed;        /* an earlier run built it from other files or another profile: compiled again */
};

struct tournament_compile_hooks {
    void (*compiled)(void *ctx, const struct tournament_compiled *c); /* may be NULL */
    void *ctx;
};

enum tournament_compile_status {
    TOURNAMENT_COMPILED,        /* every source player of the shard has bot_dir or compile_failed */
    TOURNAMENT_COMPILE_REQUEST, /* the file's fault (a name that cannot be a file name, a missing compiler) */
    TOURNAMENT_COMPILE_INTERNAL, /* the judge's (a fork, a write, an INTERNAL_ERROR verdict) */
    TOURNAMENT_COMPILE_STORAGE,  /* OUT's disk is full, read-only or failing */
};

/* Compiles the source players of cfg seated in a match of the shard and not
 * already compiled into od, `jobs` at a time, each in a forked process (the
 * sandbox's process-wide state stays out of the parent, which forks the match
 * workers later), and sets bot_dir or compile_failed on every one. The other
 * source players keep neither: their matches, all in other shards, are unplayable
 * here. Every source player's name is checked, so every shard refuses the same file. */
enum tournament_compile_status tournament_compile(struct tournament_config *cfg,
                                                  const struct tournament_plan *plan,
                                                  struct tournament_shard shard,
                                                  const struct tournament_outdir *od, int jobs,
                                                  const struct tournament_compile_hooks *hooks,
                                                  struct tournament_error *err);

/* Whether m seats a source player without a compiled bot (its compile failed,
 * or has not run, as with --list), or a player dropped by the smoke test: such a match is not played. */
bool tournament_match_unplayable(const struct tournament_config *cfg, const struct tournament_match *m);

#endif
