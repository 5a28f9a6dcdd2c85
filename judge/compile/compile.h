/*
 * judge/compile/ - submissions: language profiles (containers/NAME.yaml,
 * language_profile*.c), compiling in the jail (compile*.c), and source players
 * of match files (source_*.c: compiled for `judge run`, keyed for reuse).
 *
 * compile.h - compiling a submission in the jail from a language profile, and
 * running what it made.
 *
 *   compile.c          the compile step: the submission bound read-only at
 *                      /bot, a size-capped scratch directory at /data, a fresh
 *                      /tmp, the profile's limits and seccomp profile; one verdict
 *   compile_sources.c  which files are the sources, which one is the entry
 *   compile_tree.c     copying the scratch directory into BOT_DIR, the build manifest
 *   compile_seccomp.c  the seccomp profile of a step (built-in, or with additions)
 *   compile_run.c      a compiled BOT_DIR + profile -> what a match player runs
 *   compile_record.c   the compile record (compile/PLAYER.jsonl.gz) and its JSON
 *
 * Nothing here prints. jail_global_init() must have been called.
 */
#ifndef JUDGE_COMPILE_H
#define JUDGE_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/compile/language_profile.h"
#include "sandbox/jail.h"

enum compile_verdict {
    COMPILE_OK,
    COMPILE_ERROR, /* the compiler rejected the submission (its messages say why) */
    COMPILE_CPU_LIMIT,
    COMPILE_WALL_LIMIT,
    COMPILE_MEMORY_LIMIT,
    COMPILE_PROCESS_LIMIT,
    COMPILE_OUTPUT_LIMIT, /* too many messages, or a file or BOT_DIR over the file-size limit */
    COMPILE_FORBIDDEN_SYSCALL,
    COMPILE_INTERNAL_ERROR, /* the judge's fault, never the submission's */
    COMPILE_VERDICT_COUNT
};
const char *compile_verdict_name(enum compile_verdict v); /* "OK", "COMPILE_ERROR", ... */

#define COMPILE_MESSAGES_MAX (16u << 10)    /* bytes of compiler output kept */
#define COMPILE_MANIFEST     ".judge-build" /* in BOT_DIR: which profile built it, and its entry */

struct compile_result {
    enum compile_verdict verdict;
    int exit_code; /* the compiler's exit status; -1 when killed, or when it never ran */
    char messages[COMPILE_MESSAGES_MAX + 1]; /* the compiler's output (stdout and stderr, in order),
                                                cut to fit, valid UTF-8, NUL-terminated */
    size_t messages_len;
    uint64_t cpu_ns, wall_ns, memory_peak_bytes;
    bool has_syscall; /* FORBIDDEN_SYSCALL: the call */
    struct jail_syscall syscall;
    char note[200]; /* what stopped it: "cpu limit 10000 ms", "BOT_DIR over 64 MiB", ... */
};

struct compile_request {
    const struct language_profile *profile;
    const char *src_dir; /* the submission, bound read-only at /bot */
    const char *bot_dir; /* made if missing (parents too); must be empty; gets the result when OK */
    enum isolation_mode mode;
};

struct compile_error {
    char msg[640];
    bool request; /* the request is at fault (a missing directory, a compiler not installed), not the judge */
    bool storage; /* an output's disk is full, read-only or failing (atomic_file_storage_errno) */
};

/* Compile one submission. Returns 0 when the compile step ran or was refused
 * for the submission's sake (any verdict, *out filled), -1 on an error of
 * the judge or of the request (a missing directory, a compiler that is not
 * installed): err says what. */
int compile_submission(const struct compile_request *req, struct compile_result *out,
                       struct compile_error *err);

/* ---- running a compiled bot (compile_run.c) ----------------------------------------- */

struct compiled_bot {
    char **argv;           /* NULL-terminated */
    char **env;            /* NULL-terminated */
    char *dir;             /* BOT_DIR, bound read-only at /bot, the working directory */
    char *seccomp;         /* the jail's run profile */
    char **mounts;         /* NULL-terminated extra read-only binds */
    uint64_t memory_bytes; /* the game's limit plus the runtime's allowance */
    uint64_t pids;         /* the match's, or the runtime's if it needs more */
};

/* What a match runs for a bot compiled into bot_dir with profile p, given the
 * game's memory limit and the match's pids limit. Checks BOT_DIR's manifest
 * names this profile. */
int compiled_bot_load(const struct language_profile *p, const char *bot_dir, uint64_t memory_bytes,
                      uint64_t pids, struct compiled_bot *out, struct compile_error *err);
/* Fills argv, envp, dir, profile, extra_ro_binds, limits.memory_bytes and
 * limits.pids of spec (pointing into b); leaves the rest as it is. */
void compiled_bot_jail_spec(const struct compiled_bot *b, struct jail_spec *spec);
void compiled_bot_free(struct compiled_bot *b);

/* ---- the compile record (compile_record.c) --------------------------------------------- */

#define COMPILE_RECORD_FORMAT  "judge-compile"
#define COMPILE_RECORD_VERSION 1

struct compile_record {
    const char *player, *profile, *source;
    const struct compile_result *result;
};

struct replay_writer; /* replay/replay.h */

/* The record as one line of JSON (no newline); caller frees. NULL when out of memory. */
char *compile_record_format(const struct compile_record *rec);
/* Writes the record, gzip, one line, atomically: to path, or to DIR/compile/PLAYER.jsonl.gz
 * (the player's name must be usable as a file name). Missing directories are made. */
int compile_record_write_file(const char *path, const struct compile_record *rec, struct compile_error *err);
int compile_record_write(const char *dir, const struct compile_record *rec, struct compile_error *err);
/* The same in two steps, so that a path that cannot take the record is refused before
 * compiling: open makes the missing directories and a temporary file beside path
 * (err->request unless the disk is full, read-only or broken); commit writes the record
 * there and renames it over path (*replaced: a file was there), or removes it on failure;
 * w is gone either way. */
int compile_record_open(const char *path, struct replay_writer **w, struct compile_error *err);
int compile_record_commit(struct replay_writer *w, const struct compile_record *rec, bool *replaced,
                          struct compile_error *err);

#endif
