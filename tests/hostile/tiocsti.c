/* tiocsti: push characters into the input of the terminal behind fd 0
 * (TIOCSTI) -> FORBIDDEN_SYSCALL ioctl. */
#include <sys/ioctl.h>

#include "hostile.h"

int main(void)
{
    char c = 0x03;
    return forbidden_call_returned("ioctl(0, TIOCSTI)", ioctl(0, TIOCSTI, &c));
}
