/* cmd_results.c - `judge results` (being written: the results stage). */
#include <stdio.h>

#include "judge/commands.h"

int cmd_results(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "judge results: not built yet\n");
    return EXIT_INTERNAL;
}
