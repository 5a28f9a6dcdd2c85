/*
 * seccomp_policy.h - run profiles' system-call allow-lists, compiled to BPF by
 * the build (the built-in profiles) or once per process (a profile with extra
 * calls), installed in the child just before execve with a user-notification
 * listener: a forbidden call is reported to the judge (name, arch, arguments)
 * and the jail is then killed; nothing is killed silently. Internal to sandbox/.
 */
#ifndef SANDBOX_SECCOMP_POLICY_H
#define SANDBOX_SECCOMP_POLICY_H

#include <sys/types.h>

#include "sandbox/jail.h"

struct seccomp_program;  /* a compiled BPF program, immutable once built */
struct sock_fprog;

/* The compiled program for a profile ("default" when name is NULL): a built-in
 * profile's as the build made it; one with extra calls compiled by libseccomp
 * on first use and cached for the life of the process. */
int seccomp_policy_get(const char *profile, const struct seccomp_program **out, struct jail_error *err);

/* 1 when seccomp_policy_get would run libseccomp's compiler for the profile:
 * it has extra calls and was not compiled yet. Else 0 (unknown names too). */
int seccomp_policy_needs_compile(const char *profile);

/* The program's instructions, as the kernel takes them. */
const struct sock_fprog *seccomp_program_bpf(const struct seccomp_program *prog);

/* In the child, after PR_SET_NO_NEW_PRIVS, as the last step before execve.
 * Async-signal-safe: no allocation, no locks. Returns the listener fd (>= 0)
 * or -errno. */
int seccomp_policy_install(const struct seccomp_program *prog);

/* In the judge, when the listener fd is readable: receive one notification,
 * fill *out (resolved name, arch, six arguments) and *pid (in the judge's pid
 * namespace), and answer it with EPERM so no thread stays blocked if the kill
 * is delayed. Returns 1 when a notification was taken, 0 when none was
 * pending (the process died first), -1 on error. */
int seccomp_notify_take(int listener_fd, struct jail_syscall *out, pid_t *pid, struct jail_error *err);

/* Profiles: built-in ones ("default": a plain compiled bot, "interpreter":
 * default plus what CPython/JVM need, "compiler": what gcc/g++ need), and
 * profiles registered at run time as a base plus extra allowed calls (the
 * language profiles of containers/). */
int seccomp_profile_register(const char *name, const char *base, const char *const *extra_syscalls,
                             struct jail_error *err);
const char *const *seccomp_profile_names(void); /* NULL-terminated, built-ins first */
int seccomp_profile_exists(const char *name);

#endif
