/*
 * serve_calls.c - the five procedures of seabattle-network.md §2, their argument checks
 * (D7), the check order of shoot (D9), what stays hidden during play (N3) and the game
 * limits (D12). Positional arguments; each result is the RESULT's only argument.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "judge/serve/serve_internal.h"

#define CALL 48

static void invalid_argument(struct wamp_session *ss, uint64_t request, const char *why)
{
    struct strbuf args = STRBUF_INIT;
    if (sb_putc(&args, '[') == 0 && sb_json_string(&args, why, strlen(why)) == 0 && sb_putc(&args, ']') == 0)
        wamp_error(ss, CALL, request, "wamp.error.invalid_argument", args.data);
    sb_free(&args);
}

static void error_with(struct wamp_session *ss, uint64_t request, const char *uri, const char *why)
{
    struct strbuf args = STRBUF_INIT;
    if (sb_putc(&args, '[') == 0 && sb_json_string(&args, why, strlen(why)) == 0 && sb_putc(&args, ']') == 0)
        wamp_error(ss, CALL, request, uri, args.data);
    sb_free(&args);
}

static size_t list_length(struct json_object *list)
{
    return list ? json_object_array_length(list) : 0;
}

/* NULL when there is no such item (a CALL may carry no arguments list at all). */
static struct json_object *item(struct json_object *list, size_t i)
{
    return i < list_length(list) ? json_object_array_get_idx(list, i) : NULL;
}

static size_t arg_count(const struct call_args *args) { return list_length(args->list); }
static struct json_object *arg(const struct call_args *args, size_t i) { return item(args->list, i); }

/* Argument i as the client wrote it, for a message or the replay. */
static void arg_shown(const struct call_args *args, size_t i, char *out, size_t outlen)
{
    const char *at = NULL;
    size_t n = 0;
    if (args->text && !json_text_item(args->text, args->len, i, &at, &n))
        at = NULL;
    json_text_shown(arg(args, i), at, n, out, outlen);
}

/* The game named by argument 0, or NULL after answering. */
static struct net_game *game_arg(struct serve *s, struct wamp_session *ss, uint64_t request,
                                 const struct call_args *args, size_t want)
{
    if (arg_count(args) != want || !json_object_is_type(arg(args, 0), json_type_int)) {
        char why[96];
        snprintf(why, sizeof why, "expected %zu argument(s), the first an integer game-id", want);
        invalid_argument(ss, request, why);
        return NULL;
    }
    struct net_game *g = lobby_find(s->lobby, json_object_get_int64(arg(args, 0)));
    if (!g) {   /* json-c gives INT64_MAX for 2**70: the id is told as it was sent */
        char id[48], why[64];
        arg_shown(args, 0, id, sizeof id);
        snprintf(why, sizeof why, "no game %s", id);
        error_with(ss, request, "seabattle.error.no_such_game", why);
    }
    return g;
}

/* ---- new-game (N1) ---------------------------------------------------------------------------- */

static void new_game(struct serve *s, struct wamp_session *ss, uint64_t request, const struct call_args *args)
{
    const struct serve_limits *lim = &s->cfg->limits;
    struct json_object *id = arg(args, 0), *board = arg(args, 1);
    if (arg_count(args) != 2 || !json_object_is_type(id, json_type_string) ||
        !limits_player_id_ok(json_object_get_string(id), (size_t)json_object_get_string_len(id))) {
        invalid_argument(ss, request, "expected a player-id (1..64 printable ASCII characters) and a board");
        return;
    }
    if (!json_object_is_type(board, json_type_array) || json_object_array_length(board) > 64) {
        invalid_argument(ss, request, "the board must be a list of strings");
        return;
    }
    const char *lines[64];
    size_t lens[64];
    int n = (int)json_object_array_length(board);
    for (int i = 0; i < n; i++) {
        struct json_object *line = item(board, (size_t)i);
        if (!json_object_is_type(line, json_type_string)) {
            invalid_argument(ss, request, "the board must be a list of strings");
            return;
        }
        lines[i] = json_object_get_string(line);
        lens[i] = (size_t)json_object_get_string_len(line);
    }
    const char *player = json_object_get_string(id);
    if (s->house && !strcmp(player, house_name(s->house))) {
        error_with(ss, request, "seabattle.error.reserved_player_id",
                   "this player-id is the house bot's: pick another");
        return;
    }
    if (lobby_live_games_of(s->lobby, player) >= lim->max_games_per_player) {
        wamp_limit_error(ss, CALL, request, "max_games_per_player", lim->max_games_per_player);
        return;
    }
    if (lobby_live_games(s->lobby) >= lim->max_live_games) {
        wamp_limit_error(ss, CALL, request, "max_live_games", lim->max_live_games);
        return;
    }
    struct sea_board checked;
    char why[256];
    if (net_board_check(s->cfg->params, lines, lens, n, &checked, why, sizeof why) < 0) {
        error_with(ss, request, "seabattle.error.invalid_board", why);
        return;
    }
    struct net_game *g = lobby_pair(s, ss, player, &checked, why, sizeof why);
    if (!g) {
        serve_warn(s, "new-game: %s", why);
        error_with(ss, request, "wamp.error.runtime_error", why);
        return;
    }
    char text[32];
    int len = snprintf(text, sizeof text, "%" PRId64, g->id);
    wamp_result(ss, request, text, (size_t)len);
}

