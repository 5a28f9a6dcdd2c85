/* mknod_dev: make a /dev/mem device node in /tmp -> FORBIDDEN_SYSCALL mknod. */
#include <sys/sysmacros.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("mknod", syscall(SYS_mknod, "/tmp/mem", S_IFCHR | 0666, makedev(1, 1)));
}
