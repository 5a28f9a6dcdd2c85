/*
 * bench_bomberman.c - a four-player, 500-tick bomberman match of the example block-breakers
 * through match_play (strict jails, the source's map), each figure next to a baseline of the
 * same run:
 *   ticks per second (wall);
 *   the judge's own CPU per tick (getrusage RUSAGE_SELF around match_play; the bots are other
 *   processes) next to the bare cost of writing the same four states through pipes to four
 *   plain forked children and reading their 5-byte replies;
 *   replay bytes per tick (compressed, and before gzip).
 * lava_damage is 0 so that nobody dies and every match lasts all 500 ticks.
 * Usage: bench_bomberman [BOTS_DIR [matches]]   (BOTS_DIR holds breaker)
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "judge/match/match.h"
#include "replay/replay.h"
#include "tests/bench/bench_common.h"

#define PLAYERS 4
#define TICKS   500

static uint64_t self_cpu_ns(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
           ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

static int resolve_setup(const char *bots_dir, const char *map, struct match_setup *out)
{
    char *argv[] = {"./breaker", NULL};
    struct match_config cfg = {.path = "(bench_bomberman)",
                               .game = "bomberman",
                               .map_path = (char *)map,
                               .has_seed = true,
                               .seed = 1,
                               .n_players = PLAYERS,
                               .isolation = ISOLATION_STRICT};
    cfg.params[0] = (struct named_value){"game_ticks_max", TICKS, 1, 1};
    cfg.params[1] = (struct named_value){"lava_damage", 0, 1, 1};
    cfg.n_params = 2;
    for (int p = 0; p < PLAYERS; p++)
        cfg.players[p] = (struct player_config){
            .name = "breaker", .argv = argv, .argc = 1, .dir = (char *)bots_dir, .line = 1, .col = 1};
    struct match_overrides ov = {0};
    struct match_error err;
    if (match_setup_resolve(&cfg, &ov, out, &err) < 0) {
        fprintf(stderr, "bench_bomberman: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* The bytes of the four tick-0 states (each player's own). */
static size_t state_bytes(const struct match_setup *s, size_t *each)
{
    struct game_setup gs = {.map = s->map, .params = s->params, .seed = s->seed, .players = s->n_players};
    struct game_error gerr;
    struct game *g;
    size_t total = 0;
    if (s->rules->create(&gs, &g, &gerr) < 0) return 0;
    for (int p = 1; p <= PLAYERS; p++) {
        struct strbuf sb = STRBUF_INIT;
        s->rules->prompt(g, p, &sb);
        each[p - 1] = sb.len;
        total += sb.len;
        sb_free(&sb);
    }
    s->rules->destroy(g);
    return total;
}

/* The engine alone, per tick: the four states, four WAITs, the step and its events. */
static double engine_tick_ns(const struct match_setup *s)
{
    struct game_setup gs = {.map = s->map, .params = s->params, .seed = s->seed, .players = s->n_players};
    struct game_error gerr;
    struct game *g;
    struct strbuf sb = STRBUF_INIT;
    int pending[GAME_MAX_PLAYERS], ticks = 0;
    if (s->rules->create(&gs, &g, &gerr) < 0) return 0;
    uint64_t cpu0 = self_cpu_ns();
    while (!s->rules->over(g)) {
        int n = s->rules->pending(g, pending, GAME_MAX_PLAYERS);
        for (int i = 0; i < n; i++) {
            const char *line = "WAIT";
            struct game_verdict v;
            sb_reset(&sb);
            s->rules->prompt(g, pending[i], &sb);
            s->rules->submit(g, pending[i], &line, 1, &v);
        }
        sb_reset(&sb);
        s->rules->take_events(g, &sb);
        ticks++;
    }
    uint64_t cpu = self_cpu_ns() - cpu0;
    sb_free(&sb);
    s->rules->destroy(g);
    return ticks ? (double)cpu / ticks : 0;
}

/* ---- the bare baseline: four pipes to four plain forked children ----------------------- */

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

static void wait_child(int in, int out, size_t n)
{
    char *buf = malloc(n);
    char reply[5] = {'W', 'A', 'I', 'T', '\n'};
    while (buf && full_io(in, buf, n, false) == 0 && full_io(out, reply, 5, true) == 0) {
    }
    _exit(0);
}

/* The writer's own CPU per tick: four states written, four replies read (ns). */
static double bare_tick_ns(const size_t *each, int ticks)
{
    int to[PLAYERS], from[PLAYERS];
    pid_t pid[PLAYERS];
    size_t most = 0;
    for (int p = 0; p < PLAYERS; p++) {
        int a[2], b[2];
        if (pipe(a) < 0 || pipe(b) < 0) return 0;
        pid[p] = fork();
        if (pid[p] == 0) {
            for (int q = 0; q < p; q++) { /* the earlier children's pipes: theirs alone */
                close(to[q]);
                close(from[q]);
            }
            close(a[1]);
            close(b[0]);
            wait_child(a[0], b[1], each[p]);
        }
        close(a[0]);
        close(b[1]);
        to[p] = a[1];
        from[p] = b[0];
        most = each[p] > most ? each[p] : most;
    }
    char *buf = calloc(1, most), reply[5];
    memset(buf, '+', most);
    int done = 0;
    uint64_t cpu0 = self_cpu_ns();
    for (; done < ticks; done++) {
        bool failed = false;
        for (int p = 0; p < PLAYERS; p++) failed = failed || full_io(to[p], buf, each[p], true) < 0;
        for (int p = 0; p < PLAYERS; p++) failed = failed || full_io(from[p], reply, 5, false) < 0;
        if (failed) break;
    }
    uint64_t cpu = self_cpu_ns() - cpu0;
    for (int p = 0; p < PLAYERS; p++) {
        close(to[p]);
        close(from[p]);
        waitpid(pid[p], NULL, 0);
    }
    free(buf);
    return done ? (double)cpu / done : 0;
}

