/*
 * jail_wait.c - wait for the first event among several jails, enforcing CPU
 * limits precisely.
 *
 * The cheap CPU reading lags a running task by up to a scheduler tick per
 * CPU. While the remaining budget is larger than that lag (plus margin), we
 * ppoll every fd of interest (pipe, seccomp listener, pidfd) with a timeout
 * short enough that even a bot busy on every CPU cannot reach the lag zone.
 * Inside it, each round freezes the jail, reads the exact figure (descheduling
 * brings the counters up to date), and either reports CPU_LIMIT (leaving the
 * jail frozen for the caller to kill) or thaws and sleeps for the exact
 * remainder divided by the CPUs it could use. ppoll takes a timespec, so
 * sleeps are as short as the scheduler allows, and once a jail is within
 * BOOST_WINDOW_NS (per CPU) of its limit the waiting thread runs SCHED_FIFO
 * where permitted, so that a busy machine does not delay its wake-up; farther
 * from the limit a late wake-up cannot let a bot pass it, and switching the
 * policy on every wait would cost the judge more than the rest of the wait.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#define COARSE_MAX_SLEEP_NS 10000000u
#define MIN_SLEEP_NS        20000u
#define IDLE_MAX_SLEEP_NS   1000000u /* what a bot waking from idleness can overshoot by, per CPU */
#define NO_TIMEOUT          UINT64_MAX
#define BOOST_WINDOW_NS     100000000u /* per CPU: more than a busy machine delays a wake-up */

enum { NO_EVENT = -1, WAIT_ERROR = -2 }; /* besides an entry's index */

/* Slots of one entry in the pollfd array (-1: not polled). */
struct entry_slots {
    int fd, listener, pidfd;
};

struct waiter {
    struct jail_wait_entry *entries;
    size_t n;
    struct pollfd *extra;
    size_t n_extra;
    long cpus;
    struct pollfd *fds;
    struct entry_slots *slots;
    struct sched_boost boost; /* once an entry is within BOOST_WINDOW_NS of its CPU limit */
};

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}
static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t lag_threshold(long cpus)
{
    return (uint64_t)JAIL_SCHED_TICK_NS * (uint64_t)(cpus + 1 > 3 ? cpus + 1 : 3);
}

static bool fd_has_data(int fd)
{
    int pending = 0;
    return ioctl(fd, FIONREAD, &pending) == 0 && pending > 0;
}

static int report(struct jail_wait_entry *e, enum jail_event ev, int index)
{
    e->event = ev;
    return index;
}

/* A jail whose exact figure has not moved since the last check is idle (blocked,
 * sleeping): sleep longer each time, up to IDLE_MAX_SLEEP_NS, instead of
 * re-checking every MIN_SLEEP_NS until its wall deadline. */
static uint64_t idle_backoff(struct jail *j, uint64_t exact, uint64_t timeout)
{
    if (exact == j->idle_exact_ns)
        j->idle_sleep_ns = min_u64(max_u64(j->idle_sleep_ns * 2, MIN_SLEEP_NS), IDLE_MAX_SLEEP_NS);
    else
        j->idle_sleep_ns = 0;
    j->idle_exact_ns = exact;
    return max_u64(timeout, j->idle_sleep_ns);
}

/* The exact figure from a frozen jail; stays frozen when over the limit. */
static int precise_check(struct waiter *w, struct jail_wait_entry *e, uint64_t *timeout, bool *over,
                         struct jail_error *err)
{
    struct jail *j = e->jail;
    long cpus = w->cpus;
    bool was_frozen = j->frozen;
    if (jail_freeze(j, err) < 0) return -1; /* a held jail: until every task has stopped */
    uint64_t exact = jail_cpu_ns_final(j);
    *over = exact >= e->cpu_limit_ns;
    if (*over || was_frozen) /* a jail frozen by its caller uses no CPU: no timeout needed */
        return 0;
    if (jail_thaw(j, err) < 0) return -1;
    *timeout = idle_backoff(j, exact, max_u64((e->cpu_limit_ns - exact) / (uint64_t)cpus, MIN_SLEEP_NS));
    return 0;
}

/* The bound on its use since the last reading when that is far from the
 * limit (a prompt's wait, just after the reply's reading); else a reading. */
static uint64_t cpu_used(struct jail *j, uint64_t limit, uint64_t now, long cpus)
{
    uint64_t bound = jail_cpu_ns_bound(j, now, cpus);
    if (bound < limit && limit - bound > lag_threshold(cpus) + BOOST_WINDOW_NS * (uint64_t)cpus) return bound;
    return jail_cpu_ns(j);
}

