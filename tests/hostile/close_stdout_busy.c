/* close_stdout_busy: close stdout (EOF for the judge) and keep spinning ->
 * CPU_LIMIT: a closed stdout does not end the run. */
#include "hostile.h"

int main(void)
{
    close(1);
    burn_cpu_forever();
}
