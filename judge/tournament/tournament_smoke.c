/*
 * tournament_smoke.c - the smoke test before a tournament's matches: every player of the shard
 * is started once, alone, in the first match it plays (moved to the seat asked first), and must
 * give its first reply within the limits. A failure is handed to the hooks at once with its
 * verdict, reason and stderr tail; with `smoke_test: drop` its player's matches are not played
 * and OUT/smoke/PLAYER.jsonl.gz tells the results stage why. Reference bots are tested and
 * reported, never dropped (their matches are everyone's). Each test runs in a forked process,
 * `jobs` at a time, like the matches.
 */
#include "judge/tournament/tournament.h"
#include "judge/tournament/tournament_compile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "replay/replay.h"

#define MESSAGE_MAX 3072 /* what a child reports: fits in a pipe, so it is read after the exit */
#define STDERR_KEEP 2048

struct child {
    pid_t pid;
    int fd;
    size_t player;
};

struct smoker {
    struct tournament_config *cfg;
    const struct tournament_plan *plan;
    const struct tournament_outdir *od;
    const struct tournament_smoke_hooks *hooks;
    struct child *running;
    int n_running, jobs;
    size_t *first_match; /* per player: the plan index of its first playable match in the shard, or SIZE_MAX */
    size_t failed;
    struct tournament_error *err;
    bool internal; /* fork or a record failed: err says what */
};

static void find_first_matches(struct smoker *sm, struct tournament_shard shard)
{
    for (size_t p = 0; p < sm->cfg->n_players; p++)
        sm->first_match[p] = SIZE_MAX;
    for (size_t i = sm->plan->n; i-- > 0;) {
        const struct tournament_match *m = &sm->plan->matches[i];
        if (!tournament_in_shard(m, shard) || tournament_match_unplayable(sm->cfg, m))
            continue;
        for (int s = 0; s < m->n_seats; s++)
            sm->first_match[m->seats[s]] = i;
    }
}

/* ---- in the child ------------------------------------------------------------------------- */

/* "VERDICT\0REASON\0STDERR" into msg; its length. */
static int pack(char *msg, const char *verdict, const char *reason, const char *tail)
{
    size_t tail_len = tail ? strlen(tail) : 0;
    if (tail_len > STDERR_KEEP) {
        tail += tail_len - STDERR_KEEP;
        tail_len = STDERR_KEEP;
    }
    int n = snprintf(msg, MESSAGE_MAX - STDERR_KEEP - 1, "%s%c%.700s%c", verdict, 0, reason, 0);
    memcpy(msg + n, tail ? tail : "", tail_len);
    return n + (int)tail_len;
}

static void reason_of(const struct match_player_outcome *po, char *out, size_t size)
{
    const struct match_violation *v = &po->violation;
    int n = snprintf(out, size, "%s", v->kind != VIOLATION_NONE ? v->reason : "");
    if (v->has_line && n >= 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, "%ssent \"%.*s\"", n ? "; " : "", (int)v->line_len, v->line);
}

static int smoke_one(struct smoker *sm, size_t player, char *msg)
{
    const struct tournament_match *m = &sm->plan->matches[sm->first_match[player]];
    struct match_config mc;
    tournament_match_config(sm->cfg, m, &mc);
    for (int s = 0; s < mc.n_players; s++)
        if (m->seats[s] == player) {
            struct player_config first = mc.players[0];
            mc.players[0] = mc.players[s];
            mc.players[s] = first;
        }
    struct match_overrides ov = {0};
    struct match_setup setup;
    struct match_error merr;
    if (match_setup_resolve(&mc, &ov, &setup, &merr) < 0)
        return pack(msg, "INTERNAL_ERROR", merr.msg, NULL);
    setup.smoke_player = 1;
    struct match_outcome out;
    int n;
    if (match_play(&setup, NULL, NULL, &out, &merr) < 0) {
        n = pack(msg, "INTERNAL_ERROR", merr.msg, NULL);
    } else {
        char reason[700];
        reason_of(&out.p[1], reason, sizeof reason);
        n = pack(msg, match_verdict_name(out.p[1].verdict), reason, out.p[1].stderr_tail);
    }
    match_outcome_free(&out);
    match_setup_free(&setup);
    return n;
}