/* CPU_LIMIT now, or the longest safe sleep in *timeout. */
static int cpu_check(struct waiter *w, struct jail_wait_entry *e, uint64_t now, uint64_t *timeout, bool *over,
                     struct jail_error *err)
{
    struct jail *j = e->jail;
    long cpus = w->cpus;
    uint64_t used = cpu_used(j, e->cpu_limit_ns, now, cpus);
    uint64_t threshold = lag_threshold(cpus);
    *over = false;
    if (used >= e->cpu_limit_ns) { /* the cheap reading never runs ahead: certainly over */
        *over = true;
        return j->frozen ? 0 : jail_freeze(j, err);
    }
    uint64_t remaining = e->cpu_limit_ns - used;
    if (remaining <= threshold + BOOST_WINDOW_NS * (uint64_t)cpus) /* a late wake-up would let it pass */
        sched_boost_begin(&w->boost);
    if (remaining <= threshold) return precise_check(w, e, timeout, over, err);
    *timeout = min_u64(COARSE_MAX_SLEEP_NS, max_u64((remaining - threshold) / (uint64_t)cpus, MIN_SLEEP_NS));
    return 0;
}

/* Several entries of one jail (its stdout and stderr) share one CPU check per round. */
static bool checked_earlier(const struct waiter *w, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (w->entries[k].jail == w->entries[i].jail &&
            w->entries[k].cpu_limit_ns == w->entries[i].cpu_limit_ns)
            return true;
    return false;
}

/* Has the jail used busy_ns? If not, *timeout is lowered to when it could have
 * on one CPU (a placement hint: on more, it is found later, which is all). */
static bool busy_check(const struct jail_wait_entry *e, uint64_t used, uint64_t *timeout)
{
    if (used >= e->busy_ns) return true;
    *timeout = min_u64(*timeout, max_u64(e->busy_ns - used, MIN_SLEEP_NS));
    return false;
}

/* An event known without polling, or NO_EVENT with *timeout lowered as needed. */
static int immediate_event(struct waiter *w, size_t i, uint64_t now, uint64_t *timeout,
                           struct jail_error *err)
{
    struct jail_wait_entry *e = &w->entries[i];
    struct jail *j = e->jail;
    if (j->has_syscall) return report(e, JAIL_EVENT_SYSCALL, (int)i);
    if (j->ended || j->reaped)
        return report(e, e->fd >= 0 && fd_has_data(e->fd) ? JAIL_EVENT_READABLE : JAIL_EVENT_ENDED, (int)i);
    if (j->killed) /* dying: its limits no longer matter, and freezing would keep it alive */
        return NO_EVENT;
    if (e->deadline_ns && now >= e->deadline_ns) return report(e, JAIL_EVENT_WALL_LIMIT, (int)i);
    if (e->cpu_limit_ns && !checked_earlier(w, i)) {
        uint64_t t = NO_TIMEOUT;
        bool over;
        if (cpu_check(w, e, now, &t, &over, err) < 0) return WAIT_ERROR;
        if (over) return report(e, JAIL_EVENT_CPU_LIMIT, (int)i);
        *timeout = min_u64(*timeout, t);
    }
    if (e->busy_ns) {
        /* its highest reading, which a fresh one replaces only where the bound allows busy_ns */
        uint64_t used = j->cpu_seen;
        if (used < e->busy_ns && jail_cpu_ns_bound(j, now, w->cpus) >= e->busy_ns) used = jail_cpu_ns(j);
        if (busy_check(e, used, timeout)) return report(e, JAIL_EVENT_BUSY, (int)i);
    }
    if (e->deadline_ns) *timeout = min_u64(*timeout, e->deadline_ns - now);
    return NO_EVENT;
}

static int add_pollfd(struct waiter *w, size_t *count, int fd)
{
    if (fd < 0) return -1;
    w->fds[*count] = (struct pollfd){.fd = fd, .events = POLLIN};
    return (int)(*count)++;
}

/* The entry before i on the same jail (its stdout before its stderr), or -1. */
static int earlier_entry_of_jail(const struct waiter *w, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (w->entries[k].jail == w->entries[i].jail) return (int)k;
    return -1;
}

