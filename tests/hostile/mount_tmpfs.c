/* mount_tmpfs: mount a filesystem over the jail -> FORBIDDEN_SYSCALL mount. */
#include <sys/mount.h>
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("mount tmpfs", mount("none", "/tmp", "tmpfs", 0, NULL));
}
