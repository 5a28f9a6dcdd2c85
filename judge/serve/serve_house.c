/*
 * serve_house.c - the house bot of `judge serve --house-bot FILE`: a local bot (one player
 * entry of a match file: name, dir, command, profile) that takes the second seat of a game
 * whose creator has waited house_wait_ms. Each house game runs the bot in a forked process
 * exactly as `judge run` does (match_setup_resolve, the seat of match_seat.c, the waiting of
 * match_wait.c, the same limits and verdicts); that process talks to the server over a
 * socketpair, one packet per message, and the server, which owns the game, polls it on its
 * clock:
 *
 *   server -> bot process   "T ROUND LINES"   a reply is due
 *                           "O TEXT"          bytes for the bot (the result of its shot)
 *                           "E"               the game is over: end the bot
 *   bot process -> server   "L CPU_NS WALL_NS\nTEXT"                       the reply
 *                           "V KIND VERDICT LIMIT_NS FIGURE_NS\nREASON"    a violation instead
 *                           "F MESSAGE"                                    the jail failed
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/match/match_config.h"
#include "judge/match/match_runner.h"
#include "judge/serve/serve_internal.h"
#include "common/yaml_reader.h"

#define PACKET_MAX 8192

struct house_game {
    int64_t id;
    pid_t pid;
    int fd;
    bool asked, ending;
    struct house_game *next;
};

struct house {
    struct match_setup setup;       /* player 2 is the bot; player 1 is never started */
    char name[NET_PLAYER_ID_MAX + 1];
    struct house_game *games;
    bool disabled;
};

/* ---- the file ------------------------------------------------------------------------------ */

static int read_player(const char *path, struct player_config *pc, char *err, size_t errlen)
{
    struct yr_file f;
    struct yr_error yerr;
    if (yr_load(path, &f, &yerr) < 0) {
        snprintf(err, errlen, "%s", yerr.msg);
        return -1;
    }
    struct config_reader r = {.file = &f, .path = path, .rules = &seabattle_rules};
    int rc = config_read_player(&r, yr_root(&f), pc, NULL, 0);
    if (rc < 0)
        snprintf(err, errlen, "%s", r.err.msg);
    yr_free(&f);
    return rc;
}

static int resolve(const struct serve_config *cfg, const char *path, struct player_config *pc,
                   struct match_setup *out, char *err, size_t errlen)
{
    static char game[] = "seabattle";
    struct match_config mc = {.path = (char *)path, .game = game, .has_generate = true, .n_players = 2,
                              .isolation = ISOLATION_STRICT};
    mc.players[0] = *pc;
    mc.players[1] = *pc;
    char texts[SP_COUNT][64];
    const char *params[SP_COUNT];
    for (int i = 0; i < SP_COUNT; i++) {
        snprintf(texts[i], sizeof texts[i], "%s=%lld", seabattle_params[i].name, (long long)cfg->params[i]);
        params[i] = texts[i];
    }
    struct match_overrides ov = {.params = params, .n_params = SP_COUNT};
    struct match_error merr;
    if (match_setup_resolve(&mc, &ov, out, &merr) < 0) {
        snprintf(err, errlen, "%s", merr.msg);
        return -1;
    }
    return 0;
}

int house_open(const struct serve_config *cfg, struct house **out, char *err, size_t errlen)
{
    struct player_config pc;
    struct house *h = calloc(1, sizeof *h);
    memset(&pc, 0, sizeof pc);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (read_player(cfg->house_bot, &pc, err, errlen) < 0 || resolve(cfg, cfg->house_bot, &pc, &h->setup, err, errlen) < 0) {
        config_player_free(&pc);
        free(h);
        return -1;
    }
    if (!pc.name || !limits_player_id_ok(pc.name, strlen(pc.name))) {
        snprintf(err, errlen, "%s: the house bot's name must be 1..64 printable ASCII characters", cfg->house_bot);
        config_player_free(&pc);
        match_setup_free(&h->setup);
        free(h);
        return -1;
    }
    snprintf(h->name, sizeof h->name, "%s", pc.name);
    config_player_free(&pc);
    *out = h;
    return 0;
}

const struct match_player *house_player(const struct house *h) { return &h->setup.players[1]; }
const char *house_name(const struct house *h) { return h->name; }

/* ---- the bot's process ------------------------------------------------------------------------ */

