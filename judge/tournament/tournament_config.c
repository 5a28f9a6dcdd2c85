/*
 * tournament_config.c - read a tournament file (judge/tournament/tournament.h). The
 * sections it shares with a match file (game, params, limits, players,
 * isolation, freeze, a map, a generator setting) go through the readers of
 * match_config_readers.c, so both files accept and refuse the same things.
 */
#include "judge/tournament/tournament.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAP_FILE_MAX (16u << 20)

enum top_key {
    KEY_GAME,
    KEY_MAPS,
    KEY_GENERATE,
    KEY_SEEDS,
    KEY_PARAMS,
    KEY_LIMITS,
    KEY_PLAYERS,
    KEY_REFERENCES,
    KEY_FORMAT,
    KEY_PER_MATCH,
    KEY_SAMPLE,
    KEY_OUTPUT,
    KEY_ISOLATION,
    KEY_FREEZE,
    KEY_SMOKE_TEST,
    KEY_COUNT
};
static const char *const top_key_names[KEY_COUNT] = {
    "game",       "maps",   "generate",          "seeds",  "params", "limits",    "players",
    "references", "format", "players_per_match", "sample", "output", "isolation", "freeze",
    "smoke_test",
};
_Static_assert((int)KEY_COUNT <= CONFIG_MAX_KEYS, "struct config_keys holds every key");

static const char *const format_names[] = {"round-robin", "free-for-all", "gauntlet"};

struct loader {
    struct config_reader r;
    struct tournament_config *cfg;
    struct config_keys top;
};

const char *tournament_format_name(enum tournament_format f)
{
    return format_names[f];
}

const char *tournament_smoke_name(enum tournament_smoke s)
{
    static const char *const names[] = {"off", "report", "drop"};
    return names[s];
}

static int fail_at(struct loader *l, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_at(struct loader *l, const yaml_node_t *node, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return yr_fail(l->r.file, yr_node_mark(node), &l->r.err, "%s", msg);
}

/* A sequence of at most max items, each given to read_item. */
static int read_list(struct loader *l, const yaml_node_t *node, const char *what, size_t max,
                     int (*read_item)(struct loader *l, const yaml_node_t *item))
{
    if (yr_expect_sequence(l->r.file, node, what, &l->r.err) < 0) return -1;
    size_t n = yr_sequence_size(node);
    if (n == 0) return fail_at(l, node, "%s must not be empty", what);
    if (n > max)
        return yr_fail(l->r.file, yr_node_mark(node), &l->r.err, "too many %s (at most %zu)", what, max);
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *item = yr_sequence_item(l->r.file, node, i);
        if (!item) return fail_at(l, node, "malformed %s", what);
        if (read_item(l, item) < 0) return -1;
    }
    return 0;
}

/* ---- arenas ----------------------------------------------------------------------- */

static struct tournament_arena *new_arena(struct loader *l, const yaml_node_t *node)
{
    struct tournament_config *c = l->cfg;
    if (c->n_arenas >= TOURNAMENT_MAX_ARENAS) {
        yr_fail(l->r.file, yr_node_mark(node), &l->r.err, "too many maps and generator settings (at most %d)",
                TOURNAMENT_MAX_ARENAS);
        return NULL;
    }
    struct tournament_arena *a = realloc(c->arenas, (c->n_arenas + 1) * sizeof *a);
    if (!a) {
        config_fail_no_memory(&l->r);
        return NULL;
    }
    c->arenas = a;
    a = &c->arenas[c->n_arenas++];
    memset(a, 0, sizeof *a);
    a->line = yr_node_mark(node).line;
    a->col = yr_node_mark(node).col;
    return a;
}

static int read_map_item(struct loader *l, const yaml_node_t *item)
{
    struct tournament_arena *a = new_arena(l, item);
    return a ? config_read_map(&l->r, item, &a->map_path) : -1;
}

