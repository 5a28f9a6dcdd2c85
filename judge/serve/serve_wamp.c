/*
 * serve_wamp.c - WAMP v2 sessions, Basic Profile, JSON serialization (seabattle-network.md
 * §1, D5, D6, N7). The server is the router and the only callee: after HELLO/WELCOME a
 * session CALLs; REGISTER and SUBSCRIBE are refused; GOODBYE is answered and the connection
 * closed. Anything malformed ends the session with ABORT wamp.error.protocol_violation.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge/serve/serve_internal.h"

enum {
    WAMP_HELLO = 1, WAMP_WELCOME = 2, WAMP_ABORT = 3, WAMP_GOODBYE = 6, WAMP_ERROR = 8,
    WAMP_SUBSCRIBE = 32, WAMP_CALL = 48, WAMP_RESULT = 50, WAMP_REGISTER = 64,
};
#define MAX_ID      (1ull << 53)
#define JSON_DEPTH  32
#define PROTOCOL_VIOLATION "wamp.error.protocol_violation"

struct wamp_session {
    struct serve *srv;
    struct ws_conn *conn;
    uint64_t id, serial;
    bool welcomed, closing;
    struct rate calls;
};

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct wamp_session *wamp_open(struct serve *s, struct ws_conn *c)
{
    struct wamp_session *ss = calloc(1, sizeof *ss);
    if (!ss)
        return NULL;
    if (s->rng == 0)
        s->rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    ss->srv = s;
    ss->conn = c;
    ss->id = splitmix(&s->rng) % MAX_ID + 1;
    ss->serial = ++s->sessions_opened;
    return ss;
}

void wamp_closed(struct wamp_session *ss)
{
    if (!ss)
        return;
    lobby_session_closed(ss->srv, ss);
    free(ss);
}

bool wamp_idle(const struct wamp_session *ss) { return !lobby_session_busy(ss->srv->lobby, ss); }
uint64_t wamp_session_id(const struct wamp_session *ss) { return ss->id; }
uint64_t wamp_session_serial(const struct wamp_session *ss) { return ss->serial; }

/* ---- sending ------------------------------------------------------------------------------ */

static void send_sb(struct wamp_session *ss, struct strbuf *sb, int rc)
{
    if (rc == 0 && !ss->closing)
        ws_send(ss->conn, sb->data, sb->len);
    sb_free(sb);
}

static void end_with(struct wamp_session *ss, int type, const char *uri, const char *why)
{
    struct strbuf sb = STRBUF_INIT;
    if (ss->closing)
        return;
    int rc = sb_printf(&sb, "[%d,{\"message\":", type) < 0 || sb_json_string(&sb, why, strlen(why)) < 0 ||
                     sb_puts(&sb, "},") < 0 || sb_json_string(&sb, uri, strlen(uri)) < 0 || sb_putc(&sb, ']') < 0
                 ? -1
                 : 0;
    send_sb(ss, &sb, rc);
    ss->closing = true;
    ws_close_after_send(ss->conn);
}

void wamp_abort(struct wamp_session *ss, const char *uri, const char *why)
{
    end_with(ss, WAMP_ABORT, uri, why);
}

void wamp_end(struct wamp_session *ss, const char *uri, const char *why)
{
    end_with(ss, ss->welcomed ? WAMP_GOODBYE : WAMP_ABORT, uri, why);
}

void wamp_result(struct wamp_session *ss, uint64_t request, const char *value_json, size_t len)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = sb_printf(&sb, "[%d,%" PRIu64 ",{},[", WAMP_RESULT, request) < 0 || sb_append(&sb, value_json, len) < 0 ||
                     sb_puts(&sb, "]]") < 0
                 ? -1
                 : 0;
    send_sb(ss, &sb, rc);
}

void wamp_error(struct wamp_session *ss, int request_type, uint64_t request, const char *uri, const char *args_json)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = sb_printf(&sb, "[%d,%d,%" PRIu64 ",{},", WAMP_ERROR, request_type, request) < 0 ||
                     sb_json_string(&sb, uri, strlen(uri)) < 0 ||
                     (args_json && (sb_putc(&sb, ',') < 0 || sb_puts(&sb, args_json) < 0)) || sb_putc(&sb, ']') < 0
                 ? -1
                 : 0;
    send_sb(ss, &sb, rc);
}

void wamp_limit_error(struct wamp_session *ss, int request_type, uint64_t request, const char *limit,
                      uint64_t value)
{
    char args[160];
    snprintf(args, sizeof args, "[\"%s\",%" PRIu64 "]", limit, value);
    wamp_error(ss, request_type, request, "seabattle.error.limit", args);
}

/* ---- receiving ------------------------------------------------------------------------------ */

static bool only_space(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return false;
    return true;
}

static struct json_object *parse_list(const char *data, size_t len)
{
    struct json_tokener *tok = json_tokener_new_ex(JSON_DEPTH);
    struct json_object *o = NULL;
    if (!tok || len > (size_t)INT32_MAX)
        goto out;
    o = json_tokener_parse_ex(tok, data, (int)len);
    if (!o || json_tokener_get_error(tok) != json_tokener_success || !only_space(data + json_tokener_get_parse_end(tok), len - json_tokener_get_parse_end(tok)) ||
        !json_object_is_type(o, json_type_array)) {
        json_object_put(o);
        o = NULL;
    }
out:
    json_tokener_free(tok);
    return o;
}

