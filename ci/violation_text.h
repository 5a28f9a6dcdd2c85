/*
 * violation_text.h - a violation in words, for the audit, JUnit and
 * annotations: what the bot sent or called, the limit and the figure, and a
 * one-line account. The text is raw (it holds what the bot sent): each output
 * escapes it for its format.
 */
#ifndef CI_VIOLATION_TEXT_H
#define CI_VIOLATION_TEXT_H

#include <stdbool.h>

#include "ci/match_record.h"
#include "engine/strbuf.h"

#define VT_TEXT_MAX   512u  /* of what a bot sent, or a reason, shown (a replay keeps 255 bytes) */
#define VT_STDERR_MAX 4096u /* of a stderr tail shown: its last bytes (a replay keeps 4 KiB) */

/* The last VT_STDERR_MAX bytes of a stderr tail. */
const char *vt_stderr_tail(const struct mr_violation *v, size_t *len);

/* What the bot sent (evidence.line) or called (evidence.syscall: "socket(2, 1, 0, 0, 0, 0) x86_64 #41").
 * Returns 1 when there was something, 0 when not, -1 when out of memory. */
int vt_sent(struct strbuf *sb, const struct mr_violation *v);
/* The limit and the figure measured ("CPU budget 2003 ms", "CPU 2003.812 ms"); 1, 0 or -1 as above. */
int vt_limit(struct strbuf *sb, const struct mr_violation *v);
int vt_figure(struct strbuf *sb, const struct mr_violation *v);
/* evidence.reason, or NULL. */
const char *vt_reason(const struct mr_violation *v, size_t *len);
/* "time (CPU_LIMIT) in round 40, reply 40: CPU time over the budget; CPU budget 340 ms, CPU 340.812 ms; sent
 * \"...\"" */
int vt_one_line(struct strbuf *sb, const struct mr_violation *v);

#endif
