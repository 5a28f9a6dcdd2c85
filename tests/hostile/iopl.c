/* iopl: raw I/O-port access -> FORBIDDEN_SYSCALL iopl. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("iopl(3)", syscall(SYS_iopl, 3));
}
