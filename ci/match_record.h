/*
 * match_record.h - what the results stage keeps of one replay while reading
 * it: the header's identity and players, each player's line of the result,
 * and a short summary of its violations. Everything points into the header
 * object, which the record holds until mr_free.
 */
#ifndef CI_MATCH_RECORD_H
#define CI_MATCH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"
#include "ci/keyset.h"
#include "ci/kinds.h"
#include "engine/strbuf.h"

#define MR_MAX_PLAYERS 16
#define MR_WORD        32 /* verdict and kind names */

struct json_object;

struct mr_seat {
    const char *name;
    size_t name_len;
    uint32_t player; /* index in the standings */
    bool reference;  /* the header marks it a reference bot (a gauntlet's `references:`) */
    /* from the result line */
    int place;
    int64_t points;
    char verdict[MR_WORD];
    int64_t moves;
    uint64_t cpu_ns, memory_peak_bytes;
    /* from the violation lines */
    uint64_t violations[CI_KIND_COUNT], violation_total;
    struct strbuf first_violation; /* one line: kind, where, evidence (JUnit's message) */
    struct strbuf first_stderr;    /* its stderr tail */
    char first_kind[MR_WORD];
};

struct match_record {
    struct json_object *header; /* owned */
    const char *path;
    const char *game, *map_source, *map_text;
    size_t map_len;
    uint64_t seed;
    const char *match_id; /* its JSON text, or NULL */
    int n;
    struct mr_seat seats[MR_MAX_PLAYERS];
    bool has_result;
    int64_t rounds;
    struct key128 identity; /* the whole header but timing and host facts (kernel, cpu, isolation, paths) */
    struct key128 config;   /* everything a re-run match file holds (not the seed) */
    struct key128 map;      /* the map text alone: one map file under rerun/ per map */
};

/* The fields of one violation line. */
struct mr_violation {
    int player;
    int64_t round, reply;
    const char *kind, *verdict, *by;
    struct json_object *evidence; /* an object, or NULL */
    const char *stderr_tail;
    size_t stderr_len;
};

/* Each returns 0, or -1 with a message without file or line (the caller adds them). */
int mr_header(struct match_record *m, struct json_object *header, const char *path, struct ci_error *err);
int mr_violation(const struct match_record *m, struct json_object *line, struct mr_violation *out,
                 struct ci_error *err);
int mr_result(struct match_record *m, struct json_object *line, struct ci_error *err);
void mr_free(struct match_record *m);
/* Count a violation against its seat; the first one's message and stderr tail are kept. */
int mr_note_violation(struct match_record *m, const struct mr_violation *v, struct ci_error *err);

/* Appends the map's name: "original.map", "generated map rows=6 cols=6 cities=2 players=2" (its generator
 * settings; with the seed they make the map again), or "no map" for a game without one. */
int mr_map_label(struct strbuf *sb, const struct match_record *m);

#endif
