/* fanotify: watch every access to the mounts it shares with other jails (the system files,
 * a bot directory) -> FORBIDDEN_SYSCALL fanotify_init. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("fanotify_init", syscall(SYS_fanotify_init, 0, O_RDONLY));
}
