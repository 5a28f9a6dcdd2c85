/* match_verdict.c - the one table of per-player match verdicts, and a violation's evidence. */
#include <stdio.h>
#include <string.h>

#include "judge/match/match.h"

static const struct {
    const char *name;
    enum violation_kind kind;
} verdicts[MATCH_VERDICT_COUNT] = {
    [MATCH_OK] = {"OK", VIOLATION_NONE},
    [MATCH_CPU_LIMIT] = {"CPU_LIMIT", VIOLATION_TIME},
    [MATCH_WALL_LIMIT] = {"WALL_LIMIT", VIOLATION_TIME},
    [MATCH_RUNTIME_ERROR] = {"RUNTIME_ERROR", VIOLATION_CRASH},
    [MATCH_MEMORY_LIMIT] = {"MEMORY_LIMIT", VIOLATION_MEMORY},
    [MATCH_FORBIDDEN_SYSCALL] = {"FORBIDDEN_SYSCALL", VIOLATION_SYSCALL},
    [MATCH_INVALID_OUTPUT] = {"INVALID_OUTPUT", VIOLATION_INVALID_OUTPUT},
    [MATCH_INVALID_MOVE] = {"INVALID_MOVE", VIOLATION_INVALID_MOVE},
    [MATCH_INTERNAL_ERROR] = {"INTERNAL_ERROR", VIOLATION_NONE},
};

const char *match_verdict_name(enum match_verdict v)
{
    return (unsigned)v < MATCH_VERDICT_COUNT ? verdicts[v].name : "?";
}

int match_verdict_parse(const char *name, enum match_verdict *out)
{
    for (int v = 0; v < MATCH_VERDICT_COUNT; v++)
        if (!strcmp(verdicts[v].name, name)) {
            *out = (enum match_verdict)v;
            return 0;
        }
    return -1;
}

enum match_verdict match_verdict_of(enum violation_kind kind, bool wall)
{
    if (kind == VIOLATION_TIME)
        return wall ? MATCH_WALL_LIMIT : MATCH_CPU_LIMIT;
    for (int v = 0; v < MATCH_VERDICT_COUNT; v++)
        if (kind != VIOLATION_NONE && verdicts[v].kind == kind)
            return (enum match_verdict)v;
    return MATCH_OK;
}

bool match_cpu_over_budget_at_end(uint64_t cpu_ns, uint64_t budget_ns)
{
    return budget_ns && cpu_ns > budget_ns;
}

void match_violation_set_line(struct match_violation *v, const char *text, size_t len)
{
    v->line_len = len < sizeof v->line ? len : sizeof v->line - 1;
    memcpy(v->line, text, v->line_len);
    v->line[v->line_len] = '\0';
    v->has_line = true;
}

void match_violation_note_process_limit(struct match_violation *v, const struct jail_report *rep,
                                        uint64_t pids)
{
    size_t len = strlen(v->reason);
    if (rep->verdict == VERDICT_PROCESS_LIMIT && len < sizeof v->reason)
        snprintf(v->reason + len, sizeof v->reason - len, " (its process limit of %llu was reached)",
                 (unsigned long long)pids);
}
