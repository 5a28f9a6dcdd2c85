/* cmd_tournament.c - `judge tournament TOURNAMENT.yaml`: play every match of a
 * tournament (or of one shard of it) in parallel, resumably (judge/tournament/tournament.h). */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ci/escape.h"
#include "judge/cli/cli_args.h"
#include "judge/cli/cli_interrupt.h"
#include "judge/cli/cli_isolation.h"
#include "judge/cli/cmd_print.h"
#include "judge/cli/commands.h"
#include "judge/cli/stderr_line.h"
#include "judge/tournament/tournament.h"
#include "judge/tournament/tournament_compile.h"

#define MAX_JOBS 1024
#define TICK_MS  250

static const char usage_text[] =
    "usage: judge tournament TOURNAMENT.yaml [--out DIR] [--jobs N] [--shard I/N] [--list]\n"
    "                        [--smoke-test drop|report|off] [--isolation strict|best-effort]\n"
    "\n"
    "Plays every match of the tournament file, N at a time (default: the number of\n"
    "CPUs), each in its own jails, into DIR (default: the file's `output:`):\n"
    "DIR/replays/ID.jsonl.gz and DIR/journal.jsonl, one line per finished match.\n"
    "Run the same command again after an interruption: only what is missing is played.\n"
    "Players with `source:` are compiled first, once, into DIR/bots (records in DIR/compile),\n"
    "only those seated in the shard's matches; one that does not compile plays no match.\n"
    "Then every player is started once on the first state of its first match and must\n"
    "answer within the limits (the smoke test); a failure is reported at once, and with\n"
    "`drop` (the default for a gauntlet; `smoke_test:` in the file) its matches are not\n"
    "played and DIR/smoke/PLAYER.jsonl.gz tells `judge results` why.\n"
    "Where a layer of isolation is not fully on (best-effort), one line at the start says\n"
    "which, and what stands in for each (\"isolation: best-effort: ...\").\n"
    "  --smoke-test M  drop: report and do not play a failing player's matches;\n"
    "                  report: report only (the default but for a gauntlet); off: no test\n"
    "  --isolation M   strict or best-effort, over the file's `isolation:` (default\n"
    "                  strict); part of what a resumed directory must match\n"
    "  --shard I/N  play only the matches whose index is I-1 modulo N (1 <= I <= N)\n"
    "  --list       check the file and print the match ids of the shard; play nothing\n"
    "See docs/tournaments.md. Exit status: 0 when every match was played, 2 for a\n"
    "usage or file error, 3 for an internal error (a match failed twice, for one) or\n"
    "when this machine cannot give strict isolation (refused before anything runs: one\n"
    "line names the layers not fully on; `judge doctor` says how to get them, or use\n"
    "best-effort).\n";

struct options {
    const char *file, *out;
    int jobs;
    struct tournament_shard shard;
    bool list;
    bool has_smoke;
    enum tournament_smoke smoke;
    bool has_isolation;
    enum isolation_mode isolation;
};

#define usage_error(...) cli_usage_error("tournament", "", __VA_ARGS__)

static int cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int parse_jobs(const char *text, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > MAX_JOBS)
        return usage_error("--jobs %s: expected a number from 1 to %d", text, MAX_JOBS);
    *out = (int)v;
    return 0;
}

static int parse_smoke(const char *text, struct options *o)
{
    for (int i = TOURNAMENT_SMOKE_OFF; i <= TOURNAMENT_SMOKE_DROP; i++)
        if (!strcmp(text, tournament_smoke_name((enum tournament_smoke)i))) {
            o->has_smoke = true;
            o->smoke = (enum tournament_smoke)i;
            return 0;
        }
    return usage_error("--smoke-test %s: expected drop, report or off", text);
}

static int parse_isolation(const char *text, struct options *o)
{
    o->has_isolation = true;
    if (!strcmp(text, "strict"))
        o->isolation = ISOLATION_STRICT;
    else if (!strcmp(text, "best-effort"))
        o->isolation = ISOLATION_BEST_EFFORT;
    else
        return usage_error("--isolation %s: expected strict or best-effort", text);
    return 0;
}

