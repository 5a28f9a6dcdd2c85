/* setgid_root: setgid(0) -> FORBIDDEN_SYSCALL setgid. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("setgid(0)", syscall(SYS_setgid, 0));
}
