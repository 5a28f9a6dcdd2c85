/* waiter.c - a bomberman bot that answers WAIT to every state until OVER. */
#include "bomberman_bot.h"

int main(void)
{
    static struct state s;
    while (read_state(&s) == 0) say("WAIT");
    return 0;
}
