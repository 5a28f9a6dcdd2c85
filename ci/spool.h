/*
 * spool.h - records kept on disk instead of in memory, read back grouped by
 * chain (a player): an unlinked temporary file where each record links to the
 * next one of its chain. Memory holds one buffer and a head and tail per
 * chain, whatever the number of records.
 *
 * A transaction (spool_begin ... spool_commit or spool_rollback) lets a
 * replay's records be withdrawn when the replay turns out damaged at its end.
 */
#ifndef CI_SPOOL_H
#define CI_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"
#include "engine/strbuf.h"

struct spool;

/* The temporary file is made in dir (and unlinked at once). */
int spool_open(const char *dir, struct spool **out, struct ci_error *err);
void spool_close(struct spool *s);

int spool_append(struct spool *s, uint32_t chain, const void *data, size_t len, struct ci_error *err);
uint64_t spool_count(const struct spool *s, uint32_t chain);
/* Where the next record appended will be, for spool_read. */
uint64_t spool_next_offset(const struct spool *s);
/* The data of the record at offset into sb (replacing its contents). */
int spool_read(struct spool *s, uint64_t offset, struct strbuf *sb, struct ci_error *err);

void spool_begin(struct spool *s);
void spool_commit(struct spool *s);
int spool_rollback(struct spool *s, struct ci_error *err);

/* Calls fn for every record of chain, oldest first; stops at fn's first non-zero return. */
typedef int (*spool_fn)(void *ctx, const char *data, size_t len, struct ci_error *err);
int spool_each(struct spool *s, uint32_t chain, spool_fn fn, void *ctx, struct ci_error *err);

#endif
