/*
 * seccomp_policy.c - the profile registry, compiling a profile to BPF once per
 * process with libseccomp, and installing it in a child.
 *
 * The filter's default action and its bad-architecture action are both
 * SECCOMP_RET_USER_NOTIF: only native x86_64 calls can match an allow rule;
 * i386 calls (int 0x80, another AUDIT_ARCH) and x32 calls (libseccomp emits
 * "nr >= __X32_SYSCALL_BIT -> default action" for a native-only filter) are
 * reported like any other forbidden call. The unit tests make both kinds of
 * call for real.
 */
#include "sandbox/seccomp_policy.h"

#include <ctype.h>
#include <errno.h>
#include <linux/filter.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/seccomp_profiles.h"

#define MAX_PROFILES 32
#define MAX_EXTRA_SYSCALLS 64
#define PROFILE_NAME_MAX 32
#define DEFAULT_PROFILE "default"
/* libseccomp's binary-tree layout: a call costs ~log2(rules) jumps, not a scan. */
#define OPTIMIZE_BINARY_TREE 2

struct seccomp_program {
    struct sock_fprog fprog;
};

struct profile {
    char name[PROFILE_NAME_MAX];
    const struct seccomp_builtin *builtin;
    int extra[MAX_EXTRA_SYSCALLS]; /* native numbers allowed with any arguments */
    size_t extra_count;
    struct seccomp_program *compiled; /* built on first use, never freed */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct profile profiles[MAX_PROFILES];
static size_t profile_count;
static const char *profile_names[MAX_PROFILES + 1];

static void set_error(struct jail_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(struct jail_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
}

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

/* Called with registry_lock held. */
static void load_builtins(void)
{
    if (profile_count > 0)
        return;
    for (size_t i = 0; i < seccomp_builtin_count(); i++) {
        const struct seccomp_builtin *b = seccomp_builtin_at(i);
        add_profile(b->name, b);
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

static int has_extra(const struct profile *p, int nr)
{
    for (size_t i = 0; i < p->extra_count; i++)
        if (p->extra[i] == nr)
            return 1;
    return 0;
}

static int add_extra_syscalls(struct profile *p, const char *const *names, struct jail_error *err)
{
    for (size_t i = 0; names && names[i]; i++) {
        int nr = seccomp_syscall_resolve_name(names[i]);
        if (nr < 0) {
            set_error(err, "seccomp profile '%s': unknown system call '%s'", p->name, names[i]);
            return -1;
        }
        if (has_extra(p, nr))
            continue;
        if (p->extra_count == MAX_EXTRA_SYSCALLS) {
            set_error(err, "seccomp profile '%s': more than %d extra system calls", p->name,
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
        set_error(err, "seccomp profile name '%s' is not 1-%d characters of [A-Za-z0-9._-]",
                  name ? name : "(null)", PROFILE_NAME_MAX - 1);
        return -1;
    }
    if (find_profile(name)) {
        set_error(err, "seccomp profile '%s' already exists", name);
        return -1;
    }
    if (!find_profile(base)) {
        set_error(err, "seccomp profile '%s': unknown base profile '%s'", name, base);
        return -1;
    }
    if (profile_count == MAX_PROFILES) {
        set_error(err, "seccomp profile '%s': more than %d profiles", name, MAX_PROFILES);
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

/* ---- compiling --------------------------------------------------------- */

static int add_one_rule(scmp_filter_ctx ctx, const struct seccomp_rule *rule, int nr)
{
    uint32_t action = rule->refuse_errno ? SCMP_ACT_ERRNO((uint32_t)rule->refuse_errno) : SCMP_ACT_ALLOW;
    struct scmp_arg_cmp cmp = {.arg = rule->arg, .op = SCMP_CMP_MASKED_EQ};
    switch (rule->kind) {
    case RULE_ALWAYS:
        return seccomp_rule_add_array(ctx, action, nr, 0, NULL);
    case RULE_ARG_BITS_CLEAR:
        cmp.datum_a = rule->values[0];
        cmp.datum_b = 0;
        return seccomp_rule_add_array(ctx, action, nr, 1, &cmp);
    case RULE_ARG_ONE_OF:
        /* The low 32 bits only: these arguments are ints to the kernel. */
        cmp.datum_a = 0xffffffffu;
        for (unsigned i = 0; i < rule->nvalues; i++) {
            cmp.datum_b = rule->values[i] & 0xffffffffu;
            int rc = seccomp_rule_add_array(ctx, action, nr, 1, &cmp);
            if (rc < 0)
                return rc;
        }
        return 0;
    }
    return -EINVAL;
}

static int add_builtin_rules(scmp_filter_ctx ctx, const struct profile *p, struct jail_error *err)
{
    for (size_t l = 0; l < SECCOMP_BUILTIN_MAX_LISTS; l++) {
        const struct seccomp_rule_list *list = &p->builtin->lists[l];
        for (size_t i = 0; i < list->count; i++) {
            const struct seccomp_rule *rule = &list->rules[i];
            int nr = seccomp_syscall_resolve_name(rule->syscall);
            if (nr < 0) {
                set_error(err, "seccomp profile '%s': unknown system call '%s'", p->name, rule->syscall);
                return -1;
            }
            if (has_extra(p, nr)) /* allowed outright below */
                continue;
            int rc = add_one_rule(ctx, rule, nr);
            if (rc < 0) {
                set_error(err, "seccomp profile '%s': rule for %s: %s", p->name, rule->syscall, strerror(-rc));
                return -1;
            }
        }
    }
    return 0;
}

static int add_extra_rules(scmp_filter_ctx ctx, const struct profile *p, struct jail_error *err)
{
    for (size_t i = 0; i < p->extra_count; i++) {
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, p->extra[i], 0);
        if (rc < 0) {
            set_error(err, "seccomp profile '%s': rule for call %d: %s", p->name, p->extra[i], strerror(-rc));
            return -1;
        }
    }
    return 0;
}

static int set_filter_attributes(scmp_filter_ctx ctx, struct jail_error *err)
{
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_NOTIFY);
    if (rc == 0)
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, OPTIMIZE_BINARY_TREE);
    if (rc < 0) {
        set_error(err, "seccomp: setting filter attributes: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

static struct seccomp_program *program_from_bytes(int fd, size_t size, struct jail_error *err)
{
    size_t insns = size / sizeof(struct sock_filter);
    if (size == 0 || size % sizeof(struct sock_filter) != 0 || insns > BPF_MAXINSNS) {
        set_error(err, "seccomp: exported filter has an invalid size of %zu bytes", size);
        return NULL;
    }
    struct seccomp_program *prog = malloc(sizeof(*prog));
    struct sock_filter *insn = malloc(size);
    if (!prog || !insn) {
        free(prog);
        free(insn);
        set_error(err, "seccomp: out of memory");
        return NULL;
    }
    if (pread(fd, insn, size, 0) != (ssize_t)size) {
        free(prog);
        free(insn);
        set_error(err, "seccomp: reading exported filter failed");
        return NULL;
    }
    prog->fprog.len = (unsigned short)insns;
    prog->fprog.filter = insn;
    return prog;
}

static struct seccomp_program *export_program(scmp_filter_ctx ctx, struct jail_error *err)
{
    int fd = memfd_create("seccomp-bpf", MFD_CLOEXEC);
    if (fd < 0) {
        set_error(err, "seccomp: memfd_create: %s", strerror(errno));
        return NULL;
    }
    struct seccomp_program *prog = NULL;
    struct stat st;
    int rc = seccomp_export_bpf(ctx, fd);
    if (rc < 0)
        set_error(err, "seccomp: exporting filter: %s", strerror(-rc));
    else if (fstat(fd, &st) < 0)
        set_error(err, "seccomp: fstat on exported filter: %s", strerror(errno));
    else
        prog = program_from_bytes(fd, (size_t)st.st_size, err);
    close(fd);
    return prog;
}

static struct seccomp_program *compile_profile(const struct profile *p, struct jail_error *err)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_NOTIFY);
    if (!ctx) {
        set_error(err, "seccomp: libseccomp refused a notifying filter (kernel or library too old)");
        return NULL;
    }
    struct seccomp_program *prog = NULL;
    if (set_filter_attributes(ctx, err) == 0 && add_builtin_rules(ctx, p, err) == 0 &&
        add_extra_rules(ctx, p, err) == 0)
        prog = export_program(ctx, err);
    seccomp_release(ctx);
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
        set_error(err, "unknown seccomp profile '%s'", name);
        rc = -1;
    } else if (!p->compiled && !(p->compiled = compile_profile(p, err))) {
        rc = -1;
    } else {
        *out = p->compiled;
    }
    pthread_mutex_unlock(&registry_lock);
    return rc;
}

/* ---- installing -------------------------------------------------------- */

int seccomp_policy_install(const struct seccomp_program *prog)
{
    if (!prog)
        return -EINVAL;
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog->fprog);
    return fd < 0 ? -errno : (int)fd;
}
