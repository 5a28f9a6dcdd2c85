/*
 * judge/tournament/ - many matches from one file: planning, parallel workers,
 * the journal that makes them resumable, shards, and compiling each source
 * player once for the whole tournament.
 *
 * tournament.h - `judge tournament`: many matches from one file, played in
 * parallel, resumable after a kill at any moment, and shardable across
 * machines. Nothing here prints: judge/cli/cmd_tournament.c does.
 *
 *   tournament_config.c       the tournament file (match_config's section readers)
 *   tournament_plan.c         the matches: pairings, seeded samples, ids, shards
 *   tournament_fingerprint.c  a hash of everything that decides the matches
 *   tournament_outdir.c       OUT: its lock, tournament.json, stale temporary files
 *   tournament_journal.c      OUT/journal.jsonl: what is finished, and resuming
 *   tournament_check.c        set every arena and player up once before playing
 *   tournament_worker.c       one match, in a worker process
 *   tournament_runner.c       the parallel loop over the workers
 *   tournament_progress.c     the text of the progress bar and of a match's line
 */
#ifndef JUDGE_TOURNAMENT_H
#define JUDGE_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"
#include "judge/match/match.h"
#include "judge/match/match_config.h"

#define TOURNAMENT_MAX_PLAYERS 4096
#define TOURNAMENT_MAX_SEEDS   10000
#define TOURNAMENT_MAX_ARENAS  1000
#define TOURNAMENT_MAX_MATCHES 1000000
#define TOURNAMENT_ID_MAX      200 /* bytes of a match id, its NUL included */

struct tournament_error {
    char msg[700];
    bool storage; /* OUT's disk is full, read-only or failing (exit 4); set only where a caller looks */
};

/* ---- the tournament file (tournament_config.c) ------------------------------------ */

enum tournament_format { TOURNAMENT_ROUND_ROBIN, TOURNAMENT_FREE_FOR_ALL, TOURNAMENT_GAUNTLET };
const char *tournament_format_name(enum tournament_format f); /* "round-robin", ... */
/* The smoke test before the matches (tournament_smoke.c): none; failures reported; failures reported and
 * their players' matches not played. */
enum tournament_smoke { TOURNAMENT_SMOKE_OFF, TOURNAMENT_SMOKE_REPORT, TOURNAMENT_SMOKE_DROP };
const char *tournament_smoke_name(enum tournament_smoke s); /* "off", "report", "drop" */

/* Where matches are played: one map file or one generator setting. */
struct tournament_arena {
    char *map_path; /* resolved beside the tournament file; NULL when generated */
    struct named_value generate[MATCH_MAX_NAMED];
    size_t n_generate; /* `players` always set */
    int line, col;     /* the entry in the file */
};

struct tournament_config {
    char *path; /* the tournament file, as given */
    char *game;
    const struct game_rules *rules;
    struct tournament_arena *arenas;
    size_t n_arenas; /* `maps:` first, then `generate:` */
    uint64_t *seeds;
    size_t n_seeds;
    struct named_value params[MATCH_MAX_NAMED];
    size_t n_params;
    struct named_value limits[MATCH_MAX_NAMED];
    size_t n_limits;
    /* `players:` then, for a gauntlet, `references:`: players[0..n_submissions) are the first. */
    struct player_config *players;
    size_t n_players, n_submissions;
    enum tournament_format format;
    int per_match;   /* players in each match (k) */
    uint64_t sample; /* free-for-all: combinations drawn per seed; 0 = every combination */
    char *out_dir;   /* `output:`, relative to the current directory; NULL when absent */
    enum isolation_mode isolation;
    bool no_freeze;
    enum tournament_smoke smoke; /* `smoke_test:`; default drop for a gauntlet, else report */
};

/* Errors are one line, "FILE:LINE:COL: message". Map files are read to check
 * they seat per_match players. */
