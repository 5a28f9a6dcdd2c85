/* exec_cat.c - copies stdin to stdout; with an argument, also to that file. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    FILE *copy = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (argc > 1 && !copy)
        return 2;
    char buf[65536];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0) {
        if (write(1, buf, (size_t)n) != n)
            return 3;
        if (copy)
            fwrite(buf, 1, (size_t)n, copy);
    }
    if (copy)
        fclose(copy);
    return n < 0 ? 4 : 0;
}
