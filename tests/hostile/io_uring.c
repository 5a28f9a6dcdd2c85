/* io_uring: set up an io_uring (a second syscall path seccomp cannot see) -> FORBIDDEN_SYSCALL io_uring_setup. */
#include <linux/io_uring.h>
#include "hostile.h"

int main(void)
{
    struct io_uring_params params;
    memset(&params, 0, sizeof params);
    return forbidden_call_returned("io_uring_setup", syscall(SYS_io_uring_setup, 8, &params));
}
