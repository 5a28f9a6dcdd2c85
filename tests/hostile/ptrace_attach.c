/* ptrace_attach: attach to a child to read or rewrite it -> FORBIDDEN_SYSCALL ptrace. */
#include <sys/ptrace.h>

#include "hostile.h"

int main(void)
{
    pid_t child = fork();
    if (child == 0)
        sleep_forever();
    return forbidden_call_returned("ptrace(PTRACE_ATTACH)", ptrace(PTRACE_ATTACH, child, NULL, NULL));
}
