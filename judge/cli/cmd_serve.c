/* cmd_serve.c - `judge serve seabattle`: sea battle over the network (docs/network.md). This
 * file is the only one of the server that prints: where it listens, one line per game start
 * and end, warnings. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "ci/escape.h"
#include "judge/cli/cli_args.h"
#include "judge/cli/commands.h"
#include "judge/serve/serve.h"

static const char usage_text[] =
    "usage: judge serve seabattle [--listen ADDR:PORT] [--replays DIR] [--realm NAME]\n"
    "                             [--house-bot MATCH-PLAYER.yaml] [--param NAME=VALUE]...\n"
    "                             [--LIMIT VALUE]...\n"
    "\n"
    "Serves sea battle over WAMP v2 (wamp.2.json on ws://ADDR:PORT/ws) and the human page on\n"
    "http://ADDR:PORT/ (default 127.0.0.1:8080; port 0 picks a free one). Every finished game\n"
    "is a replay DIR/game-N.jsonl.gz; games in progress when it stops (SIGINT, SIGTERM) are\n"
    "recorded as DIR/game-N.aborted.json. --param sets a game parameter (ships_1..ships_4,\n"
    "shot_limit, max_line_bytes, ...). Limits (docs/network.md):\n";

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* The numeric options: each a limit or a clock of the server. A clock or a rate of 0 is none;
 * a count or a size that would turn every client away has a smallest value, `min`. */
struct number_option { const char *name; size_t offset; uint64_t min; const char *meaning; };
#define CONFIG(field) offsetof(struct serve_config, field)
#define LIMIT(field)  offsetof(struct serve_config, limits.field)
static const struct number_option numbers[] = {
    {"net-move-wall-ms", CONFIG(move_wall_ms), 0, "time for each shot (N5; 0: none)"},
    {"net-wait-ms", CONFIG(wait_ms), 0, "time a game waits for an opponent (N5; 0: none)"},
    {"net-max-message-bytes", LIMIT(max_message_bytes), 64, "largest WebSocket message (N7)"},
    {"max-connections", LIMIT(max_connections), 1, "WebSocket connections at once"},
    {"max-games-per-player", LIMIT(max_games_per_player), 1, "live games of one player-id"},
    {"max-live-games", LIMIT(max_live_games), 1, "live games in all"},
    {"calls-per-second", LIMIT(calls_per_second), 0, "calls of one session per second (0: no limit)"},
    {"max-queued-bytes", LIMIT(max_queued_bytes), 64, "unsent bytes to one connection"},
    {"max-buffered-total", LIMIT(max_buffered_total), 64, "received and unsent bytes of all connections"},
    {"idle-ms", LIMIT(idle_ms), 0, "a connection with no message and no game is closed (0: never)"},
    {"message-ms", LIMIT(message_ms), 0, "a started message must arrive whole within it (0: no limit)"},
    {"send-ms", LIMIT(send_ms), 0, "queued bytes must leave within it (0: no limit)"},
    {"kept-games", LIMIT(kept_games), 0, "finished games kept for get-game-*"},
    {"house-wait-ms", CONFIG(house_wait_ms), 0, "wait before the house bot joins"},
};
#define N_NUMBERS (sizeof numbers / sizeof numbers[0])

static void usage(FILE *out)
{
    fputs(usage_text, out);
    for (size_t i = 0; i < N_NUMBERS; i++)
        fprintf(out, "  --%-22s %s\n", numbers[i].name, numbers[i].meaning);
}

#define usage_error(...) cli_usage_error("serve", " (see 'judge serve --help')", __VA_ARGS__)

static int parse_listen(const char *text, struct serve_config *c, char *host, size_t hostlen)
{
    const char *colon = strrchr(text, ':');
    uint64_t port;
    if (!colon || (size_t)(colon - text) >= hostlen || !cli_parse_u64(colon + 1, &port) || port > 65535)
        return -1;
    memcpy(host, text, (size_t)(colon - text));
    host[colon - text] = '\0';
    c->host = host;
    c->port = (int)port;
    return 0;
}

static int parse_param(const char *text, struct serve_config *c)
{
    const char *eq = strchr(text, '=');
    char name[64];
    int64_t v;
    char *end;
    struct game_error gerr;
    if (!eq || (size_t)(eq - text) >= sizeof name)
        return usage_error("--param %s: expected NAME=VALUE", text);
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    errno = 0;
    v = strtoll(eq + 1, &end, 10);
    if (errno || end == eq + 1 || *end)
        return usage_error("--param %s: the value is not an integer", text);
    if (game_param_set(&seabattle_rules, c->params, name, v, &gerr) < 0)
        return usage_error("--param %s: %s", text, gerr.msg);
    return 0;
}

/* ---- what the server tells ----------------------------------------------------------------- */

