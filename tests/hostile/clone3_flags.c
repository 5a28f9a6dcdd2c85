/* clone3_flags: clone3 passes its flags in memory, where seccomp cannot read them: a new user
 * namespace, a new time namespace, CLONE_INTO_CGROUP (out of the jail's cgroup), each must
 * fail (ENOSYS: glibc falls back to clone) -> OK. */
#include <linux/sched.h>
#include <sched.h>

#include "hostile.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static void try_clone3(const char *what, unsigned long long flags, int cgroup_fd)
{
    struct clone_args args = {.flags = flags, .exit_signal = SIGCHLD};
    if (cgroup_fd >= 0)
        args.cgroup = (unsigned long long)cgroup_fd;
    long pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0)
        _exit(0);
    if (pid > 0)
        waitpid((pid_t)pid, NULL, 0);
    must_fail(what, pid);
}

int main(void)
{
    try_clone3("clone3(CLONE_NEWUSER)", CLONE_NEWUSER, -1);
    try_clone3("clone3(CLONE_NEWTIME)", CLONE_NEWTIME, -1);
    try_clone3("clone3(CLONE_NEWPID | CLONE_NEWNS)", CLONE_NEWPID | CLONE_NEWNS, -1);
    try_clone3("clone3(CLONE_INTO_CGROUP /sys/fs/cgroup)", CLONE_INTO_CGROUP,
               open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    try_clone3("clone3()", 0, -1);
    return hostile_result();
}
