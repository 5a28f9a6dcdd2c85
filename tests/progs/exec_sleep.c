/* exec_sleep.c - sleeps argv[1] milliseconds, then exits 0. */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    long ms = argc > 1 ? atol(argv[1]) : 1000;
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
    while (nanosleep(&t, &t) != 0)
        ;
    return 0;
}
