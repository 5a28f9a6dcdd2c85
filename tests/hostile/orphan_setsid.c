/* orphan_setsid: a double-forked, setsid'd grandchild outlives the jail's first
 * process and keeps appending to /data/marker every 50 ms; the first process
 * exits 0 -> OK, and the marker must stop growing once the run is over. */
#include <time.h>

#include "hostile.h"

static void write_markers_forever(void)
{
    int fd = open("/data/marker", O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        _exit(3);
    for (;;) {
        write(fd, "x", 1);
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    }
}

int main(void)
{
    if (start_orphan(write_markers_forever) < 0)
        return 2;
    usleep(300 * 1000); /* let the orphan write a few markers first */
    return 0;
}
