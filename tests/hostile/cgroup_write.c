/* cgroup_write: raise its own limits or move itself out through cgroup files;
 * /sys is not in the jail, so every open fails. Exit 0 iff all did -> OK. */
#include "hostile.h"

int main(void)
{
    static const char *const files[] = {
        "/sys/fs/cgroup/cgroup.procs", "/sys/fs/cgroup/memory/cgroup.procs",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/pids/pids.max",
        "/sys/fs/cgroup/unified/cgroup.procs", "/sys/fs/cgroup/freezer/freezer.state",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        must_not_open(files[i], O_WRONLY);
    must_not_open("/sys", O_RDONLY | O_DIRECTORY);
    return hostile_result();
}
