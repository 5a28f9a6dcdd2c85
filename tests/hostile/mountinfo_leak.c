/* mountinfo_leak: the jail's mount table may show only the jail's own layout
 * (sandbox/mount_root.c): every mount point must be one of those below, never
 * a host directory like /work, /root or /sys; and /bot, a copy of the bot's
 * directory (sandbox/jail_stage.c), is the root "/" of its file system, not
 * the host path it was bound from. Exit 0 iff so -> OK. */
#include "hostile.h"

static int allowed(const char *mountpoint)
{
    static const char *const defaults[] = {
        "/", "/bot", "/data", "/tmp", "/proc", "/dev", "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin",
        "/sbin", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", NULL};
    for (const char *const *d = defaults; *d; d++)
        if (!strcmp(mountpoint, *d))
            return 1;
    return !strncmp(mountpoint, "/dev/", 5) || !strncmp(mountpoint, "/proc/", 6);
}

int main(void)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f) {
        fprintf(stderr, "no /proc/self/mountinfo: %s\n", strerror(errno));
        return 0; /* nothing to read, nothing leaked */
    }
    char line[4096];
    int mounts = 0;
    while (fgets(line, sizeof line, f)) {
        char root[2048], mountpoint[2048];
        if (sscanf(line, "%*s %*s %*s %2047s %2047s", root, mountpoint) != 2)
            continue;
        mounts++;
        if (!strcmp(mountpoint, "/bot") && strcmp(root, "/")) {
            fprintf(stderr, "ESCAPED: /bot names its host path: %s", line);
            hostile_escapes++;
        }
        if (!allowed(mountpoint)) {
            fprintf(stderr, "ESCAPED: host mount visible: %s", line);
            hostile_escapes++;
        }
    }
    fclose(f);
    fprintf(stderr, "%d mounts, all of the jail's own layout\n", mounts);
    return mounts > 0 ? hostile_result() : 2;
}
