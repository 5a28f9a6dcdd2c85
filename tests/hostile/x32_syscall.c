/* x32_syscall: getpid through the x32 ABI (bit 30 in the number), which a filter written for x86_64 numbers could miss -> FORBIDDEN_SYSCALL getpid, arch x32. */

#include "hostile.h"

int main(void)
{
    long rc = syscall(0x40000000 | SYS_getpid);
    return forbidden_call_returned("x32 getpid", rc);
}
