/* mq_open: a POSIX message queue (/dev/mqueue), a channel to another jail or kernel memory
 * outside the memory limit -> FORBIDDEN_SYSCALL mq_open. */
#include "hostile.h"

int main(void)
{
    struct {
        long flags, maxmsg, msgsize, curmsgs, pad[4];
    } attr = {0, 10, 8192, 0, {0}};
    return forbidden_call_returned("mq_open(/hostile)",
                                   syscall(SYS_mq_open, "hostile", O_CREAT | O_RDWR, 0600, &attr));
}
