/*
 * out_file.h - one output file of the results stage, written in pieces
 * through common/atomic_file.h (temporary name, fsync, rename): a reader sees
 * the previous file or the complete new one.
 */
#ifndef CI_OUT_FILE_H
#define CI_OUT_FILE_H

#include <stddef.h>

#include "ci/ci_error.h"
#include "engine/strbuf.h"
#include "common/atomic_file.h"

struct out_file {
    struct atomic_file af;
    struct strbuf buf;
    int open;
};

/* dir/name. */
int out_open(struct out_file *o, const char *dir, const char *name, struct ci_error *err);
/* Appends sb's bytes and empties sb. */
int out_take(struct out_file *o, struct strbuf *sb, struct ci_error *err);
int out_puts(struct out_file *o, const char *s, struct ci_error *err);
int out_write(struct out_file *o, const void *data, size_t len, struct ci_error *err);
int out_commit(struct out_file *o, struct ci_error *err);
void out_abort(struct out_file *o);
/* A spool_fn (ci/spool.h) that writes each record to out, with separator between records. */
struct out_records {
    struct out_file *out;
    const char *separator; /* or NULL */
    int written;
};
int out_record(void *ctx, const char *data, size_t len, struct ci_error *err);

/* dir/name whole, in one go. */
int out_whole(const char *dir, const char *name, const char *data, size_t len, struct ci_error *err);

#endif
