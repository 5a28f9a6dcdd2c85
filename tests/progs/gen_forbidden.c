/* gen_forbidden.c - a generals bot that opens a TCP socket at its 3rd reply (forbidden system call). */
#include <sys/socket.h>
#include <unistd.h>

#include "gen_bot.h"

static void misbehave(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        /* Refused: the sandbox saw the call and is killing us; replying now would race it. */
        for (;;)
            pause();
    }
    close(fd);  /* no sandbox policy: play on */
    gen_reply("-1");
}

int main(void)
{
    return gen_play(misbehave);
}
