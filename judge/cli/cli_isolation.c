/* cli_isolation.c - isolation as every command that runs jails says it (judge/cli/cli_isolation.h). */
#include "judge/cli/cli_isolation.h"

#include <stdio.h>
#include <string.h>

#include "judge/cli/commands.h"

#define JAIL_PREFIX "jail: "

/* The jail's refusal without its "jail: " (the line is about this machine, not a failure of
 * the jail), then the way out that needs no fix. */
static void print_refusal(const char *command, const char *refusal, const char *file)
{
    if (!strncmp(refusal, JAIL_PREFIX, strlen(JAIL_PREFIX))) refusal += strlen(JAIL_PREFIX);
    fprintf(stderr, "judge %s: %s; or run with --isolation best-effort", command, refusal);
    if (file) fprintf(stderr, " (or `isolation: best-effort` in %s)", file);
    fputs(", which runs with what this machine has and records it\n", stderr);
}

int cli_isolation_ready(const char *command, enum isolation_mode mode, const char *file,
                        struct isolation_report *probe)
{
    struct jail_error err = {0};
    /* The best-effort view first: a failure there is the jail's own, not strict mode's. */
    if (jail_global_init(ISOLATION_BEST_EFFORT, probe, &err) < 0) {
        fprintf(stderr, "judge %s: %s\n", command, err.msg);
        return EXIT_INTERNAL;
    }
    if (jail_global_init(mode, NULL, &err) == 0) return EXIT_OK;
    print_refusal(command, err.msg, file);
    return EXIT_INTERNAL;
}
