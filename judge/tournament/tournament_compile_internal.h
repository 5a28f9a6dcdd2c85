/* tournament_compile_internal.h - what tournament_compile.c (the parent: which
 * players, the forked processes) and tournament_compile_one.c (one player's
 * paths, state and compile) share. */
#ifndef JUDGE_TOURNAMENT_COMPILE_INTERNAL_H
#define JUDGE_TOURNAMENT_COMPILE_INTERNAL_H

#include "judge/compile/compile.h"
#include "judge/tournament/tournament_compile.h"

/* OUT/bots/.build/PLAYER, as its first line says: the key and the verdict. */
struct build_state {
    char key[17];
    char verdict[32];
};

/* Whether p's compile in od can be reused: its state names key, its compile
 * record is there, and when it compiled, its bot directory. Sets p->bot_dir
 * (absolute) or p->compile_failed, and st, when it can. -1 on out of memory. */
int build_reuse(const struct tournament_outdir *od, struct player_config *p, const char *key,
                struct build_state *st);

/* Whether an earlier run into od compiled p from other files or another profile: its state
 * names a key other than key. */
bool build_key_changed(const struct tournament_outdir *od, const struct player_config *p, const char *key);

/* In the forked process: compile p afresh into od (old bot, record and state
 * removed first), write its record, then its state. 0, or -1 with err
 * (err->request when the request is at fault). */
int build_compile(const struct tournament_outdir *od, const struct player_config *p, const char *key,
                  enum isolation_mode mode, struct compile_error *err);

#endif
