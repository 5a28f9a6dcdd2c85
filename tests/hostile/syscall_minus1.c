/* syscall_minus1: system call number -1 (all bits set, the x32 bit among them), which no ABI
 * runs: reported as what it is, call -1 of x86_64, not as an x32 call numbered -1073741825
 * -> FORBIDDEN_SYSCALL syscall_-1. */
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("syscall(-1)", syscall(-1L, 0, 0, 0));
}
