/*
 * jail_flat.h - best-effort jails where no namespace can be made (a container
 * started without extra flags: no CAP_SYS_ADMIN, namespaces refused by its
 * seccomp profile). The command then sees the host's (the container's)
 * filesystem, runs in the jail's bot directory as the jail's uid slot (when
 * CAP_SETUID/CAP_SETGID allow), under rlimits, with no capabilities and
 * no_new_privs; its init is a child subreaper instead of a pid namespace's
 * pid 1, and the jail ends by killing every process of its uid. Every layer
 * this loses is recorded in the isolation report.
 */
#ifndef SANDBOX_JAIL_FLAT_H
#define SANDBOX_JAIL_FLAT_H

#include "sandbox/jail_internal.h"

/* argv, envp and the working directory with the jail's paths (JAIL_BOT_DIR,
 * JAIL_RW_DIR and below) replaced by the host directories bound there. */
struct flat_paths {
    char **argv, **envp;
    char *workdir;
};
int flat_paths_build(const struct jail_spec *spec, struct flat_paths *out, struct jail_error *err);
void flat_paths_free(struct flat_paths *fp);

/* Record every layer a flat jail loses, with its fix (jail_global.c's probe). */
void flat_describe_layers(struct isolation_report *probe, char fix[][128], bool setid);

/* ---- capabilities in two halves (caps_drop.c), child side ---- */
/* The bounding and ambient sets: needs CAP_SETPCAP, so before setresuid. */
int caps_drop_bounding(const char **step);
/* Effective, permitted and inheritable: allowed to anyone. */
int caps_drop_process_sets(const char **step);

/* ---- killing by uid (uid_sweep.c) ---- */
/* Kill every process of uid (a short-lived child takes the uid and kills -1
 * until none is left), then check /proc holds none that still runs. */
int uid_sweep(uid_t uid, struct jail_error *err);
/* A flat jail's identity given back: nothing of its uid may outlive it. */
void uid_sweep_released(const struct jail_identity *id);
/* Tasks (threads included) of uid now running, from /proc. */
uint64_t uid_task_count(uid_t uid);

#endif
