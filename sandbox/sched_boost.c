/*
 * sched_boost.c - run the calling thread SCHED_FIFO for a short while.
 * jail_wait_any's last milliseconds before a CPU limit are a race between the
 * bot, which keeps burning CPU, and the judge's wake-up, which a loaded
 * machine can delay by milliseconds under the normal scheduler; a real-time
 * judge thread wakes within tens of microseconds. Only where permitted (root,
 * or RLIMIT_RTPRIO); otherwise nothing changes. Children never inherit it.
 */
#include "sandbox/jail_internal.h"

#include <sched.h>

void sched_boost_begin(struct sched_boost *b)
{
    if (b->active) return;
    b->policy = sched_getscheduler(0);
    if (b->policy < 0 || sched_getparam(0, &b->param) < 0) return;
    struct sched_param fifo = {.sched_priority = 1};
    b->active = sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &fifo) == 0;
}

void sched_boost_end(struct sched_boost *b)
{
    if (!b->active) return;
    sched_setscheduler(0, b->policy, &b->param);
    b->active = false;
}
