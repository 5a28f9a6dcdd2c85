/*
 * match_phases.c - the judge's CPU by phase of a match (match_phases.h).
 */
#include <time.h>

#include "judge/match/match_phases.h"

static const char *const names[MATCH_PHASE_COUNT] = {
    [MATCH_PHASE_OTHER] = "other",       [MATCH_PHASE_PROMPT] = "prompt build",
    [MATCH_PHASE_WRITE] = "write",       [MATCH_PHASE_WAIT] = "wait",
    [MATCH_PHASE_READ] = "read reply",   [MATCH_PHASE_FREEZE] = "freeze",
    [MATCH_PHASE_THAW] = "thaw",         [MATCH_PHASE_CPU_READ] = "CPU read",
    [MATCH_PHASE_APPLY] = "engine apply", [MATCH_PHASE_EVENT] = "replay event",
    [MATCH_PHASE_COMPRESS] = "replay write",
};

uint64_t match_phases_thread_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void match_phases_start(struct match_phases *p)
{
    if (!p)
        return;
    p->current = MATCH_PHASE_OTHER;
    p->since_ns = match_phases_thread_ns();
    p->started = 1;
}

enum match_phase match_phase_switch(struct match_phases *p, enum match_phase ph)
{
    if (!p->started)
        return ph;
    uint64_t now = match_phases_thread_ns();
    enum match_phase left = p->current;
    p->ns[left] += now - p->since_ns;
    p->since_ns = now;
    p->current = ph;
    p->entries[ph]++;
    return left;
}

const char *match_phase_name(enum match_phase ph)
{
    return ph < MATCH_PHASE_COUNT ? names[ph] : "?";
}
