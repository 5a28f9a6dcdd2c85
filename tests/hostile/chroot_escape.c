/* chroot_escape: the classic chroot("x"); chdir("../../..") breakout ->
 * FORBIDDEN_SYSCALL chroot. */
#include "hostile.h"

int main(void)
{
    mkdir("/tmp/x", 0755);
    return forbidden_call_returned("chroot", chroot("/tmp/x"));
}
