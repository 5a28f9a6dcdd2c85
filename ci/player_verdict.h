/*
 * player_verdict.h - what the standings' verdict column says of a player: a
 * failed compile, the verdicts it finished matches with (other than OK) and in
 * how many of its matches, or OK. Never OK for a player with a violation.
 */
#ifndef CI_PLAYER_VERDICT_H
#define CI_PLAYER_VERDICT_H

#include "ci/standings.h"
#include "engine/strbuf.h"

/* One word for tools: COMPILE_ERROR, the verdict of a failed smoke test, the player's most frequent verdict other than OK, VIOLATIONS (rules
 * broken without a verdict), or OK. */
const char *player_verdict_word(const struct ci_player *p);
/* The Markdown cell: "`INVALID_OUTPUT` in 4 of 4 matches", "`CPU_LIMIT` in 1, `INVALID_MOVE` in 2 of 9
 * matches", "COMPILE_ERROR", "OK". */
int player_verdict_md(struct strbuf *sb, const struct ci_player *p);

#endif
