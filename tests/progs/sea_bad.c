/*
 * sea_bad.c - a sea battle bot that breaks one rule, named by argv[1]; otherwise it plays like
 * examples/bots/seabattle/fixed.c (the §3 board, shots in order):
 *   corner      its board's line 2 touches line 1 at a corner (S3a): an invalid board
 *   slow_board  sleeps 3 s before its 10th board line
 *   short_stall its 4th board line is `#_#` (S2), then it sleeps 30 s without another line
 *   corner_stall its 2nd board line touches line 1 at a corner (S3a), then it sleeps 30 s
 *   off_board   its 3rd shot is `11 5`
 *   text        its 3rd shot is `hello`
 *   slow_shot   sleeps 3 s before its 3rd shot
 *   quit        exits (status 0) before its 3rd shot
 *   spec1/spec2 plays player 1/2 of the source's example game (seabattle.md §4, §7), its board
 *               and shots, and one more: `1 2` for player 2, then `0 0` (off the board) for
 *               player 1. It copies every byte it reads to stderr, so the stderr tail of the
 *               violation shows exactly what the judge wrote to player 1
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BAD_SHOT 3

static const char *board[10] = {
    "####______", "__________", "###_###___", "__________", "##_##_##__",
    "__________", "#_#_#_#___", "__________", "__________", "__________",
};
static const char *const spec_board[2][10] = {
    {"____###___", "_________#", "__#___#__#", "__#_______", "__#______#",
     "#_#__###__", "__________", "_#_##_#___", "_#________", "__________"},
    {"#________#", "___#______", "___#______", "#__#___#__", "#______#__",
     "#_#______#", "#_#______#", "_____##__#", "__________", "#________#"},
};
static const char *const spec_shots[2][6] = {
    {"2 9", "9 9", "10 1", "8 8", "0 0", NULL},
    {"1 1", "1 5", "1 2", NULL},
};

static void send(const char *line)
{
    printf("%s\n", line);
    fflush(stdout);
}

/* The scripted game. Every byte read goes to stderr: each result, whatever else is waiting
 * before the last shot, and everything after it until the judge closes stdin. */
static int play_spec(int p)
{
    char result[64];
    for (int y = 0; y < 10; y++)
        send(spec_board[p][y]);
    for (int n = 0; spec_shots[p][n + 1]; n++) {
        send(spec_shots[p][n]);
        if (!fgets(result, sizeof result, stdin))
            return 0;
        fputs(result, stderr);
    }
    int flags = fcntl(0, F_GETFL);
    fcntl(0, F_SETFL, flags | O_NONBLOCK);
    while (fgets(result, sizeof result, stdin))
        fputs(result, stderr);
    clearerr(stdin);
    fcntl(0, F_SETFL, flags);
    for (int n = 0; spec_shots[p][n]; n++)
        if (!spec_shots[p][n + 1])
            send(spec_shots[p][n]);
    while (fgets(result, sizeof result, stdin))
        fputs(result, stderr);
    return 0;
}

static int misbehave(const char *mode)
{
    if (!strcmp(mode, "off_board"))
        send("11 5");
    else if (!strcmp(mode, "text"))
        send("hello");
    else if (!strcmp(mode, "slow_shot"))
        sleep(3);
    else if (!strcmp(mode, "quit"))
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    char result[64], shot[16];
    if (!strncmp(mode, "spec", 4))
        return play_spec(mode[4] == '2');
    if (!strcmp(mode, "corner") || !strcmp(mode, "corner_stall"))
        board[1] = "____#_____";
    if (!strcmp(mode, "short_stall"))
        board[3] = "#_#";
    int stall_after = !strcmp(mode, "short_stall") ? 3 : !strcmp(mode, "corner_stall") ? 1 : -1;
    for (int y = 0; y < 10; y++) {
        if (stall_after >= 0 && y == stall_after + 1) {
            sleep(30);
            return 0;
        }
        if (y == 9 && !strcmp(mode, "slow_board"))
            sleep(3);
        send(board[y]);
    }
    for (int n = 1; n <= 100; n++) {
        if (n == BAD_SHOT && misbehave(mode))
            return 0;
        snprintf(shot, sizeof shot, "%d %d", (n - 1) % 10 + 1, (n - 1) / 10 + 1);
        send(shot);
        if (!fgets(result, sizeof result, stdin))
            return 0;
    }
    return 0;
}
