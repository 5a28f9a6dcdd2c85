/* kill_all: kill(-1, SIGKILL) reaches only the jail's own pid namespace: its
 * children die, the program (pid 1 there) and everything outside survive.
 * Exit 0 iff the children were killed -> OK; run.sh checks a host canary
 * process and the judge survive. */
#include "hostile.h"

int main(void)
{
    pid_t children[3];
    for (int i = 0; i < 3; i++) {
        children[i] = fork();
        if (children[i] == 0)
            sleep_forever();
    }
    if (kill(-1, SIGKILL) < 0)
        fprintf(stderr, "kill(-1): %s\n", strerror(errno));
    for (int i = 0; i < 3; i++) {
        int status;
        if (waitpid(children[i], &status, 0) != children[i] || !WIFSIGNALED(status))
            return 2;
    }
    fprintf(stderr, "pid %d survived kill(-1, SIGKILL); its children did not\n", (int)getpid());
    return 0;
}
