/* execveat_bot: execveat, the exec that takes a descriptor -> FORBIDDEN_SYSCALL execveat. */
#include "hostile.h"

int main(void)
{
    char *const argv[] = {"busy_loop", NULL};
    return forbidden_call_returned("execveat",
                                   syscall(SYS_execveat, AT_FDCWD, "/bot/busy_loop", argv, argv, 0));
}
