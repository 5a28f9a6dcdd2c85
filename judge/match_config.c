/* match_config.c - read a match file (judge/match_config.h) through judge/yaml_reader.h. */
#include "judge/match_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/yaml_reader.h"

#define PLAYER_NAME_MAX 64

enum top_key {
    KEY_GAME, KEY_MAP, KEY_GENERATE, KEY_SEED, KEY_PARAMS, KEY_LIMITS,
    KEY_PLAYERS, KEY_REPLAY, KEY_ISOLATION, KEY_FREEZE, KEY_COUNT
};
static const char *const top_key_names[KEY_COUNT] = {
    "game", "map", "generate", "seed", "params", "limits",
    "players", "replay", "isolation", "freeze",
};

enum player_key { PKEY_NAME, PKEY_COMMAND, PKEY_DIR, PKEY_PROFILE, PKEY_COUNT };
static const char *const player_key_names[PKEY_COUNT] = {"name", "command", "dir", "profile"};

/* Options every map generator is given (engine/game.h struct game_option). */
static const char *const generator_options[] = {
    "rows", "cols", "players", "mountains", "cities",
    "city_army_min", "city_army_max", "min_capital_dist", "symmetric",
};
#define GENERATOR_BOOL_OPTION "symmetric"

/* The value node of each known key of one mapping (top level or player), NULL when absent. */
_Static_assert((int)PKEY_COUNT <= (int)KEY_COUNT, "a key_table holds the keys of either mapping");
struct key_table {
    const yaml_node_t *value[KEY_COUNT];
    struct yr_mark key_mark[KEY_COUNT];
};

struct loader {
    const struct yr_file *file;
    struct match_config *cfg;
    const struct game_rules *rules;
    struct yr_error err;
};

/* ---- helpers ---------------------------------------------------------- */

#define PATH_QUOTE_SIZE 256

/* User text made safe for a one-line message (buf has YR_QUOTE_SIZE bytes). */
static const char *quote(const char *s, char *buf)
{
    yr_quote(s, strlen(s), buf, YR_QUOTE_SIZE);
    return buf;
}

static const char *quote_path(const char *s, char *buf)
{
    yr_quote(s, strlen(s), buf, PATH_QUOTE_SIZE);
    return buf;
}

static int fail_no_memory(struct loader *l)
{
    return yr_fail(l->file, yr_document_mark(l->file), &l->err, "out of memory");
}

static int find_name(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return (int)i;
    return -1;
}

/* Fills table from a mapping whose keys must all be in names[0..n). */
static int read_keys(struct loader *l, const yaml_node_t *map, const char *const *names, size_t n,
                     struct key_table *table)
{
    memset(table, 0, sizeof *table);
    char q[YR_QUOTE_SIZE];
    for (size_t i = 0; i < yr_mapping_size(map); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(l->file, map, i, &e, &l->err) < 0)
            return -1;
        int k = find_name(names, n, e.key);
        if (k < 0)
            return yr_fail(l->file, e.key_mark, &l->err, "unknown key '%s'", quote(e.key, q));
        table->value[k] = e.value;
        table->key_mark[k] = e.key_mark;
    }
    return 0;
}

/* A path written in the match file, taken relative to the match file's directory. */
static char *resolve_beside(const char *match_path, const char *rel)
{
    const char *slash = strrchr(match_path, '/');
    if (rel[0] == '/' || !slash)
        return strdup(rel);
    int dir_len = (int)(slash - match_path);
    char *out = NULL;
    if (asprintf(&out, "%.*s/%s", dir_len, match_path, rel) < 0)
        return NULL;
    return out;
}

static int read_owned_string(struct loader *l, const yaml_node_t *node, char **out)
{
    const char *s;
    if (yr_string(l->file, node, &s, &l->err) < 0)
        return -1;
    *out = strdup(s);
    return *out ? 0 : fail_no_memory(l);
}

