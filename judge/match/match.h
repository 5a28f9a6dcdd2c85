/*
 * judge/match/ - playing one match: the match file (match_config*.c), its
 * resolution into a setup, the runner and its process drivers (seats for bots
 * that live a match, match_turns.c for a process per turn), the bounded pipe
 * I/O (bot_channel.c), per-player data directories, verdicts, the replay lines
 * of a match (match_replay.c), the JSON run report (run_report.c) and the CPU a
 * match of cheap replies keeps to (match_pin.c).
 *
 * match.h - one match: a resolved setup (match_setup.c), the verdict table
 * (match_verdict.c) and the runner (match_runner.c) that plays it with every
 * bot in the jail and returns an outcome. Nothing here prints or exits:
 * `judge run` and, later, tournaments print what they need.
 */
#ifndef JUDGE_MATCH_H
#define JUDGE_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"
#include "judge/match/match_config.h"
#include "sandbox/jail.h"

/* The per-player verdict of a match: one table, in match_verdict.c. */
enum match_verdict {
    MATCH_OK,
    MATCH_CPU_LIMIT,
    MATCH_WALL_LIMIT,
    MATCH_RUNTIME_ERROR,
    MATCH_MEMORY_LIMIT,
    MATCH_FORBIDDEN_SYSCALL,
    MATCH_INVALID_OUTPUT,
    MATCH_INVALID_MOVE,
    MATCH_INTERNAL_ERROR,
    MATCH_VERDICT_COUNT
};
const char *match_verdict_name(enum match_verdict v);          /* "CPU_LIMIT", ... */
int match_verdict_parse(const char *name, enum match_verdict *out);
/* The verdict of a violation; `wall` picks WALL_LIMIT over CPU_LIMIT for time. */
enum match_verdict match_verdict_of(enum violation_kind kind, bool wall);
/* A player the game ended with no violation, whose CPU counted at its end passed its
 * budget: CPU_LIMIT all the same. It happens where no cgroup counts the CPU of a bot's
 * children while they run (the rlimit fallback): they are counted once reaped, at the
 * bot's end at the latest, too late to tell the game, whose result stands. */
bool match_cpu_over_budget_at_end(uint64_t cpu_ns, uint64_t budget_ns);

/* Limits in force. The time and memory figures are game parameters (README C5);
 * the others belong to the runner. A time figure of 0 turns that limit off. */
struct match_limits {
    uint64_t budget_base_ms, budget_per_move_ms, move_wall_ms, memory_limit_mb, max_line_bytes;
    uint64_t pids, stderr_limit_kb, grace_ms, tmp_mb;
    const char *move_wall_param;   /* the game's parameter move_wall_ms comes from; NULL: move_wall_ms */
};
/* The name a reason gives the wall limit of one reply: the game's own parameter. */
const char *match_wall_param(const struct match_limits *l);
#define MATCH_DEFAULT_PIDS            64
#define MATCH_DEFAULT_STDERR_LIMIT_KB 64
#define MATCH_DEFAULT_GRACE_MS        1000
#define MATCH_DEFAULT_TMP_MB          16
#define MATCH_DEFAULT_MAX_LINE        4096   /* README C3, for a game without max_line_bytes */

struct match_player {
    char *name;
    char **argv;        /* NULL-terminated */
    int argc;
    char *dir;          /* host directory bound at /bot; NULL = none */
    char *profile;      /* never NULL ("default") */
    char *ro_binds[2];  /* NULL-terminated: the runtime's configuration directory (judge/match/command_runtime.h) */
    char *java_options; /* the jvm profile's "JAVA_TOOL_OPTIONS=...", else NULL */
    const char *jvm_env[5]; /* the jvm profile's environment, with java_options */
    struct compiled_bot *compiled; /* a source player's bot (judge/compile/source_player.h), else NULL */
    bool reference;     /* a tournament's reference bot (the replay header says so) */
};

struct match_setup {
    const struct game_rules *rules;
    struct game_map *map;
    char *map_text;      /* the map in the game's own format (rules->map_write) */
    char *map_source;    /* the map file's path, or "generate k=v ..." */
    char *map_notes;     /* what the generator reported (e.g. a lowered distance), or NULL */
    int64_t params[GAME_MAX_PARAMS];  /* in the order of rules->params */
    uint64_t seed;
    struct match_limits limits;
    int n_players;
    struct match_player players[GAME_MAX_PLAYERS];  /* player p is players[p - 1] */
    enum isolation_mode isolation;
    bool freeze;         /* freeze bots while it is not their turn */
    char *replay_path;   /* where `judge run` writes the replay */
    const char *match_id; /* a tournament's id for the match, in the replay header; NULL = none, not owned */
    int smoke_player;    /* a smoke test (tournament_smoke.c): only this player's bot runs, for its first
                            reply alone; 0 = a whole match */
    int worker;          /* a tournament worker's number (1, 2, ...): which CPU the match keeps to while its
                            replies are cheap (match_pin.h); 0 = the one the judge thread is on */
    bool spread_cpus;    /* never keep the match on one CPU (make bench compares) */
};

