/* match_replay.c - the header, violation and result lines of a match (docs/replay-format.md). */
#include <inttypes.h>
#include <json-c/json.h>
#include <string.h>

#include "judge/match/match_replay.h"
#include "judge/match/run_report.h"

/* Every sb_* call returns 0 or -1; chain them and keep the first failure. */
#define PUT(expr)             \
    do {                      \
        if ((expr) < 0)       \
            return -1;        \
    } while (0)

/* ---- header -------------------------------------------------------------------- */

int replay_record_isolation(struct strbuf *sb, const struct isolation_report *iso)
{
    struct json_object *o = isolation_report_to_json(iso);   /* `judge exec`'s own shape */
    int rc = o ? sb_puts(sb, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                                   JSON_C_TO_STRING_NOSLASHESCAPE))
               : -1;
    json_object_put(o);
    return rc;
}

static int put_params(struct strbuf *sb, const struct match_setup *s)
{
    PUT(replay_put_key(sb, "params"));
    PUT(sb_putc(sb, '{'));
    for (size_t i = 0; i < s->rules->n_params; i++)
        PUT(replay_put_kv_i64(sb, s->rules->params[i].name, s->params[i]));
    return sb_putc(sb, '}');
}

static int put_limits(struct strbuf *sb, const struct match_limits *l)
{
    PUT(replay_put_key(sb, "limits"));
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_u64(sb, "budget_base_ms", l->budget_base_ms));
    PUT(replay_put_kv_u64(sb, "budget_per_move_ms", l->budget_per_move_ms));
    PUT(replay_put_kv_u64(sb, "move_wall_ms", l->move_wall_ms));
    PUT(replay_put_kv_u64(sb, "memory_limit_mb", l->memory_limit_mb));
    PUT(replay_put_kv_u64(sb, "max_line_bytes", l->max_line_bytes));
    PUT(replay_put_kv_u64(sb, "pids", l->pids));
    PUT(replay_put_kv_u64(sb, "stderr_limit_kb", l->stderr_limit_kb));
    PUT(replay_put_kv_u64(sb, "grace_ms", l->grace_ms));
    PUT(replay_put_kv_u64(sb, "tmp_mb", l->tmp_mb));
    return sb_putc(sb, '}');
}

static int put_players(struct strbuf *sb, const struct match_setup *s)
{
    PUT(replay_put_key(sb, "players"));
    PUT(sb_putc(sb, '['));
    for (int p = 1; p <= s->n_players; p++) {
        const struct match_player *mp = &s->players[p - 1];
        if (p > 1)
            PUT(sb_putc(sb, ','));
        PUT(sb_putc(sb, '{'));
        PUT(replay_put_kv_i64(sb, "player", p));
        PUT(replay_put_kv_str(sb, "name", mp->name));
        PUT(replay_put_key(sb, "command"));
        PUT(sb_putc(sb, '['));
        for (int a = 0; a < mp->argc; a++) {
            if (a > 0)
                PUT(sb_putc(sb, ','));
            PUT(sb_json_string(sb, mp->argv[a], strlen(mp->argv[a])));
        }
        PUT(sb_putc(sb, ']'));
        PUT(replay_put_kv_str(sb, "dir", mp->dir));
        PUT(replay_put_kv_str(sb, "profile", mp->profile));
        if (mp->reference) {
            PUT(replay_put_key(sb, "reference"));
            PUT(sb_puts(sb, "true"));
        }
        PUT(sb_putc(sb, '}'));
    }
    return sb_putc(sb, ']');
}

static bool same_text(const struct strbuf *a, const struct strbuf *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

static int put_isolation_list(struct strbuf *sb, const struct strbuf *one, int n)
{
    bool same = true;
    for (int i = 1; i < n; i++)
        same = same && same_text(&one[i], &one[0]);
    if (n == 0)
        return sb_puts(sb, "null");
    if (same)
        return sb_append(sb, one[0].data, one[0].len);
    for (int i = 0; i < n; i++) {
        PUT(sb_putc(sb, i == 0 ? '[' : ','));
        PUT(sb_append(sb, one[i].data, one[i].len));
    }
    return sb_putc(sb, ']');
}

/* One object when every player has the same layers in force, else one per player. */
static int put_isolation(struct strbuf *sb, const struct match_setup *s,
                         const struct isolation_report *const *isolation)
{
    struct strbuf one[GAME_MAX_PLAYERS];
    int n = 0, rc = 0;
    for (int p = 0; p < s->n_players && rc == 0 && isolation; p++) {
        if (!isolation[p])
            continue;
        one[n] = (struct strbuf)STRBUF_INIT;
        rc = replay_record_isolation(&one[n++], isolation[p]);
    }
    if (rc == 0)
        rc = replay_put_key(sb, "isolation");
    if (rc == 0)
        rc = put_isolation_list(sb, one, n);
    for (int i = 0; i < n; i++)
        sb_free(&one[i]);
    return rc;
}

int replay_record_header(struct strbuf *sb, const struct match_setup *s,
                         const struct isolation_report *const *isolation,
                         const struct host_info *host, int64_t started_unix)
{
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_str(sb, "type", "header"));
    PUT(replay_put_kv_str(sb, "format", REPLAY_FORMAT));
    PUT(replay_put_kv_i64(sb, "version", REPLAY_VERSION));
    PUT(replay_put_kv_str(sb, "game", s->rules->name));
    PUT(replay_put_kv_str(sb, "map", s->map_text));
    PUT(replay_put_kv_str(sb, "map_source", s->map_source));
    PUT(replay_put_kv_u64(sb, "seed", s->seed));
    if (s->match_id)
        PUT(replay_put_kv_str(sb, "match_id", s->match_id));
    PUT(put_params(sb, s));
    PUT(put_limits(sb, &s->limits));
    PUT(put_players(sb, s));
    PUT(replay_put_kv_bool(sb, "freeze", s->freeze));
    PUT(replay_put_kv_str(sb, "isolation_mode", s->isolation == ISOLATION_STRICT ? "strict" : "best-effort"));
    PUT(put_isolation(sb, s, isolation));
    PUT(replay_put_kv_str(sb, "judge_version", host->judge_version));
    PUT(replay_put_kv_str(sb, "kernel", host->kernel));
    PUT(replay_put_kv_str(sb, "cpu_model", host->cpu_model));
    PUT(replay_put_key(sb, "timing"));
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_i64(sb, "started_unix", started_unix));
    PUT(sb_putc(sb, '}'));
    return sb_putc(sb, '}');
}

