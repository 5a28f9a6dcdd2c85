/*
 * bench_match.c - whole generals matches through match_play, each figure next
 * to a baseline measured in the same run:
 *   the judge's own CPU per reply (getrusage RUSAGE_SELF around match_play and
 *   the replay's commit, which deflates it; the bots are other processes) next
 *   to the raw cost of writing one prompt's bytes
 *   through a pipe to a plain forked child and reading its 3-byte reply;
 *   whole 1000-round matches per second (wall);
 *   replay bytes per reply, and the replay's share of the judge's CPU, found
 *   two ways: the same match played with and without a replay writer, and the
 *   decompressed replay deflated again as the writer does at its commit
 *   (libdeflate, level 4), at libdeflate's other levels up to 6, and by zlib's
 *   stream at level 4 (what the writer does past 8 MiB, and did before), for
 *   the trade-off;
 *   the judge's CPU per reply by phase (match_phases.h), from one more match
 *   played with match_play_measured, over the same steady rounds.
 * Usage: bench_match [BOTS_DIR [matches]]   (BOTS_DIR holds pass and greedy)
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "judge/match/match.h"
#include "judge/match/match_phases.h"
#include "replay/replay.h"
#include "tests/bench/bench_common.h"

#define SIDE       50
#define TURN_LIMIT 1000
#define MAP_SEED   20240601u
#define WHOLE_LEVEL  4 /* replay_writer.c deflates a replay whole at its commit, libdeflate at this level */
#define STREAM_LEVEL 4 /* and opens zlib's stream "wb4" past 8 MiB */
#define OTHER_LEVELS 6
#define TARGET_US  20.0

/* ---- time ------------------------------------------------------------------------ */