static int read_generate_item(struct loader *l, const yaml_node_t *item)
{
    struct tournament_arena *a = new_arena(l, item);
    return a ? config_read_generate(&l->r, item, a->generate, &a->n_generate) : -1;
}

/* `generate:` is one generator setting or a list of them. */
static int load_generate(struct loader *l, const yaml_node_t *node)
{
    if (node->type == YAML_MAPPING_NODE) return read_generate_item(l, node);
    return read_list(l, node, "generate", TOURNAMENT_MAX_ARENAS, read_generate_item);
}

static int load_maps(struct loader *l, const yaml_node_t *node)
{
    return read_list(l, node, "maps", TOURNAMENT_MAX_ARENAS, read_map_item);
}

/* ---- seeds and players ------------------------------------------------------------- */

static int read_seed_item(struct loader *l, const yaml_node_t *item)
{
    struct tournament_config *c = l->cfg;
    uint64_t seed;
    if (yr_uint64(l->r.file, item, &seed, &l->r.err) < 0) return -1;
    for (size_t i = 0; i < c->n_seeds; i++)
        if (c->seeds[i] == seed)
            return yr_fail(l->r.file, yr_node_mark(item), &l->r.err, "duplicate seed %llu",
                           (unsigned long long)seed);
    uint64_t *s = realloc(c->seeds, (c->n_seeds + 1) * sizeof *s);
    if (!s) return config_fail_no_memory(&l->r);
    c->seeds = s;
    c->seeds[c->n_seeds++] = seed;
    return 0;
}

static int load_seeds(struct loader *l, const yaml_node_t *node)
{
    return read_list(l, node, "seeds", TOURNAMENT_MAX_SEEDS, read_seed_item);
}

static int read_player_item(struct loader *l, const yaml_node_t *item)
{
    struct tournament_config *c = l->cfg;
    struct player_config *p = realloc(c->players, (c->n_players + 1) * sizeof *p);
    if (!p) return config_fail_no_memory(&l->r);
    c->players = p;
    p = &c->players[c->n_players++];
    memset(p, 0, sizeof *p);
    return config_read_player(&l->r, item, p, c->players, c->n_players - 1);
}

static int load_players(struct loader *l, const yaml_node_t *node)
{
    if (read_list(l, node, "players", TOURNAMENT_MAX_PLAYERS, read_player_item) < 0) return -1;
    l->cfg->n_submissions = l->cfg->n_players;
    return 0;
}

static int load_references(struct loader *l, const yaml_node_t *node)
{
    size_t first = l->cfg->n_players;
    if (read_list(l, node, "references", TOURNAMENT_MAX_PLAYERS, read_player_item) < 0) return -1;
    for (size_t i = first; i < l->cfg->n_players; i++) l->cfg->players[i].reference = true;
    return 0;
}

/* ---- the other keys ---------------------------------------------------------------- */

static int load_game(struct loader *l, const yaml_node_t *node)
{
    if (config_read_game(&l->r, node, &l->cfg->game) < 0) return -1;
    l->cfg->rules = l->r.rules;
    return 0;
}

static int load_params(struct loader *l, const yaml_node_t *node)
{
    return config_read_params(&l->r, node, l->cfg->params, &l->cfg->n_params);
}

static int load_limits(struct loader *l, const yaml_node_t *node)
{
    return config_read_limits(&l->r, node, l->cfg->limits, &l->cfg->n_limits);
}

static int load_isolation(struct loader *l, const yaml_node_t *node)
{
    return config_read_isolation(&l->r, node, &l->cfg->isolation);
}

static int load_freeze(struct loader *l, const yaml_node_t *node)
{
    return config_read_freeze(&l->r, node, &l->cfg->no_freeze);
}

static int load_format(struct loader *l, const yaml_node_t *node)
{
    const char *s;
    char q[YR_QUOTE_SIZE];
    if (yr_string(l->r.file, node, &s, &l->r.err) < 0) return -1;
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (!strcmp(s, format_names[i])) {
            l->cfg->format = (enum tournament_format)i;
            return 0;
        }
    yr_quote(s, strlen(s), q, sizeof q);
    return fail_at(l, node, "format must be 'round-robin', 'free-for-all' or 'gauntlet', got '%s'", q);
}

