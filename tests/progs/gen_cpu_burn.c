/* gen_cpu_burn.c - a generals bot that busy-loops forever at its 3rd reply (CPU time). */
#include "gen_bot.h"

static void misbehave(void)
{
    volatile unsigned long spins = 0;
    for (;;)
        spins++;
}

int main(void)
{
    return gen_play(misbehave);
}
