/* fill_tmp: write to /tmp until the jail's capped tmpfs is full; exit 0 iff
 * the write failed with ENOSPC -> OK (and the host's /tmp gets nothing). */
#include "hostile.h"

int main(void)
{
    static char block[64 << 10];
    memset(block, 'f', sizeof block);
    int fd = open("/tmp/hostile_fill_tmp", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "open /tmp/hostile_fill_tmp: %s\n", strerror(errno));
        return 2;
    }
    long long total = 0;
    for (;;) {
        ssize_t n = write(fd, block, sizeof block);
        if (n <= 0)
            break;
        total += n;
    }
    int why = errno;
    fprintf(stderr, "wrote %lld bytes, then: %s\n", total, strerror(why));
    return why == ENOSPC && total < (1ll << 30) ? 0 : 1;
}
