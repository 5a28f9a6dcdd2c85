/* huge_mmap: map 64 GiB without touching it, then exit 0 -> OK: only touched
 * pages are charged, address space alone is not. */
#include <sys/mman.h>

#include "hostile.h"

int main(void)
{
    size_t size = 64ull << 30;
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "mmap 64 GiB: %s\n", strerror(errno));
        return 1;
    }
    p[0] = 1;
    p[size - 1] = 1;
    return 0;
}