static int load_smoke_test(struct loader *l, const yaml_node_t *node)
{
    const char *s;
    char q[YR_QUOTE_SIZE];
    if (yr_string(l->r.file, node, &s, &l->r.err) < 0) return -1;
    for (int i = TOURNAMENT_SMOKE_OFF; i <= TOURNAMENT_SMOKE_DROP; i++)
        if (!strcmp(s, tournament_smoke_name((enum tournament_smoke)i))) {
            l->cfg->smoke = (enum tournament_smoke)i;
            return 0;
        }
    yr_quote(s, strlen(s), q, sizeof q);
    return fail_at(l, node, "smoke_test must be 'drop', 'report' or 'off', got '%s'", q);
}

static int load_per_match(struct loader *l, const yaml_node_t *node)
{
    int64_t k;
    if (yr_int64(l->r.file, node, &k, &l->r.err) < 0) return -1;
    const struct game_rules *r = l->cfg->rules;
    if (k < r->min_players || k > r->max_players)
        return yr_fail(l->r.file, yr_node_mark(node), &l->r.err, "%s is played by %d to %d players, not %lld",
                       r->name, r->min_players, r->max_players, (long long)k);
    l->cfg->per_match = (int)k;
    return 0;
}

static int load_sample(struct loader *l, const yaml_node_t *node)
{
    if (yr_uint64(l->r.file, node, &l->cfg->sample, &l->r.err) < 0) return -1;
    if (l->cfg->sample < 1 || l->cfg->sample > TOURNAMENT_MAX_MATCHES)
        return yr_fail(l->r.file, yr_node_mark(node), &l->r.err, "sample must be between 1 and %d",
                       TOURNAMENT_MAX_MATCHES);
    return 0;
}

static int load_output(struct loader *l, const yaml_node_t *node)
{
    const char *s;
    if (yr_string(l->r.file, node, &s, &l->r.err) < 0) return -1;
    l->cfg->out_dir = strdup(s);
    return l->cfg->out_dir ? 0 : config_fail_no_memory(&l->r);
}

typedef int (*key_loader)(struct loader *l, const yaml_node_t *node);

/* In dependency order: params and players_per_match need the game; references follow players. */
static const struct {
    enum top_key key;
    key_loader load;
} key_loaders[] = {
    {KEY_GAME, load_game},           {KEY_FORMAT, load_format},
    {KEY_PER_MATCH, load_per_match}, {KEY_MAPS, load_maps},
    {KEY_GENERATE, load_generate},   {KEY_SEEDS, load_seeds},
    {KEY_PARAMS, load_params},       {KEY_LIMITS, load_limits},
    {KEY_PLAYERS, load_players},     {KEY_REFERENCES, load_references},
    {KEY_SAMPLE, load_sample},       {KEY_OUTPUT, load_output},
    {KEY_ISOLATION, load_isolation}, {KEY_FREEZE, load_freeze},
    {KEY_SMOKE_TEST, load_smoke_test},
};

/* ---- checks across keys ------------------------------------------------------------ */

static int require_keys(struct loader *l)
{
    static const enum top_key required[] = {KEY_GAME, KEY_SEEDS, KEY_PLAYERS};
    struct yr_mark start = yr_document_mark(l->r.file);
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!l->top.value[required[i]])
            return yr_fail(l->r.file, start, &l->r.err, "missing key '%s'", top_key_names[required[i]]);
    return 0;
}

/* Without `maps` or `generate`: one arena of the game's empty map (sea battle,
 * warlight), as if `generate: {}` were written; other games need one. */
