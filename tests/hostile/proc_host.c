/* proc_host: the jail's /proc must not show the host: the kernel's command line and
 * configuration, load and pressure, disks, keys, timers, locks, interrupts, I/O and
 * memory maps, ACPI and SCSI devices (sandbox/mount_root.c masks them). Every file
 * below that exists reads empty (or cannot be opened), every directory is empty, and
 * a write to sysrq-trigger does nothing. Exit 0 iff so -> OK. */
#include <dirent.h>

#include "hostile.h"

static const char *const files[] = {
    "/proc/cmdline",     "/proc/config.gz",  "/proc/diskstats",   "/proc/loadavg",       "/proc/kcore",
    "/proc/keys",        "/proc/key-users",  "/proc/timer_list",  "/proc/timer_stats",   "/proc/sched_debug",
    "/proc/latency_stats", "/proc/sysrq-trigger", "/proc/locks",  "/proc/partitions",    "/proc/swaps",
    "/proc/interrupts",  "/proc/softirqs",   "/proc/iomem",       "/proc/ioports",       "/proc/vmallocinfo",
    "/proc/kallsyms",    "/proc/modules",    "/proc/zoneinfo",    "/proc/buddyinfo",     "/proc/pagetypeinfo",
    "/proc/slabinfo",    "/proc/consoles",   "/proc/devices",     "/proc/misc",          "/proc/mdstat",
    NULL};
static const char *const dirs[] = {"/proc/pressure", "/proc/acpi", "/proc/scsi", "/proc/asound", NULL};

static void file_reads_empty(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return; /* absent on this kernel, or not ours to read */
    char buf[256];
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    if (n > 0) {
        char what[600];
        snprintf(what, sizeof what, "%s shows the host: %.*s", path, (int)(n > 60 ? 60 : n), buf);
        escaped(what);
    }
}

static void dir_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            char what[600];
            snprintf(what, sizeof what, "%s shows the host: %s", path, e->d_name);
            escaped(what);
            break;
        }
    closedir(d);
}

int main(void)
{
    for (const char *const *f = files; *f; f++)
        file_reads_empty(*f);
    for (const char *const *d = dirs; *d; d++)
        dir_is_empty(*d);
    int fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) { /* writes to /dev/null at most; 'h' (help) would only log on the host */
        if (write(fd, "h", 1) < 0)
            fprintf(stderr, "refused: write sysrq-trigger: %s\n", strerror(errno));
        close(fd);
    }
    return hostile_result();
}
