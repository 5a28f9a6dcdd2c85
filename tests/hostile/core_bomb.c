/* core_bomb: ask for unlimited core dumps and abort() -> RUNTIME_ERROR,
 * signal 6; run.sh checks no core file appeared (in --dir, its own cwd, /tmp). */
#include <sys/resource.h>

#include "hostile.h"

int main(void)
{
    struct rlimit unlimited = {RLIM_INFINITY, RLIM_INFINITY}, hard;
    if (setrlimit(RLIMIT_CORE, &unlimited) < 0 && getrlimit(RLIMIT_CORE, &hard) == 0) {
        hard.rlim_cur = hard.rlim_max;
        setrlimit(RLIMIT_CORE, &hard);
    }
    static char ballast[32 << 20];
    memset(ballast, 1, sizeof ballast); /* something big to dump */
    abort();
}