static int default_arena(struct loader *l)
{
    if (l->cfg->n_arenas > 0 || l->top.value[KEY_MAPS] || l->top.value[KEY_GENERATE]) return 0;
    const yaml_node_t *root = yr_root(l->r.file);
    if (!l->r.rules || !config_game_needs_no_map(l->r.rules))
        return yr_fail(l->r.file, yr_document_mark(l->r.file), &l->r.err, "missing key 'maps' or 'generate'");
    return new_arena(l, root) ? 0 : -1;
}

/* A key that only one format takes. */
static int check_format_key(struct loader *l, enum top_key key, enum tournament_format format)
{
    if (!l->top.value[key] || l->cfg->format == format) return 0;
    return yr_fail(l->r.file, l->top.key_mark[key], &l->r.err, "'%s' is for format '%s' only",
                   top_key_names[key], format_names[format]);
}

static int check_counts(struct loader *l)
{
    const struct tournament_config *c = l->cfg;
    const struct yr_file *f = l->r.file;
    struct yr_mark at = l->top.value[KEY_PER_MATCH] ? yr_node_mark(l->top.value[KEY_PER_MATCH])
                                                    : yr_node_mark(l->top.value[KEY_PLAYERS]);
    size_t refs = c->n_players - c->n_submissions;
    if (c->format == TOURNAMENT_ROUND_ROBIN && c->per_match != 2)
        return yr_fail(f, at, &l->r.err, "round-robin plays pairs: players_per_match must be 2");
    if (c->format == TOURNAMENT_GAUNTLET && !l->top.value[KEY_REFERENCES])
        return yr_fail(f, yr_document_mark(f), &l->r.err, "missing key 'references' (format 'gauntlet')");
    if (c->format == TOURNAMENT_GAUNTLET && refs < (size_t)c->per_match - 1)
        return yr_fail(f, at, &l->r.err, "a gauntlet of %d players per match needs at least %d references",
                       c->per_match, c->per_match - 1);
    if (c->format != TOURNAMENT_GAUNTLET && c->n_players < (size_t)c->per_match)
        return yr_fail(f, at, &l->r.err, "%d players per match need at least %d players, got %zu",
                       c->per_match, c->per_match, c->n_players);
    return 0;
}

/* ---- every arena seats per_match players --------------------------------------------- */

static int read_map_text(const char *path, struct strbuf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0 && out->len + (size_t)n <= MAP_FILE_MAX)
        if (sb_append(out, buf, (size_t)n) < 0) break;
    int saved = errno;
    close(fd);
    errno = n > 0 ? EFBIG : saved;
    return n == 0 ? 0 : -1;
}

/* The map's own errors are left to the match set-up, which names the map file's line. */
static int check_map_players(struct loader *l, const struct tournament_arena *a)
{
    const struct game_rules *r = l->cfg->rules;
    int64_t params[GAME_MAX_PARAMS];
    game_params_defaults(r, params);
    for (size_t i = 0; i < l->cfg->n_params; i++) {
        struct game_error ignored;
        game_param_set(r, params, l->cfg->params[i].name, l->cfg->params[i].value, &ignored);
    }
    struct strbuf text = STRBUF_INIT;
    struct game_map *map = NULL;
    struct game_error gerr = {0};
    int k = -1;
    if (r->map_parse && read_map_text(a->map_path, &text) == 0 &&
        r->map_parse(text.data ? text.data : "", text.len, params, &map, &gerr) == 0) {
        k = r->map_players(map);
        r->map_free(map);
    }
    sb_free(&text);
    if (k < 0 || k == l->cfg->per_match || (r->map_players_at_most && l->cfg->per_match <= k)) return 0;
    struct yr_mark at = {a->line, a->col};
    return yr_fail(l->r.file, at, &l->r.err, "the map is for %d players but %s seats %d per match", k,
                   format_names[l->cfg->format], l->cfg->per_match);
}

