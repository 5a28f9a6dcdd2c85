/* gen_self_wake.c - a generals bot that, once its 2nd reply is written, wakes
 * itself with a timer while it waits for its next prompt and burns 200 ms of
 * CPU there, in a signal handler, outside its turn (a bot asleep reading its
 * stdin is not frozen while others think: README, metering). It waits for the
 * burn to be over before its 5th reply, so the burn always lands within the
 * match, wherever the timer fires: its CPU total must hold it. */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "gen_bot.h"

#define BURN_S 0.2
#define WAIT_BEFORE_REPLY 5

static volatile sig_atomic_t burnt;

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void burn(int sig)
{
    (void)sig;
    double until = cpu_seconds() + BURN_S;
    while (cpu_seconds() < until) {
    }
    burnt = 1;
}

static void wake_later(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = burn;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval t = {.it_value = {.tv_sec = 0, .tv_usec = 2000}};
    setitimer(ITIMER_REAL, &t, NULL);
}

static void wait_for_the_burn(void)
{
    sigset_t alarm_only, old;
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    sigprocmask(SIG_BLOCK, &alarm_only, &old);
    while (!burnt)
        sigsuspend(&old);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

int main(void)
{
    if (gen_begin() != 0)
        return 1;
    for (int reply = 1; gen_read_state(); reply++) {
        if (reply == WAIT_BEFORE_REPLY)
            wait_for_the_burn();
        gen_reply("-1");
        if (reply == 2)
            wake_later();
    }
    free(gen_board);
    return 0;
}
