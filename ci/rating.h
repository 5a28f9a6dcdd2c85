/*
 * rating.h - Bradley-Terry strengths by maximum likelihood (Hunter's MM
 * algorithm), with a weak prior and standard errors from the Fisher
 * information. Pure arithmetic: the same pairs in the same player order give
 * the same numbers, whatever order the matches were read in
 * (docs/results.md says why this model).
 *
 * theta[i] is player i's log-strength; P(i beats j) = 1 / (1 + exp(theta[j] - theta[i])).
 * The prior is `prior_games` games, half won, against a virtual player of
 * theta 0: it keeps every estimate finite (a player who won everything).
 * theta comes back centred (mean 0) and se[i] is the standard error of
 * theta[i] - mean(theta), so the common level, which only the prior pins
 * down, adds nothing to it.
 */
#ifndef CI_RATING_H
#define CI_RATING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"

struct bt_pair {
    uint32_t a, b;           /* player indices, a != b */
    double a_score, b_score; /* games won by each (a draw gives each half) */
};

struct bt_options {
    double prior_games; /* > 0; 1 is a weak prior */
    double tolerance;   /* stop when no theta moves by more than this */
    int max_iterations;
    size_t exact_se_max_players; /* above this, standard errors ignore correlations (O(n^3) otherwise) */
};
#define BT_DEFAULT_OPTIONS ((struct bt_options){1.0, 1e-10, 200000, 1500})

struct bt_fit {
    int iterations;
    bool converged;
    bool se_exact;
};

/* theta and se each hold n doubles. */
int bt_fit(size_t n, const struct bt_pair *pairs, size_t n_pairs, const struct bt_options *opt, double *theta,
           double *se, struct bt_fit *info, struct ci_error *err);

/* Elo-like points: 1500 + 400 log10(strength). */
double bt_elo(double theta);
double bt_elo_se(double se);

#endif
