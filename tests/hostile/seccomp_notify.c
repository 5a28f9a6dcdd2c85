/* seccomp_notify: install a seccomp filter of its own whose action is SECCOMP_RET_USER_NOTIF,
 * to get a listener fd and answer its own (or its children's) system calls, hiding them from
 * the judge's notifier -> FORBIDDEN_SYSCALL seccomp. */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>

#include "hostile.h"

int main(void)
{
    struct sock_filter insns[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF)};
    struct sock_fprog prog = {.len = 1, .filter = insns};
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    return forbidden_call_returned("seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER)", fd);
}
