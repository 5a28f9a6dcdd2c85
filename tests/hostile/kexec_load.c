/* kexec_load: load a new kernel -> FORBIDDEN_SYSCALL kexec_load. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("kexec_load", syscall(SYS_kexec_load, 0, 0, NULL, 0));
}
