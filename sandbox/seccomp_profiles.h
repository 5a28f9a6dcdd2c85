/*
 * seccomp_profiles.h - the built-in run profiles' system-call rules as data.
 * Internal to the seccomp files of sandbox/: seccomp_policy.c compiles these
 * tables into BPF. A call no rule matches is reported (user notification).
 */
#ifndef SANDBOX_SECCOMP_PROFILES_H
#define SANDBOX_SECCOMP_PROFILES_H

#include <stddef.h>
#include <stdint.h>

enum seccomp_rule_kind {
    RULE_ALWAYS,        /* any arguments */
    RULE_ARG_ONE_OF,    /* the argument's low 32 bits equal one of values[] */
    RULE_ARG_BITS_CLEAR /* the argument has none of the bits of values[0] */
};

#define SECCOMP_RULE_MAX_VALUES 16

struct seccomp_rule {
    const char *syscall;       /* x86_64 name, as libseccomp spells it */
    enum seccomp_rule_kind kind;
    unsigned arg;              /* argument index for RULE_ARG_* */
    uint64_t values[SECCOMP_RULE_MAX_VALUES];
    unsigned nvalues;
    int refuse_errno;          /* 0: allow; else fail with this errno, not reported */
};

struct seccomp_rule_list {
    const struct seccomp_rule *rules;
    size_t count;
};

#define SECCOMP_BUILTIN_MAX_LISTS 2

/* A built-in profile: the union of its rule lists. */
struct seccomp_builtin {
    const char *name;
    struct seccomp_rule_list lists[SECCOMP_BUILTIN_MAX_LISTS];
};

size_t seccomp_builtin_count(void);
const struct seccomp_builtin *seccomp_builtin_at(size_t index);

#endif
