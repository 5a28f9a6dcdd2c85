/*
 * standings.h - the aggregate of every match read: per player (by name) the
 * results, points, CPU and violations; per pair that met, the head-to-head
 * figures. Memory grows with players and pairs, never with matches.
 * standings_finish fits the ratings and sorts the table.
 */
#ifndef CI_STANDINGS_H
#define CI_STANDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"
#include "ci/kinds.h"
#include "ci/match_record.h"

/* How often a player finished a match with one verdict. */
struct ci_verdict_count {
    char name[MR_WORD];
    uint64_t count;
};
#define CI_MAX_VERDICTS 8

struct ci_player {
    char *name;
    size_t name_len;
    uint64_t matches, wins, draws, losses;
    int64_t points;
    uint64_t cpu_ns;
    uint64_t violations[CI_KIND_COUNT], violation_total;
    uint64_t junit_failures, junit_errors, junit_time_ns;
    bool has_compile, compile_failed;
    char compile_verdict[MR_WORD];
    bool reference; /* a teacher's bot: ranked apart from the class */
    bool smoke_failed;              /* dropped by the tournament's smoke test: no match played */
    char smoke_verdict[MR_WORD];
    uint64_t violation_matches; /* matches with at least one violation */
    struct ci_verdict_count verdicts[CI_MAX_VERDICTS]; /* its verdicts other than OK, by name */
    uint64_t other_verdicts;                           /* those past CI_MAX_VERDICTS names */
    /* set by standings_finish */
    double rating, rating_se; /* Elo-like points; NaN without a match */
    int rank;      /* within its group: the class, or the reference bots */
    int rank_last; /* the last place its tie group spans (rank when not tied) */
};

/* One pair that met; a < b. A "win" of a is a match a finished ahead of b. */
struct ci_pair {
    uint32_t a, b;
    uint64_t matches, a_wins, b_wins, draws;
    uint64_t a_units, b_units; /* the rating's scores, in 1/CI_UNITS of a game (exact, so order-free) */
};
#define CI_UNITS 720720u /* lcm(1..16): a free-for-all of k players counts each pair 1/(k-1) */

struct standings {
    struct ci_player *players;
    uint32_t n, cap;
    uint32_t *name_slots; /* open addressing: index + 1, 0 empty */
    uint32_t name_cap;
    struct ci_pair *pairs; /* open addressing: matches == 0 marks an empty slot */
    size_t pair_cap, n_pairs;
    uint64_t matches;
    char *games[8];
    size_t n_games;
    bool more_games;
    /* set by standings_finish */
    uint32_t *order; /* the players shown: the class best first, then the reference bots best first */
    uint32_t n_order;
    uint32_t n_class; /* order[0..n_class) is the class, the rest reference bots */
    bool rating_converged, se_exact;
    int rating_iterations;
};

void standings_init(struct standings *st);
void standings_free(struct standings *st);
/* Find or add a player. */
int standings_player(struct standings *st, const char *name, size_t len, uint32_t *index,
                     struct ci_error *err);
/* A player shown in the standings (it played or has a compile record): 1 with *index, else 0. */
int standings_find(const struct standings *st, const char *name, size_t len, uint32_t *index);
/* Marks a player as a reference bot (by the replay header or the grading file). */
void standings_mark_reference(struct standings *st, uint32_t player);
/* Points per match: the ranking measure (the win rate when a win scores 1); 0 without a match. */
double standings_per_match(const struct ci_player *p);
/* Every seat's `player` must be set. */
int standings_add_match(struct standings *st, const struct match_record *m, struct ci_error *err);
void standings_add_compile(struct standings *st, uint32_t player, const char *verdict);
void standings_add_smoke(struct standings *st, uint32_t player, const char *verdict);
/* A failed compile or smoke test: the player played no match, through its own fault; ranked last. */
bool standings_not_played(const struct ci_player *p);
/* The pair's record (a != b, any order), or NULL when they never met. */
const struct ci_pair *standings_pair(const struct standings *st, uint32_t a, uint32_t b);
/* Head-to-head of x against y: wins, draws, losses of x. */
void standings_h2h(const struct standings *st, uint32_t x, uint32_t y, uint64_t *w, uint64_t *d, uint64_t *l);
int standings_finish(struct standings *st, struct ci_error *err);

#endif
