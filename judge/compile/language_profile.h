/*
 * language_profile.h - one language's profile (containers/NAME.yaml): which
 * files of a submission are its sources, how to compile them in the jail, how
 * to run the result, the host paths both steps need bound read-only, the
 * seccomp profile of each step and their limits. Format: containers/README.md.
 *
 * Commands are lists of words. `${NAME}` in a word is a variable:
 *   compile: SRC (the submission, read-only), OUT (the writable bot directory),
 *            SOURCES (a whole word: becomes one word per source file),
 *            ENTRY and MAIN (the entry file and its name without extension)
 *   run:     BOT (the compiled bot directory), ENTRY, MAIN, MEMORY_MB (the
 *            memory limit the bot runs under, runtime allowance included)
 * ENTRY and MAIN need an `entry:` list in the profile.
 */
#ifndef JUDGE_LANGUAGE_PROFILE_H
#define JUDGE_LANGUAGE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LP_MAX_WORDS    64 /* words of one command */
#define LP_MAX_LIST     16 /* sources patterns, entry names, mounts, env entries */
#define LP_NAME_MAX     32
#define LP_PROFILES_ENV "JUDGE_PROFILES"

/* Limits of the compile step. Defaults (for keys left out) in language_profile.c. */
struct lp_compile_limits {
    uint64_t cpu_ns, wall_ns, memory_bytes, pids;
    uint64_t file_size_bytes; /* any one file written, and the bot directory in total */
    uint64_t tmp_bytes;       /* the compile jail's own /tmp */
    uint64_t output_bytes;    /* compiler messages, stdout and stderr each; past it: OUTPUT_LIMIT */
};

/* What the runtime needs beyond a compiled C program's, added to the game's limits. */
struct lp_run_limits {
    uint64_t memory_extra_bytes; /* added to the game's memory_limit_mb */
    uint64_t pids;               /* at least this many processes and threads (0: the match's) */
};

struct lp_command {
    char *words[LP_MAX_WORDS + 1]; /* NULL-terminated */
    size_t n_words;
    char *env[LP_MAX_LIST + 1]; /* NAME=VALUE, NULL-terminated */
    size_t n_env;
    char *seccomp;                        /* a run profile of sandbox/seccomp_profiles.c */
    char *seccomp_allow[LP_MAX_LIST + 1]; /* system calls allowed on top of it */
    size_t n_allow;
};

struct language_profile {
    char *path; /* the YAML file */
    char *name;
    char *language;                 /* human description */
    char *sources[LP_MAX_LIST + 1]; /* fnmatch patterns over the submission's top-level files */
    size_t n_sources;
    char *entry[LP_MAX_LIST + 1]; /* candidate entry files, in order; n_entry 0 = none */
    size_t n_entry;
    char *mounts[LP_MAX_LIST + 1]; /* absolute host paths, bound read-only at the same path */
    size_t n_mounts;
    struct lp_command compile, run;
    struct lp_compile_limits compile_limits;
    struct lp_run_limits run_limits;
};

struct lp_error {
    char msg[600];
};

/* Reads and checks a profile; errors are one line "FILE:LINE:COL: message". */
int language_profile_load(const char *path, struct language_profile *out, struct lp_error *err);
void language_profile_free(struct language_profile *p);

/* The directory profiles are looked up in: `dir` when given, else $JUDGE_PROFILES,
 * else containers/ of the source tree the judge binary was built in, else the
 * installed PREFIX/share/judge/containers beside PREFIX/bin/judge. */
int language_profile_dir(const char *dir, char *out, size_t size, struct lp_error *err);

/* Loads profile `name` (DIR/NAME.yaml) from language_profile_dir(dir); a name
 * holding a '/' is taken as the path of a profile file. */
int language_profile_find(const char *name, const char *dir, struct language_profile *out,
                          struct lp_error *err);

/* Word templates: expand `${NAME}` from vars ("NAME=value" strings, NULL-terminated).
 * A word that is exactly `${LIST}` for a list name in lists[] is replaced by
 * the list's words. Returns a NULL-terminated, malloc'd argv (free with
 * lp_words_free), or NULL with err set. */
struct lp_list {
    const char *name;
    const char *const *words;
    size_t n;
};
char **lp_expand(const char *const *words, const char *const *vars, const struct lp_list *lists,
                 size_t n_lists, struct lp_error *err);
void lp_words_free(char **words);

#endif