static uint64_t self_cpu_ns(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
           ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* ---- the setup ------------------------------------------------------------------- */

static int resolve_setup(const char *bots_dir, const char *bot, struct match_setup *out)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "./%s", bot);
    char *argv[] = {cmd, NULL};
    struct match_config cfg = {.path = "(bench_match)",
                               .game = "generals",
                               .has_generate = true,
                               .has_seed = true,
                               .seed = MAP_SEED,
                               .n_players = 2,
                               .isolation = ISOLATION_STRICT};
    const struct named_value gen[] = {{"rows", SIDE, 1, 1}, {"cols", SIDE, 1, 1}, {"players", 2, 1, 1}};
    memcpy(cfg.generate, gen, sizeof gen);
    cfg.n_generate = 3;
    cfg.params[0] = (struct named_value){"turn_limit", TURN_LIMIT, 1, 1};
    cfg.n_params = 1;
    for (int p = 0; p < 2; p++)
        cfg.players[p] = (struct player_config){
            .name = p ? "two" : "one", .argv = argv, .argc = 1, .dir = (char *)bots_dir, .line = 1, .col = 1};
    struct match_overrides ov = {0};
    struct match_error err;
    if (match_setup_resolve(&cfg, &ov, out, &err) < 0) {
        fprintf(stderr, "bench_match: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* The bytes of player 1's first prompt on this setup's map. */
static size_t prompt_bytes(const struct match_setup *s)
{
    struct game_setup gs = {.map = s->map, .params = s->params, .seed = s->seed, .players = s->n_players};
    struct game_error gerr;
    struct game *g;
    struct strbuf sb = STRBUF_INIT;
    int pending[GAME_MAX_PLAYERS];
    if (s->rules->create(&gs, &g, &gerr) < 0) return 0;
    if (s->rules->pending(g, pending, GAME_MAX_PLAYERS) > 0) s->rules->prompt(g, pending[0], &sb);
    size_t n = sb.len;
    sb_free(&sb);
    s->rules->destroy(g);
    return n;
}

/* ---- one match ------------------------------------------------------------------- */

struct steady {
    uint64_t cpu_at_2, cpu_at_last;
    int last_round;
    struct match_phases *phases;          /* measured, or NULL */
    struct match_phases at_2, at_last;    /* copies, the current phase's time so far included */
};

static void snapshot(const struct match_phases *p, struct match_phases *out)
{
    *out = *p;
    out->ns[p->current] += match_phases_thread_ns() - p->since_ns;
}

static void on_round(void *ctx, int round)
{
    struct steady *st = ctx;
    if (round == 2) {
        st->cpu_at_2 = self_cpu_ns();
        if (st->phases) snapshot(st->phases, &st->at_2);
    } else if (round == TURN_LIMIT) {
        st->cpu_at_last = self_cpu_ns();
        if (st->phases) snapshot(st->phases, &st->at_last);
    }
    st->last_round = round;
}

struct match_run {
    uint64_t cpu_ns, wall_ns, commit_ns, replay_bytes;
    uint64_t steady_cpu_ns; /* rounds 2..TURN_LIMIT-1, 0 when the match ended early */
    int replies, rounds, winner;
    struct match_phases phases; /* rounds 2..TURN_LIMIT-1, when measured */
};

static int open_replay(const char *path, struct replay_writer **w)
{
    struct replay_error rerr;
    if (!path) {
        *w = NULL;
        return 0;
    }
    unlink(path);
    if (replay_writer_open(path, w, &rerr) < 0) {
        fprintf(stderr, "bench_match: %s\n", rerr.msg);
        return -1;
    }
    return 0;
}

static int commit_replay(const char *path, struct replay_writer *w, struct match_run *out)
{
    struct replay_error rerr;
    struct stat sb;
    if (!w) return 0;
    uint64_t t0 = bench_now_ns();
    if (replay_writer_commit(w, &rerr) < 0) {
        fprintf(stderr, "bench_match: %s\n", rerr.msg);
        return -1;
    }
    out->commit_ns = bench_now_ns() - t0;
    out->replay_bytes = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    return 0;
}

/* Plays one match; replay_path NULL plays it with no replay writer; measured: by phase too. */
static int play_match(const struct match_setup *s, const char *replay_path, bool measured, struct match_run *out)
{
    struct replay_writer *w;
    struct match_phases phases = {0};
    struct steady st = {.phases = measured ? &phases : NULL};
    struct match_hooks hooks = {.round_started = on_round, .ctx = &st};
    struct match_outcome o;
    struct match_error err;
    memset(out, 0, sizeof *out);
    uint64_t wall0 = bench_now_ns();
    if (open_replay(replay_path, &w) < 0) return -1;
    uint64_t cpu0 = self_cpu_ns();
    int rc = match_play_measured(s, w, &hooks, st.phases, &o, &err);
    if (rc < 0) {
        fprintf(stderr, "bench_match: match_play: %s\n", err.msg);
        if (w) replay_writer_abort(w);
        return -1;
    }
    rc = commit_replay(replay_path, w, out); /* the replay is deflated here */
    out->cpu_ns = self_cpu_ns() - cpu0;
    out->wall_ns = bench_now_ns() - wall0;
    out->replies = o.replies;
    out->rounds = o.rounds;
    out->winner = o.winner;
    if (st.cpu_at_last > st.cpu_at_2 && st.cpu_at_2) out->steady_cpu_ns = st.cpu_at_last - st.cpu_at_2;
    for (int ph = 0; measured && out->steady_cpu_ns && ph < MATCH_PHASE_COUNT; ph++) {
        out->phases.ns[ph] = st.at_last.ns[ph] - st.at_2.ns[ph];
        out->phases.entries[ph] = st.at_last.entries[ph] - st.at_2.entries[ph];
    }
    match_outcome_free(&o);
    return rc;
}

/* ---- the raw baseline: a pipe to a plain forked child ------------------------------- */

static int full_io(int fd, char *buf, size_t n, bool writing)
{
    for (size_t done = 0; done < n;) {
        ssize_t k = writing ? write(fd, buf + done, n - done) : read(fd, buf + done, n - done);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        done += (size_t)k;
    }
    return 0;
}

/* The child: read a prompt of n bytes, answer "-1\n", until stdin ends. */
static void echo_child(int in, int out, size_t n)
{
    char *buf = malloc(n);
    char reply[3] = {'-', '1', '\n'};
    while (buf && full_io(in, buf, n, false) == 0 && full_io(out, reply, 3, true) == 0) {
    }
    _exit(0);
}

/* The writer's own CPU per exchange of n bytes out, 3 bytes back (ns), over one child's life. */
static double raw_batch_ns(size_t n, int exchanges)
{
    int to[2], from[2];
    if (pipe(to) < 0 || pipe(from) < 0) return 0;
    pid_t pid = fork();
    if (pid < 0) {
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        return 0;
    }
    if (pid == 0) {
        close(to[1]);
        close(from[0]);
        echo_child(to[0], from[1], n);
    }
    close(to[0]);
    close(from[1]);
    char *buf = calloc(1, n), reply[3];
    memset(buf, '1', n);
    int done = 0;
    uint64_t cpu0 = self_cpu_ns();
    for (; done < exchanges; done++)
        if (full_io(to[1], buf, n, true) < 0 || full_io(from[0], reply, 3, false) < 0) break;
    uint64_t cpu = self_cpu_ns() - cpu0;
    close(to[1]);
    close(from[0]);
    waitpid(pid, NULL, 0);
    free(buf);
    return done ? (double)cpu / done : 0;
}

/* The median of a few batches: one batch is at the mercy of the scheduler. With
 * one_cpu, the writer and its child share the writer's CPU, as a match of cheap
 * replies does (match_pin.h). */
static double raw_exchange_ns(size_t n, int exchanges, bool one_cpu)
{
    enum { BATCHES = 5 };
    uint64_t ns[BATCHES];
    cpu_set_t spread, one;
    bool pinned = false;
    if (one_cpu && sched_getaffinity(0, sizeof spread, &spread) == 0 && sched_getcpu() >= 0) {
        CPU_ZERO(&one);
        CPU_SET(sched_getcpu(), &one);
        pinned = sched_setaffinity(0, sizeof one, &one) == 0;
    }
    for (int i = 0; i < BATCHES; i++) ns[i] = (uint64_t)raw_batch_ns(n, exchanges);
    if (pinned) sched_setaffinity(0, sizeof spread, &spread);
    return (double)bench_summarise(ns, BATCHES).median_us * 1e3;
}

/* ---- compressing the replay again with zlib ------------------------------------------- */

static int gunzip_file(const char *path, struct strbuf *out)
{
    gzFile gz = gzopen(path, "rb");
    char buf[65536];
    int n;
    if (!gz) return -1;
    while ((n = gzread(gz, buf, sizeof buf)) > 0)
        if (sb_append(out, buf, (size_t)n) < 0) break;
    gzclose(gz);
    return n == 0 ? 0 : -1;
}

/* CPU ns to gzip text whole with libdeflate at level (mean of reps); *z gets the size. */
static double libdeflate_cpu_ns(const struct strbuf *text, int level, int reps, size_t *z)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
    size_t bound = c ? libdeflate_gzip_compress_bound(c, text->len) : 0;
    unsigned char *dst = c ? malloc(bound) : NULL;
    uint64_t cpu0 = self_cpu_ns();
    for (int i = 0; i < reps && dst; i++) *z = libdeflate_gzip_compress(c, text->data, text->len, dst, bound);
    uint64_t cpu = self_cpu_ns() - cpu0;
    free(dst);
    libdeflate_free_compressor(c);
    return (double)cpu / reps;
}

/* CPU ns to gzip text with zlib's stream at level (mean of reps); *z gets the size. */
static double deflate_cpu_ns(const struct strbuf *text, int level, int reps, size_t *z)
{
    uLong bound = compressBound((uLong)text->len) + 32;
    unsigned char *dst = malloc(bound);
    uint64_t cpu0 = self_cpu_ns();
    for (int i = 0; i < reps && dst; i++) {
        z_stream zs = {0};
        deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
        zs.next_in = (unsigned char *)text->data;
        zs.avail_in = (uInt)text->len;
        zs.next_out = dst;
        zs.avail_out = (uInt)bound;
        deflate(&zs, Z_FINISH);
        *z = zs.total_out;
        deflateEnd(&zs);
    }
    uint64_t cpu = self_cpu_ns() - cpu0;
    free(dst);
    return (double)cpu / reps;
}

/* ---- one configuration ------------------------------------------------------------------ */

struct config_figures {
    const char *bot;
    struct match_run spread;     /* one match never kept to one CPU */
    int matches, replies, early;
    uint64_t cpu_ns, wall_ns, commit_ns, bytes, steady_cpu_ns, steady_replies;
    uint64_t cpu_noreplay_ns;
    int replies_noreplay;
    double whole_ns[OTHER_LEVELS + 1], stream_ns; /* whole_ns[l]: libdeflate at level l */
    size_t raw_len, whole_len[OTHER_LEVELS + 1], stream_len;
    struct match_run measured;   /* one match with the phases measured */
};

static void add_run(struct config_figures *f, const struct match_run *m)
{
    f->matches++;
    f->replies += m->replies;
    f->cpu_ns += m->cpu_ns;
    f->wall_ns += m->wall_ns;
    f->commit_ns += m->commit_ns;
    f->bytes += m->replay_bytes;
    if (m->steady_cpu_ns) {
        f->steady_cpu_ns += m->steady_cpu_ns;
        f->steady_replies += 2u * (TURN_LIMIT - 2); /* two players, every round full */
    } else {
        f->early++;
    }
}

static void measure_zlib(struct config_figures *f, const char *path)
{
    struct strbuf text = STRBUF_INIT;
    if (gunzip_file(path, &text) == 0) {
        f->raw_len = text.len;
        for (int l = 1; l <= OTHER_LEVELS; l++)
            f->whole_ns[l] = libdeflate_cpu_ns(&text, l, 5, &f->whole_len[l]);
        f->stream_ns = deflate_cpu_ns(&text, STREAM_LEVEL, 5, &f->stream_len);
    }
    sb_free(&text);
}

/* Interleaved: a match with the replay writer, then the same match without. */
static int run_config(const struct match_setup *s, const char *tmp, int matches, struct config_figures *f)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.jsonl.gz", tmp, f->bot);
    for (int i = 0; i < matches; i++) {
        struct match_run with, without;
        if (play_match(s, path, false, &with) < 0 || play_match(s, NULL, false, &without) < 0) return -1;
        add_run(f, &with);
        f->cpu_noreplay_ns += without.cpu_ns;
        f->replies_noreplay += without.replies;
    }
    measure_zlib(f, path);
    if (play_match(s, path, true, &f->measured) < 0) return -1;
    struct match_setup spread = *s;
    spread.spread_cpus = true;
    if (play_match(&spread, path, false, &f->spread) < 0) return -1;
    unlink(path);
    return 0;
}

