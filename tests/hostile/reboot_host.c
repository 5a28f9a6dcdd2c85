/* reboot_host: reboot the machine -> FORBIDDEN_SYSCALL reboot. */
#include <linux/reboot.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("reboot", syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
                                                     LINUX_REBOOT_CMD_CAD_OFF, NULL));
}
