/* match_replay.h - a match written into the replay format: the header,
 * violation and result lines, made from the match's own setup and outcome
 * (the reply and event lines need nothing of a match: replay/replay.h). */
#ifndef JUDGE_MATCH_REPLAY_H
#define JUDGE_MATCH_REPLAY_H

#include <stdint.h>

#include "common/sysinfo.h"
#include "engine/strbuf.h"
#include "judge/match/match.h"
#include "replay/replay.h"

struct isolation_report;

/* isolation[p - 1] is player p's report (jail_isolation); NULL entries are skipped. */
int replay_record_header(struct strbuf *sb, const struct match_setup *s,
                         const struct isolation_report *const *isolation,
                         const struct host_info *host, int64_t started_unix);

int replay_record_violation(struct strbuf *sb, int player, const struct match_violation *v,
                            const char *stderr_tail);

int replay_record_result(struct strbuf *sb, const struct match_setup *s,
                         const struct match_outcome *o, uint64_t wall_ns);
/* The isolation report as `judge exec` shapes it (judge/match/run_report.h). */
int replay_record_isolation(struct strbuf *sb, const struct isolation_report *iso);
#endif