/* ---- shoot (N2, D7, D9) -------------------------------------------------------------------------- */

static void coordinate(const struct call_args *args, size_t i, char *out, size_t outlen)
{
    struct json_object *v = arg(args, i);
    int64_t c = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : 0;
    if (c >= 1 && c <= SEA_SIDE)
        snprintf(out, outlen, "%d", (int)c);
    else
        arg_shown(args, i, out, outlen);   /* json-c's value may not be what was sent: 10**20 */
}

static struct net_shot shot_of(const struct call_args *args)
{
    struct net_shot shot;
    char x[44], y[44];
    coordinate(args, 1, x, sizeof x);
    coordinate(args, 2, y, sizeof y);
    snprintf(shot.line, sizeof shot.line, "%s %s", x, y);
    return shot;
}

static void shoot(struct serve *s, struct wamp_session *ss, uint64_t request, const struct call_args *args)
{
    struct net_game *g = game_arg(s, ss, request, args, 3);
    if (!g)
        return;
    int p = lobby_seat_of(g, ss);
    if (p == 0) {
        error_with(ss, request, "seabattle.error.not_your_game", "this session has no seat in that game");
        return;
    }
    if (g->status == NET_OVER) {
        wamp_result(ss, request, "\"game-over\"", 11);
        return;
    }
    if (g->seat[p].held) {
        error_with(ss, request, "seabattle.error.shot_pending", "a shot of this seat is already waiting");
        return;
    }
    struct net_shot shot = shot_of(args);
    lobby_shoot(s, g, p, request, &shot);
}

/* ---- what anyone may read (N3) --------------------------------------------------------------------- */

static void get_games(struct serve *s, struct wamp_session *ss, uint64_t request,
                      const struct call_args *args)
{
    struct strbuf sb = STRBUF_INIT;
    if (arg_count(args) != 0) {
        invalid_argument(ss, request, "get-games takes no argument");
        return;
    }
    if (lobby_ids_json(s->lobby, &sb) == 0)
        wamp_result(ss, request, sb.data, sb.len);
    sb_free(&sb);
}

static int put_board(struct strbuf *sb, const struct net_game *g, int p)
{
    if (g->status != NET_OVER || !g->has_board[p])
        return sb_puts(sb, "null");
    int rc = sb_putc(sb, '[');
    for (int y = 0; y < SEA_SIDE && rc == 0; y++)
        rc = (y && sb_putc(sb, ',') < 0) || sb_json_string(sb, g->board[p][y], SEA_SIDE) < 0 ? -1 : 0;
    return rc < 0 ? -1 : sb_putc(sb, ']');
}

static const char *status_of(const struct net_game *g)
{
    return g->status == NET_WAITING ? "waiting" : g->status == NET_PLAYING ? "in-progress" : g->result;
}

static void get_game_info(struct serve *s, struct wamp_session *ss, uint64_t request,
                          const struct call_args *args)
{
    struct net_game *g = game_arg(s, ss, request, args, 1);
    struct strbuf sb = STRBUF_INIT;
    if (!g)
        return;
    int rc = sb_printf(&sb, "[\"%s\",", status_of(g)) < 0 || sb_json_string(&sb, g->seat[1].id, strlen(g->seat[1].id)) < 0 ||
                     sb_putc(&sb, ',') < 0 ||
                     (g->seat[2].id[0] ? sb_json_string(&sb, g->seat[2].id, strlen(g->seat[2].id)) : sb_puts(&sb, "null")) < 0 ||
                     sb_putc(&sb, ',') < 0 || put_board(&sb, g, 1) < 0 || sb_putc(&sb, ',') < 0 ||
                     put_board(&sb, g, 2) < 0 || sb_putc(&sb, ']') < 0
                 ? -1
                 : 0;
    if (rc == 0)
        wamp_result(ss, request, sb.data, sb.len);
    sb_free(&sb);
}

static void get_game_log(struct serve *s, struct wamp_session *ss, uint64_t request,
                         const struct call_args *args)
{
    struct net_game *g = game_arg(s, ss, request, args, 1);
    struct strbuf sb = STRBUF_INIT;
    if (!g)
        return;
    if (g->status != NET_OVER) {
        error_with(ss, request, "seabattle.error.not_over", "the log of a game is given once it is over");
        return;
    }
    if (sb_json_string(&sb, g->log.data ? g->log.data : "", g->log.len) == 0)
        wamp_result(ss, request, sb.data, sb.len);
    sb_free(&sb);
}

void calls_dispatch(struct serve *s, struct wamp_session *ss, uint64_t request, const char *procedure,
                    size_t len, const struct call_args *args)
{
    static const struct {
        const char *name;
        void (*run)(struct serve *, struct wamp_session *, uint64_t, const struct call_args *);
    } procedures[] = {
        {"new-game", new_game},           {"shoot", shoot},
        {"get-games", get_games},         {"get-game-info", get_game_info},
        {"get-game-log", get_game_log},
    };
    for (size_t i = 0; i < sizeof procedures / sizeof procedures[0]; i++)
        if (len == strlen(procedures[i].name) && !memcmp(procedure, procedures[i].name, len)) {
            procedures[i].run(s, ss, request, args);
            return;
        }
    error_with(ss, request, "wamp.error.no_such_procedure", "the procedures are new-game, shoot, get-games, "
                                                             "get-game-info and get-game-log");
}
