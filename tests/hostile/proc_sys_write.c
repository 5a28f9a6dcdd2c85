/* proc_sys_write: change kernel settings through /proc (hostname, caches,
 * sysrq, core pattern); all read-only or absent. Exit 0 iff all failed -> OK. */
#include "hostile.h"

int main(void)
{
    static const char *const files[] = {
        "/proc/sys/kernel/hostname", "/proc/sys/vm/drop_caches", "/proc/sysrq-trigger",
        "/proc/sys/kernel/core_pattern", "/proc/sys/kernel/pid_max", "/proc/self/oom_score_adj",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        int fd = open(files[i], O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            fprintf(stderr, "refused: open %s: %s\n", files[i], strerror(errno));
            continue;
        }
        /* oom_score_adj may open, but lowering it needs CAP_SYS_RESOURCE */
        char what[128];
        snprintf(what, sizeof what, "write %s", files[i]);
        must_fail(what, write(fd, "-1000\n", 6));
        close(fd);
    }
    return hostile_result();
}
