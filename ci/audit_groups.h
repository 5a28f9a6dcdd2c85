/*
 * audit_groups.h - audit.md shows near-identical entries of a player once: the same kind,
 * verdict, finder and reason once the numbers in it are set aside (a bot that sends the same
 * wrong line in 18 matches gives one entry, "18 times", with where the first and the last
 * were). audit.json keeps every entry. Each spooled audit.md record starts with a line
 * "KEY\tWHERE\n" (KEY 32 hex digits, WHERE Markdown naming the match), then the section,
 * whose heading "### " the writer numbers.
 */
#ifndef CI_AUDIT_GROUPS_H
#define CI_AUDIT_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"
#include "ci/keyset.h"
#include "engine/strbuf.h"

/* The group key of a violation; the words go in as given, the reason with each run of digits as one '#'. */
struct key128 audit_group_key(const char *kind, const char *verdict, const char *by, const char *reason,
                              size_t reason_len);
/* Appends a record's first line. */
int audit_group_line(struct strbuf *sb, struct key128 key, const char *where, size_t where_len);

struct spool;
struct out_file;
/* Writes chain's records to out, each group once, numbered 1, 2, ...; *shown is how many sections. */
int audit_groups_write(struct spool *md, uint32_t chain, struct out_file *out, uint64_t *shown,
                       struct ci_error *err);
/* How many sections chain's records make (groups), without writing them. */
int audit_groups_count(struct spool *md, uint32_t chain, uint64_t *groups, struct ci_error *err);

#endif
