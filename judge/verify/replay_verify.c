/*
 * replay_verify.c - rebuild a match from its replay header alone, feed the
 * engine every recorded input (replies, and violations the judge found), and
 * compare every output (engine events, violations the engine found, the
 * result) with what was recorded, in order.
 *
 * The expected lines are made by the same replay_record_* functions the
 * runner uses, then parsed, so a difference is always a difference in play.
 */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text_quote.h"
#include "judge/verify/replay_verify.h"
#include "judge/match/match_replay.h"

/* Engine outputs queued between two recorded inputs: one reply may let a game run many steps
 * by itself (bomberman once every living bot has crashed). */
#define EXPECTED_MAX (1 << 20)
#define SHOWN_CHARS  240    /* of each JSON text in a difference message */

struct verifier {
    const char *path;
    struct replay_reader *rd;
    const struct game_rules *rules;
    struct game_map *map;
    struct game *g;
    int64_t params[GAME_MAX_PARAMS];
    int players;
    int asked[GAME_MAX_PLAYERS + 1];   /* replies the game asked for (README C7 j) */
    int moves[GAME_MAX_PLAYERS + 1];   /* replies the engine accepted */
    enum match_verdict verdict[GAME_MAX_PLAYERS + 1];
    struct json_object **expected;
    int head, tail, cap;
    struct strbuf sb;
    int replies;
    int inputs;                        /* replies and judge-found violations fed so far */
    replay_prompt_fn *on_prompt;       /* replay_prompts(): told each prompt before its input */
    void *prompt_ctx;
    struct replay_error *err;
};

static int fail(struct verifier *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct verifier *v, const char *fmt, ...)
{
    size_t size = sizeof v->err->msg;
    int n = snprintf(v->err->msg, size, "%s: line %d: ", v->path, replay_reader_line_no(v->rd));
    if (n < 0 || (size_t)n >= size)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->err->msg + n, size - (size_t)n, fmt, ap);
    va_end(ap);
    /* What the replay holds (recorded JSON, an engine's reason quoting a reply) reaches a terminal escaped. */
    text_escape_in_place(v->err->msg + n, size - (size_t)n);
    return -1;
}

