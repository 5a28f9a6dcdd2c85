/*
 * page_batch.h - the match pages under OUT/matches/, many small files written
 * the atomic way at the cost of a few: each page goes to a temporary name as
 * soon as it is built (on any thread, no fsync), and at the end one syncfs
 * puts them all on disk, each is renamed to its name and the directory is
 * fsynced once. A reader sees a page whole or not at all, as with
 * common/atomic_file.h, without an fsync per page (two per page were most of
 * the stage's time). Pages never kept, or left when the run fails, are removed.
 */
#ifndef CI_PAGE_BATCH_H
#define CI_PAGE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"

struct page_batch;

/* Pages go to dir; the list of names kept is spooled in spool_dir. */
int page_batch_open(struct page_batch **out, const char *dir, const char *spool_dir, struct ci_error *err);
/* Any thread: the page of input number seq, under its temporary name. */
int page_batch_write(struct page_batch *b, uint64_t seq, const void *data, size_t len, struct ci_error *err);
/* The page of seq becomes dir/name at commit. */
int page_batch_keep(struct page_batch *b, uint64_t seq, const char *name, struct ci_error *err);
/* The page of seq is not wanted: removed now. */
void page_batch_drop(struct page_batch *b, uint64_t seq);
int page_batch_commit(struct page_batch *b, struct ci_error *err);
/* Removes every page written and not committed; frees b. */
void page_batch_close(struct page_batch *b);

#endif