int tournament_config_load(const char *path, struct tournament_config *out, struct tournament_error *err);
void tournament_config_free(struct tournament_config *cfg);

/* ---- the plan (tournament_plan.c) --------------------------------------------------- */

struct tournament_match {
    size_t index; /* position in the whole tournament, from 0 */
    size_t arena; /* into cfg->arenas */
    uint64_t seed;
    int n_seats;
    uint16_t seats[GAME_MAX_PLAYERS]; /* cfg->players index of player 1, 2, ... */
};

struct tournament_plan {
    struct tournament_match *matches;
    size_t n;
    int index_width; /* digits of the index in ids */
};

/* Every match, in order: seed by seed, arena by arena, pairing by pairing. */
int tournament_plan_build(const struct tournament_config *cfg, struct tournament_plan *out,
                          struct tournament_error *err);
void tournament_plan_free(struct tournament_plan *plan);

/* "0007-tiny-s42-alice-vs-bob": the index, the arena, the seed, the players in
 * seat order (characters other than [A-Za-z0-9._+-] become '_'; long names are cut:
 * the index alone makes an id unique). Also the replay's file name, plus ".jsonl.gz". */
void tournament_match_id(const struct tournament_config *cfg, const struct tournament_plan *plan,
                         const struct tournament_match *m, char id[TOURNAMENT_ID_MAX]);
/* The index an id starts with, or -1; the caller compares the id it gives. */
long tournament_id_index(const char *id);

/* --shard I/N: match i belongs to shard (i mod N) + 1. */
struct tournament_shard {
    unsigned index, count;
}; /* 1 <= index <= count */
bool tournament_in_shard(const struct tournament_match *m, struct tournament_shard shard);
/* seated[p] (cfg->n_players of them) set for every player seated in a match of the shard. */
void tournament_shard_players(const struct tournament_plan *plan, struct tournament_shard shard,
                              bool *seated);
int tournament_shard_parse(const char *text, struct tournament_shard *out);

/* The match file of one match. Shallow: it points into cfg, so it is never
 * given to match_config_free. */
void tournament_match_config(const struct tournament_config *cfg, const struct tournament_match *m,
                             struct match_config *out);

/* ---- the fingerprint (tournament_fingerprint.c) ------------------------------------- */

/* FNV-1a 64 over the game, format, parameters, limits, isolation, arenas (map
 * files by content), seeds and players: 16 hex digits. */
int tournament_fingerprint(const struct tournament_config *cfg, char out[17], struct tournament_error *err);

/* ---- the output directory (tournament_outdir.c) ------------------------------------- */

struct tournament_outdir {
    char *path;  /* OUT */
    int lock_fd; /* flock'ed while this judge uses OUT */
    char fingerprint[17];
    struct tournament_shard shard;
    size_t n_matches, n_in_shard;
    bool complete; /* tournament.json says every playable match of the shard is finished */
};

/* Creates OUT and OUT/replays, takes the lock (one judge per OUT), removes
 * temporary files a killed run left, and writes OUT/tournament.json, or checks
 * that the one there names the same fingerprint and shard. A journal without
 * tournament.json is no tournament's (the state is written before the journal):
 * refused before any file in OUT is removed or rewritten. */
int tournament_outdir_open(const char *path, const char *fingerprint, struct tournament_shard shard,
                           size_t n_matches, size_t n_in_shard, struct tournament_outdir *out,
                           struct tournament_error *err);
void tournament_outdir_close(struct tournament_outdir *od);
/* Writes tournament.json again with "complete" (when it changes): true once a run has finished every
 * match of the shard that can be played, false while some are left, so the results stage can tell a
 * shard stopped half-way (killed, a full disk, a CI job's time limit) from a whole one. */
