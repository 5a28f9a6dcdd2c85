/* busy_loop: spin forever -> CPU_LIMIT. */
#include "hostile.h"

int main(void)
{
    burn_cpu_forever();
}
