/* ignore_stdin: never read stdin while the judge feeds a large file, then
 * exit 0 -> OK: the judge must not block on the full pipe. */
#include "hostile.h"

int main(void)
{
    usleep(300 * 1000);
    return 0;
}
