/*
 * serve_game.c - one network game through the sea battle engine, exactly as `judge run`
 * drives it: each board is a reply of 10 lines (round 0, reply 1), each shot a reply of one
 * line `x y` (an invalid one too, as the client wrote it: the engine refuses it as it refuses
 * a bot's), and what the server itself finds (time, a closed session) is a violation by the
 * judge. The replay lines are kept in
 * memory in the order replay_verify.c expects and written once the game is over
 * (serve_record.c); the engine writes the §7 log as it goes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/match/match_replay.h"
#include "replay/replay.h"
#include "judge/serve/serve_internal.h"
#include "sandbox/jail.h"

int net_board_check(const int64_t *params, const char *const *lines, const size_t *lens, int n,
                    struct sea_board *out, char *why, size_t whylen)
{
    struct sea_board_error err = {SEA_RULE_NONE, ""};
    struct sea_fleet fleet = sea_fleet_of(params);
    int rc = 0;
    sea_board_init(out);
    for (int y = 0; y < n && y < SEA_SIDE && rc == 0; y++)
        rc = sea_board_add_line(out, lines[y], lens[y], params[SP_MAX_LINE_BYTES], &err);
    if (rc == 0 && n != SEA_SIDE) {
        snprintf(why, whylen, "S2: a board is %d lines, not %d", SEA_SIDE, n);
        return -1;
    }
    if (rc == 0)
        rc = sea_board_finish(out, &fleet, &err);
    if (rc < 0)
        snprintf(why, whylen, "%s: %s", sea_rule_name(err.rule), err.msg);
    return rc;
}

/* ---- replay lines ---------------------------------------------------------------------------- */

static int keep_line(struct net_game *g, struct strbuf *line)
{
    int rc = sb_append(&g->lines, line->data ? line->data : "", line->len) < 0 || sb_putc(&g->lines, '\n') < 0
                 ? -1
                 : 0;
    sb_reset(line);
    return rc;
}

static int keep_events(struct net_game *g)
{
    struct strbuf ev = STRBUF_INIT, line = STRBUF_INIT;
    int rc = g->g->rules->take_events(g->g, &ev);
    for (size_t at = 0; rc == 0 && at < ev.len;) {
        const char *start = ev.data + at, *nl = memchr(start, '\n', ev.len - at);
        size_t n = nl ? (size_t)(nl - start) : ev.len - at;
        if (n > 0)
            rc = replay_record_event(&line, start, n) < 0 ? -1 : keep_line(g, &line);
        at += n + 1;
    }
    sb_free(&ev);
    sb_free(&line);
    return rc;
}

/* How the game ended, when the engine refused a reply: the shot as sent, or the board. */
static void tell_refusal(struct net_game *g, int p, int round, const char *joined,
                         const struct match_violation *v)
{
    const char *verdict = match_verdict_name(v->verdict);
    if (g->why[0])
        return;
    if (round == 0)
        snprintf(g->why, sizeof g->why, "player %d's board: %s (%s)", p, v->reason, verdict);
    else
        snprintf(g->why, sizeof g->why, "player %d's shot `%.100s`: %s (%s)", p, joined, v->reason, verdict);
}

/* A reply given to the engine, recorded first (as match_runner.c does), and any refusal. */
static int give_reply_cpu(struct net_game *g, int p, const char *const *lines, int n, const char *joined,
                          uint64_t cpu_ns, uint64_t wall_ns)
{
    struct net_seat *st = &g->seat[p];
    int round = g->g->rules->round(g->g);
    struct strbuf line = STRBUF_INIT;
    st->replies++;
    struct replay_reply rec = {.n = ++g->replies, .player = p, .round = round, .reply = st->replies,
                               .line = joined, .len = strlen(joined), .cpu_ns = cpu_ns, .wall_ns = wall_ns};
    struct game_verdict verdict = {0};
    int rc = replay_record_reply(&line, &rec) < 0 || keep_line(g, &line) < 0 ? -1 : 0;
    if (rc == 0)
        rc = g->g->rules->submit(g->g, p, lines, n, &verdict);
    if (rc == 0 && verdict.kind == VIOLATION_NONE)
        st->moves++;
    else if (rc == 0) {
        struct match_violation v = {.kind = verdict.kind, .verdict = match_verdict_of(verdict.kind, false),
                                    .by_game = true, .round = round, .reply = st->replies};
        match_violation_set_line(&v, joined, strlen(joined));
        snprintf(v.reason, sizeof v.reason, "%s", verdict.reason);
        st->violated = true;
        st->verdict = v.verdict;
        tell_refusal(g, p, round, joined, &v);
        rc = replay_record_violation(&line, p, &v, "") < 0 || keep_line(g, &line) < 0 ? -1 : 0;
    }
    sb_free(&line);
    return rc < 0 || keep_events(g) < 0 ? -1 : 0;
}

