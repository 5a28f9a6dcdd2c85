/*
 * match_turns.h - a new process for every player on every turn (warlight §4,
 * §5, D14, D16): the command followed by the engine's arguments, an empty
 * stdin, the data directory as working directory, stdout read until the
 * process exits (max_output_bytes + 1 bytes kept, the rest read and thrown
 * away), a wall limit counted from the start, and what is left of its tree
 * killed once it exits. Each process is a full jail, started from one the
 * driver prepared while the previous turn ran (sandbox/jail_prewarm.h).
 * Private to match_runner.c and match_turns.c.
 */
#ifndef JUDGE_MATCH_TURNS_H
#define JUDGE_MATCH_TURNS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/strbuf.h"
#include "judge/match/match.h"
#include "judge/match/match_datadir.h"

/* How one player's process of a turn ended. */
struct turn_reply {
    bool violated;                     /* memory, system call, time or crash (README C9 1-4) */
    struct match_violation violation;  /* when violated */
    struct strbuf output;              /* else: what it printed (empty if it could not be executed) */
    uint64_t cpu_ns, wall_ns;
};

struct match_turns;

/* Prepare a jail for every player (dirs: their data directories). */
int turns_open(struct match_turns **out, const struct match_setup *s, const struct match_datadirs *dirs,
               struct jail_error *err);
/* The isolation player p's processes run under (NULL before turns_open). */
const struct isolation_report *turns_isolation(const struct match_turns *t, int player);

/* One turn: players[i] runs with the extra arguments args[i] (NUL-terminated
 * strings), all at once; replies[i] says how it ended, reply_no[i] being its
 * reply number j. Returns -1 only for the judge's own failures. */
int turns_play(struct match_turns *t, int n, const int *players, const struct strbuf *args, int round,
               const int *reply_no, struct turn_reply *replies, struct jail_error *err);

/* The last bytes of the player's stderr over all its processes (at most max). */
int turns_stderr_tail(struct match_turns *t, int player, size_t max, struct strbuf *out);
/* CPU of all its processes together, and the largest memory peak of any. */
void turns_meters(const struct match_turns *t, int player, uint64_t *cpu_ns, uint64_t *memory_peak);
uint64_t turns_rss_peak(const struct match_turns *t, int player); /* the largest of its turns' peak RSS */

/* Kill whatever is prepared or running and free everything. NULL is ignored. */
void turns_close(struct match_turns *t);

void turn_reply_free(struct turn_reply *r);

#endif
