/* open_by_handle: open a file by handle, bypassing paths (the "shocker" Docker
 * escape) -> FORBIDDEN_SYSCALL open_by_handle_at. */
#include "hostile.h"

int main(void)
{
    struct {
        struct file_handle h;
        unsigned char bytes[8];
    } handle = {.h = {.handle_bytes = 8, .handle_type = 1}, .bytes = {2, 0, 0, 0, 0, 0, 0, 0}};
    return forbidden_call_returned("open_by_handle_at",
                                   syscall(SYS_open_by_handle_at, AT_FDCWD, &handle.h, O_RDONLY));
}
