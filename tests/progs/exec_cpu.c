/* exec_cpu.c - burns argv[1] milliseconds of CPU, measured by itself with
 * getrusage(RUSAGE_SELF), and prints "cpu_ns N" with what it measured last,
 * just before exiting, and "main_ns N" with what it had when main began, so the
 * judge's figure can be compared with it: RUSAGE_SELF also holds the judge's
 * set-up in this process before execve, which is not the program's. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static long long self_cpu_ns(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ll +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ll;
}

int main(int argc, char **argv)
{
    long long at_main = self_cpu_ns();
    long long target = (argc > 1 ? atoll(argv[1]) : 300) * 1000000ll;
    volatile unsigned long spins = 0;
    while (self_cpu_ns() < target)
        for (int i = 0; i < 10000; i++)
            spins++;
    printf("cpu_ns %lld\nmain_ns %lld\n", self_cpu_ns(), at_main);
    return 0;
}
