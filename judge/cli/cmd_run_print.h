/* cmd_run_print.h - the text `judge run` prints for a played match (judge/cmd_run_print.c). */
#ifndef JUDGE_CMD_RUN_PRINT_H
#define JUDGE_CMD_RUN_PRINT_H

#include <stdbool.h>

#include "judge/match/match.h"

/* Players 1..o->players by place, then by player number, into order[0..o->players). */
void run_place_order(const struct match_outcome *o, int *order);
/* Whether a violation of the player's was recorded (the last one), even one it played on after. */
bool run_broke_a_rule(const struct match_player_outcome *po);
/* Whether the player hit the wall limit without a byte of its reply (output probably never flushed). */
bool run_never_flushed(const struct match_player_outcome *po);
/* The table, each violation's reason, stderr line and hint, the result line and the replay's path. */
void run_print_text(const struct match_setup *s, const struct match_outcome *o, const char *replay);

#endif