static int add_named(struct loader *l, struct named_value *list, size_t *n, const char *name,
                     int64_t value, struct yr_mark at)
{
    if (*n >= MATCH_MAX_NAMED)
        return yr_fail(l->file, at, &l->err, "too many entries (at most %d)", MATCH_MAX_NAMED);
    struct named_value *v = &list[*n];
    v->name = strdup(name);
    if (!v->name)
        return fail_no_memory(l);
    v->value = value;
    v->line = at.line;
    v->col = at.col;
    (*n)++;
    return 0;
}

/* ---- top-level keys --------------------------------------------------- */

static int load_game(struct loader *l, const yaml_node_t *node)
{
    const char *name;
    char q[YR_QUOTE_SIZE];
    if (yr_string(l->file, node, &name, &l->err) < 0)
        return -1;
    l->rules = game_find(name);
    if (!l->rules)
        return yr_fail(l->file, yr_node_mark(node), &l->err, "unknown game '%s'", quote(name, q));
    l->cfg->game = strdup(name);
    return l->cfg->game ? 0 : fail_no_memory(l);
}

static int load_map(struct loader *l, const yaml_node_t *node)
{
    const char *rel;
    if (yr_string(l->file, node, &rel, &l->err) < 0)
        return -1;
    l->cfg->map_path = resolve_beside(l->cfg->path, rel);
    if (!l->cfg->map_path)
        return fail_no_memory(l);
    struct stat st;
    char q[PATH_QUOTE_SIZE];
    if (stat(l->cfg->map_path, &st) < 0)
        return yr_fail(l->file, yr_node_mark(node), &l->err, "map '%s': %s",
                       quote_path(l->cfg->map_path, q), strerror(errno));
    if (!S_ISREG(st.st_mode))
        return yr_fail(l->file, yr_node_mark(node), &l->err, "map '%s': not a regular file",
                       quote_path(l->cfg->map_path, q));
    return 0;
}

static int load_generate(struct loader *l, const yaml_node_t *node)
{
    if (yr_expect_mapping(l->file, node, "generate", &l->err) < 0)
        return -1;
    l->cfg->has_generate = true;
    char q[YR_QUOTE_SIZE];
    size_t n_known = sizeof generator_options / sizeof generator_options[0];
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(l->file, node, i, &e, &l->err) < 0)
            return -1;
        if (find_name(generator_options, n_known, e.key) < 0)
            return yr_fail(l->file, e.key_mark, &l->err, "unknown generator option '%s'", quote(e.key, q));
        int64_t value;
        if (!strcmp(e.key, GENERATOR_BOOL_OPTION)) {
            bool on;
            if (yr_bool(l->file, e.value, &on, &l->err) < 0)
                return -1;
            value = on;
        } else if (yr_int64(l->file, e.value, &value, &l->err) < 0) {
            return -1;
        }
        if (add_named(l, l->cfg->generate, &l->cfg->n_generate, e.key, value, e.key_mark) < 0)
            return -1;
    }
    return 0;
}

static int load_seed(struct loader *l, const yaml_node_t *node)
{
    if (yr_uint64(l->file, node, &l->cfg->seed, &l->err) < 0)
        return -1;
    l->cfg->has_seed = true;
    return 0;
}

static int check_param_range(struct loader *l, const struct game_param *p, int64_t v, struct yr_mark at)
{
    if (v >= p->min && v <= p->max)
        return 0;
    return yr_fail(l->file, at, &l->err, "parameter '%s' must be between %lld and %lld, got %lld",
                   p->name, (long long)p->min, (long long)p->max, (long long)v);
}

