/*
 * serve_ws.c - the WebSocket transport of `judge serve` over libwebsockets: the page on
 * "/", the upgrade to `wamp.2.json` on "/ws" (wherever the client lists it; any other path
 * or subprotocol is refused at the handshake, D5), whole text messages handed to
 * serve_wamp.c (libwebsockets checks that text frames are UTF-8), and every byte limit of
 * the server: the message size (net_max_message_bytes), unsent bytes per connection, bytes
 * held in all, the time a started message may take, the time queued bytes may wait, idle
 * connections, and the number of connections: one over max_connections is upgraded all the
 * same, so that a WAMP client reads why it is turned away (ABORT naming the limit, in answer
 * to its HELLO), then closed. libwebsockets' own log is silenced: the server never prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/serve/serve_internal.h"
#include "judge/serve/serve_lws.h"

#define SUBPROTOCOL "wamp.2.json"
#define TICK_US     (100 * LWS_US_PER_MS)
#define REFUSED_HELLO_MS 2000   /* a connection over max_connections gets its ABORT by then */
#define SHUTDOWN_MS      1000   /* sessions told the server stops have this long to close */

struct out_msg {
    struct out_msg *next;
    size_t len;
    uint64_t at_ms;
    unsigned char buf[];   /* LWS_PRE bytes of room, then the message */
};

struct ws_conn {
    struct lws *wsi;
    struct ws_server *w;
    struct wamp_session *session;
    char *rx;
    size_t rx_len, rx_cap;
    uint64_t rx_started_ms, last_ms, opened_ms;
    struct out_msg *head, *tail;
    size_t queued;
    bool closing, killed;
    bool listed;       /* in w->conns, with a session */
    bool over_limit;   /* beyond max_connections: not counted, only told so */
    struct ws_conn *prev, *next;
};

struct page_state { bool pending; };

struct ws_server {
    struct serve *srv;
    struct lws_context *ctx;
    struct lws_vhost *vhost;
    struct ws_conn *conns;
    lws_sorted_usec_list_t tick;
    unsigned char *page;   /* LWS_PRE bytes of room, then the page */
    size_t page_len;
};