static const char *shown(struct json_object *o)
{
    return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* ---- small typed getters --------------------------------------------------------- */

static struct json_object *member(struct json_object *o, const char *key)
{
    struct json_object *m = NULL;
    return json_object_object_get_ex(o, key, &m) ? m : NULL;
}

static bool get_int(struct json_object *o, const char *key, int64_t *out)
{
    struct json_object *m = member(o, key);
    if (!m || !json_object_is_type(m, json_type_int))
        return false;
    *out = json_object_get_int64(m);
    return true;
}

static const char *get_str(struct json_object *o, const char *key, size_t *len)
{
    struct json_object *m = member(o, key);
    if (!m || !json_object_is_type(m, json_type_string))
        return NULL;
    if (len)
        *len = (size_t)json_object_get_string_len(m);
    return json_object_get_string(m);
}

static bool same_member(struct json_object *a, struct json_object *b, const char *key)
{
    return json_object_equal(member(a, key), member(b, key));
}

/* ---- the expected queue ------------------------------------------------------------- */

static int expect_text(struct verifier *v)
{
    struct json_object *o = json_tokener_parse(v->sb.data ? v->sb.data : "");
    sb_reset(&v->sb);
    if (!o)
        return fail(v, "internal: an expected line does not parse");
    if (v->tail == EXPECTED_MAX) {
        json_object_put(o);
        return fail(v, "the engine gives more than %d lines at once", EXPECTED_MAX);
    }
    if (v->tail == v->cap) {
        int cap = v->cap ? 2 * v->cap : 256;
        struct json_object **grown = realloc(v->expected, (size_t)cap * sizeof *grown);
        if (!grown) {
            json_object_put(o);
            return fail(v, "out of memory");
        }
        v->expected = grown;
        v->cap = cap;
    }
    v->expected[v->tail++] = o;
    return 0;
}

static void drop_expected(struct verifier *v)
{
    while (v->head < v->tail)
        json_object_put(v->expected[v->head++]);
    v->head = v->tail = 0;
}

static int expect_events(struct verifier *v)
{
    struct strbuf ev = STRBUF_INIT;
    int rc = v->rules->take_events(v->g, &ev);
    for (size_t at = 0; rc == 0 && at < ev.len;) {
        const char *nl = memchr(ev.data + at, '\n', ev.len - at);
        size_t n = nl ? (size_t)(nl - (ev.data + at)) : ev.len - at;
        rc = replay_record_event(&v->sb, ev.data + at, n) < 0 ? fail(v, "out of memory") : expect_text(v);
        at += n + 1;
    }
    sb_free(&ev);
    return rc;
}

static int expect_result(struct verifier *v)
{
    struct game_result gr;
    if (v->rules->result(v->g, &gr) < 0)
        return fail(v, "the engine gives no result");
    struct match_setup s = {.rules = v->rules, .n_players = v->players};
    struct match_outcome o = {.players = v->players, .winner = gr.winner, .draw = gr.draw, .rounds = gr.rounds,
                              .replies = v->replies};
    static char unnamed[] = "";
    for (int p = 1; p <= v->players; p++) {
        s.players[p - 1].name = unnamed;
        struct match_player_outcome *po = &o.p[p];
        po->player = p;
        po->place = gr.p[p].place;
        po->points = gr.p[p].points;
        po->violation.kind = gr.p[p].violation;
        po->verdict = v->verdict[p];
        po->moves = v->moves[p];
        memcpy(po->stats, gr.p[p].stats, sizeof po->stats);
    }
    if (replay_record_result(&v->sb, &s, &o, 0) < 0)
        return fail(v, "out of memory");
    return expect_text(v);
}

/* ---- comparing one recorded output with the next expected one -------------------- */

/* Recorded CPU_LIMIT where the engine expects OK: the judge's finding after the game, from
 * figures the result carries (match_cpu_over_budget_at_end). */
static bool cpu_over_budget_at_end(struct json_object *rec, struct json_object *exp)
{
    const char *got = get_str(rec, "verdict", NULL), *want = get_str(exp, "verdict", NULL);
    int64_t cpu, budget;
    return got && want && !strcmp(got, "CPU_LIMIT") && !strcmp(want, "OK") && !member(rec, "violation") &&
           get_int(rec, "cpu_ns", &cpu) && get_int(rec, "budget_ns", &budget) && cpu >= 0 && budget >= 0 &&
           match_cpu_over_budget_at_end((uint64_t)cpu, (uint64_t)budget);
}

static bool same_result_player(struct json_object *rec, struct json_object *exp)
{
    static const char *const keys[] = {"player", "place", "points", "violation", "moves", "stats"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!same_member(rec, exp, keys[i]))
            return false;
    return same_member(rec, exp, "verdict") || cpu_over_budget_at_end(rec, exp);
}

static bool same_output(struct json_object *rec, struct json_object *exp)
{
    const char *type = get_str(exp, "type", NULL);
    if (!same_member(rec, exp, "type"))
        return false;
    if (!strcmp(type, "event"))
        return same_member(rec, exp, "event");
    if (!strcmp(type, "violation")) {
        static const char *const keys[] = {"player", "round", "reply", "kind", "verdict", "by"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (!same_member(rec, exp, keys[i]))
                return false;
        return true;
    }
    static const char *const keys[] = {"winner", "draw", "rounds", "replies"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!same_member(rec, exp, keys[i]))
            return false;
    struct json_object *rp = member(rec, "players"), *ep = member(exp, "players");
    if (!json_object_is_type(rp, json_type_array) ||
        json_object_array_length(rp) != json_object_array_length(ep))
        return false;
    for (size_t i = 0; i < json_object_array_length(ep); i++)
        if (!same_result_player(json_object_array_get_idx(rp, i), json_object_array_get_idx(ep, i)))
            return false;
    return true;
}

static int check_output(struct verifier *v, struct json_object *rec)
{
    if (v->head == v->tail) {
        if (!strcmp(get_str(rec, "type", NULL), "result") && !v->rules->over(v->g))
            return fail(v, "recorded the result but the game is not over for the engine");
        return fail(v, "recorded %.*s but the engine gives nothing", SHOWN_CHARS, shown(rec));
    }
    struct json_object *exp = v->expected[v->head];
    struct json_object *shown_rec = rec, *shown_exp = exp;
    if (!same_output(rec, exp)) {
        if (!strcmp(get_str(exp, "type", NULL), "event") && member(rec, "event")) {
            shown_rec = member(rec, "event");
            shown_exp = member(exp, "event");
        }
        char r[SHOWN_CHARS + 1];
        snprintf(r, sizeof r, "%s", shown(shown_rec));
        return fail(v, "recorded %s but the engine gives %.*s", r, SHOWN_CHARS, shown(shown_exp));
    }
    json_object_put(exp);
    v->head++;
    if (v->head == v->tail)
        v->head = v->tail = 0;
    return 0;
}

/* ---- feeding one recorded input ---------------------------------------------------- */

/* The prompt the engine gives player p now, before its recorded input is fed. */
static int tell_prompt(struct verifier *v, int p)
{
    struct strbuf text = STRBUF_INIT;
    int rc = v->rules->prompt(v->g, p, &text);
    if (rc == 0)
        rc = v->on_prompt(v->prompt_ctx, v->inputs, p, v->rules->round(v->g), text.data ? text.data : "", text.len);
    sb_free(&text);
    return rc < 0 ? fail(v, "the engine gives no prompt for player %d", p) : 0;
}

static int check_turn(struct verifier *v, struct json_object *rec, int *player)
{
    int64_t p, round, reply;
    if (!get_int(rec, "player", &p) || !get_int(rec, "round", &round) || !get_int(rec, "reply", &reply))
        return fail(v, "missing player, round or reply");
    if (v->head != v->tail)
        return fail(v, "recorded a %s of player %lld but the engine gives %.*s first",
                    get_str(rec, "type", NULL), (long long)p, SHOWN_CHARS, shown(v->expected[v->head]));
    int pending[GAME_MAX_PLAYERS];
    int n = v->rules->over(v->g) ? 0 : v->rules->pending(v->g, pending, GAME_MAX_PLAYERS);
    bool due = false;
    for (int i = 0; i < n; i++)
        due = due || pending[i] == p;
    if (!due)
        return fail(v, "recorded a %s of player %lld but the engine does not ask it for one",
                    get_str(rec, "type", NULL), (long long)p);
    if (round != v->rules->round(v->g))
        return fail(v, "recorded round %lld but the engine is at round %d", (long long)round,
                    v->rules->round(v->g));
    if (reply != v->asked[p] + 1)
        return fail(v, "recorded reply %lld of player %lld but the engine asks for reply %d",
                    (long long)reply, (long long)p, v->asked[p] + 1);
    v->asked[p]++;
    *player = (int)p;
    v->inputs++;
    return v->on_prompt ? tell_prompt(v, (int)p) : 0;
}

/* A multi-line reply is recorded as its lines joined by "\n". */
static int submit_lines(struct verifier *v, int p, const char *text, size_t len, struct game_verdict *verdict)
{
    if (v->rules->submit_output) /* a game that reads the raw bytes */
        return v->rules->submit_output(v->g, p, text, len, verdict) < 0
                   ? fail(v, "the engine refuses the reply: %s", verdict->reason)
                   : 0;
    char *copy = malloc(len + 1);
    const char *lines[64];
    int n = 0;
    if (!copy)
        return fail(v, "out of memory");
    memcpy(copy, text, len);
    copy[len] = '\0';
    for (char *s = copy; n < 64; n++) {
        lines[n] = s;
        char *nl = strchr(s, '\n');
        if (!nl) {
            n++;
            break;
        }
        *nl = '\0';
        s = nl + 1;
    }
    int rc = v->rules->submit(v->g, p, lines, n, verdict);
    free(copy);
    return rc < 0 ? fail(v, "the engine refuses the reply: %s", verdict->reason) : 0;
}

static int feed_reply(struct verifier *v, struct json_object *rec)
{
    int p;
    size_t len;
    const char *text = get_str(rec, "line", &len);
    if (check_turn(v, rec, &p) < 0)
        return -1;
    if (!text)
        return fail(v, "a reply without \"line\"");
    struct game_verdict verdict = {0};
    int round = v->rules->round(v->g);
    if (submit_lines(v, p, text, len, &verdict) < 0)
        return -1;
    v->replies++;
    if (verdict.kind == VIOLATION_NONE)
        v->moves[p]++;
    if (verdict.kind != VIOLATION_NONE) {
        struct match_violation mv = {.kind = verdict.kind, .by_game = true, .round = round,
                                     .reply = v->asked[p]};
        mv.verdict = match_verdict_of(verdict.kind, false);
        v->verdict[p] = mv.verdict;
        if (replay_record_violation(&v->sb, p, &mv, "") < 0 || expect_text(v) < 0)
            return -1;
    }
    return 0;
}

static int feed_violation(struct verifier *v, struct json_object *rec)
{
    int p;
    enum violation_kind kind;
    enum match_verdict verdict;
    const char *kind_name = get_str(rec, "kind", NULL), *verdict_name = get_str(rec, "verdict", NULL);
    if (!kind_name || violation_parse(kind_name, &kind) < 0 || kind == VIOLATION_NONE)
        return fail(v, "unknown violation kind");
    if (!verdict_name || match_verdict_parse(verdict_name, &verdict) < 0)
        return fail(v, "unknown verdict");
    if (check_turn(v, rec, &p) < 0)
        return -1;
    v->verdict[p] = verdict;
    if (v->rules->violation(v->g, p, kind) < 0)
        return fail(v, "the engine refuses the violation");
    return 0;
}

static int feed_or_check(struct verifier *v, struct json_object *rec)
{
    char quoted[4 * TEXT_QUOTE_MAX + 8];
    const char *type = get_str(rec, "type", NULL);
    const char *by = get_str(rec, "by", NULL);
    int rc;
    if (!strcmp(type, "reply"))
        rc = feed_reply(v, rec);
    else if (!strcmp(type, "violation") && by && !strcmp(by, "judge"))
        rc = feed_violation(v, rec);
    else if (!strcmp(type, "event") || !strcmp(type, "violation") || !strcmp(type, "result"))
        return check_output(v, rec);
    else
        return fail(v, "unknown line type %s", text_quote(quoted, sizeof quoted, type));
    if (rc == 0)
        rc = expect_events(v);
    if (rc == 0 && v->rules->over(v->g))
        rc = expect_result(v);
    return rc;
}

/* ---- the header ------------------------------------------------------------------- */

static int read_params(struct verifier *v, struct json_object *params)
{
    game_params_defaults(v->rules, v->params);
    if (!json_object_is_type(params, json_type_object))
        return fail(v, "header: no \"params\" object");
    char quoted[4 * TEXT_QUOTE_MAX + 8];
    json_object_object_foreach(params, name, value) {
        struct game_error gerr = {0};
        if (!json_object_is_type(value, json_type_int))
            return fail(v, "header: param %s is not an integer", text_quote(quoted, sizeof quoted, name));
        if (game_param_set(v->rules, v->params, name, json_object_get_int64(value), &gerr) < 0)
            return fail(v, "header: %s", gerr.msg);
    }
    return 0;
}

static int rebuild_game(struct verifier *v, struct json_object *header)
{
    size_t map_len;
    const char *game = get_str(header, "game", NULL), *map = get_str(header, "map", &map_len);
    const char *format = get_str(header, "format", NULL);
    int64_t version;
    struct json_object *players = member(header, "players"), *seed = member(header, "seed");
    if (!format || strcmp(format, REPLAY_FORMAT) || !get_int(header, "version", &version) ||
        version != REPLAY_VERSION)
        return fail(v, "not a %s version %d header", REPLAY_FORMAT, REPLAY_VERSION);
    char quoted[4 * TEXT_QUOTE_MAX + 8];
    if (!game || !(v->rules = game_find(game)))
        return fail(v, "unknown game %s", text_quote(quoted, sizeof quoted, game));
    if (!map || !seed || !json_object_is_type(seed, json_type_int) ||
        !json_object_is_type(players, json_type_array))
        return fail(v, "header: missing map, seed or players");
    if (read_params(v, member(header, "params")) < 0)
        return -1;
    struct game_error gerr = {0};
    if (v->rules->map_parse && v->rules->map_parse(map, map_len, v->params, &v->map, &gerr) < 0)
        return fail(v, "header: map line %d, column %d: %s", gerr.line, gerr.col, gerr.msg);
    v->players = (int)json_object_array_length(players);
    struct game_setup setup = {.map = v->map, .params = v->params, .seed = json_object_get_uint64(seed),
                               .players = v->players};
    if (v->players > GAME_MAX_PLAYERS || v->rules->create(&setup, &v->g, &gerr) < 0)
        return fail(v, "header: the engine refuses the match: %s", gerr.msg);
    return 0;
}

/* ---- the whole file ------------------------------------------------------------------- */

static int verify_lines(struct verifier *v, struct strbuf *log)
{
    struct json_object *rec;
    int rc = replay_reader_next(v->rd, &rec, v->err);
    if (rc <= 0)
        return -1;
    rc = rebuild_game(v, rec);
    json_object_put(rec);
    if (rc < 0)
        return -1;
    if (log)
        v->rules->set_log(v->g, log);
    if (expect_events(v) < 0)
        return -1;
    while ((rc = replay_reader_next(v->rd, &rec, v->err)) == 1) {
        rc = feed_or_check(v, rec);
        json_object_put(rec);
        if (rc < 0)
            return -1;
    }
    return rc;
}

static int run_verifier(struct verifier *v, struct strbuf *log, struct replay_verify_report *rep);

int replay_verify(const char *path, struct strbuf *log, struct replay_verify_report *rep,
                  struct replay_error *err)
{
    struct verifier v = {.path = path, .err = err};
    return run_verifier(&v, log, rep);
}

int replay_prompts(const char *path, replay_prompt_fn *fn, void *ctx, struct replay_error *err)
{
    struct verifier v = {.path = path, .err = err, .on_prompt = fn, .prompt_ctx = ctx};
    return run_verifier(&v, NULL, NULL);
}

static int run_verifier(struct verifier *v, struct strbuf *log, struct replay_verify_report *rep)
{
    if (replay_reader_open(v->path, &v->rd, v->err) < 0)
        return -1;
    int rc = verify_lines(v, log);
    if (rep) {
        rep->replies = v->replies;
        rep->lines = replay_reader_line_no(v->rd);
    }
    if (v->g) {
        if (log)
            v->rules->set_log(v->g, NULL);
        v->rules->destroy(v->g);
    }
    if (v->map)
        v->rules->map_free(v->map);
    drop_expected(v);
    free(v->expected);
    sb_free(&v->sb);
    replay_reader_close(v->rd);
    return rc;
}
