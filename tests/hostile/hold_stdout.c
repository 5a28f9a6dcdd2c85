/* hold_stdout: a setsid'd grandchild keeps the command's stdout and stderr open and sleeps;
 * the command writes its answer and exits 0 at once. The judge must not wait for the pipes'
 * end (nor the wall limit) -> OK, and nothing is left. */
#include "hostile.h"

int main(void)
{
    pid_t child = fork();
    if (child < 0)
        return 2;
    if (child == 0) {
        setsid();
        if (fork() == 0)
            sleep_forever();
        _exit(0);
    }
    waitpid(child, NULL, 0);
    printf("answer\n");
    return 0;
}