static void send_packet(int fd, const char *data, size_t len)
{
    while (send(fd, data, len, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
}

static void report_reply(int fd, struct seat *st)
{
    struct strbuf sb = STRBUF_INIT;
    if (st->reply == REPLY_COMPLETE)
        sb_printf(&sb, "L %" PRIu64 " %" PRIu64 "\n", st->reply_cpu_ns, st->reply_wall_ns);
    else
        sb_printf(&sb, "V %d %d %" PRIu64 " %" PRIu64 "\n%s", (int)st->violation.kind, (int)st->violation.verdict,
                  st->violation.limit_ns, st->violation.figure_ns, st->violation.reason);
    if (st->reply == REPLY_COMPLETE)
        sb_append(&sb, st->text.data ? st->text.data : "", st->text.len < PACKET_MAX - 64 ? st->text.len : PACKET_MAX - 64);
    send_packet(fd, sb.data ? sb.data : "", sb.len);
    sb_free(&sb);
    st->reply = REPLY_IDLE;
}

static void child_fail(int fd, const char *msg)
{
    char text[600];
    int n = snprintf(text, sizeof text, "F %s", msg);
    send_packet(fd, text, (size_t)n);
}

/* One message from the server; 1 when the process should end. */
static int child_message(struct runner *r, int fd, const char *msg, size_t len)
{
    struct seat *st = &r->seats[2];
    int round, lines;
    if (len > 0 && msg[0] == 'T' && sscanf(msg, "T %d %d", &round, &lines) == 2) {
        /* seabattle.md §6, as the engine's reply_wall gives it: the board from the bot's start,
         * each shot from the moment it is due (the local engine copy only checks board lines). */
        struct game_reply_wall wall =
            lines > 1 ? (struct game_reply_wall){.ms = (uint64_t)r->s->params[SP_BOARD_WALL_MS], .from_start = true,
                                                 .param = "board_wall_ms"}
                      : (struct game_reply_wall){.ms = r->s->limits.move_wall_ms, .param = "move_wall_ms"};
        if (seat_ask(st, "", 0, lines, &wall, round, &r->jerr) < 0 || runner_wait_replies(r, round) < 0) {
            child_fail(fd, r->jerr.msg[0] ? r->jerr.msg : r->err->msg);
            return 1;
        }
        report_reply(fd, st);
        return 0;
    }
    if (len > 1 && msg[0] == 'O') {
        if (seat_send(st, msg + 2, len - 2, &r->jerr) < 0)
            return 1;
        return 0;
    }
    if (seat_begin_end(st, &r->jerr) == 0)
        runner_wait_endings(r);
    return 1;
}

static void child_main(struct house *h, int fd)
{
    struct match_error merr = {""};
    struct runner r = {.s = &h->setup, .rules = &seabattle_rules, .err = &merr};
    struct isolation_report probe;
    struct game_setup gs = {.params = h->setup.params, .players = 2};
    struct game_error gerr;
    char msg[PACKET_MAX];
    for (int p = 1; p <= 2; p++) {
        r.seats[p].player = p;
        r.seats[p].setup = &h->setup;
    }
    if (seabattle_rules.create(&gs, &r.g, &gerr) < 0) {
        child_fail(fd, gerr.msg);
        return;
    }
    r.seats[2].game = r.g;   /* the board's lines are checked as they arrive (D11) */
    if (jail_global_init(h->setup.isolation, &probe, &r.jerr) < 0 || datadirs_open(&r.dirs, &h->setup, &r.jerr) < 0 ||
        seat_start(&r.seats[2], &h->setup, &r.dirs, 2, 1, &r.jerr) < 0) {
        child_fail(fd, r.jerr.msg);
    } else {
        for (;;) {
            ssize_t n = recv(fd, msg, sizeof msg - 1, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            msg[n] = '\0';
            if (child_message(&r, fd, msg, (size_t)n))
                break;
        }
    }
    seat_abandon(&r.seats[2]);
    datadirs_close(&r.dirs);
    seabattle_rules.destroy(r.g);
}

static pid_t spawn(struct house *h, int *fd_out)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        /* Only the socketpair survives: the server's connections must close when it closes them. */
        int devnull = open("/dev/null", O_RDWR);
        if (dup2(sv[1], 3) < 0 || devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 ||
            dup2(devnull, 2) < 0)
            _exit(1);
        close_range(4, ~0u, 0);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_DFL);
        child_main(h, 3);
        _exit(0);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return -1;
    }
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    *fd_out = sv[0];
    return pid;
}

/* ---- the server's side -------------------------------------------------------------------------- */

static void ask(struct house_game *hg, struct net_game *g)
{
    char msg[64];
    int n = snprintf(msg, sizeof msg, "T %d %d", g->g->rules->round(g->g), g->g->rules->reply_lines(g->g, 2));
    hg->asked = true;
    send_packet(hg->fd, msg, (size_t)n);
}

static void end_bot(struct house_game *hg)
{
    if (!hg->ending)
        send_packet(hg->fd, "E", 1);
    hg->ending = true;
}

void house_game_changed(struct serve *s, struct house *h, struct net_game *g)
{
    (void)s;
    for (struct house_game *hg = h->games; hg; hg = hg->next) {
        if (hg->id != g->id)
            continue;
        if (g->status == NET_OVER)
            end_bot(hg);
        else if (!hg->asked && net_game_shooter(g) == 2)
            ask(hg, g);
    }
}

