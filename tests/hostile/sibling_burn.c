/* sibling_burn: clone(CLONE_VM | CLONE_PARENT) makes a process that shares the command's
 * memory but is the jail init's child, not the command's, and burns CPU while the command
 * waits in a pipe read: neither the command's clock nor its children count it, the cgroup
 * does -> CPU_LIMIT. */
#include <sched.h>

#include "hostile.h"

static char stack[64 << 10];

static int burn(void *unused)
{
    (void)unused;
    burn_cpu_forever();
    return 0;
}

int main(void)
{
    int p[2];
    if (pipe(p) < 0)
        return 2;
    if (clone(burn, stack + sizeof stack, CLONE_VM | CLONE_PARENT, NULL) < 0)
        return 3;
    char c;
    read(p[0], &c, 1); /* forever: the write end is its own */
    return 0;
}
