/*
 * file_batch.h - many small output files of one directory (the match pages
 * under OUT/matches/, the re-run files under OUT/rerun/) written the atomic way
 * at the cost of a few: each file goes to a temporary name, in one of a few
 * hidden subdirectories (".batch-TOKEN-dK"), as soon as it is made (on any
 * thread, no fsync), and at the end one syncfs puts them all on disk, each is
 * renamed to its name and the directory is fsynced once. A reader sees a file
 * whole or not at all, as with common/atomic_file.h, without an fsync per file
 * (two per page were most of the stage's time). Files never kept, or left when
 * the run fails, are removed with the subdirectories.
 */
#ifndef CI_FILE_BATCH_H
#define CI_FILE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"

struct file_batch;

/* Files go to dir; the list of names kept is spooled in spool_dir. */
int file_batch_open(struct file_batch **out, const char *dir, const char *spool_dir, struct ci_error *err);
/* Any thread: file number seq (the caller's numbering), under its temporary name. */
int file_batch_write(struct file_batch *b, uint64_t seq, const void *data, size_t len, struct ci_error *err);
/* File seq becomes dir/name at commit. */
int file_batch_keep(struct file_batch *b, uint64_t seq, const char *name, struct ci_error *err);
/* File seq is not wanted: removed now. */
void file_batch_drop(struct file_batch *b, uint64_t seq);
/* write and keep, numbered by the batch from 2^63 up (one thread at a time). */
int file_batch_put(struct file_batch *b, const char *name, const void *data, size_t len,
                   struct ci_error *err);
int file_batch_commit(struct file_batch *b, struct ci_error *err);
/* fn(ctx, name, len, err) for each name kept, in the order kept; a non-zero return stops it. */
typedef int (*file_batch_name_fn)(void *ctx, const char *name, size_t len, struct ci_error *err);
int file_batch_each_kept(struct file_batch *b, file_batch_name_fn fn, void *ctx, struct ci_error *err);
/* Removes every file written and not committed; frees b. */
void file_batch_close(struct file_batch *b);

#endif
