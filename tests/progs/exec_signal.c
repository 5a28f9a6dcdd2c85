/* exec_signal.c - dies of a signal: argv[1] "segv" writes through a null
 * pointer (a real fault), a number raises that signal. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "segv")) {
        *(volatile int *)NULL = 1;
        return 0;
    }
    int sig = atoi(argv[1]);
    signal(sig, SIG_DFL);
    raise(sig);
    return 0;
}
