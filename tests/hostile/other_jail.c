/* other_jail: "hold" (run first, with its own --rw-dir) writes /data/secret and
 * stays a while; "steal HOSTDIR" (a second jail, at the same time) tries the
 * first one's rw dir by its host path, and through /proc/PID/root.
 * The thief exits 0 iff nothing was reachable -> OK; the holder exits 0 -> OK. */
#include <dirent.h>

#include "hostile.h"

static int hold(void)
{
    int fd = open("/data/secret", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, "holder's secret\n", 16) != 16)
        return 2;
    close(fd);
    sleep(2);
    return 0;
}

static int steal(const char *host_dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/secret", host_dir);
    must_not_open(path, O_RDONLY);
    must_not_open(host_dir, O_RDONLY | O_DIRECTORY);
    DIR *proc = opendir("/proc");
    for (struct dirent *d; proc && (d = readdir(proc));) {
        if (d->d_name[0] < '1' || d->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/root/data/secret", d->d_name);
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            escaped(path);
            close(fd);
        }
    }
    if (proc)
        closedir(proc);
    return hostile_result();
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "hold"))
        return hold();
    if (argc == 3 && !strcmp(argv[1], "steal"))
        return steal(argv[2]);
    return 2;
}
