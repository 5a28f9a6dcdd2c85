/* memory_bomb: allocate and touch 1 MiB after 1 MiB -> MEMORY_LIMIT. */
#include "hostile.h"

int main(void)
{
    for (;;) {
        char *p = malloc(1 << 20);
        if (!p)
            return 2; /* the limit must kill us before malloc fails */
        memset(p, 0x5a, 1 << 20);
    }
}
