/* cmd_run.c - `judge run MATCH.yaml`: play one match, print the result, keep the replay. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "judge/cli/cli_args.h"
#include "judge/cli/cli_interrupt.h"
#include "judge/cli/cli_isolation.h"
#include "judge/cli/cmd_print.h"
#include "judge/cli/cmd_run_print.h"
#include "judge/cli/commands.h"
#include "judge/match/match.h"
#include "replay/replay.h"
#include "judge/compile/source_player.h"

#define MAX_PARAM_OPTIONS 64

static const char usage_text[] =
    "usage: judge run MATCH.yaml [--seed S] [--replay PATH] [--param NAME=VALUE]...\n"
    "                 [--isolation strict|best-effort] [--no-freeze] [--json]\n"
    "\n"
    "Plays one match with every bot in the jail and writes its replay (default\n"
    "replays/GAME-SEED-TIME.jsonl.gz, with -2, -3... when taken). Only --replay PATH\n"
    "replaces an existing file (and says so); a device or FIFO is written in place, and\n"
    "--replay - writes it to standard output (the table then goes to stderr). Options\n"
    "override the match file; --param sets a game parameter or a runner limit (pids,\n"
    "stderr_limit_kb, grace_ms, tmp_mb).\n"
    "Players with `source:` are compiled first, into a temporary directory.\n"
    "Where a layer of isolation is not fully on (best-effort), a line on stderr says\n"
    "so before the match (\"isolation: best-effort: user_ns degraded: own uid only\n"
    "(not root); ...\"), and the table's cgroup memory peak is \"-\" without a cgroup.\n"
    "--json prints the result as one object instead: game, seed, winner, draw,\n"
    "rounds, replay, isolation (each layer's state, cgroup, privileged, degraded, how,\n"
    "mode) and players.\n"
    "Exit status: 0 when the match was played, 1 when a source player did not compile,\n"
    "2 for a usage or match file error, 3 for an internal error or when this machine\n"
    "cannot give strict isolation (refused before anything runs: one line names the\n"
    "layers not fully on; `judge doctor` says how to get them, or use best-effort), 4\n"
    "when the replay cannot be written (disk full, read-only: the message names the\n"
    "file and why).\n"
    "\n"
    "The match file (YAML, spaces not tabs; relative paths are relative to the file;\n"
    "a commented example: examples/generals-greedy-vs-random.yaml):\n"
    "  game: NAME                the game: generals, seabattle, warlight or bomberman\n"
    "  map: FILE                 a map in the game's own format, or\n"
    "  generate: {KEY: VALUE}    generator settings drawn from the seed (a game without\n"
    "                            maps, sea battle or warlight, needs neither)\n"
    "  seed: N                   the match seed (default: a random one; --seed)\n"
    "  params: {NAME: VALUE}     the game's parameters (docs/games/GAME.md)\n"
    "  limits: {NAME: VALUE}     time and memory figures (budget_base_ms, move_wall_ms,\n"
    "                            memory_limit_mb, ...) and runner limits (pids,\n"
    "                            stderr_limit_kb, grace_ms, tmp_mb)\n"
    "  players:                  player 1 first, then 2, ...; each one either\n"
    "    - name: NAME            unique, printable, at most 64 characters\n"
    "      dir: DIR              bound read-only at /bot, the bot's working directory\n"
    "      command: [WORD, ...]  what to run, relative to /bot\n"
    "      profile: NAME         its seccomp run profile (default: picked from the command)\n"
    "    - name: NAME            or a submission compiled in the jail first:\n"
    "      source: DIR           its source directory\n"
    "      language: LANGUAGE    c, cpp, python3 or java (containers/)\n"
    "  replay: FILE              where the replay goes (--replay)\n"
    "  isolation: strict         or best-effort (--isolation)\n"
    "  freeze: true              freeze bots while it is not their turn (--no-freeze)\n";

struct run_options {
    const char *match_path;
    struct match_overrides ov;
    const char *params[MAX_PARAM_OPTIONS];
    bool json;
};

#define usage_error(...) cli_usage_error("run", "", __VA_ARGS__)

static int parse_one(struct run_options *o, int opt, const char *arg)
{
    switch (opt) {
    case 's':
        o->ov.has_seed = true;
        return !cli_parse_u64(arg, &o->ov.seed) ? usage_error("--seed %s: expected an unsigned 64-bit integer", arg)
                                                : 0;
    case 'r':
        o->ov.replay_path = arg;
        return 0;
    case 'p':
        if (o->ov.n_params == MAX_PARAM_OPTIONS)
            return usage_error("too many --param options (at most %d)", MAX_PARAM_OPTIONS);
        o->params[o->ov.n_params++] = arg;
        return 0;
    case 'i':
        o->ov.has_isolation = true;
        if (!strcmp(arg, "strict"))
            o->ov.isolation = ISOLATION_STRICT;
        else if (!strcmp(arg, "best-effort"))
            o->ov.isolation = ISOLATION_BEST_EFFORT;
        else
            return usage_error("--isolation %s: expected strict or best-effort", arg);
        return 0;
    case 'f':
        o->ov.no_freeze = true;
        return 0;
    case 'j':
        o->json = true;
        return 0;
    default:
        return usage_error("unexpected option");
    }
}

/* 0 to go on, EXIT_OK after --help, or a usage error status. */
static int parse_args(int argc, char **argv, struct run_options *o)
{
    static const struct option longopts[] = {
        {"seed", required_argument, NULL, 's'},  {"replay", required_argument, NULL, 'r'},
        {"param", required_argument, NULL, 'p'}, {"isolation", required_argument, NULL, 'i'},
        {"no-freeze", no_argument, NULL, 'f'},   {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0},
    };
    int opt;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(usage_text, stdout);
            return -1;
        }
        if (opt == ':')
            return usage_error("%s needs a value", argv[optind - 1]);
        if (opt == '?')
            return usage_error("unknown option %s (see judge run --help)", argv[optind - 1]);
        int rc = parse_one(o, opt, optarg);
        if (rc)
            return rc;
    }
    if (argc - optind != 1)
        return usage_error("expected exactly one match file (see judge run --help)");
    o->match_path = argv[optind];
    o->ov.params = o->params;
    o->ov.now_unix = (int64_t)time(NULL);
    return 0;
}

