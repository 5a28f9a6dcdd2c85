/* madvise_poison: madvise is allowed (allocators advise their own pages), but two of its
 * advices act on the machine's memory: MADV_HWPOISON marks the physical page as failed
 * hardware, MADV_SOFT_OFFLINE takes it out of use. Both need CAP_SYS_ADMIN of the host:
 * refused (EPERM; EINVAL on a kernel without memory-failure handling) -> OK. */
#include <sys/mman.h>

#include "hostile.h"

#ifndef MADV_HWPOISON
#define MADV_HWPOISON 100
#endif
#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif

int main(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 2;
    p[0] = p[page] = 1;
    must_fail("madvise(MADV_HWPOISON)", madvise(p, (size_t)page, MADV_HWPOISON));
    must_fail("madvise(MADV_SOFT_OFFLINE)", madvise(p + page, (size_t)page, MADV_SOFT_OFFLINE));
    return hostile_result();
}
