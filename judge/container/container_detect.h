/*
 * judge/container/ - what `judge doctor` says inside Docker or Podman.
 *
 * container_detect.h - are we inside a container, and which `docker run` /
 * `podman run` flag is missing for each isolation layer `judge doctor` found
 * missing. Facts come from /proc and the root directory; the hints are worked
 * out from the facts and the doctor's rows alone (container_hints is pure).
 * The flag set and what each flag costs: docs/docker.md. Nothing here prints.
 */
#ifndef JUDGE_CONTAINER_DETECT_H
#define JUDGE_CONTAINER_DETECT_H

#include <stdbool.h>
#include <stddef.h>

#include "sandbox/doctor_probe.h"

struct json_object;

enum container_engine { ENGINE_NONE, ENGINE_DOCKER, ENGINE_PODMAN, ENGINE_OTHER };

struct container_facts {
    enum container_engine engine;
    bool root;             /* euid 0 */
    bool seccomp_filtered; /* a seccomp filter is already on us: the runtime's profile */
    bool cap_sys_admin, cap_sys_ptrace;
    bool proc_masked;         /* paths under /proc are over-mounted (masked or read-only) */
    bool cgroup_mounted;      /* some cgroup hierarchy is visible */
    bool cgroup_read_only;    /* ... and one of them is mounted read-only */
    char lsm[80];             /* AppArmor profile or SELinux context confining us ("" = none) */
    bool userns_mapped;       /* we run in a user namespace (uid_map is not the identity) */
    long max_user_namespaces; /* /proc/sys/user/max_user_namespaces, -1 unknown */
};

struct container_hint {
    char flag[96]; /* "--security-opt seccomp=unconfined"; "" = no flag helps, see why */
    char why[320];
};

#define CONTAINER_MAX_HINTS 10

struct container_report {
    struct container_facts facts;
    struct container_hint hints[CONTAINER_MAX_HINTS];
    size_t count;
};

/* Reads the facts of this process. */
void container_facts_read(struct container_facts *out);

/* Parsers behind it, over a mountinfo and a status file (for tests). */
void container_facts_from_mountinfo(const char *path, struct container_facts *out);
bool container_status_seccomp_filtered(const char *status_path);

/* One hint per missing flag (none outside a container, or when nothing is missing). */
void container_hints(const struct container_facts *facts, const struct doctor_result *doctor,
                     struct container_report *out);

/* Both of the above. */
void container_detect(const struct doctor_result *doctor, struct container_report *out);

const char *container_engine_name(enum container_engine e);

/* {"engine":"docker","hints":[{"flag":..,"why":..}]}; NULL when out of memory. */
struct json_object *container_report_to_json(const struct container_report *r);

#endif
