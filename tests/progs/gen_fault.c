/* gen_fault.c - a generals bot that writes through a null pointer at its 3rd reply (a crash by SIGSEGV). */
#include "gen_bot.h"

static void misbehave(void)
{
    *(volatile int *)NULL = 1;
}

int main(void)
{
    return gen_play(misbehave);
}
