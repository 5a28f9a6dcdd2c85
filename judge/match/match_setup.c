/*
 * match_setup.c - a match file plus `judge run` options -> everything a match
 * needs: the game, its map (read or generated), parameters, limits, seed,
 * players and where the replay goes. Every error is one line naming where
 * the problem was written.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/match/command_runtime.h"
#include "judge/match/match.h"
#include "judge/match/player_command.h"
#include "judge/compile/source_player.h"

#define MAP_FILE_MAX (16u << 20)

/* HOME: the jail's /tmp, as its /etc/passwd says (sandbox/jail_etc.c). */
static const char *const jail_env[] = {"PATH=" JAIL_PATH, "LANG=C.UTF-8", "HOME=/tmp", NULL};

/* The JVM flocks its perf-data file in /tmp, and flock fails in every jail (a
 * lock on a shared inode is a channel between jails); it would then print a
 * warning on stdout, the bot's protocol channel. Without the file, nothing.
 * The JVM cannot see the jail's cgroup: without MaxRAM it sizes its heap from
 * the host's memory (an initial heap of 1/64 of it), so a bot making garbage
 * reached the memory limit before its first collection, and under the rlimit
 * fallback the JVM could not even commit that heap. One processor, the serial
 * collector and C1 alone, as the java language profile runs a source player:
 * fewer threads and less memory (the JVM starts under an RLIMIT_DATA of 48 MiB,
 * not 64 with G1 on two processors) and a quicker start. */
static int set_jvm_env(struct match_player *mp, uint64_t memory_limit_mb)
{
    if (asprintf(&mp->java_options,
                 "JAVA_TOOL_OPTIONS=-XX:-UsePerfData -XX:MaxRAM=%" PRIu64 "m -XX:+UseSerialGC "
                 "-XX:TieredStopAtLevel=1 -XX:ActiveProcessorCount=1",
                 memory_limit_mb) < 0) {
        mp->java_options = NULL;
        return -1;
    }
    const char *env[] = {"PATH=" JAIL_PATH, "LANG=C.UTF-8", "HOME=/tmp", mp->java_options, NULL};
    memcpy(mp->jvm_env, env, sizeof env);
    return 0;
}

/* The runner's own limits, accepted in `limits:` next to the game's time and memory parameters. */
static const struct runner_limit {
    const char *name;
    size_t offset;
    uint64_t def, min, max;
} runner_limits[] = {
    {"pids", offsetof(struct match_limits, pids), MATCH_DEFAULT_PIDS, 1, 4096},
    {"stderr_limit_kb", offsetof(struct match_limits, stderr_limit_kb), MATCH_DEFAULT_STDERR_LIMIT_KB, 0,
     65536},
    {"grace_ms", offsetof(struct match_limits, grace_ms), MATCH_DEFAULT_GRACE_MS, 0, 600000},
    {"tmp_mb", offsetof(struct match_limits, tmp_mb), MATCH_DEFAULT_TMP_MB, 1, 65536},
};
#define N_RUNNER_LIMITS (sizeof runner_limits / sizeof runner_limits[0])

