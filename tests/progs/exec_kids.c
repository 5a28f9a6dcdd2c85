/* exec_kids.c - argv[2] children (default 2) each burn argv[3] ms of CPU (default 300, by their
 * own clock). "reaped" (argv[1]): they exit and the parent waits for them; "left": each tells the
 * parent it is done through a pipe and burns on, and the parent exits without waiting. The parent
 * spends next to no CPU of its own either way: what the judge counts is its children's. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long own_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

static void burn(long long ms)
{
    volatile unsigned long spins = 0;
    while (own_cpu_ms() < ms)
        for (int i = 0; i < 10000; i++)
            spins++;
}

int main(int argc, char **argv)
{
    int left = argc > 1 && !strcmp(argv[1], "left");
    int kids = argc > 2 ? atoi(argv[2]) : 2;
    long long ms = argc > 3 ? atoll(argv[3]) : 300;
    int done[2];
    if (pipe(done) < 0)
        return 1;
    for (int i = 0; i < kids; i++)
        if (fork() == 0) {
            burn(ms);
            if (!left)
                _exit(0);
            if (write(done[1], "x", 1) != 1)
                _exit(1);
            for (;;)
                burn(own_cpu_ms() + 1000);
        }
    char c;
    for (int i = 0; i < kids; i++)
        if (left ? read(done[0], &c, 1) != 1 : wait(NULL) < 0)
            return 1;
    return 0;
}
