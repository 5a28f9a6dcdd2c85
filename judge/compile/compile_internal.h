/* compile_internal.h - what the compile*.c files share (judge/compile/compile.h is the public face). */
#ifndef JUDGE_COMPILE_INTERNAL_H
#define JUDGE_COMPILE_INTERNAL_H

#include <stddef.h>

#include "judge/compile/compile.h"

#define COMPILE_MAX_SOURCES      256
#define COMPILE_SECCOMP_NAME_MAX 32

/* The submission's sources (its top-level regular files matching the profile's
 * patterns, in name order) and its entry file (NULL when the profile has no
 * `entry:` list). */
struct compile_sources {
    char *names[COMPILE_MAX_SOURCES + 1];
    size_t n;
    char *entry;
};

/* 0: listed; 1: the submission is at fault (problem holds a one-line reason
 * for the student); -1: err (the directory cannot be read). */
int compile_sources_list(const struct language_profile *p, const char *src_dir, struct compile_sources *out,
                         char *problem, size_t size, struct compile_error *err);
void compile_sources_free(struct compile_sources *s);

/* Copy the regular files and directories under `from` into the directory
 * to_fd (links and other kinds are skipped and counted in *skipped). */
/* 0 when copied; 1 when the files claim more than cap bytes (each by its apparent
 * size, holes included: err->msg says which), nothing of them kept; -1 on error. */
int compile_tree_copy(const char *from, int to_fd, uint64_t cap, size_t *skipped, struct compile_error *err);
/* The manifest: "profile NAME\nentry FILE\n" (the entry line only when there is one). */
int compile_manifest_write(int bot_fd, const char *profile, const char *entry, struct compile_error *err);
int compile_manifest_read(const char *bot_dir, char *profile, size_t profile_size, char *entry,
                          size_t entry_size, struct compile_error *err);

/* The seccomp profile a step runs under: its `seccomp` when it allows
 * nothing more, else "LANG-STEP", registered on first use. */
int compile_seccomp_profile(const char *lang, const char *step, const struct lp_command *c, char *out,
                            size_t size, struct compile_error *err);

/* Fails with a printf-style message in err; returns -1. */
int compile_fail(struct compile_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
