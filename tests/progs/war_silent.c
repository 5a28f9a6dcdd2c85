/* war_silent.c - prints nothing and exits: skip-nooutput every turn (§8). */
#include "war_bot.h"

static void play(const struct war_turn *t)
{
    (void)t;
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
