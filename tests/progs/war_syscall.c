/* war_syscall.c - opens a socket (forbidden in the jail) before a valid reply: skip-syscall. */
#include <sys/socket.h>

#include "war_bot.h"

static void play(const struct war_turn *t)
{
    socket(AF_INET, SOCK_STREAM, 0);
    war_valid_reply(t);
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
