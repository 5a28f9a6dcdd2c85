/* inode_flood: empty files cost no byte of a tmpfs's size but about 1 KiB of kernel
 * memory each, kept after the jail ends where the directory outlives it (a data
 * directory) and charged to its cgroup. The jail's /tmp (16 MiB by default) caps
 * them (nr_inodes: one per 4 KiB page). Creating files in /tmp must stop with ENOSPC
 * within 4096 + a margin. Exit 0 iff so -> OK. */
#include "hostile.h"

#define CAP   (16 * 1024 * 1024 / 4096)
#define TRIES 200000

int main(void)
{
    char name[64];
    int made = 0;
    for (; made < TRIES; made++) {
        snprintf(name, sizeof name, "/tmp/f%d", made);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
            break;
        close(fd);
    }
    int why = errno;
    fprintf(stderr, "%d empty files made in /tmp, then: %s\n", made, made < TRIES ? strerror(why) : "no refusal");
    if (made >= TRIES || why != ENOSPC || made > CAP)
        escaped("the jail's /tmp holds more inodes than one per 4 KiB of its size");
    return hostile_result();
}