int tournament_outdir_set_complete(struct tournament_outdir *od, bool complete, struct tournament_error *err);
/* OUT/replays/ID.jsonl.gz, and "replays/ID.jsonl.gz" as the journal names it. */
int tournament_replay_path(const struct tournament_outdir *od, const char *id, char *out, size_t size);
/* Removes the temporary replay files of match id (what a killed worker left). */
int tournament_outdir_remove_temps(const struct tournament_outdir *od, const char *id, struct tournament_error *err);

/* ---- the journal (tournament_journal.c) ---------------------------------------------- */

#define TOURNAMENT_JOURNAL_FILE "journal.jsonl" /* in OUT */

/* A complete journal line that names no match to count: it is dropped, and shown. */
#define TOURNAMENT_IGNORED_MAX  10 /* the first ones kept; the rest only counted */
#define TOURNAMENT_IGNORED_TEXT 80 /* bytes of the line (or of its id) kept */
struct tournament_ignored_line {
    size_t line;                        /* its number in the file, from 1 */
    const char *why;                    /* "not a journal line", "no match of this tournament", ... */
    char text[TOURNAMENT_IGNORED_TEXT]; /* the line's start, or the id it names: raw, not NUL-terminated */
    size_t text_len;
    bool cut; /* text is a part of it */
};

struct tournament_journal {
    int fd; /* OUT/journal.jsonl, O_APPEND */
    char *path;
    bool *done; /* per plan index */
    size_t n_done, n_recovered, n_dropped, n_fixed;
    struct strbuf notes; /* what resuming changed, one "ID: what" line each */
    struct tournament_ignored_line ignored[TOURNAMENT_IGNORED_MAX];
    size_t n_ignored; /* every such line; the first TOURNAMENT_IGNORED_MAX in ignored[] */
};

/* Reads OUT/journal.jsonl: a match is finished when a complete line names it
 * and its replay is whole, names the match in its header and gives the same
 * line from its result (a line that disagrees is rebuilt from the replay, and
 * noted). A replay with no line (the judge was killed between the two) gets
 * its line back from the replay; a torn last line and lines of missing, damaged
 * or another match's replays are dropped, and so are complete lines that are not
 * JSON, name no match of the shard or repeat one (each kept in ignored[], up to
 * its size); the journal is then rewritten atomically before it is opened for appending. */
int tournament_journal_open(const struct tournament_outdir *od, const struct tournament_config *cfg,
                            const struct tournament_plan *plan, struct tournament_shard shard,
                            struct tournament_journal *out, struct tournament_error *err);
/* One line (no newline) with a single write, then fsync. */
int tournament_journal_append(struct tournament_journal *j, const char *line, struct tournament_error *err);
/* The two halves of append: the line written (a failed write leaves no part
 * of it), and the fsync that makes every line written so far durable. A
 * line is durable only after the sync; until then a crash may lose it, and
 * resuming rebuilds it from its replay (committed before the line is written). */
int tournament_journal_write(struct tournament_journal *j, const char *line, struct tournament_error *err);
int tournament_journal_sync(struct tournament_journal *j, struct tournament_error *err);
void tournament_journal_close(struct tournament_journal *j);

/* The journal line of a finished match from the replay's result object:
 * {"id","replay","winner" (name or null),"draw","rounds","players":[{"name","place","points","verdict"}]}. */
struct json_object;
int tournament_result_line(const char *id, struct json_object *result, struct strbuf *out);

/* ---- the smoke test (tournament_smoke.c) -------------------------------------------- */

struct tournament_smoke_result {
    const struct player_config *player;
    const char *verdict; /* "OK", a bot's verdict, or "INTERNAL_ERROR" (the test could not run) */
    const char *reason;
    const char *stderr_tail; /* its last bytes, stderr_len of them */
    size_t stderr_len;
    const char *match_id; /* the match whose first state it was given */
    bool dropped;         /* its matches are not played (smoke_test: drop) */
};
struct tournament_smoke_hooks {
    void (*tested)(void *ctx, const struct tournament_smoke_result *r); /* each player, as it finishes */
    void *ctx;
};
/* Tests every player with a playable match in the shard (cfg->smoke; nothing when off); a player dropped
 * gets smoke_failed, so its matches are unplayable, and OUT/smoke/PLAYER.jsonl.gz. *failed counts the
 * players that failed. -1 with err when a test could not be started or a record written. */
