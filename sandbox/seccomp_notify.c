/*
 * seccomp_notify.c - take one forbidden-call notification from a jail's
 * listener, describe the call (name resolved for its ABI), and answer EPERM.
 * The call is never let through: SECCOMP_USER_NOTIF_FLAG_CONTINUE is not used.
 */
#include "sandbox/seccomp_policy.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* x32 calls arrive with AUDIT_ARCH_X86_64 and this bit set in the number (and not the sign
 * bit: the kernel takes nr - X32_SYSCALL_BIT unsigned, so -1 is no x32 call, but -1). */
#define X32_SYSCALL_BIT 0x40000000
#define X32_SYSCALL_MASK 0xc0000000u

struct syscall_abi {
    const char *arch;     /* as reported in jail_syscall.arch */
    uint32_t scmp_arch;   /* libseccomp's token for resolving names */
    int nr;               /* the number within that ABI */
};

static struct syscall_abi classify(const struct seccomp_data *data)
{
    struct syscall_abi abi = {"unknown", 0, data->nr};
    if (data->arch == AUDIT_ARCH_I386) {
        abi.arch = "i386";
        abi.scmp_arch = SCMP_ARCH_X86;
    } else if (data->arch == AUDIT_ARCH_X86_64 &&
               ((uint32_t)data->nr & X32_SYSCALL_MASK) == X32_SYSCALL_BIT) {
        abi.arch = "x32";
        abi.scmp_arch = SCMP_ARCH_X32;
        abi.nr = data->nr & ~X32_SYSCALL_BIT;
    } else if (data->arch == AUDIT_ARCH_X86_64) {
        abi.arch = "x86_64";
        abi.scmp_arch = SCMP_ARCH_X86_64;
    }
    return abi;
}

static void resolve_name(const struct syscall_abi *abi, char *name, size_t size)
{
    char *resolved = abi->scmp_arch ? seccomp_syscall_resolve_num_arch(abi->scmp_arch, abi->nr) : NULL;
    if (resolved)
        snprintf(name, size, "%s", resolved);
    else
        snprintf(name, size, "syscall_%d", abi->nr);
    free(resolved);
}

/* The number reported is the one within its ABI: x32 getpid is 39, not 0x40000027. */
static void describe_call(const struct seccomp_data *data, struct jail_syscall *out)
{
    struct syscall_abi abi = classify(data);
    memset(out, 0, sizeof(*out));
    out->nr = abi.nr;
    snprintf(out->arch, sizeof(out->arch), "%s", abi.arch);
    resolve_name(&abi, out->name, sizeof(out->name));
    for (size_t i = 0; i < 6; i++)
        out->args[i] = data->args[i];
}

static int answer_eperm(int listener_fd, uint64_t id, struct jail_error *err)
{
    struct seccomp_notif_resp resp;
    memset(&resp, 0, sizeof(resp));
    resp.id = id;
    resp.error = -EPERM;
    if (ioctl(listener_fd, SECCOMP_IOCTL_NOTIF_SEND, &resp) == 0 || errno == ENOENT)
        return 0; /* ENOENT: the caller died (killed) before the answer */
    snprintf(err->msg, sizeof(err->msg), "seccomp: answering a notification: %s", strerror(errno));
    return -1;
}

int seccomp_notify_take(int listener_fd, struct jail_syscall *out, pid_t *pid, struct jail_error *err)
{
    struct seccomp_notif req;
    memset(&req, 0, sizeof(req)); /* the kernel rejects a non-zeroed buffer */
    if (ioctl(listener_fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
        if (errno == ENOENT || errno == EINTR)
            return 0;
        snprintf(err->msg, sizeof(err->msg), "seccomp: receiving a notification: %s", strerror(errno));
        return -1;
    }
    describe_call(&req.data, out);
    *pid = (pid_t)req.pid;
    return answer_eperm(listener_fd, req.id, err) < 0 ? -1 : 1;
}