/* ---- output ------------------------------------------------------------------------- */

static int json_player(struct strbuf *sb, const struct match_setup *s, const struct match_player_outcome *po)
{
    const char *name = s->players[po->player - 1].name;
    int rc = sb_printf(sb, "{\"place\":%d,\"player\":%d,\"name\":", po->place, po->player);
    rc |= sb_json_string(sb, name, strlen(name));
    rc |= sb_printf(sb, ",\"verdict\":\"%s\"", match_verdict_name(po->verdict));
    if (po->verdict == MATCH_FORBIDDEN_SYSCALL && po->violation.has_syscall)
        rc |= sb_printf(sb, ",\"syscall\":\"%s\"", po->violation.syscall.name);
    if (run_broke_a_rule(po)) {
        rc |= sb_puts(sb, ",\"reason\":");
        rc |= sb_json_string(sb, po->violation.reason, strnlen(po->violation.reason, sizeof po->violation.reason));
    }
    const char *hint = run_hint_summary(run_hint_of(po));
    if (hint) {
        rc |= sb_puts(sb, ",\"hint\":");
        rc |= sb_json_string(sb, hint, strlen(hint));
    }
    rc |= sb_printf(sb, ",\"moves\":%d,\"cpu_ns\":%" PRIu64 ",\"budget_ns\":%" PRIu64
                    ",\"memory_peak_bytes\":%" PRIu64 ",\"rss_peak_bytes\":%" PRIu64 "}",
                    po->moves, po->cpu_ns, po->budget_ns, po->memory_peak_bytes, po->rss_peak_bytes);
    return rc;
}

/* ,"isolation":{...}: what the match's jails ran with (cli_isolation_json). */
static int json_isolation(struct strbuf *sb, const struct match_setup *s,
                          const struct isolation_report *probe)
{
    struct json_object *iso = cli_isolation_json(s->isolation, probe);
    int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;
    const char *text = iso ? json_object_to_json_string_ext(iso, flags) : NULL;
    int rc = text ? sb_printf(sb, ",\"isolation\":%s", text) : -1;
    json_object_put(iso);
    return rc;
}