static bool get_id(struct json_object *msg, size_t at, uint64_t *out)
{
    struct json_object *v = json_object_array_get_idx(msg, at);
    if (!json_object_is_type(v, json_type_int))
        return false;
    int64_t x = json_object_get_int64(v);
    if (x < 1 || (uint64_t)x > MAX_ID)
        return false;
    *out = (uint64_t)x;
    return true;
}

static bool is_type(struct json_object *msg, size_t at, json_type t)
{
    return json_object_is_type(json_object_array_get_idx(msg, at), t);
}

static void hello(struct wamp_session *ss, struct json_object *msg)
{
    if (json_object_array_length(msg) < 3 || !is_type(msg, 1, json_type_string) || !is_type(msg, 2, json_type_object)) {
        wamp_abort(ss, PROTOCOL_VIOLATION, "HELLO is [1, realm, details]");
        return;
    }
    struct json_object *realm = json_object_array_get_idx(msg, 1);
    const char *want = ss->srv->cfg->realm;
    if (want && ((size_t)json_object_get_string_len(realm) != strlen(want) ||
                 memcmp(json_object_get_string(realm), want, strlen(want)))) {
        wamp_abort(ss, "wamp.error.no_such_realm", "this server serves one realm only");
        return;
    }
    char text[128];
    int n = snprintf(text, sizeof text, "[%d,%" PRIu64 ",{\"roles\":{\"dealer\":{}}}]", WAMP_WELCOME, ss->id);
    ss->welcomed = true;
    ws_send(ss->conn, text, (size_t)n);
}

static void goodbye(struct wamp_session *ss)
{
    static const char bye[] = "[6,{},\"wamp.close.goodbye_and_out\"]";
    ws_send(ss->conn, bye, sizeof bye - 1);
    ss->closing = true;
    ws_close_after_send(ss->conn);
}

/* msg is the CALL parsed, text as it came: the arguments are reported as the client wrote them. */
static void call(struct wamp_session *ss, struct json_object *msg, const char *text, size_t text_len)
{
    uint64_t request;
    size_t n = json_object_array_length(msg);
    if (n < 4 || n > 6 || !get_id(msg, 1, &request) || !is_type(msg, 2, json_type_object) ||
        !is_type(msg, 3, json_type_string) || (n >= 5 && !is_type(msg, 4, json_type_array)) ||
        (n == 6 && !is_type(msg, 5, json_type_object))) {
        wamp_abort(ss, PROTOCOL_VIOLATION, "CALL is [48, request, options, procedure, arguments?, kwarguments?]");
        return;
    }
    uint64_t rate = ss->srv->cfg->limits.calls_per_second;
    if (!rate_allow(&ss->calls, rate, serve_now_ms())) {
        wamp_limit_error(ss, WAMP_CALL, request, "calls_per_second", rate);
        return;
    }
    struct json_object *procedure = json_object_array_get_idx(msg, 3);
    size_t len = (size_t)json_object_get_string_len(procedure);
    struct call_args args = {.list = n >= 5 ? json_object_array_get_idx(msg, 4) : NULL};
    if (args.list && !json_text_item(text, text_len, 4, &args.text, &args.len))
        args.text = NULL;
    calls_dispatch(ss->srv, ss, request, json_object_get_string(procedure), len, &args);
}

/* REGISTER and SUBSCRIBE: the server is the only callee and publishes nothing (D6). */
static void refuse(struct wamp_session *ss, struct json_object *msg, int type)
{
    uint64_t request;
    if (json_object_array_length(msg) != 4 || !get_id(msg, 1, &request) || !is_type(msg, 2, json_type_object) ||
        !is_type(msg, 3, json_type_string)) {
        wamp_abort(ss, PROTOCOL_VIOLATION, "malformed REGISTER or SUBSCRIBE");
        return;
    }
    wamp_error(ss, type, request, "wamp.error.not_authorized", NULL);
}

static void dispatch(struct wamp_session *ss, struct json_object *msg, const char *text, size_t len)
{
    struct json_object *code = json_object_array_get_idx(msg, 0);
    int type = json_object_is_type(code, json_type_int) ? (int)json_object_get_int64(code) : -1;
    if (!ss->welcomed) {
        if (type == WAMP_HELLO)
            hello(ss, msg);
        else
            wamp_abort(ss, PROTOCOL_VIOLATION, "the first message must be HELLO");
        return;
    }
    switch (type) {
    case WAMP_GOODBYE: goodbye(ss); return;
    case WAMP_ABORT:
        ss->closing = true;
        ws_close_after_send(ss->conn);
        return;
    case WAMP_CALL: call(ss, msg, text, len); return;
    case WAMP_REGISTER:
    case WAMP_SUBSCRIBE: refuse(ss, msg, type); return;
    default: wamp_abort(ss, PROTOCOL_VIOLATION, "a message this router does not take after WELCOME");
    }
}

void wamp_message(struct wamp_session *ss, const char *data, size_t len)
{
    if (ss->closing)
        return;
    struct json_object *msg = parse_list(data, len);
    if (!msg || json_object_array_length(msg) < 1) {
        wamp_abort(ss, PROTOCOL_VIOLATION, "a message must be a JSON list");
        json_object_put(msg);
        return;
    }
    dispatch(ss, msg, data, len);
    json_object_put(msg);
}
