/*
 * sched_referee.c - the scheduling of a thread that referees a match: SCHED_BATCH while
 * it plays. A bot's reply wakes the judge; a normal thread woken on the bot's CPU
 * preempts the bot between its write(2) and its next read(2), and the bot, runnable but
 * not running, is then not provably asleep (jail_meter.c): the judge had to pause for it
 * in about one reply in five (greedy generals bots). A batch thread does not preempt on
 * wake-up (the scheduler leaves that to the tick), so the bot reaches its read first.
 * The jail's child goes back to SCHED_OTHER before anything else (jail_spawn.c): bots
 * never inherit it. sched_boost.c still raises the thread to SCHED_FIFO near a CPU limit.
 */
#include "sandbox/jail_internal.h"

#include <sched.h>

bool jail_sched_referee_begin(void)
{
    struct sched_param none = {0};
    return sched_getscheduler(0) == SCHED_OTHER && sched_setscheduler(0, SCHED_BATCH, &none) == 0;
}

void jail_sched_referee_end(bool changed)
{
    struct sched_param none = {0};
    if (changed) sched_setscheduler(0, SCHED_OTHER, &none);
}

void jail_sched_reset_inherited(void)
{
    struct sched_param none = {0};
    int policy = sched_getscheduler(0);
    if (policy == SCHED_BATCH) sched_setscheduler(0, SCHED_OTHER, &none);
}
