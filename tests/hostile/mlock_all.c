/* mlock_all: pin every page it will ever map, so none can be reclaimed or swapped
 * -> FORBIDDEN_SYSCALL mlockall. */
#include <sys/mman.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("mlockall(MCL_CURRENT | MCL_FUTURE)", mlockall(MCL_CURRENT | MCL_FUTURE));
}