/* ---- output ----------------------------------------------------------------------------- */

/* The same match with its bots never kept on the judge's CPU, against the raw exchange spread alike. */
static void print_spread(const struct config_figures *f, double raw_spread_ns)
{
    const struct match_run *m = &f->spread;
    double per = (double)m->cpu_ns / m->replies, kept = (double)f->cpu_ns / f->replies;
    printf("  spread (one more match, its bots never kept on the judge's CPU): %.2f us per reply, ratio"
           " judge/raw spread %.2f; %.0f ms per match; the matches above, against it: %.2fx the judge's CPU per"
           " reply, %.2fx the matches per second\n",
           per / 1e3, per / raw_spread_ns, m->wall_ns / 1e6, kept / per,
           (double)m->wall_ns / ((double)f->wall_ns / f->matches));
}

static void print_cpu(const struct config_figures *f, double raw_ns)
{
    double per = (double)f->cpu_ns / f->replies,
           steady = f->steady_replies ? (double)f->steady_cpu_ns / f->steady_replies : 0;
    printf("%s vs %s: %d matches, %d replies, %d rounds each%s\n", f->bot, f->bot, f->matches, f->replies,
           f->replies / f->matches / 2, f->early ? " (some ended before the turn limit)" : "");
    printf(
        "  judge CPU per reply (match_play + commit): %6.2f us   ratio judge/raw %.2f   (target <= %.0f us)\n",
        per / 1e3, per / raw_ns, TARGET_US);
    if (steady > 0)
        printf("  judge CPU per reply (rounds 2..%d):        %6.2f us   ratio judge/raw %.2f\n", TURN_LIMIT - 1,
               steady / 1e3, steady / raw_ns);
    printf("  judge CPU per match: %.1f ms, of which start+finish about %.1f ms\n",
           f->cpu_ns / 1e6 / f->matches,
           steady > 0 ? (f->cpu_ns - steady * f->replies) / 1e6 / f->matches : 0.0);
    printf("  matches per second (wall, incl. replay commit): %.2f   (%.0f ms per match, commit %.1f ms)\n",
           f->matches / (f->wall_ns / 1e9), f->wall_ns / 1e6 / f->matches, f->commit_ns / 1e6 / f->matches);
}