uint64_t serve_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static struct ws_server *server_of(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

/* ---- sending ------------------------------------------------------------------------------ */

static void kill_conn(struct ws_conn *c)
{
    if (c->killed)
        return;
    c->killed = c->closing = true;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static void drop_queue(struct ws_conn *c)
{
    for (struct out_msg *m = c->head, *next; m; m = next) {
        next = m->next;
        c->w->srv->buffered -= m->len;
        free(m);
    }
    c->head = c->tail = NULL;
    c->queued = 0;
}

int ws_send(struct ws_conn *c, const char *text, size_t len)
{
    const struct serve_limits *lim = &c->w->srv->cfg->limits;
    if (c->killed)
        return -1;
    if (c->queued + len > lim->max_queued_bytes || c->w->srv->buffered + len > lim->max_buffered_total) {
        kill_conn(c);   /* a client that does not read: nothing more can reach it */
        return -1;
    }
    struct out_msg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) {
        kill_conn(c);
        return -1;
    }
    m->next = NULL;
    m->len = len;
    m->at_ms = serve_now_ms();
    memcpy(m->buf + LWS_PRE, text, len);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->queued += len;
    c->w->srv->buffered += len;
    lws_callback_on_writable(c->wsi);
    return 0;
}

void ws_close_after_send(struct ws_conn *c)
{
    c->closing = true;
    lws_callback_on_writable(c->wsi);
}

static int writeable(struct ws_conn *c)
{
    if (c->killed)
        return -1;
    if (lws_partial_buffered(c->wsi)) {
        lws_callback_on_writable(c->wsi);
        return 0;
    }
    struct out_msg *m = c->head;
    if (!m) {
        if (!c->closing)
            return 0;
        lws_close_reason(c->wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
        return -1;
    }
    if (lws_write(c->wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
        return -1;
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    c->queued -= m->len;
    c->w->srv->buffered -= m->len;
    free(m);
    if (c->head || c->closing)
        lws_callback_on_writable(c->wsi);
    return 0;
}

/* ---- receiving ------------------------------------------------------------------------------- */

static void over_limit(struct ws_conn *c, const char *limit, uint64_t value)
{
    char why[128];
    snprintf(why, sizeof why, "%s (%" PRIu64 ") exceeded", limit, value);
    free(c->rx);
    c->w->srv->buffered -= c->rx_cap;
    c->rx = NULL;
    c->rx_len = c->rx_cap = 0;
    wamp_abort(c->session, "wamp.error.protocol_violation", why);
}

static void refuse_over_limit(struct ws_conn *c)
{
    char why[96];
    snprintf(why, sizeof why, "max_connections (%" PRIu64 "): the server has as many connections as it takes",
             c->w->srv->cfg->limits.max_connections);
    wamp_abort(c->session, "seabattle.error.limit", why);
}

static int grow_rx(struct ws_conn *c, size_t need)
{
    const struct serve_limits *lim = &c->w->srv->cfg->limits;
    if (need <= c->rx_cap)
        return 0;
    size_t cap = c->rx_cap ? c->rx_cap : 1024;
    while (cap < need)
        cap *= 2;
    if (cap > lim->max_message_bytes)
        cap = lim->max_message_bytes;
    if (c->w->srv->buffered + (cap - c->rx_cap) > lim->max_buffered_total) {
        over_limit(c, "max_buffered_total", lim->max_buffered_total);
        return -1;
    }
    char *more = realloc(c->rx, cap);
    if (!more) {
        over_limit(c, "max_buffered_total", lim->max_buffered_total);
        return -1;
    }
    c->w->srv->buffered += cap - c->rx_cap;
    c->rx = more;
    c->rx_cap = cap;
    return 0;
}

static void receive(struct ws_conn *c, const char *data, size_t len)
{
    const struct serve_limits *lim = &c->w->srv->cfg->limits;
    if (c->closing)
        return;
    c->last_ms = serve_now_ms();
    if (c->over_limit) {   /* its HELLO, or whatever it sent instead */
        refuse_over_limit(c);
        return;
    }
    if (lws_frame_is_binary(c->wsi)) {
        wamp_abort(c->session, "wamp.error.protocol_violation", "a binary frame (wamp.2.json is text)");
        return;
    }
    if (c->rx_len == 0)
        c->rx_started_ms = c->last_ms;
    if (c->rx_len + len > lim->max_message_bytes) {
        over_limit(c, "net_max_message_bytes", lim->max_message_bytes);
        return;
    }
    if (grow_rx(c, c->rx_len + len) < 0)
        return;
    memcpy(c->rx + c->rx_len, data, len);
    c->rx_len += len;
    if (!lws_is_final_fragment(c->wsi) || lws_remaining_packet_payload(c->wsi) > 0)
        return;
    size_t n = c->rx_len;
    c->rx_len = 0;
    wamp_message(c->session, c->rx, n);
    if (c->rx_cap > 4096) {   /* keep a small buffer only */
        c->w->srv->buffered -= c->rx_cap;
        free(c->rx);
        c->rx = NULL;
        c->rx_cap = 0;
    }
}

/* ---- connections ------------------------------------------------------------------------------ */

static int established(struct ws_conn *c, struct lws *wsi)
{
    struct ws_server *w = server_of(wsi);
    memset(c, 0, sizeof *c);
    c->wsi = wsi;
    c->w = w;
    c->last_ms = c->opened_ms = serve_now_ms();
    c->session = wamp_open(w->srv, c);
    if (!c->session)
        return -1;
    c->listed = true;
    c->over_limit = w->srv->connections >= w->srv->cfg->limits.max_connections;
    if (!c->over_limit)
        w->srv->connections++;
    c->next = w->conns;
    if (w->conns)
        w->conns->prev = c;
    w->conns = c;
    return 0;
}

static void closed(struct ws_conn *c)
{
    if (!c->listed)
        return;
    struct ws_server *w = c->w;
    c->listed = false;
    if (!c->over_limit)
        w->srv->connections--;
    if (c->prev)
        c->prev->next = c->next;
    else
        w->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    drop_queue(c);
    w->srv->buffered -= c->rx_cap;
    free(c->rx);
    c->rx = NULL;
    wamp_closed(c->session);
    c->session = NULL;
}

static int wamp_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    struct ws_conn *c = user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED: return established(c, wsi);
    case LWS_CALLBACK_RECEIVE:
        if (c->listed)
            receive(c, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE: return c->listed ? writeable(c) : -1;
    case LWS_CALLBACK_CLOSED: closed(c); return 0;
    default: return 0;
    }
}

/* ---- HTTP: the page, and the handshake's checks ------------------------------------------------ */

static bool lists_subprotocol(struct lws *wsi)
{
    char list[1024];
    if (lws_hdr_copy(wsi, list, sizeof list, WSI_TOKEN_PROTOCOL) <= 0)
        return false;
    for (char *save = NULL, *tok = strtok_r(list, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save))
        if (!strcmp(tok, SUBPROTOCOL))
            return true;
    return false;
}

/* The response is written here rather than by lws_return_http_status, which says HTTP/1.0 at
 * this stage (libwebsockets reads the request's version after the upgrade's checks). */
static int refuse(struct lws *wsi, unsigned int code, const char *status, const char *why)
{
    unsigned char buf[LWS_PRE + 512];
    char *text = (char *)buf + LWS_PRE;
    int n = snprintf(text, sizeof buf - LWS_PRE,
                     "HTTP/1.1 %u %s\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: %zu\r\n"
                     "connection: close\r\n\r\n%s\n",
                     code, status, strlen(why) + 1, why);
    lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_HTTP);
    return 1;
}

static int confirm_upgrade(struct lws *wsi)
{
    char uri[64];
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws"))
        return refuse(wsi, HTTP_STATUS_NOT_FOUND, "Not Found", "WAMP is served on /ws");
    if (!lists_subprotocol(wsi))
        return refuse(wsi, HTTP_STATUS_BAD_REQUEST, "Bad Request",
                      "this server speaks the subprotocol " SUBPROTOCOL " only");
    return 0;
}

/* GET /replays/game-N.jsonl.gz: a finished game's replay from --replays (nothing else there). */
static int replay_file(struct lws *wsi, const char *uri)
{
    struct ws_server *w = server_of(wsi);
    long long id;
    int used = 0;
    char path[4096];
    const char *dir = w->srv->cfg->replays_dir;
    if (!dir || sscanf(uri, "/replays/game-%lld.jsonl.gz%n", &id, &used) != 1 || used <= 0 ||
        (size_t)used != strlen(uri) || id < 1) {
        return lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "not found") || lws_http_transaction_completed(wsi)
                   ? -1
                   : 0;
    }
    snprintf(path, sizeof path, "%s/game-%lld.jsonl.gz", dir, id);
    int n = lws_serve_http_file(wsi, path, "application/gzip", NULL, 0);
    return n < 0 || (n > 0 && lws_http_transaction_completed(wsi)) ? -1 : 0;
}

static int page_headers(struct lws *wsi, struct page_state *st, const char *uri)
{
    struct ws_server *w = server_of(wsi);
    if (!strncmp(uri, "/replays/", 9))
        return replay_file(wsi, uri);
    unsigned char buf[LWS_PRE + 512], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
    if (strcmp(uri, "/") && strcmp(uri, "/index.html"))
        return lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "not found") ? -1
               : lws_http_transaction_completed(wsi)                          ? -1
                                                                               : 0;
    if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, "text/html; charset=utf-8", w->page_len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:", (const unsigned char *)"no-store",
                                    8, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    st->pending = true;
    lws_callback_on_writable(wsi);
    return 0;
}

