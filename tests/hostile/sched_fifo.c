/* sched_fifo: make itself SCHED_FIFO, a real-time task that would starve the judge (and every
 * other jail) on its CPU -> FORBIDDEN_SYSCALL sched_setscheduler. */
#include <sched.h>

#include "hostile.h"

int main(void)
{
    struct sched_param p = {.sched_priority = 1};
    return forbidden_call_returned("sched_setscheduler(SCHED_FIFO)", sched_setscheduler(0, SCHED_FIFO, &p));
}
