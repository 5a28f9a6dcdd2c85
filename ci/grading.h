/*
 * grading.h - a grading file (`--grading GRADING.yaml`, docs/results.md):
 * rules that each give points to a player who meets them, and the reference
 * players (the teacher's bots) who are not graded. Errors are
 * "FILE:LINE:COL: message" (common/yaml_reader.h), status CI_STATUS_USAGE.
 */
#ifndef CI_GRADING_H
#define CI_GRADING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"
#include "common/yaml_reader.h"

enum grading_criterion { GR_WINS, GR_NO_VIOLATIONS, GR_TOP_PERCENT };

struct grading_rule {
    char *name;
    int64_t points;
    enum grading_criterion kind;
    char *against; /* GR_WINS: the opponent, or NULL for every opponent */
    struct yr_mark against_mark;
    int64_t at_least, of; /* GR_WINS: `of` 0 when not given */
    int64_t percent;      /* GR_TOP_PERCENT: 1..100 */
};

struct grading {
    char *path;
    struct grading_rule *rules;
    size_t n_rules;
    char **reference;
    struct yr_mark *reference_marks;
    size_t n_reference;
    int64_t max_points; /* the sum of every rule's points */
};

int grading_load(const char *path, struct grading *g, struct ci_error *err);
void grading_free(struct grading *g);
bool grading_is_reference(const struct grading *g, const char *name, size_t len);
/* Whether some rule asks `player` for wins against `opponent` (a loss is then a JUnit failure). */
bool grading_wants_wins(const struct grading *g, const char *player, size_t player_len, const char *opponent,
                        size_t opponent_len);
/* "FILE:LINE:COL: message" for an opponent or a reference named in the file that did not play. */
int grading_fail_at(const struct grading *g, struct yr_mark at, struct ci_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
