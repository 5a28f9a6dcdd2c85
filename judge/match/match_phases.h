/*
 * match_phases.h - where the judge's own CPU goes during a match, by phase,
 * for make bench (tests/bench/bench_match.c). Measured only when a match is
 * played with match_play_measured: every other match passes NULL, and each
 * phase switch is then one test of a NULL pointer.
 *
 * The time is the judge thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), given
 * to exactly one phase at a time: entering a phase closes the current one, so
 * nested phases (compression inside writing a replay line) never count twice
 * and whatever no phase claims is MATCH_PHASE_OTHER.
 */
#ifndef JUDGE_MATCH_PHASES_H
#define JUDGE_MATCH_PHASES_H

#include <stdint.h>

enum match_phase {
    MATCH_PHASE_OTHER,       /* the runner's own bookkeeping; start and end of bots */
    MATCH_PHASE_PROMPT,      /* the engine building a prompt (and the player's messages) */
    MATCH_PHASE_WRITE,       /* writing prompts to bots' stdin */
    MATCH_PHASE_WAIT,        /* waiting for bots (jail_wait_any: ppoll, CPU checks) */
    MATCH_PHASE_READ,        /* reading and splitting the reply */
    MATCH_PHASE_FREEZE,      /* freezing a bot that has replied */
    MATCH_PHASE_THAW,        /* thawing a bot for its next prompt */
    MATCH_PHASE_CPU_READ,    /* the exact CPU reading of a reply */
    MATCH_PHASE_APPLY,       /* the engine applying a reply */
    MATCH_PHASE_EVENT,       /* the engine's events and formatting replay lines */
    MATCH_PHASE_COMPRESS,    /* the replay writer taking a line (deflated at the commit, or streamed) */
    MATCH_PHASE_COUNT
};

struct match_phases {
    uint64_t ns[MATCH_PHASE_COUNT];        /* CPU of the judge's thread in each phase */
    uint64_t entries[MATCH_PHASE_COUNT];   /* times each was entered */
    enum match_phase current;
    uint64_t since_ns;                     /* thread CPU when current was entered */
    int started;
};

/* Start counting (into OTHER) from now; what p held is kept. */
void match_phases_start(struct match_phases *p);
enum match_phase match_phase_switch(struct match_phases *p, enum match_phase ph);

/* Close the current phase and enter ph; returns the phase left, for going back
 * to it. With p NULL (a match not measured): nothing but the test, inlined. */
static inline enum match_phase match_phase_enter(struct match_phases *p, enum match_phase ph)
{
    return p ? match_phase_switch(p, ph) : ph;
}
/* Short name of a phase ("prompt", "freeze", ...). */
const char *match_phase_name(enum match_phase ph);
/* The judge thread's CPU clock, ns. */
uint64_t match_phases_thread_ns(void);

#endif
