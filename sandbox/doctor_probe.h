/*
 * doctor_probe.h - what this machine offers each isolation layer, for
 * `judge doctor`. Every namespace, pivot_root, seccomp, capability and
 * no_new_privs check is actually tried in a forked child; cgroups come from
 * cgroup_probe; the strict-mode verdict is what jail_global_init reports, so it
 * matches what `judge exec --isolation strict` would do. Nothing here prints.
 */
#ifndef SANDBOX_DOCTOR_PROBE_H
#define SANDBOX_DOCTOR_PROBE_H

#include <stdbool.h>
#include <stddef.h>

struct jail_error; /* jail.h uses it before declaring it */
#include "sandbox/jail.h"

/* on/degraded/off for a layer or feature; info for facts (root, container, kernel). */
enum doctor_status { DOCTOR_ON, DOCTOR_DEGRADED, DOCTOR_OFF, DOCTOR_INFO };
const char *doctor_status_name(enum doctor_status s);

struct doctor_row {
    char layer[32];          /* "user_ns", "memory_limit", "container", ... */
    enum doctor_status status;
    char detail[200];        /* what was tried and what happened */
    char fix[200];           /* how to get it, when it is not on ("" otherwise) */
};

#define DOCTOR_MAX_ROWS 40

struct doctor_result {
    struct doctor_row rows[DOCTOR_MAX_ROWS];
    size_t count;
    struct isolation_report jail;  /* jail_global_init's view (best-effort probe) */
    bool strict_available;         /* every layer on: strict mode would run */
    char missing[256];             /* when not: the missing layers, ", "-separated */
};

/* Probe everything. Returns -1 (with a message) only when probing itself fails
 * (fork, out of memory); a missing layer is a row, not an error. */
int doctor_probe(struct doctor_result *out, struct jail_error *err);

#endif
