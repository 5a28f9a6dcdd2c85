/* userfaultfd: userfaultfd (the classic race-widening exploit tool) -> FORBIDDEN_SYSCALL userfaultfd. */

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("userfaultfd", syscall(SYS_userfaultfd, O_CLOEXEC));
}
