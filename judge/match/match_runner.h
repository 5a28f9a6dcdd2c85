/*
 * match_runner.h - what the runner's files share: one match being played.
 * match_runner.c drives the engine and writes the replay; match_wait.c waits
 * on bots that run for a whole match (or a round: game.h process_serial);
 * match_turns.c runs the games that start a process per turn.
 */
#ifndef JUDGE_MATCH_RUNNER_H
#define JUDGE_MATCH_RUNNER_H

#include "judge/match/match_datadir.h"
#include "judge/match/match_seat.h"
#include "judge/match/match_pin.h"
#include "judge/match/match_turns.h"

struct replay_writer;

struct runner {
    const struct match_setup *s;
    const struct game_rules *rules;
    struct game *g;
    enum process_model model;          /* of this match (game.h match_process_model) */
    struct replay_writer *replay;
    const struct match_hooks *hooks;
    struct match_phases *phases;       /* NULL but in match_play_measured */
    struct seat seats[GAME_MAX_PLAYERS + 1];  /* every player's record; its bot in PROCESS_PER_MATCH */
    struct match_datadirs dirs;
    struct match_turns *turns;         /* PROCESS_PER_TURN */
    struct match_pin pin;              /* one CPU while replies are cheap (PROCESS_PER_MATCH) */
    struct strbuf line, text;
    int replies, last_round;
    struct match_error *err;
    struct jail_error jerr;
};

int runner_fail(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int runner_jail_failed(struct runner *r);   /* r->jerr as the match's error */

/* match_wait.c: until no reply is owed any more (each is complete or a violation). */
int runner_wait_replies(struct runner *r, int round);
/* Until every bot being ended has ended, or been killed after its grace period. */
int runner_wait_endings(struct runner *r);

#endif