_Noreturn static void child_main(struct smoker *sm, pid_t parent, int fd, size_t player)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    for (int k = 0; k < sm->n_running; k++) close(sm->running[k].fd);
    close(sm->od->lock_fd);
    char msg[MESSAGE_MAX];
    int n = smoke_one(sm, player, msg);
    exit(write(fd, msg, (size_t)n) == n ? 0 : 1); /* exit, not _exit: the sandbox removes its pooled cgroups */
}

/* ---- in the parent ------------------------------------------------------------------------ */

static void set_internal(struct smoker *sm, const char *fmt, const char *what)
{
    if (sm->internal) return;
    sm->internal = true;
    snprintf(sm->err->msg, sizeof sm->err->msg, fmt, what);
}

static void start(struct smoker *sm, size_t player)
{
    int fds[2];
    pid_t parent = getpid(), pid = -1;
    fflush(NULL);
    if (pipe2(fds, O_CLOEXEC) == 0 && (pid = fork()) == 0) {
        close(fds[0]);
        child_main(sm, parent, fds[1], player);
    }
    if (pid < 0) return set_internal(sm, "starting a smoke test: %s", strerror(errno));
    close(fds[1]);
    sm->running[sm->n_running++] = (struct child){pid, fds[0], player};
}

static int record_path(const struct tournament_outdir *od, const char *name, char *path, size_t size)
{
    char dir[4096];
    if ((size_t)snprintf(dir, sizeof dir, "%s/smoke", od->path) >= sizeof dir) return -1;
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) return -1;
    return (size_t)snprintf(path, size, "%s/%s.jsonl.gz", dir, name) >= size ? -1 : 0;
}

/* -1 with why for errnum; *storage when it says the disk failed. */
static int record_failed(struct replay_error *why, bool *storage, const char *path, int errnum)
{
    snprintf(why->msg, sizeof why->msg, "%.400s: %s", path, strerror(errnum));
    *storage = atomic_file_storage_errno(errnum);
    return -1;
}

/* The smoke record's line: the player, its verdict, reason, stderr and match. */
static int record_line(struct strbuf *sb, const struct tournament_smoke_result *r)
{
    const char *name = r->player->name;
    bool bad = sb_puts(sb, "{\"type\":\"smoke\",\"format\":\"judge-smoke\",\"version\":1,\"player\":") < 0 ||
               sb_json_string(sb, name, strlen(name)) < 0 || sb_puts(sb, ",\"verdict\":") < 0 ||
               sb_json_string(sb, r->verdict, strlen(r->verdict)) < 0 || sb_puts(sb, ",\"reason\":") < 0 ||
               sb_json_string(sb, r->reason, strlen(r->reason)) < 0 || sb_puts(sb, ",\"stderr_tail\":") < 0 ||
               sb_json_string(sb, r->stderr_tail, r->stderr_len) < 0 || sb_puts(sb, ",\"match_id\":") < 0 ||
               sb_json_string(sb, r->match_id, strlen(r->match_id)) < 0 ||
               sb_printf(sb, ",\"judge_version\":\"%s\"}", JUDGE_VERSION) < 0;
    return bad ? -1 : 0;
}

/* OUT/smoke/PLAYER.jsonl.gz for a dropped player (docs/tournaments.md); for one that passed, none.
 * -1 with why, and *storage when the disk is full, read-only or failing. */
static int write_record(struct smoker *sm, const struct tournament_smoke_result *r, bool dropped,
                        struct replay_error *why, bool *storage)
{
    const char *name = r->player->name;
    char path[4200];
    *storage = false;
    if (!name[0] || name[0] == '.' || strchr(name, '/'))
        return snprintf(why->msg, sizeof why->msg, "its name cannot be a file name"), -1;
    if (record_path(sm->od, name, path, sizeof path) < 0) return record_failed(why, storage, "smoke", errno);
    if (!dropped)
        return unlink(path) == 0 || errno == ENOENT ? 0 : record_failed(why, storage, path, errno);
    struct strbuf sb = STRBUF_INIT;
    struct replay_writer *w;
    int rc = record_line(&sb, r) < 0 ? (snprintf(why->msg, sizeof why->msg, "out of memory"), -1)
                                     : replay_writer_open(path, &w, why);
    if (rc == 0) {
        rc = replay_writer_put(w, sb.data, sb.len, why);
        if (rc < 0)
            replay_writer_abort(w);
        else
            rc = replay_writer_commit(w, why);
    }
    sb_free(&sb);
    *storage = rc == REPLAY_STORAGE_FAILED;
    return rc < 0 ? -1 : 0;
}