static int fail(struct match_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct match_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- parameters and limits ------------------------------------------------------ */

static const struct runner_limit *find_runner_limit(const char *name)
{
    for (size_t i = 0; i < N_RUNNER_LIMITS; i++)
        if (!strcmp(runner_limits[i].name, name))
            return &runner_limits[i];
    return NULL;
}

static uint64_t *limit_field(struct match_limits *l, const struct runner_limit *rl)
{
    return (uint64_t *)((char *)l + rl->offset);
}

/* A game parameter that is a time or memory figure may also be set under `limits:`. */
static bool is_time_or_memory_param(const struct game_rules *r, const char *name)
{
    size_t n = strlen(name);
    return game_param_index(r, name) >= 0 && n > 3 &&
           (!strcmp(name + n - 3, "_ms") || !strcmp(name + n - 3, "_mb"));
}

/* Set a runner limit or a game parameter; msg gets the reason when it fails. */
static int set_named(struct match_setup *s, const char *name, int64_t value, bool limits_only,
                     char *msg, size_t size)
{
    const struct runner_limit *rl = find_runner_limit(name);
    if (rl) {
        if (value < 0 || (uint64_t)value < rl->min || (uint64_t)value > rl->max) {
            snprintf(msg, size, "limit %s = %lld is out of range %" PRIu64 "..%" PRIu64, name,
                     (long long)value, rl->min, rl->max);
            return -1;
        }
        *limit_field(&s->limits, rl) = (uint64_t)value;
        return 0;
    }
    if (limits_only && !is_time_or_memory_param(s->rules, name)) {
        snprintf(msg, size, "unknown limit '%s' (a time or memory parameter of %s, or one of pids, "
                 "stderr_limit_kb, grace_ms, tmp_mb)", name, s->rules->name);
        return -1;
    }
    struct game_error gerr = {0};
    if (game_param_set(s->rules, s->params, name, value, &gerr) < 0) {
        snprintf(msg, size, "%s", gerr.msg);
        return -1;
    }
    return 0;
}

static int apply_named(struct match_setup *s, const struct match_config *cfg, const struct named_value *list,
                       size_t n, bool limits_only, struct match_error *err)
{
    char msg[300];
    for (size_t i = 0; i < n; i++)
        if (set_named(s, list[i].name, list[i].value, limits_only, msg, sizeof msg) < 0)
            return fail(err, "%s:%d:%d: %s", cfg->path, list[i].line, list[i].col, msg);
    return 0;
}

static int parse_i64(const char *text, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end)
        return -1;
    *out = v;
    return 0;
}

static int apply_option_params(struct match_setup *s, const struct match_overrides *ov,
                               struct match_error *err)
{
    char msg[300];
    for (size_t i = 0; i < ov->n_params; i++) {
        const char *opt = ov->params[i], *eq = strchr(opt, '=');
        int64_t value;
        if (!eq || eq == opt || parse_i64(eq + 1, &value) < 0)
            return fail(err, "--param %s: expected NAME=INTEGER", opt);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - opt), opt);
        if (set_named(s, name, value, false, msg, sizeof msg) < 0)
            return fail(err, "--param %s: %s", opt, msg);
    }
    return 0;
}

static uint64_t param_or(const struct match_setup *s, const char *name, uint64_t fallback)
{
    return game_param_index(s->rules, name) >= 0 ? (uint64_t)game_param(s->rules, s->params, name) : fallback;
}

/* The game's parameter for the wall limit of one reply, by the names games give it; NULL for none. */
static const char *wall_param(const struct match_setup *s)
{
    static const char *const names[] = {"move_wall_ms", "turn_wall_ms", "tick_wall_ms"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (game_param_index(s->rules, names[i]) >= 0)
            return names[i];
    return NULL;
}

const char *match_wall_param(const struct match_limits *l)
{
    return l->move_wall_param ? l->move_wall_param : "move_wall_ms";
}

/* The time and memory figures come from the game's parameters, now final. */
static void take_game_limits(struct match_setup *s)
{
    s->limits.budget_base_ms = param_or(s, "budget_base_ms", 0);
    s->limits.budget_per_move_ms = param_or(s, "budget_per_move_ms", 0);
    s->limits.move_wall_param = wall_param(s);
    s->limits.move_wall_ms = s->limits.move_wall_param ? param_or(s, s->limits.move_wall_param, 0) : 0;
    s->limits.memory_limit_mb = param_or(s, "memory_limit_mb", 256);
    s->limits.max_line_bytes = param_or(s, "max_line_bytes", MATCH_DEFAULT_MAX_LINE);
}

/* Where a parameter was set last: an option, else the match file (NULL: nowhere). */
static const struct named_value *last_set(const struct match_config *cfg, const char *name)
{
    const struct named_value *at = NULL;
    for (size_t i = 0; i < cfg->n_params + cfg->n_limits; i++) {
        const struct named_value *nv = i < cfg->n_params ? &cfg->params[i] : &cfg->limits[i - cfg->n_params];
        at = strcmp(nv->name, name) ? at : nv;
    }
    return at;
}

/* The parameters as a whole (game.h params_check), named where the file sets the one blamed. */
static int check_params(const struct match_setup *s, const struct match_config *cfg, struct match_error *err)
{
    struct game_error gerr = {0};
    int param = 0;
    if (!s->rules->params_check || s->rules->params_check(s->params, &param, &gerr) == 0)
        return 0;
    const struct named_value *at = last_set(cfg, s->rules->params[param].name);
    return fail(err, "%s:%d:%d: %s", cfg->path, at ? at->line : 1, at ? at->col : 1, gerr.msg);
}

static int resolve_params(struct match_setup *s, const struct match_config *cfg,
                          const struct match_overrides *ov, struct match_error *err)
{
    game_params_defaults(s->rules, s->params);
    for (size_t i = 0; i < N_RUNNER_LIMITS; i++)
        *limit_field(&s->limits, &runner_limits[i]) = runner_limits[i].def;
    if (apply_named(s, cfg, cfg->params, cfg->n_params, false, err) < 0 ||
        apply_named(s, cfg, cfg->limits, cfg->n_limits, true, err) < 0 || apply_option_params(s, ov, err) < 0 ||
        check_params(s, cfg, err) < 0)
        return -1;
    take_game_limits(s);
    return 0;
}

/* ---- the map ---------------------------------------------------------------------- */

static int read_file(const char *path, struct strbuf *out, struct match_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(err, "%s: %s", path, strerror(errno));
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0 && out->len + (size_t)n <= MAP_FILE_MAX)
        if (sb_append(out, buf, (size_t)n) < 0)
            break;
    int saved = errno;
    close(fd);
    if (n < 0)
        return fail(err, "%s: %s", path, strerror(saved));
    if (n > 0)
        return fail(err, "%s: larger than %u bytes", path, MAP_FILE_MAX);
    return 0;
}

