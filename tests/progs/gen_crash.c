/* gen_crash.c - a generals bot that exits with status 1 at its 3rd reply, without replying (crash). */
#include "gen_bot.h"

static void misbehave(void)
{
    exit(1);
}

int main(void)
{
    return gen_play(misbehave);
}
