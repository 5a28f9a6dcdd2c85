/*
 * seccomp_prebuilt.h - the built-in profiles' BPF programs as the build made
 * them: sandbox/tools/seccomp_gen.c runs seccomp_build_program for each and
 * writes $(BUILD)/gen/seccomp_programs.c, so that no judge process runs
 * libseccomp's compiler for a built-in profile. Internal to sandbox/.
 */
#ifndef SANDBOX_SECCOMP_PREBUILT_H
#define SANDBOX_SECCOMP_PREBUILT_H

#include <linux/filter.h>
#include <stddef.h>

struct seccomp_prebuilt {
    const char *name; /* the built-in profile's */
    const struct sock_filter *insns;
    unsigned short len;
};

extern const struct seccomp_prebuilt seccomp_prebuilt_programs[];
extern const size_t seccomp_prebuilt_count;

#endif