static int load_params(struct loader *l, const yaml_node_t *node)
{
    if (yr_expect_mapping(l->file, node, "params", &l->err) < 0)
        return -1;
    char q[YR_QUOTE_SIZE];
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(l->file, node, i, &e, &l->err) < 0)
            return -1;
        int idx = game_param_index(l->rules, e.key);
        if (idx < 0)
            return yr_fail(l->file, e.key_mark, &l->err, "unknown parameter '%s' for game '%s'",
                           quote(e.key, q), l->rules->name);
        int64_t v;
        if (yr_int64(l->file, e.value, &v, &l->err) < 0 ||
            check_param_range(l, &l->rules->params[idx], v, e.key_mark) < 0 ||
            add_named(l, l->cfg->params, &l->cfg->n_params, e.key, v, e.key_mark) < 0)
            return -1;
    }
    return 0;
}

static int load_limits(struct loader *l, const yaml_node_t *node)
{
    if (yr_expect_mapping(l->file, node, "limits", &l->err) < 0)
        return -1;
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        int64_t v;
        if (yr_mapping_entry(l->file, node, i, &e, &l->err) < 0 ||
            yr_int64(l->file, e.value, &v, &l->err) < 0 ||
            add_named(l, l->cfg->limits, &l->cfg->n_limits, e.key, v, e.key_mark) < 0)
            return -1;
    }
    return 0;
}

static int load_isolation(struct loader *l, const yaml_node_t *node)
{
    const char *s;
    char q[YR_QUOTE_SIZE];
    if (yr_string(l->file, node, &s, &l->err) < 0)
        return -1;
    if (!strcmp(s, "strict"))
        l->cfg->isolation = ISOLATION_STRICT;
    else if (!strcmp(s, "best-effort"))
        l->cfg->isolation = ISOLATION_BEST_EFFORT;
    else
        return yr_fail(l->file, yr_node_mark(node), &l->err,
                       "isolation must be 'strict' or 'best-effort', got '%s'", quote(s, q));
    return 0;
}

static int load_replay(struct loader *l, const yaml_node_t *node)
{
    return read_owned_string(l, node, &l->cfg->replay_path);
}

static int load_freeze(struct loader *l, const yaml_node_t *node)
{
    bool freeze;
    if (yr_bool(l->file, node, &freeze, &l->err) < 0)
        return -1;
    l->cfg->no_freeze = !freeze;
    return 0;
}

/* ---- players ---------------------------------------------------------- */

static bool valid_player_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len > PLAYER_NAME_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (name[i] < 0x20 || name[i] > 0x7e)
            return false;
    return true;
}

static int load_player_name(struct loader *l, struct player_config *p, const yaml_node_t *node)
{
    if (read_owned_string(l, node, &p->name) < 0)
        return -1;
    if (!valid_player_name(p->name))
        return yr_fail(l->file, yr_node_mark(node), &l->err,
                       "a player name must be 1 to %d printable ASCII characters", PLAYER_NAME_MAX);
    for (struct player_config *other = l->cfg->players; other < p; other++)
        if (!strcmp(other->name, p->name))
            return yr_fail(l->file, yr_node_mark(node), &l->err, "duplicate player name '%s'",
                           p->name);
    return 0;
}

static int push_arg(struct loader *l, struct player_config *p, const char *arg, size_t len)
{
    p->argv[p->argc] = strndup(arg, len);
    if (!p->argv[p->argc])
        return fail_no_memory(l);
    p->argc++;
    return 0;
}

/* `command: ./bot --fast` is split on spaces. */
static int load_command_string(struct loader *l, struct player_config *p, const yaml_node_t *node)
{
    const char *s;
    if (yr_string(l->file, node, &s, &l->err) < 0)
        return -1;
    p->argv = calloc(strlen(s) / 2 + 2, sizeof *p->argv);
    if (!p->argv)
        return fail_no_memory(l);
    while (*s) {
        size_t len = strcspn(s, " ");
        if (len && push_arg(l, p, s, len) < 0)
            return -1;
        s += len + (s[len] == ' ');
    }
    return 0;
}

