/*
 * match_pin.h - a match's judge thread and bots kept on one CPU while every
 * reply is cheap. A prompt then wakes its bot on the CPU that wrote it, and a
 * reply its judge, where waking an idle CPU takes an inter-processor interrupt:
 * on a VM, tens of microseconds of the judge's CPU per reply, and the match's
 * wall time (make bench: bench_match, "one CPU" vs "spread").
 *
 * The match starts spread (start-up, often the dearest reply, runs on every
 * CPU), is placed on one CPU after PIN_CHEAP_ROUNDS rounds in which every reply
 * took under PIN_CHEAP_NS of CPU, and is spread again for good as soon as a
 * bot has used PIN_BUSY_NS on one reply (the wait reports it, JAIL_EVENT_BUSY):
 * bots that think share no CPU, so no bot waits on another's thinking for more
 * than about that long, and no wall limit comes nearer. A placement, not a
 * limit: CPU time is metered the same way either way. Private to match/.
 */
#ifndef JUDGE_MATCH_PIN_H
#define JUDGE_MATCH_PIN_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/match/match_seat.h"

#define PIN_CHEAP_NS     2000000u   /* a cheap reply: under 2 ms of CPU */
#define PIN_CHEAP_ROUNDS 3
#define PIN_BUSY_NS      10000000u  /* spread for good once a reply has used 10 ms */

enum pin_state { PIN_WATCHING, PIN_ON, PIN_OFF };

struct match_pin {
    enum pin_state state;
    cpu_set_t spread;   /* the judge thread's CPUs before the match */
    int cpu;            /* while PIN_ON */
    int cheap_rounds;
    int worker;         /* match_setup.worker */
};

/* Off for good when the setup says so, bots think on others' time (no freeze)
 * or the thread may run on one CPU only. */
void match_pin_begin(struct match_pin *p, const struct match_setup *s);
/* After a round of replies from the players in pending[0..n): may place the match on one CPU. */
void match_pin_round(struct match_pin *p, struct seat *seats, int n_players, const int *pending, int n);
/* The busy_ns of a wait entry for the reply st owes (0: none). */
uint64_t match_pin_busy_ns(const struct match_pin *p, const struct seat *st);
/* Spread the match again, for good. */
void match_pin_release(struct match_pin *p, struct seat *seats, int n_players);
/* At the match's end: the judge thread back on its CPUs. */
void match_pin_end(struct match_pin *p);

#endif