/* "MAP:LINE:COL: message", without the engine's own "line L, column C: " prefix. */
static int map_error(struct match_error *err, const char *path, const struct game_error *gerr)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "line %d, column %d: ", gerr->line, gerr->col);
    const char *msg = strncmp(gerr->msg, prefix, (size_t)n) ? gerr->msg : gerr->msg + n;
    if (gerr->line > 0)
        return fail(err, "%s:%d:%d: %s", path, gerr->line, gerr->col, msg);
    return fail(err, "%s: %s", path, msg);
}

static int read_map(struct match_setup *s, const struct match_config *cfg, struct match_error *err)
{
    struct strbuf text = STRBUF_INIT;
    struct game_error gerr = {0};
    int rc = read_file(cfg->map_path, &text, err);
    if (rc == 0 && s->rules->map_parse(text.data ? text.data : "", text.len, s->params, &s->map, &gerr) < 0)
        rc = map_error(err, cfg->map_path, &gerr);
    sb_free(&text);
    if (rc == 0 && !(s->map_source = strdup(cfg->map_path)))
        rc = fail(err, "out of memory");
    return rc;
}

static int generate_map(struct match_setup *s, const struct match_config *cfg, struct match_error *err)
{
    struct game_option opts[MATCH_MAX_NAMED];
    struct strbuf source = STRBUF_INIT, notes = STRBUF_INIT;
    struct game_error gerr = {0};
    int rc = sb_puts(&source, "generate");
    for (size_t i = 0; i < cfg->n_generate && rc == 0; i++) {
        opts[i] = (struct game_option){cfg->generate[i].name, cfg->generate[i].value};
        rc = sb_printf(&source, " %s=%" PRId64, opts[i].name, opts[i].value);
    }
    if (rc < 0) {
        rc = fail(err, "out of memory");
    } else if (s->rules->map_generate(opts, cfg->n_generate, s->seed, &s->map, &notes, &gerr) < 0) {
        int line = cfg->n_generate ? cfg->generate[0].line : 1, col = cfg->n_generate ? cfg->generate[0].col : 1;
        rc = fail(err, "%s:%d:%d: generate: %s", cfg->path, line, col, gerr.msg);
    } else {
        s->map_source = sb_steal(&source);
        s->map_notes = sb_steal(&notes);
    }
    sb_free(&source);
    sb_free(&notes);
    return rc;
}

