/*
 * match_seat.h - one player's bot during a match: its jail, its channel, the
 * reply it owes and how that reply ended (README C7, C9, C10). Private to
 * match_runner.c and match_seat.c.
 */
#ifndef JUDGE_MATCH_SEAT_H
#define JUDGE_MATCH_SEAT_H

#include <stdbool.h>
#include <stdint.h>

#include "judge/match/bot_channel.h"
#include "judge/match/match.h"
#include "judge/match/match_datadir.h"
#include "judge/match/match_phases.h"
#include "judge/match/match_raw_reply.h"
#include "sandbox/jail.h"

enum seat_phase {
    SEAT_PLAYING,   /* in the game */
    SEAT_ENDING,    /* the game is over for it: final message, stdin closed, grace period */
    SEAT_DONE,      /* jail finished, report taken */
};

enum seat_reply {
    REPLY_IDLE,       /* no reply owed */
    REPLY_WAITING,
    REPLY_COMPLETE,   /* text holds the reply (lines joined by "\n") */
    REPLY_VIOLATION,  /* violation says why there is none */
};

struct seat {
    int player;
    const struct match_setup *setup;
    const struct match_datadirs *dirs;
    int serial;                     /* which of the player's processes (game.h process_serial) */
    struct game *game;              /* for game.h reply_line_check */
    uint64_t started_ns;            /* when its current process started */
    struct jail *jail;              /* NULL once finished */
    struct bot_channel ch;
    bool channel_ready;
    enum seat_phase phase;
    uint64_t grace_deadline_ns;

    enum seat_reply reply;
    int want_lines, got_lines;
    bool raw;                       /* the game reads raw bytes (game.h submit_output) */
    struct raw_reply raw_reply;
    struct strbuf text;
    uint64_t due_ns, written_ns;    /* written_ns 0 while the prompt is still being written */
    struct game_reply_wall wall;    /* the wall limit of the reply owed (game.h reply_wall) */
    uint64_t reply_cpu_ns, reply_wall_ns;
    uint64_t cpu_asked_ns;          /* reply_cpu_ns when the reply owed was asked for (0: a new process) */
    uint64_t reply_used_ns;         /* the CPU of the reply alone; UINT64_MAX until measured */
    int asked;                      /* replies asked for so far: j of README C7 */
    int moves;                      /* replies the engine accepted */

    bool overspent;                 /* --no-freeze: passed its next budget while not its turn */
    uint64_t overspent_cpu_ns;
    bool ended_unseen;              /* --no-freeze: ended while not its turn */

    /* Held only when it buys fairness: a bot asleep reading its stdin when its
     * reply was metered cannot run before its next prompt unless it wakes
     * itself, which the CPU it spent meanwhile shows; from then on it is held. */
    bool idle_on_stdin;             /* at its last reply's reading */
    uint64_t idle_cpu_ns;           /* that reading */
    bool hold_skipped;              /* not held since that reply */
    bool wakes_itself;              /* it once ran while not held: always held */

    bool violated;
    struct match_violation violation;
    bool has_report;
    struct jail_report report;
    uint64_t cpu_before_ns, memory_peak_before, rss_peak_before;  /* of its earlier processes */
    struct match_phases *phases;    /* the judge's CPU by phase (bench), or NULL */
};

/* Start the bot in its jail (frozen when the setup freezes bots), in its data
 * directory when dirs has them. */
int seat_start(struct seat *st, const struct match_setup *s, const struct match_datadirs *dirs, int player,
               int serial, struct jail_error *err);
/* Start the player's process number `serial` once the previous one is done
 * (SEAT_DONE); what the seat counted so far is kept. */
int seat_restart(struct seat *st, int serial, struct jail_error *err);
/* CPU of all its processes, and the largest memory peak of any. */
void seat_meters(const struct seat *st, uint64_t *cpu_ns, uint64_t *memory_peak);
/* The largest peak RSS of any of its processes. */
uint64_t seat_rss_peak(const struct seat *st);
/* Kill and finish whatever is left; free the channel. Safe on any seat. */
void seat_abandon(struct seat *st);

uint64_t seat_budget_ns(const struct seat *st, int reply);   /* 0 when the CPU budget is off */
uint64_t seat_wall_deadline_ns(const struct seat *st);        /* 0 when the wall limit is off */

/* A reply is due now, `lines` lines within `wall`: note it, deliver `prompt` (after anything
 * queued), thaw. Classifies at once a bot that overspent or ended while not its turn. */
int seat_ask(struct seat *st, const char *prompt, size_t len, int lines, const struct game_reply_wall *wall,
             int round, struct jail_error *err);
/* Write what is queued and read what has arrived; may complete the reply or
 * find a violation. */
int seat_pump(struct seat *st, int round, struct jail_error *err);
/* jail_wait_any reported, for the reply being waited for: */
/* When bots are frozen: freeze a bot in the game that owes no reply (left
 * running after a reply read exactly while it slept). Before any wait on others. */
int seat_hold(struct seat *st, struct jail_error *err);
int seat_cpu_limit_hit(struct seat *st, int round, struct jail_error *err);
int seat_deadline_passed(struct seat *st, int round, struct jail_error *err);
int seat_ended(struct seat *st, int round, struct jail_error *err);

/* Queue bytes for the bot (dropped silently if it is gone). */
int seat_send(struct seat *st, const char *data, size_t len, struct jail_error *err);
/* The game is over for this bot: stdin closes once the queue is written,
 * then it has grace_ms (thawed) to exit. */
int seat_begin_end(struct seat *st, struct jail_error *err);
/* During SEAT_ENDING: write the queue, close stdin once empty. */
int seat_end_progress(struct seat *st, struct jail_error *err);
/* Kill what is left and take the report: SEAT_DONE. */
int seat_finish(struct seat *st, struct jail_error *err);

/* Once its jail is finished: a kill for memory or a forbidden call becomes its violation (true). */
bool seat_note_sandbox_kill(struct seat *st, int round);

/* Append the last lines of its stderr (at most max bytes). */
int seat_stderr_tail(struct seat *st, size_t max, struct strbuf *out);

#endif
