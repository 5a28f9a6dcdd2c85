/* setuid_root: setuid(0) -> FORBIDDEN_SYSCALL setuid. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("setuid(0)", syscall(SYS_setuid, 0));
}
