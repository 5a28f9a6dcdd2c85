/* cmd_run_print.h - the text `judge run` prints for a played match (judge/cmd_run_print.c). */
#ifndef JUDGE_CMD_RUN_PRINT_H
#define JUDGE_CMD_RUN_PRINT_H

#include <stdbool.h>

#include "judge/match/match.h"

/* Players 1..o->players by place, then by player number, into order[0..o->players). */
void run_place_order(const struct match_outcome *o, int *order);
/* Whether a violation of the player's was recorded (the last one), even one it played on after. */
bool run_broke_a_rule(const struct match_player_outcome *po);
/* What a wall limit's hint says: nothing arrived from a mostly idle bot (output probably never
 * flushed), part of the reply arrived (no newline or no flush at its end), or the bot was
 * computing all along. */
enum run_hint { RUN_HINT_NONE, RUN_HINT_FLUSH, RUN_HINT_CUT_SHORT, RUN_HINT_BUSY };
enum run_hint run_hint_of(const struct match_player_outcome *po);
/* The hint in one line (--json), NULL for none. */
const char *run_hint_summary(enum run_hint hint);
/* The table, each violation's reason, stderr line and hint, the result line and the replay's path.
 * The memory column's cgroup peak is "-" where the probe has no cgroup memory (the figure is then
 * the peak RSS again). */
void run_print_text(const struct match_setup *s, const struct match_outcome *o, const char *replay,
                    const struct isolation_report *probe);

#endif