/* The first game waiting long enough gets the bot, which is asked for its board at once. */
static void take_seat(struct serve *s, struct house *h)
{
    if (h->disabled)
        return;
    uint64_t now = serve_now_ms();
    struct net_game *g = lobby_waiting_since(s->lobby, now > s->cfg->house_wait_ms ? now - s->cfg->house_wait_ms : 0);
    if (!g)
        return;
    struct house_game *hg = calloc(1, sizeof *hg);
    if (!hg)
        return;
    hg->id = g->id;
    hg->pid = spawn(h, &hg->fd);
    if (hg->pid < 0) {
        serve_warn(s, "house bot: cannot start a process: %s", strerror(errno));
        free(hg);
        return;
    }
    g->house_reserved = true;
    hg->next = h->games;
    h->games = hg;
    ask(hg, g);
}

static void on_reply(struct serve *s, struct house *h, struct house_game *hg, struct net_game *g, char *msg, size_t len)
{
    bool board = g->status == NET_WAITING;
    int rc = 0;
    hg->asked = false;
    if (msg[0] == 'L') {
        uint64_t cpu, wall;
        char *text = memchr(msg, '\n', len);
        if (!text || sscanf(msg, "L %" SCNu64 " %" SCNu64, &cpu, &wall) != 2)
            return;
        text++;
        rc = board ? net_game_join_reply(g, h->name, text, (size_t)(msg + len - text), cpu, wall)
                   : net_game_reply_line(g, 2, text, (size_t)(msg + len - text), cpu, wall);
        struct strbuf out = STRBUF_INIT;
        if (rc == 0 && g->g && g->g->rules->outbox(g->g, 2, &out) == 0 && out.len > 0) {
            char packet[64];
            int n = snprintf(packet, sizeof packet, "O %.*s", (int)out.len, out.data);
            send_packet(hg->fd, packet, (size_t)n);
        }
        sb_free(&out);
    } else {
        int kind, verdict;
        uint64_t limit, figure;
        char *reason = memchr(msg, '\n', len);
        if (!reason || sscanf(msg, "V %d %d %" SCNu64 " %" SCNu64, &kind, &verdict, &limit, &figure) != 4)
            return;
        reason++;
        snprintf(g->why, sizeof g->why, "the house bot: %s", reason);
        rc = board ? net_game_join_violation(g, h->name, (enum violation_kind)kind, (enum match_verdict)verdict, reason,
                                             limit, figure)
                   : net_game_violation(g, 2, (enum violation_kind)kind, (enum match_verdict)verdict, reason, limit, figure);
    }
    if (board && rc == 0)
        serve_game_started(s, g);
    if (rc < 0)
        serve_warn(s, "game %" PRId64 ": the house bot's reply cannot be applied", g->id);
    lobby_game_changed(s, g);
}

static void poll_game(struct serve *s, struct house *h, struct house_game *hg)
{
    char msg[PACKET_MAX + 1];
    ssize_t n = recv(hg->fd, msg, PACKET_MAX, 0);
    struct net_game *g = lobby_find(s->lobby, hg->id);
    if (n == 0) {   /* the bot's process is gone without a word: the judge's fault, no one loses */
        serve_warn(s, "house bot: its process for game %" PRId64 " ended unexpectedly", hg->id);
        hg->ending = true;
        if (g && g->status != NET_OVER)
            lobby_abort_game(s, g, "the house bot's process ended unexpectedly");
        return;
    }
    if (n < 0)
        return;
    msg[n] = '\0';
    if (msg[0] == 'F') {
        serve_warn(s, "house bot: %s; the house bot is off", msg + 2);
        h->disabled = true;
        if (g && g->status == NET_WAITING)
            g->house_reserved = false;
        end_bot(hg);
        return;
    }
    if (g && g->status != NET_OVER && (msg[0] == 'L' || msg[0] == 'V'))
        on_reply(s, h, hg, g, msg, (size_t)n);
    else
        end_bot(hg);
}

/* Reap processes that ended; a game gone from the table ends its bot. */
static void reap(struct serve *s, struct house *h)
{
    for (struct house_game **at = &h->games; *at;) {
        struct house_game *hg = *at;
        struct net_game *g = lobby_find(s->lobby, hg->id);
        if (!g || g->status == NET_OVER)
            end_bot(hg);
        int status;
        if (hg->ending && waitpid(hg->pid, &status, WNOHANG) == hg->pid) {
            close(hg->fd);
            *at = hg->next;
            free(hg);
            continue;
        }
        at = &hg->next;
    }
}

void house_tick(struct serve *s, struct house *h)
{
    take_seat(s, h);
    for (struct house_game *hg = h->games; hg; hg = hg->next)
        if (!hg->ending)
            poll_game(s, h, hg);
    reap(s, h);
}

void house_close(struct house *h)
{
    if (!h)
        return;
    for (struct house_game *hg = h->games, *next; hg; hg = next) {
        next = hg->next;
        close(hg->fd);   /* the process sees the end, ends its bot and exits */
        int status;
        for (int i = 0; i < 100 && waitpid(hg->pid, &status, WNOHANG) == 0; i++)
            usleep(50000);
        if (waitpid(hg->pid, &status, WNOHANG) == 0) {
            kill(hg->pid, SIGKILL);
            waitpid(hg->pid, &status, 0);
        }
        free(hg);
    }
    match_setup_free(&h->setup);
    free(h);
}
