/*
 * tournament_compile.c - compile every source player of a shard once
 * (judge/tournament/tournament_compile.h): keys first (source_hash), then what an earlier
 * run left is reused, then the rest are compiled `jobs` at a time, each in a
 * forked process that writes its bot, record and state into OUT and reports
 * an error, if any, on a pipe; each player is read back from OUT once it and
 * those before it in the file have ended, so the hook hears of them in file order as they go.
 * Players seated in no match of the shard are left alone: another shard compiles them.
 */
#include "judge/tournament/tournament_compile_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/compile/source_player.h"

#define MESSAGE_MAX 800

struct child {
    pid_t pid;
    int fd;
    size_t player;
};

struct compiler {
    struct tournament_config *cfg;
    const struct tournament_outdir *od;
    char (*keys)[17];
    struct build_state *states;
    bool *reused;
    bool *changed; /* an earlier run's build had another key */
    bool *wanted;  /* a source player seated in a match of the shard */
    bool *done;    /* its compile has ended (or was reused) */
    size_t told;   /* players before this one are read back and told to the hook */
    const struct tournament_compile_hooks *hooks;
    struct child *running;
    int n_running, jobs;
    enum tournament_compile_status status;
    struct tournament_error *err;
};

static void set_failed(struct compiler *c, enum tournament_compile_status s, const char *msg)
{
    if (c->status != TOURNAMENT_COMPILED) return;
    c->status = s;
    snprintf(c->err->msg, sizeof c->err->msg, "%.699s", msg);
}

/* ---- before compiling: names and keys -------------------------------------------------- */

static bool usable_file_name(const char *name)
{
    return name[0] && name[0] != '.' && !strchr(name, '/');
}

/* Every source player's name, those of other shards too: every shard refuses the same file. */
static void check_name(struct compiler *c, size_t i)
{
    const struct player_config *p = &c->cfg->players[i];
    char msg[700];
    if (usable_file_name(p->name)) return;
    snprintf(msg, sizeof msg,
             "%s:%d:%d: player '%s': a source player's name names its files: no '/', not starting with '.'",
             c->cfg->path, p->line, p->col, p->name);
    set_failed(c, TOURNAMENT_COMPILE_REQUEST, msg);
}

static int prepare(struct compiler *c, size_t i)
{
    struct player_config *p = &c->cfg->players[i];
    char msg[700];
    struct compile_error cerr;
    if (source_hash(p->source, p->language, c->keys[i], &cerr) < 0) {
        snprintf(msg, sizeof msg, "%s:%d:%d: player '%s': %s", c->cfg->path, p->line, p->col, p->name,
                 cerr.msg);
        set_failed(c, TOURNAMENT_COMPILE_REQUEST, msg);
        return -1;
    }
    c->changed[i] = build_key_changed(c->od, p, c->keys[i]);
    int rc = build_reuse(c->od, p, c->keys[i], &c->states[i]);
    if (rc < 0) set_failed(c, TOURNAMENT_COMPILE_INTERNAL, "out of memory");
    c->reused[i] = rc == 1;
    return rc < 0 ? -1 : 0;
}

/* ---- as they end: every player read back ------------------------------------------------ */

/* Reads back, in file order, the players whose compiles have ended, up to the first still
 * running, and tells the hook of each: a long class compile shows its progress. */
static void read_back(struct compiler *c)
{
    for (; c->told < c->cfg->n_players && c->status == TOURNAMENT_COMPILED; c->told++) {
        size_t i = c->told;
        struct player_config *p = &c->cfg->players[i];
        if (!c->wanted[i]) continue;
        if (!c->done[i]) return;
        if (!c->reused[i] && build_reuse(c->od, p, c->keys[i], &c->states[i]) != 1) {
            char why[200];
            snprintf(why, sizeof why, "compiling player '%s' left no bot, record or state in %.100s", p->name,
                     c->od->path);
            set_failed(c, TOURNAMENT_COMPILE_INTERNAL, why);
            return;
        }
        struct tournament_compiled e = {p, c->states[i].verdict, c->reused[i], c->changed[i]};
        if (c->hooks && c->hooks->compiled) c->hooks->compiled(c->hooks->ctx, &e);
    }
}

/* ---- the forked compiles ----------------------------------------------------------------- */

_Noreturn static void child_main(struct compiler *c, pid_t parent, int fd, size_t i)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    for (int k = 0; k < c->n_running; k++) close(c->running[k].fd);
    close(c->od->lock_fd);
    struct compile_error cerr;
    char msg[MESSAGE_MAX];
    int rc = 0;
    if (build_compile(c->od, &c->cfg->players[i], c->keys[i], c->cfg->isolation, &cerr) < 0) {
        int n = snprintf(msg, sizeof msg, "%c%s", cerr.request ? 'R' : cerr.storage ? 'S' : 'I', cerr.msg);
        rc = write(fd, msg, (size_t)n) == n ? 0 : 1;
    }
    exit(rc); /* exit, not _exit: the sandbox removes its pooled cgroups at exit */
}