static void print_replay(const struct config_figures *f)
{
    double with = (double)f->cpu_ns / f->replies, without = (double)f->cpu_noreplay_ns / f->replies_noreplay;
    printf(
        "  replay: %.1f bytes per reply compressed (%.0f KB per match; %.1f bytes per reply before gzip)\n",
        (double)f->bytes / f->replies, f->bytes / 1024.0 / f->matches,
        (double)f->raw_len * f->matches / f->replies);
    printf("  replay share, method A (same match with and without a writer): %.2f vs %.2f us per reply,"
           " share %.1f%%\n",
           with / 1e3, without / 1e3, 100.0 * (with - without) / with);
    double per_reply = (double)f->matches / f->replies;
    printf("  replay share, method B (the decompressed replay deflated whole as the writer's commit does,"
           " libdeflate level %d, %zu -> %zu bytes): %.2f ms per match = %.2f us per reply, %.1f%% of the judge's CPU\n",
           WHOLE_LEVEL, f->raw_len, f->whole_len[WHOLE_LEVEL], f->whole_ns[WHOLE_LEVEL] / 1e6,
           f->whole_ns[WHOLE_LEVEL] * per_reply / 1e3,
           100.0 * f->whole_ns[WHOLE_LEVEL] * f->matches / (double)f->cpu_ns);
    printf("    other levels (us per reply, bytes per reply; level %d: %.2f us, %.1f bytes):", WHOLE_LEVEL,
           f->whole_ns[WHOLE_LEVEL] * per_reply / 1e3, (double)f->whole_len[WHOLE_LEVEL] * per_reply);
    for (int l = 1; l <= OTHER_LEVELS; l++)
        if (l != WHOLE_LEVEL)
            printf(" %d: %.2f, %.1f;", l, f->whole_ns[l] * per_reply / 1e3,
                   (double)f->whole_len[l] * per_reply);
    printf("\n    zlib's stream at level %d (the writer's past 8 MiB, and before): %.2f us, %.1f bytes"
           " per reply\n",
           STREAM_LEVEL, f->stream_ns * per_reply / 1e3, (double)f->stream_len * per_reply);
}

