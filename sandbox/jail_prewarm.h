/*
 * jail_prewarm.h - a jail made ready in advance, up to just before execve,
 * and started later with arguments only known then.
 *
 * Warlight starts a new process for every player on every turn, with the
 * state in argv. A prewarmed jail has its namespaces, root, cgroup, rlimits,
 * capabilities and seccomp filter in place and waits for its arguments on a
 * pipe, so the start a turn waits for costs little more than an execve; the
 * set-up runs while the previous turn's process does. Each launched process
 * is a full jail like any jail_start's, finished with jail_finish.
 */
#ifndef SANDBOX_JAIL_PREWARM_H
#define SANDBOX_JAIL_PREWARM_H

#include <stddef.h>

#include "sandbox/jail.h"

#define JAIL_LAUNCH_BYTES_MAX (1u << 20) /* extra arguments, all together */
#define JAIL_LAUNCH_ARGS_MAX  4096       /* arguments, the spec's included */

struct jail_prewarm; /* opaque */

/* Build a jail for spec, whose argv is the leading part of the command; the
 * spec need not outlive the call. The child's set-up goes on after this
 * returns. */
int jail_prewarm_start(const struct jail_spec *spec, struct jail_prewarm **out, struct jail_error *err);

/* Start the command with extra arguments: NUL-terminated strings packed in
 * args, len bytes in all (0: none). Consumes pw: on success *out is the
 * running jail, as from jail_start; on failure everything is released. It
 * returns without waiting for the execve (others can start meanwhile): a
 * command that cannot be executed (not found, not executable, arguments too
 * long) exits with status 127 before running, its report's note says why. */
int jail_prewarm_launch(struct jail_prewarm *pw, const char *args, size_t len, struct jail **out,
                        struct jail_error *err);

/* The isolation its process will have (as jail_isolation of the launched jail). */
const struct isolation_report *jail_prewarm_isolation(const struct jail_prewarm *pw);

/* Kill and release a jail that will not be launched. NULL is ignored. */
void jail_prewarm_discard(struct jail_prewarm *pw);

#endif
