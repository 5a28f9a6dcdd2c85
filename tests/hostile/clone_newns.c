/* clone_newns: clone into a new mount namespace -> FORBIDDEN_SYSCALL clone. */
#include <sched.h>

#include "hostile.h"

int main(void)
{
    long pid = syscall(SYS_clone, CLONE_NEWNS | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0)
        _exit(0);
    return forbidden_call_returned("clone(CLONE_NEWNS)", pid);
}
