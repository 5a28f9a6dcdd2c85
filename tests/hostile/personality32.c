/* personality32: switch to PER_LINUX32 (a 32-bit address layout) ->
 * FORBIDDEN_SYSCALL personality; only the 0xffffffff query is allowed. */
#include <sys/personality.h>

#include "hostile.h"

int main(void)
{
    if (personality(0xffffffff) < 0)
        return 2; /* the query must work */
    return forbidden_call_returned("personality(PER_LINUX32)", personality(PER_LINUX32));
}
