/*
 * seccomp_build.c - a profile's rules into BPF with libseccomp.
 *
 * The filter's default action and its bad-architecture action are both
 * SECCOMP_RET_USER_NOTIF: only native x86_64 calls can match an allow rule;
 * i386 calls (int 0x80, another AUDIT_ARCH) and x32 calls (libseccomp emits
 * "nr >= __X32_SYSCALL_BIT -> default action" for a native-only filter) are
 * reported like any other forbidden call. The unit tests make both kinds of
 * call for real.
 */
#include "sandbox/seccomp_build.h"

#include <errno.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* libseccomp's binary-tree layout: a call costs ~log2(rules) jumps, not a scan. */
#define OPTIMIZE_BINARY_TREE 2

void seccomp_set_error(struct jail_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
}

bool seccomp_calls_include(const int *calls, size_t count, int nr)
{
    for (size_t i = 0; i < count; i++)
        if (calls[i] == nr)
            return true;
    return false;
}

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

static int add_builtin_rules(scmp_filter_ctx ctx, const char *name, const struct seccomp_builtin *builtin,
                             const int *extra, size_t extra_count, struct jail_error *err)
{
    for (size_t l = 0; l < SECCOMP_BUILTIN_MAX_LISTS; l++) {
        const struct seccomp_rule_list *list = &builtin->lists[l];
        for (size_t i = 0; i < list->count; i++) {
            const struct seccomp_rule *rule = &list->rules[i];
            int nr = seccomp_syscall_resolve_name(rule->syscall);
            if (nr < 0) {
                seccomp_set_error(err, "seccomp profile '%s': unknown system call '%s'", name, rule->syscall);
                return -1;
            }
            if (seccomp_calls_include(extra, extra_count, nr)) /* allowed outright below */
                continue;
            int rc = add_one_rule(ctx, rule, nr);
            if (rc < 0) {
                seccomp_set_error(err, "seccomp profile '%s': rule for %s: %s", name, rule->syscall,
                                  strerror(-rc));
                return -1;
            }
        }
    }
    return 0;
}

static int add_extra_rules(scmp_filter_ctx ctx, const char *name, const int *extra, size_t extra_count,
                           struct jail_error *err)
{
    for (size_t i = 0; i < extra_count; i++) {
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, extra[i], 0);
        if (rc < 0) {
            seccomp_set_error(err, "seccomp profile '%s': rule for call %d: %s", name, extra[i],
                              strerror(-rc));
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
        seccomp_set_error(err, "seccomp: setting filter attributes: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

static int read_exported(int fd, size_t size, struct sock_filter **insns, size_t *count,
                         struct jail_error *err)
{
    if (size == 0 || size % sizeof(struct sock_filter) != 0 ||
        size / sizeof(struct sock_filter) > BPF_MAXINSNS) {
        seccomp_set_error(err, "seccomp: exported filter has an invalid size of %zu bytes", size);
        return -1;
    }
    struct sock_filter *buf = malloc(size);
    if (!buf) {
        seccomp_set_error(err, "seccomp: out of memory");
        return -1;
    }
    if (pread(fd, buf, size, 0) != (ssize_t)size) {
        free(buf);
        seccomp_set_error(err, "seccomp: reading exported filter failed");
        return -1;
    }
    *insns = buf;
    *count = size / sizeof(struct sock_filter);
    return 0;
}

static int export_program(scmp_filter_ctx ctx, struct sock_filter **insns, size_t *count,
                          struct jail_error *err)
{
    int fd = memfd_create("seccomp-bpf", MFD_CLOEXEC);
    if (fd < 0) {
        seccomp_set_error(err, "seccomp: memfd_create: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    int rc = seccomp_export_bpf(ctx, fd);
    if (rc < 0) {
        seccomp_set_error(err, "seccomp: exporting filter: %s", strerror(-rc));
    } else if (fstat(fd, &st) < 0) {
        seccomp_set_error(err, "seccomp: fstat on exported filter: %s", strerror(errno));
        rc = -1;
    } else {
        rc = read_exported(fd, (size_t)st.st_size, insns, count, err);
    }
    close(fd);
    return rc < 0 ? -1 : 0;
}

int seccomp_build_program(const char *name, const struct seccomp_builtin *builtin, const int *extra,
                          size_t extra_count, struct sock_filter **insns, size_t *count,
                          struct jail_error *err)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_NOTIFY);
    if (!ctx) {
        seccomp_set_error(err, "seccomp: libseccomp refused a notifying filter (kernel or library too old)");
        return -1;
    }
    int rc = -1;
    if (set_filter_attributes(ctx, err) == 0 &&
        add_builtin_rules(ctx, name, builtin, extra, extra_count, err) == 0 &&
        add_extra_rules(ctx, name, extra, extra_count, err) == 0)
        rc = export_program(ctx, insns, count, err);
    seccomp_release(ctx);
    return rc;
}