static uint64_t gunzipped_bytes(const char *path)
{
    gzFile gz = gzopen(path, "rb");
    char buf[65536];
    int n;
    uint64_t total = 0;
    if (!gz) return 0;
    while ((n = gzread(gz, buf, sizeof buf)) > 0) total += (uint64_t)n;
    gzclose(gz);
    return total;
}

/* ---- the match ----------------------------------------------------------------------------- */

struct figures {
    uint64_t cpu_ns, wall_ns, bytes, raw_bytes;
    int ticks, replies, matches;
};

static int play_once(const struct match_setup *s, const char *path, struct figures *f)
{
    struct replay_writer *w;
    struct replay_error rerr;
    struct match_outcome o;
    struct match_error err;
    struct stat sb;
    unlink(path);
    if (replay_writer_open(path, &w, &rerr) < 0) {
        fprintf(stderr, "bench_bomberman: %s\n", rerr.msg);
        return -1;
    }
    uint64_t wall0 = bench_now_ns(), cpu0 = self_cpu_ns();
    if (match_play(s, w, NULL, &o, &err) < 0) {
        fprintf(stderr, "bench_bomberman: match_play: %s\n", err.msg);
        replay_writer_abort(w);
        return -1;
    }
    int rc = replay_writer_commit(w, &rerr);
    f->cpu_ns += self_cpu_ns() - cpu0;
    f->wall_ns += bench_now_ns() - wall0;
    f->ticks += o.rounds;
    f->replies += o.replies;
    f->matches++;
    f->bytes += stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    f->raw_bytes += gunzipped_bytes(path);
    match_outcome_free(&o);
    unlink(path);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dir_arg = argc > 1 ? argv[1] : "build/bots/bomberman";
    int matches = argc > 2 ? atoi(argv[2]) : 3;
    char dir[PATH_MAX], map[PATH_MAX], path[] = "/tmp/bench_bomberman.jsonl.gz";
    printf("bench_bomberman: %d-player %d-tick matches of breakers on classic.map (lava_damage 0), "
           "strict jails\n",
           PLAYERS, TICKS);
    fflush(stdout);
    if (geteuid() != 0 || !realpath(dir_arg, dir) || !realpath("examples/maps/bomberman/classic.map", map)) {
        printf("  skipped: needs root, make programs, and the repository root as working directory\n");
        return 0;
    }
    struct match_setup s;
    if (resolve_setup(dir, map, &s) < 0) return 1;
    size_t each[PLAYERS];
    size_t total = state_bytes(&s, each);
    struct figures f = {0};
    for (int i = 0; i < matches; i++)
        if (play_once(&s, path, &f) < 0) {
            match_setup_free(&s);
            return 1;
        }
    enum { BATCHES = 5 };
    uint64_t bare[BATCHES];
    for (int i = 0; i < BATCHES; i++) bare[i] = (uint64_t)bare_tick_ns(each, TICKS);
    double bare_ns = bench_summarise(bare, BATCHES).median_us * 1e3;
    double per_tick = (double)f.cpu_ns / f.ticks;
    printf("  %d matches, %d ticks, %d replies\n", f.matches, f.ticks, f.replies);
    printf("  ticks per second (wall, incl. start-up and replay commit): %.1f   (%.2f s per match)\n",
           f.ticks / (f.wall_ns / 1e9), f.wall_ns / 1e9 / f.matches);
    printf("  judge CPU per tick: %.1f us   bare pipes (%zu state bytes out, 4 x 5 bytes back, median of %d "
           "batches of %d): %.1f us   ratio %.2f\n",
           per_tick / 1e3, total, BATCHES, TICKS, bare_ns / 1e3, bare_ns > 0 ? per_tick / bare_ns : 0.0);
    printf("  replay: %.1f bytes per tick compressed, %.1f before gzip (%.0f KB per match)\n",
           (double)f.bytes / f.ticks, (double)f.raw_bytes / f.ticks, f.bytes / 1024.0 / f.matches);
    printf("  of which the engine alone (four states, four WAITs, the step, its events): %.1f us\n",
           engine_tick_ns(&s) / 1e3);
    struct figures nf = {0}; /* the same with --no-freeze: what freezing idle bots costs */
    s.freeze = false;
    for (int i = 0; i < matches; i++)
        if (play_once(&s, path, &nf) < 0) break;
    if (nf.ticks)
        printf("  with --no-freeze: judge CPU per tick %.1f us (ratio to bare %.2f), %.1f ticks per second\n",
               (double)nf.cpu_ns / nf.ticks / 1e3, bare_ns > 0 ? (double)nf.cpu_ns / nf.ticks / bare_ns : 0.0,
               nf.ticks / (nf.wall_ns / 1e9));
    match_setup_free(&s);
    return 0;
}
