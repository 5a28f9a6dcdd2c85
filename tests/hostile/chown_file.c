/* chown_file: give a file to root -> FORBIDDEN_SYSCALL chown. */
#include "hostile.h"

int main(void)
{
    int fd = open("/tmp/mine", O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return 2;
    close(fd);
    return forbidden_call_returned("chown", syscall(SYS_chown, "/tmp/mine", 0, 0));
}
