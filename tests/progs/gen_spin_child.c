/* gen_spin_child.c - a generals bot that, at its 3rd reply, starts a child that burns CPU, waits
 * until the child has burnt 600 ms of it (by its own clock) and plays on, the child burning on
 * until the end: a bot's CPU is its children's too. */
#include <time.h>
#include <unistd.h>

#include "gen_bot.h"

#define CHILD_MS 600

static long long own_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

static void misbehave(void)
{
    int done[2];
    char c;
    if (pipe(done) < 0)
        exit(1);
    if (fork() == 0) {
        volatile unsigned long spins = 0;
        while (own_cpu_ms() < CHILD_MS)
            spins++;
        if (write(done[1], "x", 1) != 1)
            _exit(1);
        for (;;)
            spins++;
    }
    if (read(done[0], &c, 1) != 1)
        exit(1);
    gen_reply("-1");
}

int main(void)
{
    return gen_play(misbehave);
}
