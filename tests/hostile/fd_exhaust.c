/* fd_exhaust: open /dev/null until the descriptor limit; exit 0 iff it ended
 * with EMFILE well before the system limit -> OK. */
#include "hostile.h"

int main(void)
{
    int count = 0;
    while (open("/dev/null", O_RDONLY) >= 0)
        count++;
    int why = errno;
    fprintf(stderr, "opened %d descriptors, then: %s\n", count, strerror(why));
    return why == EMFILE && count < 100000 ? 0 : 1;
}
