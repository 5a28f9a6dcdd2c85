/*
 * war_inodes.c - fills its data directory with empty files: no byte of the
 * quota, but kernel memory (inodes, dentries) charged to its cgroup for the
 * rest of the match. Its one setting is the quota in bytes; the data directory
 * holds at most one inode per 4 KiB of it (at least 64).
 *
 * First process: creates files until one is refused; valid only if refused for
 * lack of space within that cap. Later ones: the files are still there and one
 * more is refused. Whatever does not hold makes it print garbage (skip-output).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define WAR_FIXED_ARGS 1
#include "war_bot.h"

#define TRIES 100000

static long long inode_cap(long long quota)
{
    return quota / 4096 > 64 ? quota / 4096 : 64;
}

static bool create(int i)
{
    char name[32];
    snprintf(name, sizeof name, "f%d", i);
    int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

static bool flood(long long quota)
{
    int made = 0;
    while (made < TRIES && create(made))
        made++;
    return made < TRIES && (errno == ENOSPC || errno == EDQUOT) && made <= inode_cap(quota);
}

static void play(const struct war_turn *t)
{
    long long quota = atoll(t->fixed[0]);
    bool ok = access("f0", F_OK) == 0 ? !create(TRIES) && errno == ENOSPC : flood(quota);
    if (ok)
        war_valid_reply(t);
    else
        printf("the data directory's inodes are not capped\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
