/* gen_cpus.c - a generals bot that passes and, at each reply, writes "REPLY:CPUS" to stderr,
 * CPUS being the Cpus_allowed_list of its /proc/self/status; at its 10th reply it answers
 * `hello` (invalid output), so that the replay's violation keeps that stderr. */
#include <string.h>

#include "gen_bot.h"

#define CPUS_REPLIES 10

static void report_cpus(int reply)
{
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
            fprintf(stderr, "%d:%s", reply, line + 18 + strspn(line + 18, " \t"));
    if (f)
        fclose(f);
    fflush(stderr);
}

int main(void)
{
    if (gen_begin() != 0)
        return 1;
    for (int reply = 1; gen_read_state(); reply++) {
        report_cpus(reply);
        gen_reply(reply == CPUS_REPLIES ? "hello" : "-1");
    }
    free(gen_board);
    return 0;
}