/* Command-line options of `judge run`, applied over the match file. */
struct match_overrides {
    bool has_seed;
    uint64_t seed;
    const char *replay_path;          /* NULL: the file's, or the default name */
    const char *const *params;        /* "name=value" strings */
    size_t n_params;
    bool has_isolation;
    enum isolation_mode isolation;
    bool no_freeze;
    int64_t now_unix;                 /* for the default replay name */
};

struct match_error { char msg[640]; };

/* Config + overrides -> a playable setup. Errors are one line: "FILE:LINE:COL:
 * message" for the match file, "MAPFILE:LINE:COL: message" for a map, or
 * "--param ...: message" for an option. Checks every bot command exists. */
int match_setup_resolve(const struct match_config *cfg, const struct match_overrides *ov,
                        struct match_setup *out, struct match_error *err);
void match_setup_free(struct match_setup *s);
/* The jail spec of player p (1-based); argv/env point into s and static data. */
void match_setup_jail_spec(const struct match_setup *s, int player, struct jail_spec *spec);

/* What the replay and the caller learn about a violation. */
struct match_violation {
    enum violation_kind kind;
    enum match_verdict verdict;
    bool by_game;             /* found by game submit (invalid output/move), not the runner */
    int round, reply;         /* when the reply was due; reply = j of README C7 */
    char line[256];           /* what the bot sent, if anything (bounded; may hold a NUL) */
    size_t line_len;
    bool has_line;
    bool line_cut_short;      /* line is a reply cut short: what came before the bot ended or time ran out */
    char reason[192];
    uint64_t limit_ns, figure_ns;      /* time */
    uint64_t cpu_waited_ns;            /* a wall limit: the CPU the bot used while it was waited for */
    uint64_t limit_bytes, figure_bytes; /* memory */
    bool has_syscall;
    struct jail_syscall syscall;
};

/* Keep what the bot sent as evidence, cut to the size of v->line. */
void match_violation_set_line(struct match_violation *v, const char *text, size_t len);
/* A time or crash violation of a bot whose process limit was reached (a fork or a new thread
 * failed): the reason says so, the first cause of what followed. */
void match_violation_note_process_limit(struct match_violation *v, const struct jail_report *rep,
                                        uint64_t pids);

struct match_player_outcome {
    int player, place;
    int64_t points;
    enum match_verdict verdict;
    struct match_violation violation;  /* kind NONE when none */
    int moves;                         /* replies the engine accepted */
    uint64_t cpu_ns, budget_ns;        /* budget_ns 0 = no CPU budget */
    uint64_t memory_peak_bytes;        /* the cgroup's peak, what the memory limit is against */
    uint64_t rss_peak_bytes;           /* the largest peak RSS of its processes (ru_maxrss) */
    int64_t stats[3];
    char *stderr_tail;                 /* last stderr_limit_kb of stderr; caller frees via match_outcome_free */
};

struct match_outcome {
    int players;
    int winner;      /* 0 for a draw, or when the match was not played to the end */
    bool draw;
    int rounds;
    int replies;
    struct match_player_outcome p[GAME_MAX_PLAYERS + 1];  /* indexed 1..players */
};
void match_outcome_free(struct match_outcome *o);

struct replay_writer;

struct match_hooks {
    void (*round_started)(void *ctx, int round);   /* may be NULL */
    void *ctx;
};

/* Play the match. With a replay writer, every line of the replay is written
 * to it (header first, result last). Returns 0 when the match was played
 * (whatever happened to the bots), -1 on an internal error: every player's
 * verdict is then INTERNAL_ERROR and err says what failed. */
int match_play(const struct match_setup *s, struct replay_writer *replay,
               const struct match_hooks *hooks, struct match_outcome *out, struct match_error *err);

/* match_play, adding the judge's own CPU by phase of the match to *phases
 * (judge/match/match_phases.h; for make bench). */
struct match_phases;
int match_play_measured(const struct match_setup *s, struct replay_writer *replay,
                        const struct match_hooks *hooks, struct match_phases *phases, struct match_outcome *out,
                        struct match_error *err);

#endif
