/*
 * bm_bad.c - a bomberman bot that breaks one rule of bomberman.md §7, named by argv[1], at
 * tick 3; before and after it answers WAIT:
 *   late       sleeps 3 s before its tick-3 reply (time: tick_wall_ms)
 *   crash      exits with status 3 instead of its tick-3 reply
 *   alloc      allocates and touches 100 MB (memory limit: 64 MB)
 *   forbidden  opens a TCP socket (forbidden system call)
 *   garbage    tick 3: "jump"; tick 4: a control byte; tick 5: 100 bytes (max_line_bytes 64);
 *              then plays on (invalid output costs one tick each)
 *   ahead      writes RIGHT RIGHT BOMB LEFT LEFT DOWN at once at tick 0 (the walk of
 *              bomberman.md §4), nothing for the next five states, then WAIT
 *   ahead_exit writes WAIT three times at tick 0 and exits: its crash counts at tick 3 (D20)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BAD_TICK 3

static void say(const char *text)
{
    fputs(text, stdout);
    fflush(stdout);
}

/* Reads one state; returns its tick, or -1 at OVER or the end of input. */
static int read_state(void)
{
    char line[256];
    int tick = -1;
    while (fgets(line, sizeof line, stdin)) {
        if (!strcmp(line, "OVER\n")) return -1;
        sscanf(line, "TICK %d", &tick);
        if (!strcmp(line, "END\n")) return tick;
    }
    return -1;
}

static void alloc_100mb(void)
{
    size_t total = (size_t)100 << 20;
    volatile char *p = malloc(total);
    if (!p) abort();
    for (size_t at = 0; at < total; at += 4096) p[at] = 1;
}

static void misbehave(const char *mode, int tick)
{
    if (!strcmp(mode, "late")) {
        sleep(3);
        say("WAIT\n");
    } else if (!strcmp(mode, "crash")) {
        exit(3);
    } else if (!strcmp(mode, "alloc")) {
        alloc_100mb();
        say("WAIT\n");
    } else if (!strcmp(mode, "forbidden")) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            for (;;) pause(); /* refused: the sandbox is killing us */
        close(fd);
        say("WAIT\n");
    } else if (!strcmp(mode, "garbage")) {
        (void)tick;
        say("jump\n");
    }
}

static void garbage_after(int tick)
{
    if (tick == BAD_TICK + 1)
        say("WA\001IT\n");
    else if (tick == BAD_TICK + 2)
        say("WAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAITWAIT"
            "WAIT\n");
    else
        say("WAIT\n");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int tick;
    while ((tick = read_state()) >= 0) {
        if (!strcmp(mode, "ahead") && tick == 0)
            say("RIGHT\nRIGHT\nBOMB\nLEFT\nLEFT\nDOWN\n");
        else if (!strcmp(mode, "ahead") && tick <= 5)
            continue;
        else if (!strcmp(mode, "ahead_exit") && tick == 0) {
            say("WAIT\nWAIT\nWAIT\n");
            return 0;
        } else if (tick == BAD_TICK)
            misbehave(mode, tick);
        else if (!strcmp(mode, "garbage"))
            garbage_after(tick);
        else
            say("WAIT\n");
    }
    return 0;
}
