/* memfd_exec: write a program into an anonymous file and execveat it (code
 * that never touched the read-only /bot) -> FORBIDDEN_SYSCALL memfd_create. */
#include <sys/mman.h>

#include "hostile.h"

int main(void)
{
    int fd = memfd_create("payload", MFD_CLOEXEC);
    if (fd < 0)
        return forbidden_call_returned("memfd_create", fd);
    char *const argv[] = {"payload", NULL};
    return forbidden_call_returned("execveat", syscall(SYS_execveat, fd, "", argv, argv, AT_EMPTY_PATH));
}
