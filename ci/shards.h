/*
 * shards.h - the shards of a tournament given to the results stage, as their
 * output directories' tournament.json say (docs/tournaments.md): which
 * tournament (its fingerprint) and which shard I/N each holds. Shards merged
 * into one standings table must be one tournament's, each once, none missing;
 * every way they are not is one line naming the directories.
 */
#ifndef CI_SHARDS_H
#define CI_SHARDS_H

#include <stdbool.h>
#include <stddef.h>

#include "ci/ci_error.h"
#include "engine/strbuf.h"

struct shard_dir {
    char *state; /* DIR/tournament.json */
    char fingerprint[17];
    unsigned index, count; /* 0/0 when the file could not be read */
    bool complete;         /* "complete": true, or no such key (a judge older than it) */
};

struct shards {
    struct shard_dir *v;
    size_t n, cap;
};

/* Reads DIR/tournament.json (path is that file) into s. -1 only when out of memory:
 * a file that cannot be read is kept as such, for shards_check to name. */
int shards_add(struct shards *s, const char *state_path, struct ci_error *err);
/* Appends to problems one line (ending in '\n') per problem: an unreadable state file,
 * another tournament than the first directory's, another shard count, a shard given
 * twice, a shard not played to the end, a shard missing. Returns how many, or -1 when out of memory. */
long shards_check(const struct shards *s, struct strbuf *problems);
void shards_free(struct shards *s);

#endif