static int give_reply(struct net_game *g, int p, const char *const *lines, int n, const char *joined,
                      uint64_t wall_ns)
{
    return give_reply_cpu(g, p, lines, n, joined, 0, wall_ns);
}

static int give_board(struct net_game *g, int p, const struct sea_board *board)
{
    const char *lines[SEA_SIDE];
    char joined[SEA_SIDE * (SEA_SIDE + 1)];
    size_t at = 0;
    for (int y = 0; y < SEA_SIDE; y++) {
        memcpy(g->board[p][y], board->line[y], SEA_SIDE + 1);
        lines[y] = board->line[y];
        memcpy(joined + at, board->line[y], SEA_SIDE);
        at += SEA_SIDE;
        joined[at++] = y + 1 < SEA_SIDE ? '\n' : '\0';
    }
    g->has_board[p] = true;
    return give_reply(g, p, lines, SEA_SIDE, joined, 0);
}

int net_params_check(const int64_t *params, char *err, size_t errlen)
{
    struct game *g = NULL;
    struct game_setup setup = {.params = params, .players = 2};
    struct game_error gerr = {0};
    if (seabattle_rules.create(&setup, &g, &gerr) < 0) {
        snprintf(err, errlen, "%s", gerr.msg);
        return -1;
    }
    seabattle_rules.destroy(g);
    return 0;
}

struct net_game *net_game_new(const int64_t *params, int64_t id, const char *player1,
                              const struct sea_board *board, char *err, size_t errlen)
{
    struct net_game *g = calloc(1, sizeof *g);
    struct game_setup setup = {.params = params, .players = 2};
    struct game_error gerr = {0};
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (seabattle_rules.create(&setup, &g->g, &gerr) < 0) {
        snprintf(err, errlen, "the engine refuses the game: %s", gerr.msg);
        free(g);
        return NULL;
    }
    g->id = id;
    memcpy(g->params, params, sizeof g->params);
    g->status = NET_WAITING;
    g->created_ms = serve_now_ms();
    g->started_unix = (int64_t)time(NULL);
    g->started_ns = monotonic_ns();
    snprintf(g->seat[1].id, sizeof g->seat[1].id, "%s", player1);
    g->g->rules->set_log(g->g, &g->log);
    if (keep_events(g) < 0 || give_board(g, 1, board) < 0) {
        snprintf(err, errlen, "out of memory");
        net_game_free(g);
        return NULL;
    }
    return g;
}

int net_game_join(struct net_game *g, const char *player2, const struct sea_board *board)
{
    snprintf(g->seat[2].id, sizeof g->seat[2].id, "%s", player2);
    g->status = NET_PLAYING;
    g->turn_ms = serve_now_ms();   /* D10: player 1's clock starts now */
    int rc = give_board(g, 2, board);
    net_game_conclude(g);
    return rc;
}

int net_game_shooter(const struct net_game *g)
{
    int pending[2];
    if (g->status != NET_PLAYING || g->g->rules->over(g->g))
        return 0;
    return g->g->rules->pending(g->g, pending, 2) == 1 ? pending[0] : 0;
}

int net_game_shoot(struct net_game *g, int p, const struct net_shot *shot, uint64_t wall_ns,
                   const char **result)
{
    if (net_game_shooter(g) != p)
        return -1;
    const char *lines[1] = {shot->line};
    int rc = give_reply(g, p, lines, 1, shot->line, wall_ns);
    struct strbuf out = STRBUF_INIT;
    if (rc == 0)
        rc = g->g->rules->outbox(g->g, p, &out);
    *result = "game-over";
    if (rc == 0 && out.len > 1) {   /* "miss\n", "hit\n" or "sunk\n"; nothing after a refused line */
        static const char *const names[] = {"miss", "hit", "sunk"};
        for (size_t i = 0; i < 3; i++)
            if (out.len == strlen(names[i]) + 1 && !memcmp(out.data, names[i], out.len - 1))
                *result = names[i];
    }
    sb_free(&out);
    g->turn_ms = serve_now_ms();
    net_game_conclude(g);
    return rc;
}

int net_game_violation(struct net_game *g, int p, enum violation_kind kind, enum match_verdict verdict,
                       const char *reason, uint64_t limit_ns, uint64_t figure_ns)
{
    if (net_game_shooter(g) != p)
        return -1;
    struct net_seat *st = &g->seat[p];
    struct strbuf line = STRBUF_INIT;
    struct match_violation v = {.kind = kind, .verdict = verdict, .by_game = false,
                                .round = g->g->rules->round(g->g), .reply = ++st->replies,
                                .limit_ns = limit_ns, .figure_ns = figure_ns};
    snprintf(v.reason, sizeof v.reason, "%s", reason);
    st->violated = true;
    st->verdict = v.verdict;
    int rc = replay_record_violation(&line, p, &v, "") < 0 || keep_line(g, &line) < 0 ? -1 : 0;
    sb_free(&line);
    if (rc == 0 && g->g->rules->violation(g->g, p, kind) < 0)
        rc = -1;
    if (rc == 0)
        rc = keep_events(g);
    net_game_conclude(g);
    return rc;
}

