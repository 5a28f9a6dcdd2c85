/* war_crash.c - prints a valid reply, then dies of SIGABRT: skip-crash (D8: a signal
 * skips the turn even when the output was complete). */
#include <signal.h>

#include "war_bot.h"

static void play(const struct war_turn *t)
{
    war_valid_reply(t);
    abort();
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
