/* vfork_burn: the vfork child burns CPU while its parent, the command, sleeps in vfork and
 * has spent nothing: the meter counts the child (the cgroup) -> CPU_LIMIT. */
#include "hostile.h"

int main(void)
{
    if (vfork() == 0)
        burn_cpu_forever();
    return 0;
}
