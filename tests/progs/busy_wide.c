/* busy_wide.c - widens its CPU affinity to every CPU it may use, then burns CPU on one
 * thread per CPU until killed (the CPU limit of a judge started under taskset). */
#include <pthread.h>
#include <sched.h>
#include <string.h>

static void *spin(void *unused)
{
    volatile unsigned long x = 0;
    (void)unused;
    for (;;) x++;
    return NULL;
}

int main(void)
{
    cpu_set_t cpus;
    memset(&cpus, 0xff, sizeof cpus);
    sched_setaffinity(0, sizeof cpus, &cpus);
    sched_getaffinity(0, sizeof cpus, &cpus);
    pthread_t t;
    for (int i = 1; i < CPU_COUNT(&cpus); i++) pthread_create(&t, NULL, spin, NULL);
    spin(NULL);
}