/* A game without maps (warlight): the match file names the players, nothing more. */
static int no_map(struct match_setup *s, const struct match_config *cfg, struct match_error *err)
{
    if (cfg->map_path)
        return fail(err, "%s:1:1: %s has no map files", cfg->path, s->rules->name);
    for (size_t i = 0; i < cfg->n_generate; i++)
        if (strcmp(cfg->generate[i].name, "players"))
            return fail(err, "%s:%d:%d: generate: %s has no map to generate", cfg->path, cfg->generate[i].line,
                        cfg->generate[i].col, s->rules->name);
    s->map_source = strdup("none");
    s->map_text = strdup("");
    return s->map_source && s->map_text ? 0 : fail(err, "out of memory");
}

static int resolve_map(struct match_setup *s, const struct match_config *cfg, struct match_error *err)
{
    if (!s->rules->map_parse)
        return no_map(s, cfg, err);
    int rc = cfg->map_path ? read_map(s, cfg, err) : generate_map(s, cfg, err);
    if (rc < 0)
        return -1;
    struct strbuf text = STRBUF_INIT;
    if (s->rules->map_write(s->map, &text) < 0) {
        sb_free(&text);
        return fail(err, "%s: cannot write the map back", s->map_source);
    }
    s->map_text = sb_steal(&text);
    if (!s->map_text && !(s->map_text = strdup("")))
        return fail(err, "out of memory");
    return 0;
}

/* ---- players ---------------------------------------------------------------------- */

static char *dup_or_null(const char *s, bool *failed)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        *failed = true;
    return d;
}

/* No profile named: the one the program's runtime needs (java -> jvm), with its configuration. */
static int copy_player(struct match_player *mp, const struct player_config *pc, const char *host_path,
                       uint64_t memory_limit_mb)
{
    bool failed = false;
    char config_dir[4096];
    mp->name = dup_or_null(pc->name, &failed);
    mp->dir = dup_or_null(pc->dir, &failed);
    mp->profile = dup_or_null(pc->profile ? pc->profile : command_run_profile(host_path), &failed);
    if (command_config_dir(host_path, config_dir, sizeof config_dir))
        mp->ro_binds[0] = dup_or_null(config_dir, &failed);
    if (mp->profile && !strcmp(mp->profile, "jvm") && set_jvm_env(mp, memory_limit_mb) < 0)
        failed = true;
    mp->argv = calloc((size_t)pc->argc + 1, sizeof *mp->argv);
    mp->argc = pc->argc;
    for (int a = 0; mp->argv && a < pc->argc; a++)
        mp->argv[a] = dup_or_null(pc->argv[a], &failed);
    return failed || !mp->argv ? -1 : 0;
}

static int resolve_players(struct match_setup *s, const struct match_config *cfg, struct match_error *err)
{
    int k = s->map ? s->rules->map_players(s->map) : cfg->n_players;
    if (s->map && s->rules->map_players_at_most && cfg->n_players <= k)
        k = cfg->n_players;
    else if (s->map && s->rules->map_players_at_most)
        return fail(err, "%s:%d:%d: the map has %d starts but the match names %d players", cfg->path,
                    cfg->players[0].line, cfg->players[0].col, k, cfg->n_players);
    if (k != cfg->n_players)
        return fail(err, "%s:%d:%d: the map is for %d players but the match names %d", cfg->path,
                    cfg->players[0].line, cfg->players[0].col, k, cfg->n_players);
    if (k < s->rules->min_players || k > s->rules->max_players)
        return fail(err, "%s:%d:%d: %s is played by %d to %d players, not %d", cfg->path, cfg->players[0].line,
                    cfg->players[0].col, s->rules->name, s->rules->min_players, s->rules->max_players, k);
    for (int i = 0; i < cfg->n_players; i++) {
        const struct player_config *pc = &cfg->players[i];
        char found[4200];
        s->n_players = i + 1;
        s->players[i].reference = pc->reference;
        if (pc->source && source_player_resolve(pc, &s->limits, &s->players[i], found, sizeof found) < 0)
            return fail(err, "%s:%d:%d: %s", cfg->path, pc->line, pc->col, found);
        if (pc->source)
            continue;
        if (pc->argc < 1)
            return fail(err, "%s:%d:%d: player '%s' has no command", cfg->path, pc->line, pc->col, pc->name);
        char why[1024];
        if (player_command_check(pc, found, sizeof found, why, sizeof why) < 0)
            return fail(err, "%s:%d:%d: player '%s': %s", cfg->path, pc->line, pc->col, pc->name, why);
        if (copy_player(&s->players[i], pc, found, s->limits.memory_limit_mb) < 0)
            return fail(err, "out of memory");
    }
    return 0;
}

