/*
 * source_player.h - players compiled from source: `source: DIR` + `profile:
 * LANGUAGE` in a match or tournament file instead of `command:` (the reader
 * is judge/match/match_config_readers.c). Before such a player plays, a compile step
 * sets its bot_dir (or compile_failed):
 *
 *   source_build.c        `judge run`: every source player compiled into one
 *                         temporary directory, removed after the match
 *   tournament_compile.c  `judge tournament`: each compiled once into OUT/bots,
 *                         reused on resume (judge/tournament/tournament_compile.h)
 *   source_hash.c         the hash of a submission's tree that keys that reuse
 *   source_player.c       a compiled player -> what the match runs
 *
 * Nothing here prints.
 */
#ifndef JUDGE_SOURCE_PLAYER_H
#define JUDGE_SOURCE_PLAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/compile/compile.h"
#include "judge/match/match.h"

/* ---- a compiled player in a match (source_player.c) ---------------------------------- */

/* pc (a source player with bot_dir set) -> mp: argv, dir and profile of its
 * compiled bot, and mp->compiled for the jail spec (environment, mounts, the
 * runtime's memory and pids). On error msg says why (without a file position). */
int source_player_resolve(const struct player_config *pc, const struct match_limits *limits,
                          struct match_player *mp, char *msg, size_t size);
void source_player_free(struct match_player *mp); /* mp->compiled only */

/* ---- `judge run`: compile into a temporary directory (source_build.c) ------------------ */

struct source_build {
    char *tmp_dir;                      /* $TMPDIR/judge-run-XXXXXX, or NULL when nothing was compiled */
    const struct player_config *failed; /* the player whose compile failed, else NULL */
    struct compile_result *result;      /* its result (the compiler's messages) */
};

/* Compiles every source player of cfg (in file order, stopping at the first
 * that does not compile) and sets their bot_dir. Returns 0 (check b->failed),
 * or -1 with err (err->request: the request's fault, such as a compiler that
 * is not installed; otherwise the judge's). */
int source_build_temp(struct match_config *cfg, enum isolation_mode mode, struct source_build *b,
                      struct compile_error *err);
/* Removes the temporary directory and frees b. */
void source_build_remove(struct source_build *b);

/* ---- the key of a compiled bot (source_hash.c) ----------------------------------------- */

/* FNV-1a 64 over a submission's tree (names, kinds, contents; links by their
 * target, never followed) and the language profile's file: 16 hex digits. */
int source_hash(const char *src_dir, const struct language_profile *p, char out[17],
                struct compile_error *err);

/* Sets err->msg (request false) and returns -1: the one error helper of these files. */
int source_fail(struct compile_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
