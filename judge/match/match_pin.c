/*
 * match_pin.c - one CPU for a match of cheap replies (match_pin.h).
 */
#include "judge/match/match_pin.h"

void match_pin_begin(struct match_pin *p, const struct match_setup *s)
{
    p->state = PIN_OFF;
    p->cheap_rounds = 0;
    p->worker = s->worker;
    if (s->spread_cpus || !s->freeze || s->smoke_player)
        return;
    if (sched_getaffinity(0, sizeof p->spread, &p->spread) == 0 && CPU_COUNT(&p->spread) > 1)
        p->state = PIN_WATCHING;
}

/* The n-th CPU of set (n counted modulo its size). */
static int nth_cpu(const cpu_set_t *set, int n)
{
    int k = n % CPU_COUNT(set);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, set) && k-- == 0)
            return cpu;
    return -1;
}

/* A tournament worker's own CPU (workers side by side on different ones), else the one the thread is on. */
static int chosen_cpu(const struct match_pin *p)
{
    int here = sched_getcpu();
    if (p->worker > 0 || here < 0 || here >= CPU_SETSIZE || !CPU_ISSET(here, &p->spread))
        return nth_cpu(&p->spread, p->worker > 0 ? p->worker - 1 : 0);
    return here;
}

static bool playing(const struct seat *st)
{
    return st->jail && st->phase == SEAT_PLAYING;
}

static void place(struct match_pin *p, struct seat *seats, int n_players)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    p->cpu = chosen_cpu(p);
    if (p->cpu < 0 || sched_setaffinity(0, sizeof one, (CPU_SET(p->cpu, &one), &one)) < 0) {
        p->state = PIN_OFF;
        return;
    }
    p->state = PIN_ON;
    for (int pl = 1; pl <= n_players; pl++) {
        struct jail_error ignored;
        if (playing(&seats[pl]) && jail_set_cpus(seats[pl].jail, &one, &ignored) < 0) {
            match_pin_release(p, seats, n_players);
            return;
        }
    }
}

void match_pin_round(struct match_pin *p, struct seat *seats, int n_players, const int *pending, int n)
{
    if (p->state == PIN_OFF)
        return;
    bool cheap = true, busy = false;
    for (int i = 0; i < n; i++) {
        cheap = cheap && seats[pending[i]].reply_used_ns < PIN_CHEAP_NS;
        busy = busy || seats[pending[i]].reply_used_ns >= PIN_BUSY_NS;
    }
    if (p->state == PIN_ON) {
        if (busy)   /* one the wait did not see: its cheap reading lags */
            match_pin_release(p, seats, n_players);
        return;
    }
    p->cheap_rounds = cheap ? p->cheap_rounds + 1 : 0;
    if (p->cheap_rounds >= PIN_CHEAP_ROUNDS)
        place(p, seats, n_players);
}

uint64_t match_pin_busy_ns(const struct match_pin *p, const struct seat *st)
{
    return p->state == PIN_ON ? st->reply_cpu_ns + PIN_BUSY_NS : 0;
}

void match_pin_release(struct match_pin *p, struct seat *seats, int n_players)
{
    if (p->state != PIN_ON) {
        p->state = PIN_OFF;
        return;
    }
    p->state = PIN_OFF;
    sched_setaffinity(0, sizeof p->spread, &p->spread);
    for (int pl = 1; pl <= n_players; pl++) {
        struct jail_error ignored;
        if (playing(&seats[pl]))
            jail_set_cpus(seats[pl].jail, &p->spread, &ignored);
    }
}

void match_pin_end(struct match_pin *p)
{
    if (p->state == PIN_ON)
        sched_setaffinity(0, sizeof p->spread, &p->spread);
    p->state = PIN_OFF;
}