/* A jail's listener and pidfd are polled once, however many of its fds are. */
static size_t build_pollfds(struct waiter *w)
{
    size_t count = 0;
    for (size_t i = 0; i < w->n; i++) {
        struct jail *j = w->entries[i].jail;
        int same = earlier_entry_of_jail(w, i);
        w->slots[i].fd = add_pollfd(w, &count, w->entries[i].fd);
        if (same >= 0) {
            w->slots[i].listener = w->slots[same].listener;
            w->slots[i].pidfd = w->slots[same].pidfd;
            continue;
        }
        w->slots[i].listener = add_pollfd(w, &count, j->listener_hup ? -1 : j->listener_fd);
        w->slots[i].pidfd = add_pollfd(w, &count, j->pidfd);
    }
    for (size_t k = 0; k < w->n_extra; k++) {
        w->extra[k].revents = 0;
        w->fds[count++] = w->extra[k];
    }
    return count;
}

static short revents_of(const struct waiter *w, int slot)
{
    return slot >= 0 ? w->fds[slot].revents : 0;
}

/* After ppoll: the first entry with an event. */
static int polled_event(struct waiter *w, struct jail_error *err)
{
    for (size_t i = 0; i < w->n; i++) {
        struct jail_wait_entry *e = &w->entries[i];
        struct jail *j = e->jail;
        short lr = revents_of(w, w->slots[i].listener);
        if ((lr & POLLIN) && jail_take_notification(j, err) < 0) return WAIT_ERROR;
        if (j->has_syscall) return report(e, JAIL_EVENT_SYSCALL, (int)i);
        if (lr & (POLLHUP | POLLERR)) j->listener_hup = true;
        if (revents_of(w, w->slots[i].fd)) return report(e, JAIL_EVENT_READABLE, (int)i);
        if (revents_of(w, w->slots[i].pidfd) && jail_has_ended(j))
            return report(e, e->fd >= 0 && fd_has_data(e->fd) ? JAIL_EVENT_READABLE : JAIL_EVENT_ENDED,
                          (int)i);
    }
    return NO_EVENT;
}

static bool extra_event(struct waiter *w, size_t first_extra)
{
    bool any = false;
    for (size_t k = 0; k < w->n_extra; k++) {
        w->extra[k].revents = w->fds[first_extra + k].revents;
        any |= w->extra[k].revents != 0;
    }
    return any;
}

static int wait_round(struct waiter *w, struct jail_error *err)
{
    uint64_t now = monotonic_ns(), timeout = NO_TIMEOUT;
    for (size_t i = 0; i < w->n; i++) {
        w->entries[i].event = JAIL_EVENT_NONE;
        int got = immediate_event(w, i, now, &timeout, err);
        if (got != NO_EVENT) return got;
    }
    size_t count = build_pollfds(w);
    struct timespec ts = ns_to_timespec(timeout);
    int n = ppoll(w->fds, count, timeout == NO_TIMEOUT ? NULL : &ts, NULL);
    if (n < 0 && errno != EINTR) {
        jail_fail_errno(err, errno, "ppoll");
        return WAIT_ERROR;
    }
    if (n <= 0) return NO_EVENT;
    int got = polled_event(w, err);
    if (got != NO_EVENT) return got;
    return extra_event(w, count - w->n_extra) ? (int)w->n : NO_EVENT;
}

int jail_wait_core(struct jail_wait_entry *entries, size_t n, struct pollfd *extra, size_t n_extra,
                   struct jail_error *err)
{
    const struct jail_global *g;
    if (jail_global_ensure(&g, err) < 0) return -1;
    if (n == 0 && n_extra == 0) return jail_fail(err, "wait: nothing to wait for");
    struct waiter w = {entries, n, extra, n_extra, g->usable_cpus, NULL, NULL, {0}};
    w.fds = calloc(3 * n + n_extra, sizeof *w.fds);
    w.slots = calloc(n ? n : 1, sizeof *w.slots);
    int got = NO_EVENT;
    if (!w.fds || !w.slots) {
        jail_fail(err, "out of memory");
        got = WAIT_ERROR;
    }
    while (got == NO_EVENT) got = wait_round(&w, err);
    sched_boost_end(&w.boost);
    free(w.fds);
    free(w.slots);
    return got < 0 ? -1 : got;
}

int jail_wait_any(struct jail_wait_entry *entries, size_t n, struct jail_error *err)
{
    if (n == 0) return jail_fail(err, "wait: no jail given");
    for (size_t i = 0; i < n; i++)
        if (!entries[i].jail) return jail_fail(err, "wait: entry %zu has no jail", i);
    return jail_wait_core(entries, n, NULL, 0, err);
}
