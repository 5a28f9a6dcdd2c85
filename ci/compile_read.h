/*
 * compile_read.h - the one-line file `judge compile` leaves for a
 * submission (compile/<player>.jsonl.gz):
 * {"type":"compile","format":"judge-compile","version":1,"player":...,"verdict":"OK"|"COMPILE_ERROR"|...,
 *  "exit_code":1,"messages":"...","cpu_ns":...,"wall_ns":...}
 * and the one a tournament's smoke test leaves for a player whose matches it dropped
 * (smoke/<player>.jsonl.gz, docs/tournaments.md):
 * {"type":"smoke","format":"judge-smoke","version":1,"player":...,"verdict":...,"reason":...,
 *  "stderr_tail":...,"match_id":...}
 * Both tell why a player has no match; one of each counts per player.
 */
#ifndef CI_COMPILE_READ_H
#define CI_COMPILE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"
#include "ci/keyset.h"

struct json_object;

struct ci_compile {
    struct json_object *obj; /* owned */
    bool smoke;              /* a smoke record: messages is the stderr tail */
    const char *reason, *match_id; /* smoke only */
    const char *player, *profile, *source, *verdict, *messages;
    size_t player_len, messages_len;
    bool has_exit_code;
    int64_t exit_code;
    uint64_t cpu_ns, wall_ns;
    struct key128 identity; /* the player: one compile record counts per player */
    struct key128 outcome;  /* the player and what the record says (not its timing): shards' copies agree */
};

/* 1: text is a compile or smoke record (parsed into c); 0: it is neither; -1: it is one, but damaged (err). */
int ci_compile_parse(const char *text, size_t len, struct ci_compile *c, struct ci_error *err);
void ci_compile_free(struct ci_compile *c);
bool ci_compile_failed(const struct ci_compile *c);

#endif