static int load_command_sequence(struct loader *l, struct player_config *p, const yaml_node_t *node)
{
    size_t n = yr_sequence_size(node);
    p->argv = calloc(n + 1, sizeof *p->argv);
    if (!p->argv)
        return fail_no_memory(l);
    for (size_t i = 0; i < n; i++) {
        const char *arg;
        const yaml_node_t *item = yr_sequence_item(l->file, node, i);
        if (!item || yr_string(l->file, item, &arg, &l->err) < 0 || push_arg(l, p, arg, strlen(arg)) < 0)
            return -1;
    }
    return 0;
}

static int load_command(struct loader *l, struct player_config *p, const yaml_node_t *node)
{
    int rc;
    if (yr_is_scalar(node))
        rc = load_command_string(l, p, node);
    else if (yr_expect_sequence(l->file, node, "command", &l->err) < 0)
        return -1;
    else
        rc = load_command_sequence(l, p, node);
    if (rc == 0 && p->argc == 0)
        return yr_fail(l->file, yr_node_mark(node), &l->err, "command must not be empty");
    return rc;
}

static int load_player_dir(struct loader *l, struct player_config *p, const yaml_node_t *node)
{
    const char *rel;
    if (yr_string(l->file, node, &rel, &l->err) < 0)
        return -1;
    char *joined = resolve_beside(l->cfg->path, rel);
    if (!joined)
        return fail_no_memory(l);
    struct stat st;
    char q[PATH_QUOTE_SIZE];
    const char *problem = NULL;
    if (stat(joined, &st) == 0 && !S_ISDIR(st.st_mode))
        problem = "not a directory";
    else if (!(p->dir = realpath(joined, NULL)))
        problem = strerror(errno);
    int rc = 0;
    if (problem)
        rc = yr_fail(l->file, yr_node_mark(node), &l->err, "player dir '%s': %s", quote_path(joined, q),
                     problem);
    free(joined);
    return rc;
}

static int load_player(struct loader *l, struct player_config *p, const yaml_node_t *node)
{
    struct key_table keys;
    if (yr_expect_mapping(l->file, node, "a player", &l->err) < 0 ||
        read_keys(l, node, player_key_names, PKEY_COUNT, &keys) < 0)
        return -1;
    struct yr_mark at = yr_node_mark(node);
    p->line = at.line;
    p->col = at.col;
    if (!keys.value[PKEY_NAME])
        return yr_fail(l->file, at, &l->err, "missing key 'name'");
    if (!keys.value[PKEY_COMMAND])
        return yr_fail(l->file, at, &l->err, "missing key 'command'");
    if (load_player_name(l, p, keys.value[PKEY_NAME]) < 0 ||
        load_command(l, p, keys.value[PKEY_COMMAND]) < 0)
        return -1;
    if (keys.value[PKEY_DIR] && load_player_dir(l, p, keys.value[PKEY_DIR]) < 0)
        return -1;
    if (keys.value[PKEY_PROFILE] && read_owned_string(l, keys.value[PKEY_PROFILE], &p->profile) < 0)
        return -1;
    return 0;
}

static int load_players(struct loader *l, const yaml_node_t *node)
{
    if (yr_expect_sequence(l->file, node, "players", &l->err) < 0)
        return -1;
    size_t n = yr_sequence_size(node);
    if (n == 0)
        return yr_fail(l->file, yr_node_mark(node), &l->err, "players must list at least one player");
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *item = yr_sequence_item(l->file, node, i);
        if (!item)
            return yr_fail(l->file, yr_node_mark(node), &l->err, "malformed sequence");
        if (i >= GAME_MAX_PLAYERS)
            return yr_fail(l->file, yr_node_mark(item), &l->err, "too many players (at most %d)",
                           GAME_MAX_PLAYERS);
        l->cfg->n_players = (int)i + 1;
        if (load_player(l, &l->cfg->players[i], item) < 0)
            return -1;
    }
    return 0;
}

/* `generate: players` defaults to the number of players named. */
static int default_generated_players(struct loader *l, struct yr_mark generate_mark)
{
    for (size_t i = 0; i < l->cfg->n_generate; i++)
        if (!strcmp(l->cfg->generate[i].name, "players"))
            return 0;
    return add_named(l, l->cfg->generate, &l->cfg->n_generate, "players", l->cfg->n_players,
                     generate_mark);
}

