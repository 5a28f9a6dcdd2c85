/*
 * fuzz_reply.c - every game's reading of a bot's replies and the play that
 * follows. The first byte picks the game; the rest is a sequence of replies
 * separated by 0x1e, each given to the next pending player as the runner
 * would (line checks, then submit; raw bytes to submit_output); a reply of
 * one byte 0x01..0x06 is a violation of that kind instead.
 */
#include "engine/game.h"
#include "tests/fuzz/fuzz_input.h"

#define SEPARATOR   0x1e
#define MAX_LINES   64

struct fuzz_game {
    const char *name;
    struct game_option opts[3];
    size_t n_opts;
};

static const struct fuzz_game games[] = {
    {"generals", {{"rows", 5}, {"cols", 5}, {"players", 2}}, 3},
    {"seabattle", {{"players", 2}}, 1},
    {"warlight", {{"players", 2}}, 0},
};

static void reply(const struct game_rules *r, struct game *g, int p, const char *text, size_t len)
{
    struct game_verdict v;
    if (len == 1 && text[0] >= 1 && text[0] <= VIOLATION_INVALID_MOVE) {
        r->violation(g, p, (enum violation_kind)text[0]);
        return;
    }
    if (r->submit_output) {
        r->submit_output(g, p, text, len, &v);
        return;
    }
    char *copy = malloc(len + 1);
    const char *lines[MAX_LINES];
    int want = r->reply_lines(g, p), n = 0;
    if (!copy)
        abort();
    memcpy(copy, text, len);
    copy[len] = '\0';
    for (char *s = copy; n < MAX_LINES && n < want; n++) {
        lines[n] = s;
        char *nl = strchr(s, '\n');
        if (!nl) {
            s += strlen(s);
            continue;
        }
        *nl = '\0';
        s = nl + 1;
    }
    int given = n;
    for (int i = 0; r->reply_line_check && i + 1 < n; i++)
        if (r->reply_line_check(g, p, i, lines[i], strlen(lines[i]), &v) == 0 && v.kind != VIOLATION_NONE) {
            given = i + 1;
            break;
        }
    if (given > 0)
        r->submit(g, p, lines, given, &v);
    free(copy);
}

static void play(const struct game_rules *r, struct game *g, const uint8_t *data, size_t size)
{
    struct strbuf text = STRBUF_INIT, log = STRBUF_INIT;
    r->set_log(g, &log);
    for (size_t at = 0; at <= size && !r->over(g);) {
        const uint8_t *end = memchr(data + at, SEPARATOR, size - at);
        size_t len = end ? (size_t)(end - (data + at)) : size - at;
        int pending[GAME_MAX_PLAYERS];
        int n = r->pending(g, pending, GAME_MAX_PLAYERS);
        if (n <= 0)
            break;
        int p = pending[0];
        r->outbox(g, p, &text);
        if (r->prompt_argv) {
            int argc;
            r->prompt_argv(g, p, &text, &argc);
        } else {
            r->prompt(g, p, &text);
        }
        reply(r, g, p, (const char *)data + at, len);
        r->take_events(g, &text);
        sb_reset(&text);
        at += len + 1;
    }
    struct game_result res;
    if (r->over(g))
        r->result(g, &res);
    r->set_log(g, NULL);
    sb_free(&text);
    sb_free(&log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const struct fuzz_game *fg = &games[data[0] % 3];
    const struct game_rules *r = game_find(fg->name);
    int64_t params[GAME_MAX_PARAMS];
    game_params_defaults(r, params);
    struct game_map *map = NULL;
    struct game_error err;
    struct strbuf notes = STRBUF_INIT;
    if (r->map_generate && r->map_generate(fg->opts, fg->n_opts, 1, &map, &notes, &err) < 0)
        abort(); /* the fixed maps above are valid */
    sb_free(&notes);
    struct game_setup setup = {map, params, 1, 2};
    struct game *g;
    if (r->create(&setup, &g, &err) < 0)
        abort();
    play(r, g, data + 1, size - 1);
    r->destroy(g);
    if (map)
        r->map_free(map);
    return 0;
}
