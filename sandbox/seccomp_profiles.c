/*
 * seccomp_profiles.c - the built-in run profiles as allow-lists.
 *
 * Anything not listed is reported to the judge and kills the jail, so a list
 * holds only what the programs of that profile were seen to need (strace -f)
 * plus their harmless siblings. Deliberately absent from every list: sockets
 * (a unix socket fails with EACCES, as the probes of glibc's NSS expect),
 * ptrace and process_vm_*, mount/namespace/chroot calls, bpf, perf_event_open,
 * io_uring, keyrings, userfaultfd, memfd_create, execveat, module/kexec/reboot,
 * swap/acct/quota, uid/gid and capability changes, iopl/ioperm/modify_ldt,
 * syslog, file handles, fanotify, mknod, the chown family, pidfd_*,
 * process_madvise, NUMA policy, mlock (pins memory), clock and host-name
 * setters, and SysV IPC (shmget/msgget/semget: a bot has no use for it and,
 * should the IPC namespace be degraded, it would be a channel between jails).
 */
#include "sandbox/seccomp_profiles.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <asm/prctl.h>

/* arch_prctl(ARCH_CET_STATUS): glibc built with --enable-cet asks it at start-up. */
#define ARCH_CET_STATUS_QUERY 0x3001
/* personality(0xffffffff) only reads the current persona. */
#define PERSONALITY_QUERY 0xffffffffu
#define NEW_NAMESPACE_FLAGS \
    (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

#define COUNT_VALUES(...) ((unsigned)(sizeof((uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t)))
#define ALLOW(name) {.syscall = (name)}
#define ALLOW_IF_ARG(name, index, ...)                                                        \
    {.syscall = (name), .kind = RULE_ARG_ONE_OF, .arg = (index), .values = {__VA_ARGS__},     \
     .nvalues = COUNT_VALUES(__VA_ARGS__)}
#define ALLOW_IF_BITS_CLEAR(name, index, bits) \
    {.syscall = (name), .kind = RULE_ARG_BITS_CLEAR, .arg = (index), .values = {(bits)}, .nvalues = 1}
#define REFUSE(name, err) {.syscall = (name), .refuse_errno = (err)}
#define REFUSE_IF_ARG(name, index, value, err)                                                 \
    {.syscall = (name), .kind = RULE_ARG_ONE_OF, .arg = (index), .values = {(value)}, .nvalues = 1, \
     .refuse_errno = (err)}
#define LIST(rules) {(rules), sizeof(rules) / sizeof((rules)[0])}

static const struct seccomp_rule default_rules[] = {
    /* Memory: allocators, loaders and JITs map, protect and advise their own
     * pages; all of it is charged to the jail's memory limit. */
    ALLOW("brk"), ALLOW("mmap"), ALLOW("munmap"), ALLOW("mremap"), ALLOW("mprotect"),
    ALLOW("madvise"), ALLOW("mincore"), ALLOW("msync"),

    /* Files: the jail's mount namespace shows only /bot, /data, /tmp and the
     * read-only system; size is capped by RLIMIT_FSIZE and the tmpfs sizes. */
    ALLOW("read"), ALLOW("write"), ALLOW("readv"), ALLOW("writev"), ALLOW("pread64"),
    ALLOW("pwrite64"), ALLOW("preadv"), ALLOW("pwritev"), ALLOW("preadv2"), ALLOW("pwritev2"),
    ALLOW("lseek"), ALLOW("open"), ALLOW("openat"), ALLOW("creat"), ALLOW("close"),
    ALLOW("close_range"), ALLOW("fstat"), ALLOW("stat"), ALLOW("lstat"), ALLOW("newfstatat"),
    ALLOW("statx"), ALLOW("access"), ALLOW("faccessat"), ALLOW("faccessat2"), ALLOW("readlink"),
    ALLOW("readlinkat"), ALLOW("getdents"), ALLOW("getdents64"), ALLOW("getcwd"), ALLOW("chdir"),
    ALLOW("fchdir"), ALLOW("dup"), ALLOW("dup2"), ALLOW("dup3"), ALLOW("pipe"), ALLOW("pipe2"),
    ALLOW("mkdir"), ALLOW("mkdirat"), ALLOW("rmdir"), ALLOW("unlink"), ALLOW("unlinkat"),
    ALLOW("rename"), ALLOW("renameat"), ALLOW("renameat2"), ALLOW("link"), ALLOW("linkat"),
    ALLOW("symlink"), ALLOW("symlinkat"), ALLOW("truncate"), ALLOW("ftruncate"), ALLOW("fsync"),
    ALLOW("fdatasync"), ALLOW("fchmod"), ALLOW("chmod"), ALLOW("fchmodat"), ALLOW("umask"),
    ALLOW("utimensat"), ALLOW("fadvise64"), ALLOW("sendfile"),
    ALLOW("copy_file_range"), ALLOW("statfs"), ALLOW("fstatfs"),
    /* Extended attributes: `ls -l`, cp and SELinux/ACL-aware libraries read
     * them on every file; the jail answers as a file system without them. */
    REFUSE("getxattr", ENODATA), REFUSE("lgetxattr", ENODATA), REFUSE("fgetxattr", ENODATA),
    REFUSE("listxattr", ENOTSUP), REFUSE("llistxattr", ENOTSUP), REFUSE("flistxattr", ENOTSUP),

    /* glibc's getpwuid() and getgrgid() ask nscd over an AF_UNIX socket first
     * (CPython's site.py, the JVM's user.name, `id`, `ls -l`); failing socket()
     * makes glibc read the jail's own /etc/passwd instead. A unix socket would
     * otherwise reach the abstract sockets of the network namespace all jails
     * share: it fails with an errno, and any other family stays reported. */
    REFUSE_IF_ARG("socket", 0, AF_UNIX, EACCES),

    /* No channel between jails through the inodes they share (/usr, the
     * loader files, /dev, a bot directory two matches bind): a lock, a lease
     * or an inotify watch on one lets a jail see another's use of it. Locks
     * fail as on a file system without locking (ENOLCK), inotify as on a
     * kernel without it (ENOSYS), dnotify (F_NOTIFY) likewise (EINVAL). */
    REFUSE("flock", ENOLCK),
    REFUSE("inotify_init", ENOSYS), REFUSE("inotify_init1", ENOSYS),
    REFUSE("inotify_add_watch", ENOSYS), REFUSE("inotify_rm_watch", ENOSYS),
    {.syscall = "fcntl", .kind = RULE_ARG_ONE_OF, .arg = 1,
     .values = {F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE},
     .nvalues = 8, .refuse_errno = ENOLCK},
    REFUSE_IF_ARG("fcntl", 1, F_NOTIFY, EINVAL),

    /* fcntl: descriptor flags and reading a pipe's size (locks: above).
     * Reported: F_SETOWN/F_SETSIG (aim SIGIO elsewhere), F_SETPIPE_SZ (up to
     * 1 MiB of kernel memory per pipe, outside the jail's memory limit on
     * cgroup v1). */
    ALLOW_IF_ARG("fcntl", 1, F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETPIPE_SZ),

    /* ioctl: isatty, terminal size, bytes readable, close-on-exec. Anything
     * else (TIOCSTI pushes input into a terminal, TIOCSETD...) is reported. */
    ALLOW_IF_ARG("ioctl", 1, TCGETS, TIOCGWINSZ, FIONREAD, FIOCLEX, FIONCLEX),

    /* Processes and threads stay inside the jail's pid namespace, cgroup and
     * pids limit. clone may not create namespaces. clone3 passes its flags in
     * memory, which seccomp cannot read: it fails with ENOSYS (not a
     * violation) and glibc falls back to clone, as under Docker's profile. */
    ALLOW_IF_BITS_CLEAR("clone", 0, NEW_NAMESPACE_FLAGS),
    REFUSE("clone3", ENOSYS),
    ALLOW("fork"), ALLOW("vfork"), ALLOW("execve"), ALLOW("exit"), ALLOW("exit_group"),
    ALLOW("wait4"), ALLOW("waitid"), ALLOW("kill"), ALLOW("tgkill"), ALLOW("tkill"),
    ALLOW("getpid"), ALLOW("getppid"), ALLOW("gettid"), ALLOW("getpgid"), ALLOW("setpgid"),
    ALLOW("getpgrp"), ALLOW("setsid"), ALLOW("getsid"), ALLOW("getuid"), ALLOW("geteuid"),
    ALLOW("getgid"), ALLOW("getegid"), ALLOW("getresuid"), ALLOW("getresgid"), ALLOW("getgroups"),
    ALLOW("set_tid_address"), ALLOW("set_robust_list"), ALLOW("get_robust_list"), ALLOW("rseq"),
    ALLOW("futex"), ALLOW("futex_waitv"), ALLOW("membarrier"), ALLOW("sched_yield"),
    ALLOW("sched_getaffinity"), ALLOW("sched_setaffinity"), ALLOW("sched_getparam"),
    ALLOW("sched_getscheduler"), ALLOW("sched_get_priority_max"), ALLOW("sched_get_priority_min"),
    ALLOW("getpriority"), ALLOW("getcpu"),

    /* prctl: thread names (JVM, gcc's LTO workers), reads of the dumpable flag,
     * seccomp mode and bounding set (libcap probes), and the parent-death
     * signal runtimes set on their helpers. Everything that changes privilege,
     * memory layout, ptrace permission or dumpability is reported. */
    ALLOW_IF_ARG("prctl", 0, PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE, PR_SET_PDEATHSIG,
                 PR_GET_PDEATHSIG, PR_GET_SECCOMP, PR_GET_NO_NEW_PRIVS, PR_CAPBSET_READ),

    /* arch_prctl: the TLS registers glibc and libstdc++ set up, and the CET
     * status query; not ARCH_SET_CPUID or the vDSO mappers. */
    ALLOW_IF_ARG("arch_prctl", 0, ARCH_SET_FS, ARCH_GET_FS, ARCH_SET_GS, ARCH_GET_GS,
                 ARCH_CET_STATUS_QUERY),

    /* personality: only the query; PER_LINUX32 and friends change the ABI. */
    ALLOW_IF_ARG("personality", 0, PERSONALITY_QUERY),

    /* Signals and timers act on the jail's own processes. restart_syscall is
     * how the kernel resumes a sleep interrupted by a signal. */
    ALLOW("rt_sigaction"), ALLOW("rt_sigprocmask"), ALLOW("rt_sigreturn"), ALLOW("rt_sigpending"),
    ALLOW("rt_sigsuspend"), ALLOW("rt_sigtimedwait"), ALLOW("sigaltstack"), ALLOW("pause"),
    ALLOW("restart_syscall"), ALLOW("alarm"), ALLOW("setitimer"), ALLOW("getitimer"),
    ALLOW("timer_create"), ALLOW("timer_settime"), ALLOW("timer_gettime"), ALLOW("timer_delete"),
    ALLOW("timer_getoverrun"),

    /* Time, read only. */
    ALLOW("nanosleep"), ALLOW("clock_nanosleep"), ALLOW("clock_gettime"), ALLOW("clock_getres"),
    ALLOW("gettimeofday"), ALLOW("time"), ALLOW("times"),

    /* Information and limits: lowering or reading a limit is harmless and
     * raising a hard limit needs a privilege the jail does not have. prlimit64
     * only on the caller itself (pid 0, as glibc's getrlimit and setrlimit
     * call it): the jail's init has the bot's uid, and a hard RLIMIT_CPU of 0
     * set on it by another pid made the kernel kill it, and the jail with it. */
    ALLOW("uname"), ALLOW("sysinfo"), ALLOW("getrusage"), ALLOW("getrlimit"), ALLOW("setrlimit"),
    ALLOW_IF_ARG("prlimit64", 0, 0), ALLOW("getrandom"),

    /* Waiting on descriptors the process already has. */
    ALLOW("poll"), ALLOW("ppoll"), ALLOW("select"), ALLOW("pselect6"), ALLOW("epoll_create"),
    ALLOW("epoll_create1"), ALLOW("epoll_ctl"), ALLOW("epoll_wait"), ALLOW("epoll_pwait"),
    ALLOW("epoll_pwait2"), ALLOW("eventfd"), ALLOW("eventfd2"), ALLOW("timerfd_create"),
    ALLOW("timerfd_settime"), ALLOW("timerfd_gettime"),
};

static const struct seccomp_rule compiler_rules[] = {
    /* ld.gold (and mold) preallocate their output; RLIMIT_FSIZE and the tmpfs
     * size bound it like any write. */
    ALLOW("fallocate"),
};

static const struct seccomp_rule jvm_rules[] = {
    /* Besides the default's refusal of AF_UNIX, AF_INET and AF_INET6: the
     * JVM's libnet probes both families when it loads (IPv4_supported,
     * IPv6_supported), and javac loads it for its jrt: file system. The jail
     * has no network: failing the probe makes the JVM start as on a host
     * without those families. Calls of any other family, and every other
     * network call, stay reported. */
    {.syscall = "socket", .kind = RULE_ARG_ONE_OF, .arg = 0, .values = {AF_INET, AF_INET6}, .nvalues = 2,
     .refuse_errno = EAFNOSUPPORT},
    /* NIO (java.nio.file, which javac uses for every file) makes one unix
     * socket pair at start-up and keeps an end as the descriptor it dup2()s
     * over a channel to close it asynchronously. An unnamed pair connects
     * only the process to itself, like a pipe. */
    ALLOW_IF_ARG("socketpair", 0, AF_UNIX),
};

static const struct seccomp_builtin builtins[] = {
    {"default", {LIST(default_rules)}},
    /* Once default plus the AF_UNIX refusal default now has; kept so that
     * files naming it still run. */
    {"interpreter", {LIST(default_rules)}},
    {"compiler", {LIST(default_rules), LIST(compiler_rules)}},
    {"jvm", {LIST(default_rules), LIST(jvm_rules)}},
};

size_t seccomp_builtin_count(void)
{
    return sizeof(builtins) / sizeof(builtins[0]);
}

const struct seccomp_builtin *seccomp_builtin_at(size_t index)
{
    return index < seccomp_builtin_count() ? &builtins[index] : NULL;
}