static void print_visible(FILE *out, const char *text)
{
    struct strbuf sb = STRBUF_INIT;
    if (esc_visible(&sb, text, strlen(text)) == 0)
        fputs(sb.data ? sb.data : "", out);
    sb_free(&sb);
}

static void on_listening(void *ctx, const char *host, int port)
{
    (void)ctx;
    printf("judge serve: listening on ws://%s:%d/ws (WAMP wamp.2.json) and http://%s:%d/\n", host, port, host,
           port);
    fflush(stdout);
}

static void on_started(void *ctx, int64_t game, const char *p1, const char *p2)
{
    (void)ctx;
    printf("game %" PRId64 " started: ", game);
    print_visible(stdout, p1);
    fputs(" vs ", stdout);
    print_visible(stdout, p2);
    putchar('\n');
    fflush(stdout);
}

static void on_ended(void *ctx, int64_t game, const char *status, const char *why, const char *record)
{
    (void)ctx;
    printf("game %" PRId64 " ended: %s (", game, status);
    print_visible(stdout, why);
    fputs(")", stdout);
    if (record) {
        fputs(", ", stdout);
        print_visible(stdout, record);
    }
    putchar('\n');
    fflush(stdout);
}

static void on_warning(void *ctx, const char *text)
{
    (void)ctx;
    fputs("judge serve: warning: ", stderr);
    print_visible(stderr, text);
    fputc('\n', stderr);
}

/* ---- the command ------------------------------------------------------------------------------------ */

static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static int check_replays_dir(const char *dir)
{
    struct stat st;
    if (dir && (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
        if (mkdir(dir, 0755) < 0)
            return usage_error("--replays %s: %s", dir, strerror(errno));
    }
    return 0;
}

static int set_number(struct serve_config *c, const struct number_option *n, const char *text)
{
    uint64_t v;
    if (!cli_parse_u64(text, &v))
        return usage_error("--%s %s: expected a non-negative integer", n->name, text);
    if (v < n->min)
        return usage_error("--%s %s: must be at least %" PRIu64 "%s", n->name, text, n->min,
                           v == 0 ? " (0 would turn every client away)" : "");
    *(uint64_t *)((char *)c + n->offset) = v;
    return 0;
}

static int parse_options(int argc, char **argv, struct serve_config *c, char *host, size_t hostlen)
{
    enum { O_LISTEN = 1000, O_REPLAYS, O_REALM, O_HOUSE, O_PARAM, O_HELP, O_NUMBER };
    struct option opts[8 + N_NUMBERS] = {
        {"listen", required_argument, NULL, O_LISTEN}, {"replays", required_argument, NULL, O_REPLAYS},
        {"realm", required_argument, NULL, O_REALM},   {"house-bot", required_argument, NULL, O_HOUSE},
        {"param", required_argument, NULL, O_PARAM},   {"help", no_argument, NULL, O_HELP},
    };
    for (size_t i = 0; i < N_NUMBERS; i++)
        opts[6 + i] = (struct option){numbers[i].name, required_argument, NULL, O_NUMBER + (int)i};
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case O_LISTEN:
            if (parse_listen(optarg, c, host, hostlen) < 0)
                return usage_error("--listen %s: expected ADDR:PORT", optarg);
            break;
        case O_REPLAYS: c->replays_dir = optarg; break;
        case O_REALM: c->realm = optarg; break;
        case O_HOUSE: c->house_bot = optarg; break;
        case O_PARAM:
            if (parse_param(optarg, c) != 0)
                return EXIT_USAGE;
            break;
        case O_HELP: usage(stdout); return -1;
        default:
            if (opt < O_NUMBER || opt >= O_NUMBER + (int)N_NUMBERS)
                return usage_error("unknown option");
            if (set_number(c, &numbers[opt - O_NUMBER], optarg) != 0)
                return EXIT_USAGE;
        }
    }
    if (optind != argc - 1 || strcmp(argv[optind], "seabattle"))
        return usage_error("the one game served is seabattle");
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    struct serve_config c;
    char host[256];
    serve_config_defaults(&c);
    int rc = parse_options(argc, argv, &c, host, sizeof host);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (check_replays_dir(c.replays_dir) != 0)
        return EXIT_USAGE;
    raise_fd_limit();
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct serve_hooks hooks = {.listening = on_listening, .game_started = on_started, .game_ended = on_ended,
                                .warning = on_warning};
    struct serve_error err = {.input = false};
    if (serve_run(&c, &hooks, &stop_requested, &err) < 0) {
        fprintf(stderr, "judge serve: %s\n", err.msg);
        return err.input ? EXIT_USAGE : EXIT_INTERNAL;
    }
    printf("judge serve: stopped\n");
    return EXIT_OK;
}
