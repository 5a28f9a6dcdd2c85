/* threads_fill: tiny threads until the pids limit refuses one (EAGAIN), each parked; then
 * the program exits 0 with them all alive. The refusal is the limit working, not a fault, and
 * an exit 0 is no PROCESS_LIMIT -> OK, and no thread is left. */
#include <pthread.h>

#include "hostile.h"

static void *park(void *unused)
{
    (void)unused;
    sleep_forever();
    return NULL;
}

int main(void)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16384);
    int made = 0, rc = 0;
    while (made < 100000 && (rc = pthread_create(&(pthread_t){0}, &attr, park, NULL)) == 0)
        made++;
    if (rc != EAGAIN) {
        fprintf(stderr, "thread %d: %s, not EAGAIN\n", made + 1, strerror(rc));
        return 2;
    }
    if (made >= 16)
        escaped("more threads than the pids limit");
    fprintf(stderr, "%d threads, then EAGAIN\n", made);
    return hostile_result();
}