/* ---- play ------------------------------------------------------------------------ */

static int put_syscall(struct strbuf *sb, const struct jail_syscall *sc)
{
    PUT(replay_put_key(sb, "syscall"));
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_str(sb, "name", sc->name));
    PUT(replay_put_kv_str(sb, "arch", sc->arch));
    PUT(replay_put_kv_i64(sb, "nr", sc->nr));
    PUT(replay_put_key(sb, "args"));
    PUT(sb_putc(sb, '['));
    for (int i = 0; i < 6; i++)
        PUT(sb_printf(sb, i ? ",%" PRIu64 : "%" PRIu64, sc->args[i]));
    PUT(sb_putc(sb, ']'));
    return sb_putc(sb, '}');
}

static int put_evidence(struct strbuf *sb, const struct match_violation *v)
{
    PUT(replay_put_key(sb, "evidence"));
    PUT(sb_putc(sb, '{'));
    if (v->has_line) {
        PUT(replay_put_key(sb, "line"));
        PUT(sb_json_string(sb, v->line, v->line_len));
    }
    if (v->reason[0])
        PUT(replay_put_kv_str(sb, "reason", v->reason));
    if (v->kind == VIOLATION_TIME) {
        PUT(replay_put_kv_u64(sb, "limit_ns", v->limit_ns));
        PUT(replay_put_kv_u64(sb, "figure_ns", v->figure_ns));
    }
    if (v->kind == VIOLATION_MEMORY) {
        PUT(replay_put_kv_u64(sb, "limit_bytes", v->limit_bytes));
        PUT(replay_put_kv_u64(sb, "figure_bytes", v->figure_bytes));
    }
    if (v->has_syscall)
        PUT(put_syscall(sb, &v->syscall));
    return sb_putc(sb, '}');
}

int replay_record_violation(struct strbuf *sb, int player, const struct match_violation *v,
                            const char *stderr_tail)
{
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_str(sb, "type", "violation"));
    PUT(replay_put_kv_i64(sb, "player", player));
    PUT(replay_put_kv_i64(sb, "round", v->round));
    PUT(replay_put_kv_i64(sb, "reply", v->reply));
    PUT(replay_put_kv_str(sb, "kind", violation_name(v->kind)));
    PUT(replay_put_kv_str(sb, "verdict", match_verdict_name(v->verdict)));
    PUT(replay_put_kv_str(sb, "by", v->by_game ? "game" : "judge"));
    PUT(put_evidence(sb, v));
    PUT(replay_put_kv_str(sb, "stderr_tail", stderr_tail ? stderr_tail : ""));
    return sb_putc(sb, '}');
}

static int put_result_player(struct strbuf *sb, const struct match_setup *s,
                             const struct match_player_outcome *po)
{
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_i64(sb, "player", po->player));
    PUT(replay_put_kv_str(sb, "name", s->players[po->player - 1].name));
    PUT(replay_put_kv_i64(sb, "place", po->place));
    PUT(replay_put_kv_i64(sb, "points", po->points));
    PUT(replay_put_kv_str(sb, "verdict", match_verdict_name(po->verdict)));
    PUT(replay_put_kv_str(sb, "violation", po->violation.kind == VIOLATION_NONE ? NULL
                                                                         : violation_name(po->violation.kind)));
    PUT(replay_put_kv_i64(sb, "moves", po->moves));
    PUT(replay_put_kv_u64(sb, "cpu_ns", po->cpu_ns));
    PUT(replay_put_kv_u64(sb, "budget_ns", po->budget_ns));
    PUT(replay_put_kv_u64(sb, "memory_peak_bytes", po->memory_peak_bytes));
    PUT(replay_put_key(sb, "stats"));
    PUT(sb_printf(sb, "[%" PRId64 ",%" PRId64 ",%" PRId64 "]", po->stats[0], po->stats[1], po->stats[2]));
    return sb_putc(sb, '}');
}

int replay_record_result(struct strbuf *sb, const struct match_setup *s,
                         const struct match_outcome *o, uint64_t wall_ns)
{
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_str(sb, "type", "result"));
    PUT(replay_put_kv_i64(sb, "winner", o->winner));
    PUT(replay_put_kv_bool(sb, "draw", o->draw));
    PUT(replay_put_kv_i64(sb, "rounds", o->rounds));
    PUT(replay_put_kv_i64(sb, "replies", o->replies));
    PUT(replay_put_key(sb, "players"));
    PUT(sb_putc(sb, '['));
    for (int p = 1; p <= o->players; p++) {
        if (p > 1)
            PUT(sb_putc(sb, ','));
        PUT(put_result_player(sb, s, &o->p[p]));
    }
    PUT(sb_putc(sb, ']'));
    PUT(replay_put_key(sb, "timing"));
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_u64(sb, "wall_ns", wall_ns));
    PUT(sb_putc(sb, '}'));
    return sb_putc(sb, '}');
}
