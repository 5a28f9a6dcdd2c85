/* war_wrong_total.c - deploys one army more than its income: skip-deploy every turn (W7). */
#include "war_bot.h"

static void play(const struct war_turn *t)
{
    printf("%d,%d,%lld\n\n", t->r, t->c, t->income + 1);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
