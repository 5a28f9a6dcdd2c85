/* stdout_flood: write 1 GiB to stdout -> OUTPUT_LIMIT. */
#include "hostile.h"

int main(void)
{
    static char block[1 << 20];
    memset(block, 'o', sizeof block);
    for (int i = 0; i < 1024; i++)
        if (write(1, block, sizeof block) < 0)
            return 2;
    return 0;
}