/* Lines of a reply as the bot wrote them, cut at '\n' (at most `max`); the copy is NUL-terminated. */
static int split_lines(char *copy, const char **lines, int max)
{
    int n = 0;
    for (char *at = copy; n < max;) {
        lines[n++] = at;
        char *nl = strchr(at, '\n');
        if (!nl)
            break;
        *nl = '\0';
        at = nl + 1;
    }
    return n;
}

static int give_text(struct net_game *g, int p, const char *text, size_t len, uint64_t cpu_ns, uint64_t wall_ns)
{
    char *copy = malloc(len + 1), *joined = malloc(len + 1);
    const char *lines[SEA_SIDE];
    int rc = -1;
    if (copy && joined) {
        memcpy(copy, text, len);
        copy[len] = '\0';
        memcpy(joined, copy, len + 1);
        int want = g->g->rules->reply_lines(g->g, p);
        int n = split_lines(copy, lines, want < SEA_SIDE ? want : SEA_SIDE);
        rc = give_reply_cpu(g, p, lines, n, joined, cpu_ns, wall_ns);
    }
    free(copy);
    free(joined);
    return rc;
}

/* For get-game-info: the board's cells, when the board is valid. */
static void keep_valid_board(struct net_game *g, int p, const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    const char *lines[SEA_SIDE + 1];
    size_t lens[SEA_SIDE + 1];
    struct sea_board b;
    char why[256];
    if (!copy)
        return;
    memcpy(copy, text, len);
    copy[len] = '\0';
    int n = split_lines(copy, lines, SEA_SIDE + 1);
    for (int i = 0; i < n; i++)
        lens[i] = strlen(lines[i]);
    if (net_board_check(g->params, lines, lens, n, &b, why, sizeof why) == 0) {
        for (int y = 0; y < SEA_SIDE; y++)
            memcpy(g->board[p][y], b.line[y], SEA_SIDE + 1);
        g->has_board[p] = true;
    }
    free(copy);
}

static void house_seat(struct net_game *g, const char *player2)
{
    snprintf(g->seat[2].id, sizeof g->seat[2].id, "%s", player2);
    g->seat[2].house = true;
    g->house_reserved = false;
    g->status = NET_PLAYING;
    g->turn_ms = serve_now_ms();
}

int net_game_join_reply(struct net_game *g, const char *player2, const char *text, size_t len, uint64_t cpu_ns,
                        uint64_t wall_ns)
{
    house_seat(g, player2);
    int rc = give_text(g, 2, text, len, cpu_ns, wall_ns);
    keep_valid_board(g, 2, text, len);
    net_game_conclude(g);
    return rc;
}

int net_game_join_violation(struct net_game *g, const char *player2, enum violation_kind kind,
                            enum match_verdict verdict, const char *reason, uint64_t limit_ns, uint64_t figure_ns)
{
    house_seat(g, player2);
    int rc = net_game_violation(g, 2, kind, verdict, reason, limit_ns, figure_ns);
    net_game_conclude(g);
    return rc;
}

int net_game_reply_line(struct net_game *g, int p, const char *text, size_t len, uint64_t cpu_ns, uint64_t wall_ns)
{
    if (net_game_shooter(g) != p)
        return -1;
    int rc = give_text(g, p, text, len, cpu_ns, wall_ns);
    g->turn_ms = serve_now_ms();
    net_game_conclude(g);
    return rc;
}

void net_game_conclude(struct net_game *g)
{
    struct game_result r;
    if (g->status != NET_PLAYING || !g->g->rules->over(g->g) || g->g->rules->result(g->g, &r) < 0)
        return;
    g->status = NET_OVER;
    g->result = r.winner == 1 ? "player1-win" : r.winner == 2 ? "player2-win" : "draw";
    if (g->why[0])
        return;
    if (r.winner && !r.p[3 - r.winner].alive)
        snprintf(g->why, sizeof g->why, "player %d's fleet is sunk", 3 - r.winner);
    else
        snprintf(g->why, sizeof g->why, "shot_limit (%d shots) reached", r.rounds);
}

void net_game_free(struct net_game *g)
{
    if (!g)
        return;
    if (g->g) {
        g->g->rules->set_log(g->g, NULL);
        g->g->rules->destroy(g->g);
    }
    sb_free(&g->lines);
    sb_free(&g->log);
    free(g);
}
