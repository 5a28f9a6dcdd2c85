/*
 * fuzz_wamp.c - `judge serve`'s WAMP message handling (judge/serve/serve_wamp.c, then the
 * procedures of serve_calls.c and the pairing, turns and clocks of serve_lobby.c) with the
 * server's default limits and no socket. The input is a sequence of frames separated by
 * '\n'. A frame starting with '1' or '2' is a text message (the rest of the frame) of that
 * session, so two sessions can pair and play; a session that was closed (ABORT, GOODBYE) is
 * gone, as its connection would be, and its next frame opens a new one. A frame starting
 * with any other byte B advances the clock by B seconds and runs the server's tick (the
 * move and wait clocks). Every message the server sends must be a JSON list.
 *
 * The transport's ws_send and ws_close_after_send (serve_ws.c, libwebsockets) and the clock
 * serve_now_ms are replaced at link time (-Wl,--wrap, FUZZ_LDFLAGS_wamp in the Makefile).
 * FUZZ_WAMP_TRACE=1 in the environment prints what each session is sent.
 */
#include <json-c/json.h>

#include "judge/serve/serve_internal.h"
#include "tests/fuzz/fuzz_input.h"

#define SEPARATOR '\n'
#define SESSIONS  2

struct ws_conn {
    struct wamp_session *session;
    int index;   /* 1 or 2 */
    bool closing;
};

static uint64_t fake_now_ms;

uint64_t __wrap_serve_now_ms(void);
int __wrap_ws_send(struct ws_conn *c, const char *text, size_t len);
void __wrap_ws_close_after_send(struct ws_conn *c);

uint64_t __wrap_serve_now_ms(void) { return fake_now_ms; }

/* What the server sends must be one JSON list (WAMP's JSON serialization). */
int __wrap_ws_send(struct ws_conn *c, const char *text, size_t len)
{
    if (c->closing)
        abort();   /* nothing may follow an ABORT or GOODBYE */
    struct json_tokener *tok = json_tokener_new();
    struct json_object *o = tok ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
    bool list = o && json_object_is_type(o, json_type_array) && json_tokener_get_parse_end(tok) == len;
    json_object_put(o);
    json_tokener_free(tok);
    if (!list) {
        fprintf(stderr, "fuzz_wamp: the server sent %.*s\n", (int)len, text);
        abort();
    }
    if (getenv("FUZZ_WAMP_TRACE"))   /* to see what a seed reaches */
        fprintf(stderr, "%d< %.*s\n", c->index, (int)len, text);
    return 0;
}

void __wrap_ws_close_after_send(struct ws_conn *c) { c->closing = true; }

static void close_conn(struct ws_conn *c)
{
    if (c->session)
        wamp_closed(c->session);
    c->session = NULL;
    c->closing = false;
}

static void frame(struct serve *s, struct ws_conn *conns, const char *data, size_t len)
{
    if (len == 0)
        return;
    if (data[0] != '1' && data[0] != '2') {
        fake_now_ms += (uint64_t)(unsigned char)data[0] * 1000u;
        serve_tick(s);
    } else {
        struct ws_conn *c = &conns[data[0] - '1'];
        if (!c->session && !(c->session = wamp_open(s, c)))
            abort();
        if (len - 1 > s->cfg->limits.max_message_bytes)   /* the transport's own limit */
            wamp_abort(c->session, "wamp.error.protocol_violation", "over net_max_message_bytes");
        else
            wamp_message(c->session, data + 1, len - 1);
    }
    fake_now_ms += 1;
    for (int i = 0; i < SESSIONS; i++)
        if (conns[i].closing)
            close_conn(&conns[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct serve_config cfg;
    static const struct serve_hooks hooks;
    serve_config_defaults(&cfg);   /* replays_dir NULL: games are not written */
    struct serve s = {.cfg = &cfg, .hooks = &hooks, .rng = 1};
    struct ws_conn conns[SESSIONS] = {{.index = 1}, {.index = 2}};
    fake_now_ms = 1000000;
    if (!(s.lobby = lobby_new(&cfg, 1)))
        abort();
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *sep = memchr(p, SEPARATOR, (size_t)(end - p));
        size_t len = sep ? (size_t)(sep - p) : (size_t)(end - p);
        frame(&s, conns, p, len);
        p += len + (sep ? 1 : 0);
    }
    for (int i = 0; i < SESSIONS; i++)
        close_conn(&conns[i]);
    lobby_abort_all(&s);
    lobby_free(s.lobby);
    return 0;
}
