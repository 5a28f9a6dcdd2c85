/* cli_isolation.c - isolation as every command that runs jails says it (judge/cli/cli_isolation.h). */
#include "judge/cli/cli_isolation.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/match/run_report.h"

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

void cli_isolation_note(const struct isolation_report *probe)
{
    if (!probe->degraded) return;
    const char *sep = "isolation: best-effort: ";
    for (int l = 0; l < LAYER_COUNT; l++) {
        if (probe->state[l] == LAYER_ON) continue;
        fprintf(stderr, "%s%s %s: %s", sep, jail_layer_name((enum jail_layer)l),
                layer_state_name(probe->state[l]), probe->how[l]);
        sep = "; ";
    }
    fputs(" (`judge doctor` says how to get each)\n", stderr);
}

struct json_object *cli_isolation_json(enum isolation_mode mode, const struct isolation_report *probe)
{
    struct json_object *o = isolation_report_to_json(probe);
    struct json_object *name = json_object_new_string(mode == ISOLATION_STRICT ? "strict" : "best-effort");
    if (o && name && json_object_object_add(o, "mode", name) == 0) return o;
    json_object_put(o);
    json_object_put(name);
    return NULL;
}
