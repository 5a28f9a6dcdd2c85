/* exec_exit.c - prints its arguments and exits with the status argv[1] (default 0). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 0;
    printf("exit %d\n", status);
    return status;
}
