/* cmd_tournament.c - `judge tournament` (being written: tournaments). */
#include <stdio.h>

#include "judge/commands.h"

int cmd_tournament(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "judge tournament: not built yet\n");
    return EXIT_INTERNAL;
}
