/* hold_stdout: a setsid'd grandchild keeps the command's stdout and stderr open and sleeps;
 * the command writes its answer and exits 0 at once. The judge must not wait for the pipes'
 * end (nor the wall limit) -> OK, and nothing is left. */
#include "hostile.h"

int main(void)
{
    if (start_orphan(sleep_forever) < 0)
        return 2;
    printf("answer\n");
    return 0;
}