static void start(struct compiler *c, size_t i)
{
    int fds[2];
    pid_t parent = getpid(), pid = -1;
    fflush(NULL);
    if (pipe2(fds, O_CLOEXEC) == 0 && (pid = fork()) == 0) {
        close(fds[0]);
        child_main(c, parent, fds[1], i);
    }
    if (pid < 0) {
        char why[160];
        snprintf(why, sizeof why, "starting a compile: %s", strerror(errno));
        set_failed(c, TOURNAMENT_COMPILE_INTERNAL, why);
        return;
    }
    close(fds[1]);
    c->running[c->n_running++] = (struct child){pid, fds[0], i};
}

/* The child has exited: what it wrote, if anything, is all in the pipe. */
static void finish(struct compiler *c, int k, int status)
{
    struct child ch = c->running[k];
    c->running[k] = c->running[--c->n_running];
    c->done[ch.player] = true;
    char msg[MESSAGE_MAX + 1], why[MESSAGE_MAX + 200];
    ssize_t n = read(ch.fd, msg, MESSAGE_MAX);
    close(ch.fd);
    const char *name = c->cfg->players[ch.player].name;
    if (n > 1) {
        msg[n] = '\0';
        snprintf(why, sizeof why, "compiling player '%s': %s", name, msg + 1);
        set_failed(c,
                   msg[0] == 'R'   ? TOURNAMENT_COMPILE_REQUEST
                   : msg[0] == 'S' ? TOURNAMENT_COMPILE_STORAGE
                                   : TOURNAMENT_COMPILE_INTERNAL,
                   why);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(why, sizeof why, "compiling player '%s': its process ended with status %d", name, status);
        set_failed(c, TOURNAMENT_COMPILE_INTERNAL, why);
    }
}

static void wait_one(struct compiler *c)
{
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) return;
    for (int k = 0; k < c->n_running; k++)
        if (c->running[k].pid == pid) {
            finish(c, k, status);
            read_back(c);
            return;
        }
    if (pid < 0) c->n_running = 0; /* no child left: nothing more will come */
}

static void compile_all(struct compiler *c)
{
    for (size_t i = 0; i < c->cfg->n_players; i++) {
        if (!c->wanted[i] || c->reused[i]) continue;
        while (c->n_running >= c->jobs) wait_one(c);
        if (c->status == TOURNAMENT_COMPILED) start(c, i);
    }
    while (c->n_running > 0) wait_one(c);
}

/* The source players seated in a match of the shard. Shard 1 takes too those seated in no match
 * at all (a sample may leave one out), so that every submission's compile is recorded somewhere. */
static int choose_players(struct compiler *c, const struct tournament_plan *plan,
                          struct tournament_shard shard)
{
    size_t n = c->cfg->n_players;
    bool *anywhere = calloc(n ? n : 1, sizeof *anywhere);
    if (!anywhere) return -1;
    tournament_shard_players(plan, shard, c->wanted);
    tournament_shard_players(plan, (struct tournament_shard){1, 1}, anywhere);
    for (size_t i = 0; i < n; i++) {
        c->wanted[i] |= shard.index == 1 && !anywhere[i];
        c->wanted[i] &= c->cfg->players[i].source != NULL;
    }
    free(anywhere);
    return 0;
}

enum tournament_compile_status tournament_compile(struct tournament_config *cfg,
                                                  const struct tournament_plan *plan,
                                                  struct tournament_shard shard,
                                                  const struct tournament_outdir *od, int jobs,
                                                  const struct tournament_compile_hooks *hooks,
                                                  struct tournament_error *err)
{
    size_t n = cfg->n_players ? cfg->n_players : 1;
    struct compiler c = {
        .cfg = cfg, .od = od, .jobs = jobs > 0 ? jobs : 1, .status = TOURNAMENT_COMPILED, .err = err};
    c.keys = calloc(n, sizeof *c.keys);
    c.states = calloc(n, sizeof *c.states);
    c.reused = calloc(n, sizeof *c.reused);
    c.changed = calloc(n, sizeof *c.changed);
    c.wanted = calloc(n, sizeof *c.wanted);
    c.done = calloc(n, sizeof *c.done);
    c.hooks = hooks;
    c.running = calloc((size_t)c.jobs, sizeof *c.running);
    if (!c.keys || !c.states || !c.reused || !c.changed || !c.wanted || !c.done || !c.running ||
        choose_players(&c, plan, shard) < 0)
        set_failed(&c, TOURNAMENT_COMPILE_INTERNAL, "out of memory");
    for (size_t i = 0; i < cfg->n_players && c.status == TOURNAMENT_COMPILED; i++)
        if (cfg->players[i].source) check_name(&c, i);
    for (size_t i = 0; i < cfg->n_players && c.status == TOURNAMENT_COMPILED; i++)
        if (c.wanted[i]) prepare(&c, i);
    for (size_t i = 0; i < cfg->n_players && c.status == TOURNAMENT_COMPILED; i++)
        c.done[i] = c.reused[i];
    if (c.status == TOURNAMENT_COMPILED) compile_all(&c);
    read_back(&c);
    free(c.keys);
    free(c.states);
    free(c.reused);
    free(c.changed);
    free(c.wanted);
    free(c.done);
    free(c.running);
    return c.status;
}

bool tournament_match_unplayable(const struct tournament_config *cfg, const struct tournament_match *m)
{
    for (int s = 0; s < m->n_seats; s++) {
        const struct player_config *p = &cfg->players[m->seats[s]];
        if ((p->source && !p->bot_dir) || p->smoke_failed) return true;
    }
    return false;
}
