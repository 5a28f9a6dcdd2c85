/*
 * seccomp_build.h - a profile's rules made into a BPF program by libseccomp:
 * what the build does for every built-in profile (sandbox/tools/seccomp_gen.c
 * writes them into the judge) and the judge for a profile with extra calls
 * (seccomp_policy.c). Internal to sandbox/.
 */
#ifndef SANDBOX_SECCOMP_BUILD_H
#define SANDBOX_SECCOMP_BUILD_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>

#include "sandbox/jail.h"
#include "sandbox/seccomp_profiles.h"

/* The program of builtin's rules plus the native calls extra[] allowed with any
 * arguments (each replacing builtin's rules for that call); any other call, and
 * any call of another architecture, notifies. Binary-tree layout. *insns is
 * malloc'ed, *count instructions long. name is only for error messages. */
int seccomp_build_program(const char *name, const struct seccomp_builtin *builtin, const int *extra,
                          size_t extra_count, struct sock_filter **insns, size_t *count,
                          struct jail_error *err);

/* err's message from fmt (nothing when err is NULL). */
void seccomp_set_error(struct jail_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Is nr among calls[0..count)? */
bool seccomp_calls_include(const int *calls, size_t count, int nr);

#endif
