/* prlimit_init: the jail's init (judge code, pid 1) has the bot's uid, so prlimit64 on it
 * passes the kernel's check: a hard RLIMIT_CPU of 0 makes the kernel SIGKILL the init at its
 * next tick (woken by SIGCHLDs), the pid namespace with it, and the command's end goes
 * unrecorded -> FORBIDDEN_SYSCALL prlimit64 (only pid 0, the caller, is allowed). */
#include <sys/resource.h>

#include "hostile.h"

int main(void)
{
    struct rlimit none = {0, 0};
    long rc = prlimit(1, RLIMIT_CPU, &none, NULL);
    for (int i = 0; i < 100000; i++)
        kill(1, SIGCHLD);
    return forbidden_call_returned("prlimit64(1, RLIMIT_CPU, 0)", rc);
}