static void print_json(const struct match_setup *s, const struct match_outcome *o, const char *replay,
                       const char *error, const struct isolation_report *probe)
{
    struct strbuf sb = STRBUF_INIT;
    int order[GAME_MAX_PLAYERS];
    run_place_order(o, order);
    int rc = sb_printf(&sb, "{\"game\":\"%s\",\"seed\":%" PRIu64 ",\"winner\":%d,\"draw\":%s,\"rounds\":%d",
                       s->rules->name, s->seed, o->winner, o->draw ? "true" : "false", o->rounds);
    rc |= sb_puts(&sb, ",\"replay\":");
    rc |= replay ? sb_json_string(&sb, replay, strlen(replay)) : sb_puts(&sb, "null");
    rc |= json_isolation(&sb, s, probe);
    if (error) {
        rc |= sb_puts(&sb, ",\"error\":");
        rc |= sb_json_string(&sb, error, strlen(error));
    }
    rc |= sb_puts(&sb, ",\"players\":[");
    for (int i = 0; i < o->players; i++) {
        if (i > 0)
            rc |= sb_putc(&sb, ',');
        rc |= json_player(&sb, s, &o->p[order[i]]);
    }
    rc |= sb_puts(&sb, "]}");
    if (rc == 0)
        printf("%s\n", sb.data);
    sb_free(&sb);
}

/* ---- progress ------------------------------------------------------------------------- */

struct progress { int64_t last; };   /* the last round, 0 when unknown */

static void show_round(void *ctx, int round)
{
    const struct progress *pr = ctx;
    if (pr->last > 0)
        fprintf(stderr, "\rround %d/%" PRId64, round, pr->last);
    else
        fprintf(stderr, "\rround %d", round);
    fflush(stderr);
}

/* ---- the command ------------------------------------------------------------------------ */

/* Interrupted (Ctrl-C, kill): leave no temporary replay behind, then die of the signal. */
static char temp_replay[4096];

static void remove_temp_and_die(int sig)
{
    if (temp_replay[0])
        unlink(temp_replay);
    cli_die_of_signal(sig);
}

static void on_interrupt(void (*handler)(int))
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], handler);
}

static int open_replay(const struct match_setup *s, bool default_path, struct replay_writer **w)
{
    struct replay_error rerr;
    if (default_path && mkdir("replays", 0755) < 0 && errno != EEXIST) {
        int e = errno;
        char here[4096];
        print_escaped(stderr,
                      "judge run: cannot make the directory replays in %s: %s; run the judge in a "
                      "directory you can write to, or name the replay: --replay PATH\n",
                      getcwd(here, sizeof here) ? here : ".", strerror(e));
        return EXIT_IO;
    }
    int rc = replay_writer_open(s->replay_path, w, &rerr);
    if (rc < 0) { /* a full or read-only disk, else a path that cannot be one (no such directory) */
        fprintf(stderr, "judge run: %s\n", rerr.msg);
        return rc == REPLAY_STORAGE_FAILED ? EXIT_IO : EXIT_USAGE;
    }
    snprintf(temp_replay, sizeof temp_replay, "%s", replay_writer_temp_path(*w));
    on_interrupt(remove_temp_and_die);
    return 0;
}

/* Only a path named with --replay replaces an existing file. */
static int commit_replay(struct replay_writer *w, bool replace, struct replay_committed *done,
                         struct match_error *merr)
{
    struct replay_error rerr;
    if (replay_writer_commit_as(w, replace ? REPLAY_REPLACE : REPLAY_KEEP_EXISTING, done, &rerr) < 0) {
        snprintf(merr->msg, sizeof merr->msg, "the match was played but its replay could not be written: %.500s",
                 rerr.msg);
        return -1;
    }
    if (done->replaced)
        fprintf(stderr, "judge run: note: replaced the existing file %s (named by --replay)\n", done->path);
    return 0;
}

