/* kill_judge: argv: the judge's host pid. The parent is the jail's init
 * (pid 1); the judge, outside the pid namespace, is invisible (the init's
 * parent is pid 0: never kill(0), that is our own group), and the judge's pid
 * means nothing inside: kill must fail. The init ignores every signal sent
 * from inside: killing or stopping it must leave this program running and
 * its exit reported. Exit 0 iff all of that held -> OK. */
#include <signal.h>

#include "hostile.h"

static long parent_of_init(void)
{
    FILE *f = fopen("/proc/1/stat", "re");
    char buf[512];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')');
    char state;
    long ppid = -1;
    if (!paren || sscanf(paren + 1, " %c %ld", &state, &ppid) != 2)
        return -1;
    return ppid;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    pid_t judge = (pid_t)atoi(argv[1]);
    if (getppid() != 1) {
        fprintf(stderr, "ESCAPED: the parent is visible as pid %d, not the jail's init\n", (int)getppid());
        return 1;
    }
    if (parent_of_init() != 0) {
        fprintf(stderr, "ESCAPED: the init's parent is visible as pid %ld\n", parent_of_init());
        return 1;
    }
    if (judge <= 1)
        return 2;
    must_fail("kill(judge, SIGKILL)", kill(judge, SIGKILL));
    must_fail("kill(judge, SIGSTOP)", kill(judge, SIGSTOP));
    kill(1, SIGSTOP); /* delivered to nobody: the init has no handler */
    kill(1, SIGKILL);
    usleep(100000);   /* had the init died, the kernel would kill us now */
    return hostile_result();
}
