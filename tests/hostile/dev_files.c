/* dev_files: physical memory, the kernel log, terminals, disks: none of these
 * device files exist in the jail. Exit 0 iff every open failed -> OK. */
#include "hostile.h"

int main(void)
{
    static const char *const devices[] = {
        "/dev/mem", "/dev/kmem", "/dev/port", "/dev/kmsg", "/dev/tty", "/dev/console",
        "/dev/tty1", "/dev/sda", "/dev/vda", "/dev/nvme0n1", "/dev/fuse", "/dev/kvm",
    };
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        must_not_open(devices[i], O_RDWR);
    return hostile_result();
}
