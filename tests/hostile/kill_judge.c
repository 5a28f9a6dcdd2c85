/* kill_judge: argv: the judge's host pid. The parent is outside the pid
 * namespace (getppid() == 0: never kill(0), that is our own group), and the
 * judge's pid means nothing inside: kill must fail. Exit 0 iff it did -> OK. */
#include "hostile.h"

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    pid_t judge = (pid_t)atoi(argv[1]);
    if (getppid() != 0) {
        fprintf(stderr, "ESCAPED: the parent is visible as pid %d\n", (int)getppid());
        return 1;
    }
    if (judge <= 1)
        return 2;
    must_fail("kill(judge, SIGKILL)", kill(judge, SIGKILL));
    must_fail("kill(judge, SIGSTOP)", kill(judge, SIGSTOP));
    return hostile_result();
}
