/*
 * seccomp_policy.c - the profile registry, each profile's BPF program (a
 * built-in's made by the build, sandbox/seccomp_prebuilt.h; one with extra
 * calls compiled once per process, seccomp_build.c), and installing it in a
 * child.
 */
#include "sandbox/seccomp_policy.h"

#include <ctype.h>
#include <errno.h>
#include <linux/filter.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/seccomp_build.h"
#include "sandbox/seccomp_prebuilt.h"
#include "sandbox/seccomp_profiles.h"

#define MAX_PROFILES 32
#define MAX_EXTRA_SYSCALLS 64
#define PROFILE_NAME_MAX 32
#define DEFAULT_PROFILE "default"

struct seccomp_program {
    struct sock_fprog fprog;
};

struct profile {
    char name[PROFILE_NAME_MAX];
    const struct seccomp_builtin *builtin;
    int extra[MAX_EXTRA_SYSCALLS]; /* native numbers allowed with any arguments */
    size_t extra_count;
    struct seccomp_program *compiled; /* &prebuilt for a built-in, else built on first use, never freed */
    struct seccomp_program prebuilt;  /* a built-in's: the program the build made */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct profile profiles[MAX_PROFILES];
static size_t profile_count;
static const char *profile_names[MAX_PROFILES + 1];

/* ---- registry ---------------------------------------------------------- */

static struct profile *add_profile(const char *name, const struct seccomp_builtin *builtin)
{
    struct profile *p = &profiles[profile_count];
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->builtin = builtin;
    profile_names[profile_count] = p->name;
    profile_count++;
    profile_names[profile_count] = NULL;
    return p;
}

static const struct seccomp_prebuilt *prebuilt_named(const char *name)
{
    for (size_t i = 0; i < seccomp_prebuilt_count; i++)
        if (strcmp(seccomp_prebuilt_programs[i].name, name) == 0)
            return &seccomp_prebuilt_programs[i];
    return NULL;
}

/* Called with registry_lock held. */
static void load_builtins(void)
{
    if (profile_count > 0)
        return;
    for (size_t i = 0; i < seccomp_builtin_count(); i++) {
        const struct seccomp_builtin *b = seccomp_builtin_at(i);
        struct profile *p = add_profile(b->name, b);
        const struct seccomp_prebuilt *pre = prebuilt_named(b->name);
        if (!pre)
            continue;
        /* The kernel only reads the program: pointing at the const table is safe. */
        p->prebuilt.fprog = (struct sock_fprog){.len = pre->len, .filter = (struct sock_filter *)pre->insns};
        p->compiled = &p->prebuilt;
    }
}

static struct profile *find_profile(const char *name)
{
    for (size_t i = 0; i < profile_count; i++)
        if (strcmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

static int valid_profile_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= PROFILE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("-_.", name[i]))
            return 0;
    return 1;
}

static int add_extra_syscalls(struct profile *p, const char *const *names, struct jail_error *err)
{
    for (size_t i = 0; names && names[i]; i++) {
        int nr = seccomp_syscall_resolve_name(names[i]);
        if (nr < 0) {
            seccomp_set_error(err, "seccomp profile '%s': unknown system call '%s'", p->name, names[i]);
            return -1;
        }
        if (seccomp_calls_include(p->extra, p->extra_count, nr))
            continue;
        if (p->extra_count == MAX_EXTRA_SYSCALLS) {
            seccomp_set_error(err, "seccomp profile '%s': more than %d extra system calls", p->name,
                              MAX_EXTRA_SYSCALLS);
            return -1;
        }
        p->extra[p->extra_count++] = nr;
    }
    return 0;
}

static int check_new_profile(const char *name, const char *base, struct jail_error *err)
{
    if (!name || !valid_profile_name(name)) {
        seccomp_set_error(err, "seccomp profile name '%s' is not 1-%d characters of [A-Za-z0-9._-]",
                          name ? name : "(null)", PROFILE_NAME_MAX - 1);
        return -1;
    }
    if (find_profile(name)) {
        seccomp_set_error(err, "seccomp profile '%s' already exists", name);
        return -1;
    }
    if (!find_profile(base)) {
        seccomp_set_error(err, "seccomp profile '%s': unknown base profile '%s'", name, base);
        return -1;
    }
    if (profile_count == MAX_PROFILES) {
        seccomp_set_error(err, "seccomp profile '%s': more than %d profiles", name, MAX_PROFILES);
        return -1;
    }
    return 0;
}

static int register_locked(const char *name, const char *base, const char *const *extra_syscalls,
                           struct jail_error *err)
{
    if (check_new_profile(name, base, err) < 0)
        return -1;
    const struct profile *base_profile = find_profile(base);
    struct profile candidate = *base_profile;
    snprintf(candidate.name, sizeof(candidate.name), "%s", name);
    candidate.compiled = NULL;
    if (add_extra_syscalls(&candidate, extra_syscalls, err) < 0)
        return -1;
    struct profile *p = add_profile(name, candidate.builtin);
    memcpy(p->extra, candidate.extra, sizeof(p->extra));
    p->extra_count = candidate.extra_count;
    return 0;
}

int seccomp_profile_register(const char *name, const char *base, const char *const *extra_syscalls,
                             struct jail_error *err)
{
    pthread_mutex_lock(&registry_lock);
    load_builtins();
    int rc = register_locked(name, base ? base : DEFAULT_PROFILE, extra_syscalls, err);
    pthread_mutex_unlock(&registry_lock);
    return rc;
}

const char *const *seccomp_profile_names(void)
{
    pthread_mutex_lock(&registry_lock);
    load_builtins();
    pthread_mutex_unlock(&registry_lock);
    return profile_names;
}

int seccomp_profile_exists(const char *name)
{
    pthread_mutex_lock(&registry_lock);
    load_builtins();
    int found = find_profile(name ? name : DEFAULT_PROFILE) != NULL;
    pthread_mutex_unlock(&registry_lock);
    return found;
}

/* ---- programs --------------------------------------------------------- */

/* A profile with extra calls: libseccomp compiles it here (about a millisecond). */
static struct seccomp_program *compile_profile(const struct profile *p, struct jail_error *err)
{
    struct seccomp_program *prog = malloc(sizeof(*prog));
    struct sock_filter *insns = NULL;
    size_t count = 0;
    if (!prog) {
        seccomp_set_error(err, "seccomp: out of memory");
        return NULL;
    }
    if (seccomp_build_program(p->name, p->builtin, p->extra, p->extra_count, &insns, &count, err) < 0) {
        free(prog);
        return NULL;
    }
    prog->fprog.len = (unsigned short)count;
    prog->fprog.filter = insns;
    return prog;
}

int seccomp_policy_get(const char *profile, const struct seccomp_program **out, struct jail_error *err)
{
    const char *name = profile ? profile : DEFAULT_PROFILE;
    int rc = 0;
    pthread_mutex_lock(&registry_lock);
    load_builtins();
    struct profile *p = find_profile(name);
    if (!p) {
        seccomp_set_error(err, "unknown seccomp profile '%s'", name);
        rc = -1;
    } else if (!p->compiled && !(p->compiled = compile_profile(p, err))) {
        rc = -1;
    } else {
        *out = p->compiled;
    }
    pthread_mutex_unlock(&registry_lock);
    return rc;
}

int seccomp_policy_needs_compile(const char *profile)
{
    pthread_mutex_lock(&registry_lock);
    load_builtins();
    const struct profile *p = find_profile(profile ? profile : DEFAULT_PROFILE);
    int needs = p && !p->compiled;
    pthread_mutex_unlock(&registry_lock);
    return needs;
}

const struct sock_fprog *seccomp_program_bpf(const struct seccomp_program *prog)
{
    return &prog->fprog;
}

/* ---- installing -------------------------------------------------------- */

int seccomp_policy_install(const struct seccomp_program *prog)
{
    if (!prog)
        return -EINVAL;
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog->fprog);
    return fd < 0 ? -errno : (int)fd;
}