/* ---- the document ----------------------------------------------------- */

static int require_keys(struct loader *l, const struct key_table *top)
{
    struct yr_mark start = yr_document_mark(l->file);
    if (!top->value[KEY_GAME])
        return yr_fail(l->file, start, &l->err, "missing key 'game'");
    if (!top->value[KEY_PLAYERS])
        return yr_fail(l->file, start, &l->err, "missing key 'players'");
    if (!top->value[KEY_MAP] && !top->value[KEY_GENERATE])
        return yr_fail(l->file, start, &l->err, "missing key 'map' or 'generate'");
    if (top->value[KEY_MAP] && top->value[KEY_GENERATE])
        return yr_fail(l->file, start, &l->err, "keys 'map' and 'generate' exclude each other");
    return 0;
}

typedef int (*key_loader)(struct loader *l, const yaml_node_t *node);

/* In dependency order: params need the game. */
static const struct { enum top_key key; key_loader load; } key_loaders[] = {
    {KEY_GAME, load_game},       {KEY_MAP, load_map},       {KEY_GENERATE, load_generate},
    {KEY_SEED, load_seed},       {KEY_PARAMS, load_params}, {KEY_LIMITS, load_limits},
    {KEY_PLAYERS, load_players}, {KEY_REPLAY, load_replay},    {KEY_ISOLATION, load_isolation},
    {KEY_FREEZE, load_freeze},
};

static int load_document(struct loader *l)
{
    const yaml_node_t *root = yr_root(l->file);
    struct key_table top;
    if (!root)
        return yr_fail(l->file, yr_document_mark(l->file), &l->err, "missing key 'game'");
    if (yr_expect_mapping(l->file, root, "the match file", &l->err) < 0 ||
        read_keys(l, root, top_key_names, KEY_COUNT, &top) < 0 || require_keys(l, &top) < 0)
        return -1;
    for (size_t i = 0; i < sizeof key_loaders / sizeof key_loaders[0]; i++) {
        const yaml_node_t *node = top.value[key_loaders[i].key];
        if (node && key_loaders[i].load(l, node) < 0)
            return -1;
    }
    if (l->cfg->has_generate)
        return default_generated_players(l, yr_node_mark(top.value[KEY_GENERATE]));
    return 0;
}

int match_config_load(const char *path, struct match_config *out, struct config_error *err)
{
    memset(out, 0, sizeof *out);
    out->isolation = ISOLATION_STRICT;
    struct yr_file file;
    struct loader l = {.file = &file, .cfg = out};
    out->path = strdup(path);
    int rc = out->path ? 0 : -1;
    if (rc < 0)
        snprintf(l.err.msg, sizeof l.err.msg, "%s: out of memory", path);
    else if ((rc = yr_load(path, &file, &l.err)) == 0) {
        rc = load_document(&l);
        yr_free(&file);
    }
    if (rc < 0) {
        snprintf(err->msg, sizeof err->msg, "%s", l.err.msg);
        match_config_free(out);
    }
    return rc;
}

static void free_named(struct named_value *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i].name);
}

static void free_player(struct player_config *p)
{
    for (int i = 0; p->argv && i < p->argc; i++)
        free(p->argv[i]);
    free(p->argv);
    free(p->name);
    free(p->dir);
    free(p->profile);
}

void match_config_free(struct match_config *cfg)
{
    free(cfg->path);
    free(cfg->game);
    free(cfg->map_path);
    free(cfg->replay_path);
    free_named(cfg->generate, cfg->n_generate);
    free_named(cfg->params, cfg->n_params);
    free_named(cfg->limits, cfg->n_limits);
    for (int i = 0; i < cfg->n_players; i++)
        free_player(&cfg->players[i]);
    memset(cfg, 0, sizeof *cfg);
}
