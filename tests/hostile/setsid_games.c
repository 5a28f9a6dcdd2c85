/* setsid_games: children that leave the process group and session
 * (setsid, setpgid) and double-fork, then sleep; the first process exits 0 ->
 * OK, and run.sh checks no process of the jail is left. */
#include "hostile.h"

static void detach_and_sleep(int how)
{
    if (how == 0)
        setsid();
    else
        setpgid(0, 0);
    if (fork() == 0) {
        setsid();
        sleep_forever();
    }
    sleep_forever();
}

int main(void)
{
    for (int i = 0; i < 4; i++)
        if (fork() == 0)
            detach_and_sleep(i % 2);
    usleep(200 * 1000);
    return 0;
}
