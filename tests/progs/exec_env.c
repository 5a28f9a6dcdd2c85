/* exec_env.c - prints its working directory, then its whole environment, one per line. */
#include <stdio.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
    char cwd[4096];
    printf("cwd %s\n", getcwd(cwd, sizeof cwd) ? cwd : "?");
    for (char **e = environ; *e; e++)
        printf("%s\n", *e);
    return 0;
}
