/*
 * war_fill.c - fills its data directory (warlight.md §4.1: writes beyond
 * data_quota_kb fail). Its one setting is the quota in bytes.
 *
 * First process: writes /data/fill until a write fails; valid only if it
 * failed for lack of space (ENOSPC or EDQUOT) within the quota. Later ones:
 * the file must still be there, within the quota, and one more byte must not
 * fit. Whatever does not hold makes it print garbage (skip-output).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define WAR_FIXED_ARGS 1
#include "war_bot.h"

static bool fill(long long quota)
{
    static char chunk[4096];
    int fd = open("fill", O_WRONLY | O_CREAT | O_EXCL, 0644);
    long long total = 0;
    ssize_t n = 0;
    if (fd < 0)
        return false;
    while (total <= 4 * quota && (n = write(fd, chunk, sizeof chunk)) > 0)
        total += n;
    bool full = n < 0 && (errno == ENOSPC || errno == EDQUOT);
    close(fd);
    return full && total <= quota;
}

static bool still_full(long long quota)
{
    struct stat st;
    if (stat("fill", &st) < 0 || st.st_size <= 0 || st.st_size > quota)
        return false;
    int fd = open("more", O_WRONLY | O_CREAT, 0644);
    bool full = fd < 0 || (write(fd, "x", 1) < 0 && (errno == ENOSPC || errno == EDQUOT));
    if (fd >= 0)
        close(fd);
    unlink("more");
    return full;
}

static void play(const struct war_turn *t)
{
    long long quota = atoll(t->fixed[0]);
    bool ok = access("fill", F_OK) == 0 ? still_full(quota) : fill(quota);
    if (ok)
        war_valid_reply(t);
    else
        printf("the data directory is not capped\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