/* CPU ns of one read of the thread's CPU clock: what each phase switch adds. */
static double clock_read_ns(void)
{
    enum { READS = 20000 };
    uint64_t t0 = match_phases_thread_ns(), sink = 0;
    for (int i = 0; i < READS; i++) sink += match_phases_thread_ns();
    return sink ? (double)(match_phases_thread_ns() - t0) / READS : 0;
}

/* Rounds 2..TURN_LIMIT-1 of the measured match, per reply, each phase beside its ratio to the raw exchange. */
static void print_phases(const struct config_figures *f, double raw_ns)
{
    const struct match_run *m = &f->measured;
    double replies = 2.0 * (TURN_LIMIT - 2), total = 0, switches = 0, clock_ns = clock_read_ns();
    if (!m->steady_cpu_ns) {
        printf("  by phase: the measured match ended before round %d\n", TURN_LIMIT);
        return;
    }
    for (int ph = 0; ph < MATCH_PHASE_COUNT; ph++) {
        total += (double)m->phases.ns[ph];
        switches += (double)m->phases.entries[ph];
    }
    printf("  judge thread CPU per reply by phase (one more match, rounds 2..%d; \"net\": less one clock read"
           " per entry, the measuring's own cost):\n",
           TURN_LIMIT - 1);
    for (int ph = 0; ph < MATCH_PHASE_COUNT; ph++) {
        double per = (double)m->phases.ns[ph] / replies, entered = (double)m->phases.entries[ph] / replies;
        double net = per > entered * clock_ns ? per - entered * clock_ns : 0;
        printf("    %-14s %8.2f us   net %6.2f us   ratio net/raw %5.2f   (%4.1f%%, entered %.2f times per reply)\n",
               match_phase_name((enum match_phase)ph), per / 1e3, net / 1e3, net / raw_ns,
               100.0 * (double)m->phases.ns[ph] / total, entered);
    }
    double net_total = total / replies - switches / replies * clock_ns;
    printf("    %-14s %8.2f us   net %6.2f us   ratio net/raw %5.2f   (measuring: %.1f clock reads x %.2f us)\n",
           "total", total / replies / 1e3, net_total / 1e3, net_total / raw_ns, switches / replies, clock_ns / 1e3);
}

