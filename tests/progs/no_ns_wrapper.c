/*
 * no_ns_wrapper - run a command as in a Docker container started with no
 * extra flags, on a host where we are root: a private mount namespace with
 * /sys/fs/cgroup read-only, only Docker's default capabilities (no
 * CAP_SYS_ADMIN, no CAP_SYS_PTRACE), and a seccomp filter refusing what
 * Docker's default profile refuses to jails: namespaces (unshare, setns, clone
 * with CLONE_NEW* flags), clone3 (ENOSYS, so callers fall back to clone),
 * mounts and pivot_root. Test helper for tests/e2e/17_no_namespaces.sh.
 * Usage: no_ns_wrapper COMMAND [ARGS...]
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <sched.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const int docker_caps[] = {CAP_CHOWN,        CAP_DAC_OVERRIDE, CAP_FSETID,           CAP_FOWNER,
                                  CAP_MKNOD,        CAP_NET_RAW,      CAP_SETGID,           CAP_SETUID,
                                  CAP_SETFCAP,      CAP_SETPCAP,      CAP_NET_BIND_SERVICE, CAP_SYS_CHROOT,
                                  CAP_KILL,         CAP_AUDIT_WRITE};

static int die(const char *what)
{
    fprintf(stderr, "no_ns_wrapper: %s: %s\n", what, strerror(errno));
    return 125;
}

static int read_only_cgroups(void)
{
    struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};
    if (unshare(CLONE_NEWNS) < 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) return -1;
    return (int)syscall(SYS_mount_setattr, -1, "/sys/fs/cgroup", AT_RECURSIVE, &attr, sizeof attr);
}

static bool is_docker_cap(int cap)
{
    for (size_t i = 0; i < sizeof docker_caps / sizeof *docker_caps; i++)
        if (docker_caps[i] == cap) return true;
    return false;
}

static int keep_docker_caps(void)
{
    for (int cap = 0; cap <= CAP_LAST_CAP; cap++)
        if (!is_docker_cap(cap) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) return -1;
    struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
    struct __user_cap_data_struct d[2] = {{0, 0, 0}, {0, 0, 0}};
    for (size_t i = 0; i < sizeof docker_caps / sizeof *docker_caps; i++) {
        d[CAP_TO_INDEX(docker_caps[i])].effective |= CAP_TO_MASK(docker_caps[i]);
        d[CAP_TO_INDEX(docker_caps[i])].permitted |= CAP_TO_MASK(docker_caps[i]);
    }
    return (int)syscall(SYS_capset, &h, d);
}

static int refuse_namespaces(void)
{
    static const unsigned long ns_flags[] = {CLONE_NEWNS,  CLONE_NEWUSER, CLONE_NEWPID,   CLONE_NEWNET,
                                             CLONE_NEWIPC, CLONE_NEWUTS,  CLONE_NEWCGROUP};
    static const int refused[] = {SCMP_SYS(unshare),    SCMP_SYS(setns),      SCMP_SYS(mount),
                                  SCMP_SYS(umount2),    SCMP_SYS(pivot_root), SCMP_SYS(mount_setattr),
                                  SCMP_SYS(open_tree),  SCMP_SYS(move_mount), SCMP_SYS(fsopen)};
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = ctx ? 0 : -ENOMEM;
    for (size_t i = 0; rc == 0 && i < sizeof refused / sizeof *refused; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), refused[i], 0);
    for (size_t i = 0; rc == 0 && i < sizeof ns_flags / sizeof *ns_flags; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, ns_flags[i], ns_flags[i]));
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc == 0) rc = seccomp_load(ctx); /* CAP_SYS_ADMIN is gone: needs no_new_privs, as under Docker */
    if (ctx) seccomp_release(ctx);
    errno = -rc;
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: no_ns_wrapper COMMAND [ARGS...]\n");
        return 2;
    }
    if (read_only_cgroups() < 0) return die("read-only /sys/fs/cgroup");
    if (keep_docker_caps() < 0) return die("drop capabilities");
    if (refuse_namespaces() < 0) return die("seccomp");
    execvp(argv[1], argv + 1);
    return die(argv[1]);
}
