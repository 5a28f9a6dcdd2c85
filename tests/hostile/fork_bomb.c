/* fork_bomb: every process forks forever -> PROCESS_LIMIT (the pids limit holds). */
#include "hostile.h"

int main(void)
{
    for (;;)
        fork();
}
