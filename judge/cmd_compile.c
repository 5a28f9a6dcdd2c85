/* cmd_compile.c - `judge compile` (being written: compiling submissions). */
#include <stdio.h>

#include "judge/commands.h"

int cmd_compile(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "judge compile: not built yet\n");
    return EXIT_INTERNAL;
}
