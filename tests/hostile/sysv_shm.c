/* sysv_shm: SysV shared memory, a channel between jails should the IPC
 * namespace be missing -> FORBIDDEN_SYSCALL shmget. */
#include <sys/ipc.h>
#include <sys/shm.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("shmget", shmget(0x4a55, 4096, IPC_CREAT | 0666));
}
