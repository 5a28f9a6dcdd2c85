/* gen_garbage.c - a generals bot that answers `hello` at its 3rd reply (invalid output). */
#include "gen_bot.h"

static void misbehave(void)
{
    gen_reply("hello");
}

int main(void)
{
    return gen_play(misbehave);
}
