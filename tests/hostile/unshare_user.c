/* unshare_user: a new user namespace (root inside it, a large kernel attack surface) -> FORBIDDEN_SYSCALL unshare. */
#include <sched.h>
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER));
}
