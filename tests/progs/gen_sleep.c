/* gen_sleep.c - a generals bot that sleeps 100 s at its 3rd reply (wall-clock time). */
#include <unistd.h>

#include "gen_bot.h"

static void misbehave(void)
{
    sleep(100);
    gen_reply("-1");
}

int main(void)
{
    return gen_play(misbehave);
}