/* ---- the rest ------------------------------------------------------------------------ */

static int resolve_seed(struct match_setup *s, const struct match_config *cfg, const struct match_overrides *ov,
                        struct match_error *err)
{
    if (ov->has_seed)
        s->seed = ov->seed;
    else if (cfg->has_seed)
        s->seed = cfg->seed;
    else if (getrandom(&s->seed, sizeof s->seed, 0) != (ssize_t)sizeof s->seed)
        return fail(err, "getrandom: %s", strerror(errno));
    return 0;
}

static int resolve_replay_path(struct match_setup *s, const struct match_config *cfg,
                               const struct match_overrides *ov, struct match_error *err)
{
    const char *given = ov->replay_path ? ov->replay_path : cfg->replay_path;
    int rc = given ? ((s->replay_path = strdup(given)) ? 0 : -1)
                   : asprintf(&s->replay_path, "replays/%s-%" PRIu64 "-%lld.jsonl.gz", s->rules->name, s->seed,
                              (long long)ov->now_unix);
    if (rc < 0) {
        s->replay_path = NULL;
        return fail(err, "out of memory");
    }
    return 0;
}

int match_setup_resolve(const struct match_config *cfg, const struct match_overrides *ov,
                        struct match_setup *out, struct match_error *err)
{
    memset(out, 0, sizeof *out);
    out->rules = game_find(cfg->game);
    if (!out->rules)
        return fail(err, "%s:1:1: unknown game '%s'", cfg->path, cfg->game);
    out->isolation = ov->has_isolation ? ov->isolation : cfg->isolation;
    out->freeze = !(cfg->no_freeze || ov->no_freeze);
    if (resolve_params(out, cfg, ov, err) < 0 || resolve_seed(out, cfg, ov, err) < 0 ||
        resolve_map(out, cfg, err) < 0 || resolve_players(out, cfg, err) < 0 ||
        resolve_replay_path(out, cfg, ov, err) < 0) {
        match_setup_free(out);
        return -1;
    }
    return 0;
}

void match_setup_free(struct match_setup *s)
{
    if (s->map && s->rules)
        s->rules->map_free(s->map);
    free(s->map_text);
    free(s->map_source);
    free(s->map_notes);
    free(s->replay_path);
    for (int i = 0; i < s->n_players; i++) {
        struct match_player *mp = &s->players[i];
        for (int a = 0; mp->argv && a < mp->argc; a++)
            free(mp->argv[a]);
        free(mp->argv);
        free(mp->name);
        free(mp->dir);
        free(mp->profile);
        free(mp->ro_binds[0]);
        free(mp->java_options);
        source_player_free(mp);
    }
    memset(s, 0, sizeof *s);
}

void match_setup_jail_spec(const struct match_setup *s, int player, struct jail_spec *spec)
{
    const struct match_player *mp = &s->players[player - 1];
    memset(spec, 0, sizeof *spec);
    spec->argv = (const char *const *)mp->argv;
    spec->envp = mp->java_options ? mp->jvm_env : jail_env;
    spec->dir = mp->dir;
    spec->profile = mp->profile;
    spec->extra_ro_binds = mp->ro_binds[0] ? (const char *const *)mp->ro_binds : NULL;
    spec->limits.memory_bytes = s->limits.memory_limit_mb << 20;
    spec->limits.pids = s->limits.pids;
    spec->limits.tmp_bytes = s->limits.tmp_mb << 20;
    spec->mode = s->isolation;
    if (mp->compiled)
        compiled_bot_jail_spec(mp->compiled, spec);
}