/* A generator's `players` is per_match, written or not. */
static int check_generated_players(struct loader *l, struct tournament_arena *a)
{
    for (size_t i = 0; i < a->n_generate; i++) {
        const struct named_value *v = &a->generate[i];
        if (strcmp(v->name, "players") != 0) continue;
        if (v->value == l->cfg->per_match) return 0;
        struct yr_mark at = {v->line, v->col};
        return yr_fail(l->r.file, at, &l->r.err, "generate: players is %lld but %s seats %d per match",
                       (long long)v->value, format_names[l->cfg->format], l->cfg->per_match);
    }
    struct yr_mark at = {a->line, a->col};
    return config_add_named(&l->r, a->generate, &a->n_generate, "players", l->cfg->per_match, at);
}

static int check_arenas(struct loader *l)
{
    for (size_t i = 0; i < l->cfg->n_arenas; i++) {
        struct tournament_arena *a = &l->cfg->arenas[i];
        if ((a->map_path ? check_map_players(l, a) : check_generated_players(l, a)) < 0) return -1;
    }
    return 0;
}

/* ---- the document ------------------------------------------------------------------- */

static int load_document(struct loader *l)
{
    const yaml_node_t *root = yr_root(l->r.file);
    if (!root) return yr_fail(l->r.file, yr_document_mark(l->r.file), &l->r.err, "missing key 'game'");
    if (yr_expect_mapping(l->r.file, root, "the tournament file", &l->r.err) < 0 ||
        config_read_keys(&l->r, root, top_key_names, KEY_COUNT, &l->top) < 0 || require_keys(l) < 0)
        return -1;
    for (size_t i = 0; i < sizeof key_loaders / sizeof key_loaders[0]; i++) {
        const yaml_node_t *node = l->top.value[key_loaders[i].key];
        if (node && key_loaders[i].load(l, node) < 0) return -1;
    }
    if (check_format_key(l, KEY_REFERENCES, TOURNAMENT_GAUNTLET) < 0 ||
        check_format_key(l, KEY_SAMPLE, TOURNAMENT_FREE_FOR_ALL) < 0 || check_counts(l) < 0 ||
        default_arena(l) < 0)
        return -1;
    /* A gauntlet is how a class is graded: a broken submission's matches are not worth their wall time. */
    if (!l->top.value[KEY_SMOKE_TEST])
        l->cfg->smoke = l->cfg->format == TOURNAMENT_GAUNTLET ? TOURNAMENT_SMOKE_DROP : TOURNAMENT_SMOKE_REPORT;
    return check_arenas(l);
}

int tournament_config_load(const char *path, struct tournament_config *out, struct tournament_error *err)
{
    memset(out, 0, sizeof *out);
    out->isolation = ISOLATION_STRICT;
    out->format = TOURNAMENT_ROUND_ROBIN;
    out->per_match = 2;
    struct yr_file file;
    struct loader l = {.r = {.file = &file, .path = path}, .cfg = out};
    out->path = strdup(path);
    int rc = out->path ? 0 : -1;
    if (rc < 0)
        snprintf(l.r.err.msg, sizeof l.r.err.msg, "%s: out of memory", path);
    else if ((rc = yr_load(path, &file, &l.r.err)) == 0) {
        rc = load_document(&l);
        yr_free(&file);
    }
    if (rc < 0) {
        snprintf(err->msg, sizeof err->msg, "%s", l.r.err.msg);
        tournament_config_free(out);
    }
    return rc;
}

void tournament_config_free(struct tournament_config *cfg)
{
    free(cfg->path);
    free(cfg->game);
    for (size_t i = 0; i < cfg->n_arenas; i++) {
        free(cfg->arenas[i].map_path);
        config_named_free(cfg->arenas[i].generate, cfg->arenas[i].n_generate);
    }
    free(cfg->arenas);
    free(cfg->seeds);
    config_named_free(cfg->params, cfg->n_params);
    config_named_free(cfg->limits, cfg->n_limits);
    for (size_t i = 0; i < cfg->n_players; i++) config_player_free(&cfg->players[i]);
    free(cfg->players);
    free(cfg->out_dir);
    memset(cfg, 0, sizeof *cfg);
}
