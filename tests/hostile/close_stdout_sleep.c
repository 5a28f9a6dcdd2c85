/* close_stdout_sleep: close stdout and stderr and sleep -> WALL_LIMIT. */
#include "hostile.h"

int main(void)
{
    close(1);
    close(2);
    sleep_forever();
}
