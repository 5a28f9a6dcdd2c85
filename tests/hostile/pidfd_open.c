/* pidfd_open: a process descriptor (pidfd_getfd steals descriptors with it) ->
 * FORBIDDEN_SYSCALL pidfd_open. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("pidfd_open", syscall(SYS_pidfd_open, getpid(), 0));
}
