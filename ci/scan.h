/*
 * scan.h - every replay file (`*.jsonl.gz`) under the inputs, each directory's
 * entries in byte order so that runs are repeatable; directories are entered
 * depth first, symbolic links to directories are not followed, and one
 * directory can be left out (the output directory, when it lies inside an input).
 * In a `judge tournament` output directory (one holding tournament.json) only
 * replays/, compile/ and smoke/ are entered: bots/ holds what submissions made,
 * and its tournament.json is handed to a hook of its own.
 */
#ifndef CI_SCAN_H
#define CI_SCAN_H

#include <stddef.h>
#include <sys/types.h>

#include "ci/ci_error.h"

struct scan_skip {
    dev_t dev;
    ino_t ino;
    int set;
};

/* A hook's non-zero return stops the scan and is returned. A missing input is a usage error. */
typedef int (*scan_fn)(void *ctx, const char *path, struct ci_error *err);
struct scan_hooks {
    scan_fn replay;     /* every replay file */
    scan_fn tournament; /* every tournament output directory's tournament.json, before its records */
    void *replay_ctx, *tournament_ctx;
};
int scan_inputs(const char *const *inputs, size_t n, const struct scan_skip *skip,
                const struct scan_hooks *hooks, struct ci_error *err);

#endif
