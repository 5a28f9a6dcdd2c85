/* setns_net: join another namespace through a /proc/PID/ns file ->
 * FORBIDDEN_SYSCALL setns. */
#include <sched.h>

#include "hostile.h"

int main(void)
{
    int fd = open("/proc/self/ns/net", O_RDONLY);
    return forbidden_call_returned("setns", syscall(SYS_setns, fd, 0));
}