int tournament_smoke(struct tournament_config *cfg, const struct tournament_plan *plan,
                     struct tournament_shard shard, const struct tournament_outdir *od, int jobs,
                     const struct tournament_smoke_hooks *hooks, size_t *failed, struct tournament_error *err);

/* ---- one match in a worker process (tournament_worker.c) ----------------------------- */

/* Plays s, commits its replay at replay_path and leaves the journal line in line.
 * -1 with err on an internal error, TOURNAMENT_STORAGE_FAILED when the replay
 * cannot be written for a full, read-only or broken disk (no replay is left). */
#define TOURNAMENT_STORAGE_FAILED (-2)
int tournament_worker_play(const struct match_setup *s, const char *id, const char *replay_path,
                           struct strbuf *line, struct tournament_error *err);

/* ---- the parallel runner (tournament_runner.c) -------------------------------------- */

enum tournament_status {
    TOURNAMENT_ALL_PLAYED,      /* every match of the shard is finished */
    TOURNAMENT_MATCHES_FAILED,  /* some failed twice for an internal error */
    TOURNAMENT_CONFIG_FAILED,   /* a match could not be set up (err says why) */
    TOURNAMENT_INTERNAL_FAILED, /* fork failed, ... */
    TOURNAMENT_IO_FAILED,       /* the journal could not be written (err names it and why) */
};

/* What the hooks are told about. */
struct tournament_event {
    const struct tournament_match *match;
    const char *id;
    struct json_object *line; /* the journal line of a finished match, else NULL */
    const char *error;        /* an internal error of the match, else NULL */
    bool retrying;            /* the error's match is played again */
};

struct tournament_hooks {
    void (*finished)(void *ctx, const struct tournament_event *e); /* a match ended, or failed */
    void (*tick)(void *ctx); /* every tick_ms while matches run; may be NULL */
    unsigned tick_ms;
    void *ctx;
};

struct tournament_run {
    const struct tournament_config *cfg;
    const struct tournament_plan *plan;
    const struct tournament_outdir *out;
    struct tournament_journal *journal;
    struct tournament_shard shard;
    int jobs;
};

/* Plays every unfinished match of the shard, `jobs` at a time, each in its own
 * process; a match ending in an internal error is played once more. */
enum tournament_status tournament_run(const struct tournament_run *run, const struct tournament_hooks *hooks,
                                      size_t *n_failed, struct tournament_error *err);

/* ---- the set-up check (tournament_check.c) ------------------------------------------ */

/* Sets up (without playing) the first match of every arena and of every player,
 * so a bad map or a missing bot program is found before anything runs. */
int tournament_check(const struct tournament_config *cfg, const struct tournament_plan *plan,
                     struct tournament_error *err);

/* ---- progress text (tournament_progress.c) ------------------------------------------- */

struct tournament_progress {
    size_t total;    /* matches in the shard */
    size_t done;     /* finished, those of earlier runs included */
    size_t done_now; /* finished by this run */
    size_t failed;
    uint64_t started_ns;
    const char *game; /* its name: what a round is called ("after 57 shots") */
};

/* "[#######.............] 12/48  3.1 matches/s  0:12 left", width columns at most. */
void tournament_progress_bar(const struct tournament_progress *p, uint64_t now_ns, int width, char *out,
                             size_t size);
/* "12/48 ID: alice wins after 25 rounds (alice 1 OK, bob 2 RUNTIME_ERROR)". */
void tournament_progress_line(const struct tournament_progress *p, const char *id, struct json_object *line,
                              struct strbuf *out);

#endif