static int play_and_report(const struct match_setup *s, const struct isolation_report *probe, bool json,
                           bool default_path, bool replace)
{
    struct replay_writer *w;
    struct match_outcome out;
    struct match_error merr;
    struct replay_committed done;
    /* A game of several rounds of turns (warlight) counts rounds; the others, turns. */
    bool rounds = game_param_index(s->rules, "rounds") >= 0;
    struct progress pr = {game_param(s->rules, s->params, rounds ? "rounds" : "turn_limit")};
    struct match_hooks hooks = {isatty(STDERR_FILENO) ? show_round : NULL, &pr};
    int rc = open_replay(s, default_path, &w);
    if (rc)
        return rc;
    rc = match_play(s, w, &hooks, &out, &merr);
    if (hooks.round_started)
        fputc('\n', stderr);
    bool io_failed = false;
    if (rc < 0) {
        replay_writer_abort(w);
    } else {
        rc = commit_replay(w, replace, &done, &merr);
        io_failed = rc < 0;
    }
    on_interrupt(SIG_DFL);
    temp_replay[0] = '\0';
    if (!strcmp(s->replay_path, "-")) { /* the replay had standard output: what follows goes to stderr */
        fflush(stdout);
        dup2(STDERR_FILENO, STDOUT_FILENO);
    }
    if (rc < 0)
        print_escaped(stderr, "judge run: %s%s\n", io_failed ? "" : "internal error: ", merr.msg);
    if (json)
        print_json(s, &out, rc < 0 ? NULL : done.path, rc < 0 ? merr.msg : NULL, probe);
    else
        run_print_text(s, &out, rc < 0 ? NULL : done.path, probe);
    match_outcome_free(&out);
    return io_failed ? EXIT_IO : rc < 0 ? EXIT_INTERNAL : EXIT_OK;
}

/* Source players are compiled first; one that does not compile ends the run with its messages. */
static int compile_sources(struct match_config *cfg, const struct run_options *o, struct source_build *b)
{
    struct compile_error err;
    if (source_build_temp(cfg, o->ov.has_isolation ? o->ov.isolation : cfg->isolation, b, &err) < 0) {
        fprintf(stderr, "judge run: %s\n", err.msg);
        return err.request ? EXIT_USAGE : EXIT_INTERNAL;
    }
    if (!b->failed)
        return 0;
    const struct compile_result *r = b->result;
    print_escaped(stderr, "judge run: player '%s' did not compile: %s%s%s\n", b->failed->name,
                  compile_verdict_name(r->verdict), r->note[0] ? ": " : "", r->note);
    print_untrusted(stderr, r->messages, r->messages_len);
    return EXIT_FAILURE_RESULT;
}

int cmd_run(int argc, char **argv)
{
    struct run_options o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct match_config cfg;
    struct config_error cerr;
    if (match_config_load(o.match_path, &cfg, &cerr) < 0) {
        print_escaped(stderr, "%s\n", cerr.msg);
        return EXIT_USAGE;
    }
    /* Before any compile or bot: a machine that cannot give the isolation asked for says so alone. */
    struct isolation_report probe;
    enum isolation_mode mode = o.ov.has_isolation ? o.ov.isolation : cfg.isolation;
    rc = cli_isolation_ready("run", mode, "the match file", &probe);
    if (rc) {
        match_config_free(&cfg);
        return rc;
    }
    struct match_setup s;
    struct match_error merr;
    struct source_build build;
    if ((rc = compile_sources(&cfg, &o, &build)) == 0 && match_setup_resolve(&cfg, &o.ov, &s, &merr) < 0) {
        print_escaped(stderr, "%s\n", merr.msg);
        rc = EXIT_USAGE;
    }
    if (rc) {
        source_build_remove(&build);
        match_config_free(&cfg);
        return rc;
    }
    bool default_path = !o.ov.replay_path && !cfg.replay_path, replace = o.ov.replay_path != NULL;
    match_config_free(&cfg);
    cli_isolation_note(&probe);
    if (s.map_notes && s.map_notes[0])
        fprintf(stderr, "judge run: note: %s%s", s.map_notes,
                s.map_notes[strlen(s.map_notes) - 1] == '\n' ? "" : "\n");
    rc = play_and_report(&s, &probe, o.json, default_path, replace);
    match_setup_free(&s);
    source_build_remove(&build);
    return rc;
}
