/* swapon: add swap (to escape the memory limit) -> FORBIDDEN_SYSCALL swapon. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("swapon", syscall(SYS_swapon, "/tmp/swap", 0));
}
