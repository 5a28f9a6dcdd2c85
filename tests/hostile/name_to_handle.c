/* name_to_handle: get a file handle, the half of open_by_handle_at that names an inode
 * outside the jail's mounts -> FORBIDDEN_SYSCALL name_to_handle_at. */
#include "hostile.h"

int main(void)
{
    struct {
        unsigned int bytes;
        int type;
        unsigned char f[128];
    } h = {.bytes = 128};
    int mount_id;
    return forbidden_call_returned("name_to_handle_at(/etc/passwd)",
                                   syscall(SYS_name_to_handle_at, AT_FDCWD, "/etc/passwd", &h, &mount_id, 0));
}