/* raw_ns[0]: the raw exchange on one CPU, [1]: spread. */
static int bench_bot(const char *bots_dir, const char *bot, const char *tmp, int matches, double raw_ns[2])
{
    struct match_setup s;
    struct config_figures f = {.bot = bot};
    if (resolve_setup(bots_dir, bot, &s) < 0) return -1;
    if (raw_ns[0] == 0) {
        size_t n = prompt_bytes(&s);
        raw_ns[0] = raw_exchange_ns(n, 2 * TURN_LIMIT, true);
        raw_ns[1] = raw_exchange_ns(n, 2 * TURN_LIMIT, false);
        printf("baseline: %zu-byte prompt (one %dx%d state) to a plain forked child, 3-byte reply back\n", n,
               SIDE, SIDE);
        printf("  writer's own CPU per exchange (raw), both on one CPU: %8.2f us   (median of 5 batches of %d)\n",
               raw_ns[0] / 1e3, 2 * TURN_LIMIT);
        printf("  the same, child and writer where the kernel puts them: %7.2f us   (\"spread\": waking an idle"
               " CPU takes an interrupt)\n",
               raw_ns[1] / 1e3);
        printf("  (a match keeps its bots on the judge's CPU once three rounds of replies were cheap: match_pin.h)\n");
    }
    int rc = run_config(&s, tmp, matches, &f);
    if (rc == 0) {
        print_cpu(&f, raw_ns[0]);
        print_spread(&f, raw_ns[1]);
        print_phases(&f, raw_ns[0]);
        print_replay(&f);
    }
    match_setup_free(&s);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dir_arg = argc > 1 ? argv[1] : "build/bots/generals";
    int matches = argc > 2 ? atoi(argv[2]) : 3;
    char dir[PATH_MAX], tmp[] = "/tmp/bench_match.XXXXXX";
    if (!realpath(dir_arg, dir)) {
        perror(dir_arg);
        return 1;
    }
    if (matches < 1) matches = 1;
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    printf("== bench_match (generals %dx%d, 2 players, seed %u, turn_limit %d, %d matches per configuration,"
           " strict jail, frozen between turns)\n",
           SIDE, SIDE, MAP_SEED, TURN_LIMIT, matches);
    double raw_ns[2] = {0, 0};
    int rc = bench_bot(dir, "pass", tmp, matches, raw_ns);
    if (rc == 0) rc = bench_bot(dir, "greedy", tmp, matches, raw_ns);
    rmdir(tmp);
    return rc < 0 ? 1 : 0;
}
