/*
 * prefetch.h - input files read on worker threads, and on the calling thread
 * while it waits (decompressing and parsing every line is most of the work),
 * and handed back to the calling thread one by one in the order they were
 * submitted, so the results do not depend on thread timing. At most PREFETCH_SLOTS files are in flight: memory stays
 * bounded whatever the number of files.
 */
#ifndef CI_PREFETCH_H
#define CI_PREFETCH_H

#include "ci/ci_error.h"
#include "ci/replay_load.h"

#define PREFETCH_SLOTS       16
#define PREFETCH_MAX_WORKERS 8

/* Called on the submitting thread, in submission order; lf is freed after it returns. */
typedef int (*prefetch_fn)(void *ctx, struct loaded_file *lf, struct ci_error *err);
/* Called on the thread that read lf, right after (lf->seq is set): more work done in parallel. */
typedef void (*prefetch_prepare_fn)(void *ctx, struct loaded_file *lf);

struct prefetch;
/* workers 0: every file is read on the calling thread, at submission. */
int prefetch_start(struct prefetch **out, int workers, prefetch_fn fn, prefetch_prepare_fn prepare, void *ctx,
                   struct ci_error *err);
/* May first hand back finished files (fn's error is returned). */
int prefetch_submit(struct prefetch *p, const char *path, struct ci_error *err);
/* Hands back every file left, stops the workers and frees p (also on error). */
int prefetch_finish(struct prefetch *p, struct ci_error *err);
/* Stops the workers and frees p and every file still in it, without handing any back. */
void prefetch_abort(struct prefetch *p);
/* The workers worth starting on this machine: one per CPU but the caller's (which reads files while it
 * waits for the oldest), at most PREFETCH_MAX_WORKERS, none on one CPU. */
int prefetch_default_workers(void);

#endif
