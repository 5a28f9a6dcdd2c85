/* nice_down: setpriority on the jail's process group, to push other processes' nice values
 * around (or its own up, over the judge) -> FORBIDDEN_SYSCALL setpriority. */
#include <sys/resource.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("setpriority(PRIO_PGRP, -20)", setpriority(PRIO_PGRP, 0, -20));
}
