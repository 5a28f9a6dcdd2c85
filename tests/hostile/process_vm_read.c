/* process_vm_read: read another process's memory directly ->
 * FORBIDDEN_SYSCALL process_vm_readv. */
#include <sys/uio.h>

#include "hostile.h"

int main(void)
{
    static char secret[] = "secret", copy[sizeof secret];
    pid_t child = fork();
    if (child == 0)
        sleep_forever();
    struct iovec local = {copy, sizeof copy}, remote = {secret, sizeof secret};
    return forbidden_call_returned("process_vm_readv", process_vm_readv(child, &local, 1, &remote, 1, 0));
}
