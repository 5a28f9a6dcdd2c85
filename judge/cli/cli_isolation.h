/*
 * cli_isolation.h - what the commands that run jails (exec, compile, run, tournament) say
 * about isolation, alike: the machine is probed once before anything runs, and strict mode
 * refused there is one line, exit 3, naming the layers that are not fully on and the two ways
 * out (`judge doctor`'s fixes, or best-effort); a run with a layer not fully on says which,
 * each with what stands in for it, in one line and in JSON.
 */
#ifndef JUDGE_CLI_ISOLATION_H
#define JUDGE_CLI_ISOLATION_H

struct jail_error; /* jail.h uses it before declaring it */
#include "sandbox/jail.h"

struct json_object;

/* Probes this machine (jail_global_init) and checks mode against it. EXIT_OK with *probe
 * filled; otherwise, after one line on stderr ("judge COMMAND: ..."), EXIT_INTERNAL: strict mode
 * refused here, or no jail can be set up at all. The refusal's way out is --isolation
 * best-effort, and also `isolation: best-effort` in the file `file` names ("the match file"),
 * when it is not NULL. */
int cli_isolation_ready(const char *command, enum isolation_mode mode, const char *file,
                        struct isolation_report *probe);

/* When a layer is not fully on, one line on stderr: "isolation: best-effort: user_ns degraded:
 * own uid only (not root); memory_limit degraded: rlimit RLIMIT_AS; ...". */
void cli_isolation_note(const struct isolation_report *probe);

/* isolation_report_to_json's object (each layer's state, "cgroup", "privileged", "degraded",
 * "how" for each layer not on) with "mode": "strict" or "best-effort"; NULL when out of memory. */
struct json_object *cli_isolation_json(enum isolation_mode mode, const struct isolation_report *probe);

#endif