static int page_body(struct lws *wsi, struct page_state *st)
{
    struct ws_server *w = server_of(wsi);
    if (!st->pending)
        return 0;
    st->pending = false;
    if (lws_write(wsi, w->page + LWS_PRE, w->page_len, LWS_WRITE_HTTP_FINAL) < 0)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    switch (reason) {
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: return confirm_upgrade(wsi);
    case LWS_CALLBACK_HTTP: return page_headers(wsi, user, in ? in : "");
    case LWS_CALLBACK_HTTP_WRITEABLE: return page_body(wsi, user);
    default: return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

/* ---- the clock ---------------------------------------------------------------------------------- */

static void check_conn(struct ws_conn *c, uint64_t now)
{
    const struct serve_limits *lim = &c->w->srv->cfg->limits;
    char why[128];
    if (c->killed)
        return;
    if (lim->send_ms && c->head && now - c->head->at_ms > lim->send_ms) {
        kill_conn(c);   /* it does not read what it is sent */
        return;
    }
    if (c->closing)
        return;
    if (c->over_limit) {   /* no HELLO came: it is told all the same */
        if (now - c->opened_ms > REFUSED_HELLO_MS)
            refuse_over_limit(c);
        return;
    }
    if (lim->message_ms && c->rx_len > 0 && now - c->rx_started_ms > lim->message_ms) {
        snprintf(why, sizeof why, "message_ms (%" PRIu64 " ms): a message must arrive whole within it", lim->message_ms);
        wamp_abort(c->session, "wamp.error.protocol_violation", why);
    } else if (lim->idle_ms && now - c->last_ms > lim->idle_ms && wamp_idle(c->session)) {
        snprintf(why, sizeof why, "idle_ms (%" PRIu64 " ms): no message and no game", lim->idle_ms);
        wamp_end(c->session, "seabattle.error.limit", why);
    }
}

static void tick(lws_sorted_usec_list_t *sul)
{
    struct ws_server *w = lws_container_of(sul, struct ws_server, tick);
    uint64_t now = serve_now_ms();
    for (struct ws_conn *c = w->conns; c; c = c->next)
        check_conn(c, now);
    serve_tick(w->srv);
    lws_sul_schedule(w->ctx, 0, &w->tick, tick, TICK_US);
}

/* ---- the server ---------------------------------------------------------------------------------- */

static const struct lws_protocols protocols[] = {
    {"http", http_callback, sizeof(struct page_state), 0, 0, NULL, 0},
    {SUBPROTOCOL, wamp_callback, sizeof(struct ws_conn), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static int copy_page(struct ws_server *w)
{
    size_t len;
    const char *page = serve_page(&len);
    w->page = malloc(LWS_PRE + len);
    if (!w->page)
        return -1;
    memcpy(w->page + LWS_PRE, page, len);
    w->page_len = len;
    return 0;
}

/* Whether host:port can be listened on, tried before libwebsockets (which leaks a little when
 * it cannot bind): 0, or -1 with why. */
static int probe_listen(const char *host, int port, char *err, size_t errlen)
{
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host && host[0] ? host : NULL, service, &hints, &ai);
    if (rc != 0) {
        snprintf(err, errlen, "cannot listen on %s:%d: %s", host ? host : "*", port, gai_strerror(rc));
        return -1;
    }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0), one = 1;
    rc = fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
                 bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 1) < 0
             ? -1
             : 0;
    if (rc < 0)
        snprintf(err, errlen, "cannot listen on %s:%d: %s", host && host[0] ? host : "*", port, strerror(errno));
    if (fd >= 0)
        close(fd);
    freeaddrinfo(ai);
    return rc;
}

int ws_start(struct serve *s, struct ws_server **out, int *port, char *err, size_t errlen)
{
    if (serve_lws_load(err, errlen) < 0 || probe_listen(s->cfg->host, s->cfg->port, err, errlen) < 0)
        return -1;
    struct ws_server *w = calloc(1, sizeof *w);
    struct lws_context_creation_info info;
    if (!w || copy_page(w) < 0) {
        free(w);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    w->srv = s;
    lws_set_log_level(0, NULL);
    memset(&info, 0, sizeof info);
    info.port = s->cfg->port;   /* 0: any free port */
    info.iface = s->cfg->host && s->cfg->host[0] ? s->cfg->host : NULL;
    info.protocols = protocols;
    info.user = w;
    info.timeout_secs = 10;
    info.max_http_header_data = 4096;
    /* room for connections to refuse */
    info.fd_limit_per_thread = (unsigned int)(s->cfg->limits.max_connections + 4096);
    /* A text frame that is not UTF-8 closes the connection (1007), as RFC 6455 says. */
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND |
                   LWS_SERVER_OPTION_VALIDATE_UTF8;
    w->ctx = lws_create_context(&info);
    if (!w->ctx) {
        snprintf(err, errlen, "cannot listen on %s:%d (in use, or not an address of this machine)",
                 info.iface ? info.iface : "*", s->cfg->port);
        free(w->page);
        free(w);
        return -1;
    }
    w->vhost = lws_get_vhost_by_name(w->ctx, "default");
    *port = w->vhost ? lws_get_vhost_listen_port(w->vhost) : s->cfg->port;
    lws_sul_schedule(w->ctx, 0, &w->tick, tick, TICK_US);
    *out = w;
    return 0;
}

void ws_service(struct ws_server *w)
{
    lws_service(w->ctx, 100);
}

void ws_shutdown(struct ws_server *w)
{
    for (struct ws_conn *c = w->conns; c; c = c->next)
        wamp_end(c->session, "wamp.close.system_shutdown", "the server is stopping");
    uint64_t until = serve_now_ms() + SHUTDOWN_MS;
    while (w->conns && serve_now_ms() < until)
        lws_service(w->ctx, 50);
}

void ws_stop(struct ws_server *w)
{
    if (!w)
        return;
    lws_sul_cancel(&w->tick);
    lws_context_destroy(w->ctx);
    free(w->page);
    free(w);
}
