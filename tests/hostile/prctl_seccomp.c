/* prctl_seccomp: the same through prctl(PR_SET_SECCOMP), a filter that makes every later
 * call fail with an errno the judge never sees -> FORBIDDEN_SYSCALL prctl. */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

#include "hostile.h"

int main(void)
{
    struct sock_filter insns[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1)};
    struct sock_fprog prog = {.len = 1, .filter = insns};
    long rc = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
    return forbidden_call_returned("prctl(PR_SET_SECCOMP)", rc);
}
