/* init_module: load a kernel module -> FORBIDDEN_SYSCALL init_module. */
#include "hostile.h"

int main(void)
{
    static char image[64];
    return forbidden_call_returned("init_module", syscall(SYS_init_module, image, sizeof image, ""));
}