/* 0 to go on, -1 after --help, or an exit status. */
static int parse_args(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},   {"jobs", required_argument, NULL, 'j'},
        {"shard", required_argument, NULL, 's'}, {"list", no_argument, NULL, 'l'},
        {"smoke-test", required_argument, NULL, 'S'}, {"isolation", required_argument, NULL, 'i'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    *o = (struct options){.jobs = cpu_count(), .shard = {1, 1}};
    optind = 1;
    int opt, rc = 0;
    while (rc == 0 && (opt = getopt_long(argc, argv, ":o:j:s:lh", longopts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(usage_text, stdout);
            return -1;
        }
        if (opt == ':') return usage_error("%s needs a value", argv[optind - 1]);
        if (opt == '?')
            return usage_error("unknown option %s (see judge tournament --help)", argv[optind - 1]);
        if (opt == 'o')
            o->out = optarg;
        else if (opt == 'j')
            rc = parse_jobs(optarg, &o->jobs);
        else if (opt == 's' && tournament_shard_parse(optarg, &o->shard) < 0)
            rc = usage_error("--shard %s: expected I/N with 1 <= I <= N", optarg);
        else if (opt == 'l')
            o->list = true;
        else if (opt == 'S')
            rc = parse_smoke(optarg, o);
        else if (opt == 'i')
            rc = parse_isolation(optarg, o);
    }
    if (rc == 0 && argc - optind != 1)
        rc = usage_error("expected exactly one tournament file (see judge tournament --help)");
    if (rc == 0) o->file = argv[optind];
    return rc;
}

/* ---- progress ------------------------------------------------------------------------ */

struct display {
    struct tournament_progress p;
    bool tty;
    int width;
};

static void draw_bar(struct display *d)
{
    char bar[256];
    tournament_progress_bar(&d->p, monotonic_ns(), d->width - 1, bar, sizeof bar);
    fprintf(stderr, "\r\033[K%s", bar);
    fflush(stderr);
}

static void tick(void *ctx)
{
    draw_bar(ctx);
}

static void say(struct display *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct display *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (d->tty) fprintf(stderr, "\r\033[K");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (d->tty) draw_bar(d);
}

static void finished(void *ctx, const struct tournament_event *e)
{
    struct display *d = ctx;
    if (e->error) {
        d->p.failed += !e->retrying;
        say(d, "%s: internal error%s: %s\n", e->id, e->retrying ? ", playing it again" : " again, giving up",
            e->error);
        return;
    }
    d->p.done++;
    d->p.done_now++;
    if (d->tty) {
        draw_bar(d);
        return;
    }
    struct strbuf line = STRBUF_INIT;
    tournament_progress_line(&d->p, e->id, e->line, &line);
    print_escaped(stderr, "%s\n", line.data ? line.data : e->id);
    sb_free(&line);
}

static int terminal_width(void)
{
    struct winsize ws;
    return ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
}

/* ---- the command ----------------------------------------------------------------------- */

static size_t count_in_shard(const struct tournament_plan *plan, struct tournament_shard shard)
{
    size_t n = 0;
    for (size_t i = 0; i < plan->n; i++) n += tournament_in_shard(&plan->matches[i], shard);
    return n;
}

/* Matches of the shard left to play that seat a player who did not compile. */
static size_t count_unplayable(const struct tournament_run *run)
{
    size_t n = 0;
    for (size_t i = 0; i < run->plan->n; i++)
        n += tournament_in_shard(&run->plan->matches[i], run->shard) && !run->journal->done[i] &&
             tournament_match_unplayable(run->cfg, &run->plan->matches[i]);
    return n;
}

/* The source players compiled again because their files or profile changed since an earlier run. */
struct changed_players {
    const struct tournament_config *cfg;
    bool *changed; /* per cfg->players index */
};

static void compiled(void *ctx, const struct tournament_compiled *c)
{
    struct changed_players *cp = ctx;
    cp->changed[c->player - cp->cfg->players] = c->changed;
    bool ok = !strcmp(c->verdict, "OK");
    print_escaped(stderr, "compile %s (%s): %s%s%s\n", c->player->name, c->player->profile, c->verdict,
            c->reused ? " (reused from an earlier run)" : "",
            ok ? "" : ": its matches are not played (see its compile record)");
}

static int compile_players(const struct options *o, struct tournament_config *cfg,
                           const struct tournament_plan *plan, const struct tournament_outdir *od,
                           struct changed_players *changed)
{
    struct tournament_compile_hooks hooks = {compiled, changed};
    struct tournament_error err;
    enum tournament_compile_status s = tournament_compile(cfg, plan, o->shard, od, o->jobs, &hooks, &err);
    if (s == TOURNAMENT_COMPILED) return EXIT_OK;
    fprintf(stderr, "%s%s\n", s != TOURNAMENT_COMPILE_REQUEST ? "judge tournament: " : "", err.msg);
    return s == TOURNAMENT_COMPILE_REQUEST   ? EXIT_USAGE
           : s == TOURNAMENT_COMPILE_STORAGE ? EXIT_IO
                                             : EXIT_INTERNAL;
}

/* ---- the smoke test ------------------------------------------------------------------------ */

/* A bot's text on one line: newlines and control bytes shown as escapes (ci/escape.h). */
static void print_one_line(const char *s, size_t n)
{
    struct strbuf sb = STRBUF_INIT;
    if (esc_visible(&sb, s, n) == 0 && sb.len) fwrite(sb.data, 1, sb.len, stderr);
    sb_free(&sb);
}

static void smoke_tested(void *ctx, const struct tournament_smoke_result *r)
{
    (void)ctx;
    if (!strcmp(r->verdict, "OK")) return;
    bool internal = !strcmp(r->verdict, "INTERNAL_ERROR");
    fprintf(stderr, "smoke %s: ", r->player->name);
    if (internal) {
        fputs("could not be tested: ", stderr);
        print_one_line(r->reason, strlen(r->reason));
        fputs(" (its matches are played)\n", stderr);
        return;
    }
    fprintf(stderr, "%s at its first reply in %s", r->verdict, r->match_id);
    if (r->reason[0]) fputs(": ", stderr);
    print_one_line(r->reason, strlen(r->reason));
    fputs(r->dropped ? "; its matches are not played\n"
                     : r->player->reference ? "; a reference bot: its matches are played\n"
                                            : "; its matches are played (smoke_test: report)\n",
          stderr);
    size_t len;
    bool above_trace;
    const char *line = stderr_shown_line(r->stderr_tail, r->stderr_len, &len, &above_trace);
    if (len) {
        fprintf(stderr, "smoke %s: stderr: ", r->player->name);
        print_one_line(line, len);
        fputc('\n', stderr);
    }
}

static int smoke_test(const struct options *o, struct tournament_config *cfg, const struct tournament_plan *plan,
                      const struct tournament_outdir *od)
{
    struct tournament_smoke_hooks hooks = {smoke_tested, NULL};
    struct tournament_error err;
    size_t failed;
    if (o->has_smoke) cfg->smoke = o->smoke;
    if (tournament_smoke(cfg, plan, o->shard, od, o->jobs, &hooks, &failed, &err) < 0) {
        fprintf(stderr, "judge tournament: %s\n", err.msg);
        return err.storage ? EXIT_IO : EXIT_INTERNAL;
    }
    if (cfg->smoke != TOURNAMENT_SMOKE_OFF)
        fprintf(stderr, "smoke test: %zu player%s failed\n", failed, failed == 1 ? "" : "s");
    return EXIT_OK;
}

static int list_matches(const struct tournament_config *cfg, const struct tournament_plan *plan,
                        struct tournament_shard shard)
{
    struct tournament_error err;
    if (tournament_check(cfg, plan, &err) < 0) {
        print_escaped(stderr, "%s\n", err.msg);
        return EXIT_USAGE;
    }
    char id[TOURNAMENT_ID_MAX];
    for (size_t i = 0; i < plan->n; i++)
        if (tournament_in_shard(&plan->matches[i], shard)) {
            tournament_match_id(cfg, plan, &plan->matches[i], id);
            printf("%s\n", id);
        }
    return EXIT_OK;
}

static int exit_status(enum tournament_status s)
{
    switch (s) {
    case TOURNAMENT_ALL_PLAYED:
        return EXIT_OK;
    case TOURNAMENT_CONFIG_FAILED:
        return EXIT_USAGE;
    case TOURNAMENT_IO_FAILED:
        return EXIT_IO;
    case TOURNAMENT_MATCHES_FAILED:
    case TOURNAMENT_INTERNAL_FAILED:
        break;
    }
    return EXIT_INTERNAL;
}

/* The shard's matches as OUT/tournament.json counts them (matches_in_shard), then what is left of them. */
static void print_plan(const struct options *o, const struct tournament_run *run, size_t in_shard,
                       size_t unplayable)
{
    const struct tournament_journal *journal = run->journal;
    fprintf(stderr, "tournament: %zu match%s in shard %u/%u, %zu already finished", in_shard,
            in_shard == 1 ? "" : "es", o->shard.index, o->shard.count, journal->n_done);
    if (journal->n_recovered) fprintf(stderr, " (%zu recovered from replays)", journal->n_recovered);
    if (journal->n_fixed) fprintf(stderr, " (%zu journal lines rebuilt from their replays)", journal->n_fixed);
    if (unplayable)
        fprintf(stderr, ", %zu not played (a player did not compile or failed the smoke test)", unplayable);
    fprintf(stderr, ", %zu to play, %d at a time\n", in_shard - unplayable - journal->n_done, run->jobs);
}

static int play(const struct options *o, struct tournament_run *run, struct tournament_journal *journal)
{
    size_t in_shard = count_in_shard(run->plan, o->shard), unplayable = count_unplayable(run),
           playable = in_shard - unplayable, failed;
    struct display d = {
        {playable, journal->n_done, 0, 0, monotonic_ns(), run->cfg->game}, isatty(STDERR_FILENO),
        terminal_width()};
    struct tournament_hooks hooks = {finished, d.tty ? tick : NULL, TICK_MS, &d};
    struct tournament_error err;
    print_plan(o, run, in_shard, unplayable);
    if (d.tty) draw_bar(&d);
    enum tournament_status status = tournament_run(run, &hooks, &failed, &err);
    if (d.tty) fputc('\n', stderr);
    if (status == TOURNAMENT_CONFIG_FAILED || status == TOURNAMENT_INTERNAL_FAILED || status == TOURNAMENT_IO_FAILED)
        fprintf(stderr, "%s%s\n", status != TOURNAMENT_CONFIG_FAILED ? "judge tournament: " : "", err.msg);
    double secs = (double)(monotonic_ns() - d.p.started_ns) / 1e9;
    printf("played %zu match%s in %.1f s (%.2f/s); %zu/%zu finished", d.p.done_now, d.p.done_now == 1 ? "" : "es",
           secs,
           secs > 0 ? (double)d.p.done_now / secs : 0.0, d.p.done, playable);
    if (unplayable) printf("; %zu not played", unplayable);
    if (failed) printf("; %zu failed twice for an internal error", failed);
    printf("; journal %s\n", journal->path);
    return exit_status(status);
}

/* "OUT/journal.jsonl:7: not a journal line: \"not json\" (ignored)", as a file's error is told. */
static void print_ignored(const struct tournament_journal *journal)
{
    size_t shown = journal->n_ignored < TOURNAMENT_IGNORED_MAX ? journal->n_ignored : TOURNAMENT_IGNORED_MAX;
    for (size_t i = 0; i < shown; i++) {
        const struct tournament_ignored_line *l = &journal->ignored[i];
        print_escaped(stderr, "%s:%zu: %s: \"", journal->path, l->line, l->why);
        print_one_line(l->text, l->text_len);
        fprintf(stderr, "\"%s (ignored)\n", l->cut ? "..." : "");
    }
    if (journal->n_ignored > shown)
        print_escaped(stderr, "%s: %zu more such lines (ignored)\n", journal->path,
                      journal->n_ignored - shown);
}

/* What resuming changed in the journal: one line per match. */
static void print_journal_notes(const struct tournament_journal *journal)
{
    print_ignored(journal);
    const char *p = journal->notes.data;
    for (const char *nl; p && (nl = strchr(p, '\n')); p = nl + 1)
        fprintf(stderr, "judge tournament: %s: %.*s\n", journal->path, (int)(nl - p), p);
}

static size_t finished_matches_of(const struct tournament_plan *plan,
                                  const struct tournament_journal *journal, size_t player)
{
    size_t n = 0;
    for (size_t i = 0; i < plan->n; i++)
        for (int s = 0; journal->done[i] && s < plan->matches[i].n_seats; s++)
            n += plan->matches[i].seats[s] == player;
    return n;
}

/* A player compiled again for changed files keeps the matches its earlier build played (docs/class.md). */
static void warn_changed(const struct changed_players *cp, const struct tournament_plan *plan,
                         const struct tournament_outdir *od, const struct tournament_journal *journal)
{
    for (size_t p = 0; p < cp->cfg->n_players; p++) {
        size_t n = cp->changed[p] ? finished_matches_of(plan, journal, p) : 0;
        if (n)
            print_escaped(
                stderr,
                "judge tournament: warning: player '%s': its submission or language profile changed "
                "since an earlier run into %s, and it was compiled again; its %zu finished match%s "
                "%s played with the earlier version and %s kept: start a new output directory to "
                "play every match with this one\n",
                cp->cfg->players[p].name, od->path, n, n == 1 ? "" : "es", n == 1 ? "was" : "were",
                n == 1 ? "is" : "are");
    }
}

/* Compiles, checks again and smoke-tests the players: EXIT_OK to play. */
static int prepare_players(const struct options *o, struct tournament_config *cfg,
                           const struct tournament_plan *plan, const struct tournament_outdir *od,
                           struct changed_players *changed)
{
    struct tournament_error err;
    /* The first check left out the matches of source players; now they are compiled. */
    int rc = compile_players(o, cfg, plan, od, changed);
    if (rc == EXIT_OK && tournament_check(cfg, plan, &err) < 0) {
        print_escaped(stderr, "%s\n", err.msg);
        rc = EXIT_USAGE;
    }
    return rc == EXIT_OK ? smoke_test(o, cfg, plan, od) : rc;
}

/* tournament.json says whether the shard is played to the end (the results stage reads it). */
static int mark_complete(struct tournament_outdir *od, bool complete, int rc)
{
    struct tournament_error err;
    if (rc != EXIT_OK || tournament_outdir_set_complete(od, complete, &err) == 0) return rc;
    fprintf(stderr, "judge tournament: %s\n", err.msg);
    return err.storage ? EXIT_IO : EXIT_INTERNAL;
}

static int resume_and_play(const struct options *o, const struct changed_players *changed,
                           const struct tournament_plan *plan, struct tournament_outdir *od)
{
    struct tournament_error err;
    struct tournament_journal journal;
    if (tournament_journal_open(od, changed->cfg, plan, o->shard, &journal, &err) < 0) {
        fprintf(stderr, "judge tournament: %s\n", err.msg);
        return err.storage ? EXIT_IO : EXIT_INTERNAL;
    }
    print_journal_notes(&journal);
    warn_changed(changed, plan, od, &journal);
    struct tournament_run run = {changed->cfg, plan, od, &journal, o->shard, o->jobs};
    bool left = count_in_shard(plan, o->shard) - count_unplayable(&run) > journal.n_done;
    int rc = left ? mark_complete(od, false, EXIT_OK) : EXIT_OK;
    if (rc == EXIT_OK) rc = mark_complete(od, true, play(o, &run, &journal));
    tournament_journal_close(&journal);
    return rc;
}

/* Killed from now on, the directory holds what a resume needs: the user is told so. */
static void say_when_interrupted(const char *out)
{
    struct strbuf sb = STRBUF_INIT;
    if (esc_visible(&sb, out, strlen(out)) == 0 &&
        sb_printf(&sb, ": every finished match is kept there (journal.jsonl, replays/); run the same "
                       "command again to play the rest") == 0)
        cli_interrupt_say("tournament", sb.data);
    sb_free(&sb);
}

static int run_tournament(const struct options *o, struct tournament_config *cfg,
                          const struct tournament_plan *plan)
{
    const char *out = o->out ? o->out : cfg->out_dir;
    if (!out) return usage_error("no output directory: give --out DIR or `output:` in %s", o->file);
    char fingerprint[17];
    struct tournament_error err;
    struct tournament_outdir od;
    if (tournament_check(cfg, plan, &err) < 0) {
        print_escaped(stderr, "%s\n", err.msg);
        return EXIT_USAGE;
    }
    /* Before the output directory, any compile or smoke test: a machine that cannot give the
     * isolation asked for says so once, not once per match. */
    struct isolation_report probe;
    int rc = cli_isolation_ready("tournament", cfg->isolation, "the tournament file", &probe);
    if (rc != EXIT_OK) return rc;
    cli_isolation_note(&probe);
    if (tournament_fingerprint(cfg, fingerprint, &err) < 0 ||
        tournament_outdir_open(out, fingerprint, o->shard, plan->n, count_in_shard(plan, o->shard), &od,
                               &err) < 0) {
        print_escaped(stderr, "%s\n", err.msg);
        return err.storage ? EXIT_IO : EXIT_USAGE;
    }
    say_when_interrupted(out);
    struct changed_players changed = {cfg, calloc(cfg->n_players ? cfg->n_players : 1, sizeof(bool))};
    rc = EXIT_INTERNAL;
    if (!changed.changed)
        fputs("judge tournament: out of memory\n", stderr);
    else
        rc = prepare_players(o, cfg, plan, &od, &changed);
    if (rc == EXIT_OK) rc = resume_and_play(o, &changed, plan, &od);
    free(changed.changed);
    tournament_outdir_close(&od);
    return rc;
}

int cmd_tournament(int argc, char **argv)
{
    struct options o;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? EXIT_OK : rc;
    struct tournament_config cfg;
    struct tournament_plan plan;
    struct tournament_error err;
    if (tournament_config_load(o.file, &cfg, &err) < 0) {
        print_escaped(stderr, "%s\n", err.msg);
        return EXIT_USAGE;
    }
    if (o.has_isolation) cfg.isolation = o.isolation;
    if (tournament_plan_build(&cfg, &plan, &err) < 0) {
        print_escaped(stderr, "%s\n", err.msg);
        tournament_config_free(&cfg);
        return EXIT_USAGE;
    }
    rc = o.list ? list_matches(&cfg, &plan, o.shard) : run_tournament(&o, &cfg, &plan);
    tournament_plan_free(&plan);
    tournament_config_free(&cfg);
    return rc;
}
