/* perf_event: perf_event_open (side channels, kernel bugs) -> FORBIDDEN_SYSCALL perf_event_open. */
#include <linux/perf_event.h>
#include "hostile.h"

int main(void)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    return forbidden_call_returned("perf_event_open", syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
}
