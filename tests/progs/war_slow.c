/* war_slow.c - on turn 1 of each round, sleeps 1.2 s before a valid reply: past the
 * 1 s wall limit, skip-time (§5); every other turn, a valid reply at once. */
#include <time.h>

#include "war_bot.h"

static void play(const struct war_turn *t)
{
    if (t->first) {
        struct timespec ts = {1, 200000000};
        nanosleep(&ts, NULL);
    }
    war_valid_reply(t);
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
