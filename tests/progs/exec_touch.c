/* exec_touch.c - allocates and touches argv[1] MiB, then exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 200;
    for (long i = 0; i < mib; i++) {
        char *p = malloc(1 << 20);
        if (!p)
            return 2;
        memset(p, 0x6b, 1 << 20);
    }
    printf("touched %ld MiB\n", mib);
    return 0;
}
