/* int80: getpid through int 0x80, the i386 ABI (other numbers, other arch) -> FORBIDDEN_SYSCALL getpid, arch i386. */

#include "hostile.h"

int main(void)
{
    long rc = 20; /* __NR_getpid on i386 */
    __asm__ volatile("int $0x80" : "+a"(rc) : : "memory");
    if (rc < 0) {
        errno = (int)-rc;
        rc = -1;
    }
    return forbidden_call_returned("int 0x80 getpid", rc);
}