/* msg[0..len) is "VERDICT\0REASON\0STDERR" (NUL-terminated at len), or empty when the child died. */
static void report(struct smoker *sm, size_t player, const char *msg, size_t len)
{
    struct player_config *pc = &sm->cfg->players[player];
    size_t vlen = strnlen(msg, len);
    struct tournament_smoke_result r = {pc, vlen ? msg : "INTERNAL_ERROR",
                                        "the smoke test's process ended without a word", "", 0, NULL, false};
    if (vlen + 1 < len) {
        r.reason = msg + vlen + 1;
        size_t rlen = strnlen(r.reason, len - vlen - 1);
        if (vlen + 1 + rlen + 1 <= len) {
            r.stderr_tail = r.reason + rlen + 1;
            r.stderr_len = len - (vlen + 1 + rlen + 1);
        }
    }
    const char *verdict = r.verdict;
    char id[TOURNAMENT_ID_MAX];
    tournament_match_id(sm->cfg, sm->plan, &sm->plan->matches[sm->first_match[player]], id);
    r.match_id = id;
    bool internal = !strcmp(verdict, "INTERNAL_ERROR"), passed = !strcmp(verdict, "OK");
    r.dropped = !passed && !internal && !pc->reference && sm->cfg->smoke == TOURNAMENT_SMOKE_DROP;
    if (!passed && !internal) sm->failed++;
    if (r.dropped) pc->smoke_failed = true;
    struct replay_error why;
    bool storage;
    if (!internal && write_record(sm, &r, r.dropped, &why, &storage) < 0 && !sm->internal) {
        set_internal(sm, "writing the smoke record of player '%s'", pc->name);
        size_t n = strlen(sm->err->msg);
        snprintf(sm->err->msg + n, sizeof sm->err->msg - n, ": %s", why.msg);
        sm->err->storage = storage;
    }
    if (sm->hooks && sm->hooks->tested) sm->hooks->tested(sm->hooks->ctx, &r);
}

static void wait_one(struct smoker *sm)
{
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) return;
    for (int k = 0; k < sm->n_running; k++)
        if (sm->running[k].pid == pid) {
            struct child ch = sm->running[k];
            sm->running[k] = sm->running[--sm->n_running];
            char msg[MESSAGE_MAX + 1];
            ssize_t n = read(ch.fd, msg, MESSAGE_MAX);
            close(ch.fd);
            msg[n > 0 ? n : 0] = '\0';
            report(sm, ch.player, msg, n > 0 ? (size_t)n : 0);
            return;
        }
    if (pid < 0) sm->n_running = 0;
}

int tournament_smoke(struct tournament_config *cfg, const struct tournament_plan *plan,
                     struct tournament_shard shard, const struct tournament_outdir *od, int jobs,
                     const struct tournament_smoke_hooks *hooks, size_t *failed, struct tournament_error *err)
{
    *failed = 0;
    err->storage = false;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/smoke", od->path);
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) { /* made even when off, so pipelines can always name it */
        err->storage = atomic_file_storage_errno(errno);
        snprintf(err->msg, sizeof err->msg, "%.300s: %s", dir, strerror(errno));
        return -1;
    }
    if (cfg->smoke == TOURNAMENT_SMOKE_OFF) return 0;
    struct smoker sm = {cfg, plan, od, hooks, NULL, 0, jobs > 0 ? jobs : 1, NULL, 0, err, false};
    sm.running = calloc((size_t)sm.jobs, sizeof *sm.running);
    sm.first_match = calloc(cfg->n_players + 1, sizeof *sm.first_match);
    if (!sm.running || !sm.first_match) {
        free(sm.running);
        free(sm.first_match);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    find_first_matches(&sm, shard);
    for (size_t p = 0; p < cfg->n_players && !sm.internal; p++) {
        if (sm.first_match[p] == SIZE_MAX) continue;
        while (sm.n_running >= sm.jobs) wait_one(&sm);
        if (!sm.internal) start(&sm, p);
    }
    while (sm.n_running > 0) wait_one(&sm);
    free(sm.running);
    free(sm.first_match);
    *failed = sm.failed;
    return sm.internal ? -1 : 0;
}
