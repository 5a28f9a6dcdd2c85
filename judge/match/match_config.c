/* match_config.c - read a match file (judge/match/match_config.h): its document, section by section,
 * through the shared readers of match_config_readers.c. */
#include "judge/match/match_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum top_key {
    KEY_GAME,
    KEY_MAP,
    KEY_GENERATE,
    KEY_SEED,
    KEY_PARAMS,
    KEY_LIMITS,
    KEY_PLAYERS,
    KEY_REPLAY,
    KEY_ISOLATION,
    KEY_FREEZE,
    KEY_COUNT
};
static const char *const top_key_names[KEY_COUNT] = {
    "game", "map", "generate", "seed", "params", "limits", "players", "replay", "isolation", "freeze",
};
_Static_assert((int)KEY_COUNT <= CONFIG_MAX_KEYS, "struct config_keys holds every key");

struct loader {
    struct config_reader r;
    struct match_config *cfg;
};

/* ---- top-level keys --------------------------------------------------- */

static int load_game(struct loader *l, const yaml_node_t *node)
{
    return config_read_game(&l->r, node, &l->cfg->game);
}

/* A game with no map (sea battle, warlight) refuses one here, where the match file names it. */
static int load_map(struct loader *l, const yaml_node_t *node)
{
    if (l->r.rules && config_game_needs_no_map(l->r.rules))
        return yr_fail(l->r.file, yr_node_mark(node), &l->r.err, "%s takes no map: remove map:",
                       game_title(l->r.rules));
    return config_read_map(&l->r, node, &l->cfg->map_path);
}

static int load_generate(struct loader *l, const yaml_node_t *node)
{
    l->cfg->has_generate = true;
    return config_read_generate(&l->r, node, l->cfg->generate, &l->cfg->n_generate);
}

static int load_seed(struct loader *l, const yaml_node_t *node)
{
    if (yr_uint64(l->r.file, node, &l->cfg->seed, &l->r.err) < 0) return -1;
    l->cfg->has_seed = true;
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

static int load_replay(struct loader *l, const yaml_node_t *node)
{
    const char *s;
    if (yr_string(l->r.file, node, &s, &l->r.err) < 0) return -1;
    l->cfg->replay_path = strdup(s);
    return l->cfg->replay_path ? 0 : config_fail_no_memory(&l->r);
}

static int load_freeze(struct loader *l, const yaml_node_t *node)
{
    return config_read_freeze(&l->r, node, &l->cfg->no_freeze);
}

static int load_players(struct loader *l, const yaml_node_t *node)
{
    const struct yr_file *f = l->r.file;
    if (yr_expect_sequence(f, node, "players", &l->r.err) < 0) return -1;
    size_t n = yr_sequence_size(node);
    if (n == 0) return yr_fail(f, yr_node_mark(node), &l->r.err, "players must list at least one player");
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *item = yr_sequence_item(f, node, i);
        if (!item) return yr_fail(f, yr_node_mark(node), &l->r.err, "malformed sequence");
        if (i >= GAME_MAX_PLAYERS)
            return yr_fail(f, yr_node_mark(item), &l->r.err, "too many players (at most %d)",
                           GAME_MAX_PLAYERS);
        l->cfg->n_players = (int)i + 1;
        if (config_read_player(&l->r, item, &l->cfg->players[i], l->cfg->players, i) < 0) return -1;
    }
    return 0;
}

/* `generate: players` defaults to the number of players named. */
static int default_generated_players(struct loader *l, struct yr_mark generate_mark)
{
    for (size_t i = 0; i < l->cfg->n_generate; i++)
        if (!strcmp(l->cfg->generate[i].name, "players")) return 0;
    return config_add_named(&l->r, l->cfg->generate, &l->cfg->n_generate, "players", l->cfg->n_players,
                            generate_mark);
}

/* ---- the document ----------------------------------------------------- */

static int require_keys(struct loader *l, const struct config_keys *top)
{
    const struct yr_file *f = l->r.file;
    struct yr_mark start = yr_document_mark(f);
    if (!top->value[KEY_GAME]) return yr_fail(f, start, &l->r.err, "missing key 'game'");
    if (!top->value[KEY_PLAYERS]) return yr_fail(f, start, &l->r.err, "missing key 'players'");
    if (top->value[KEY_MAP] && top->value[KEY_GENERATE])
        return yr_fail(f, start, &l->r.err, "keys 'map' and 'generate' exclude each other");
    return 0;
}

typedef int (*key_loader)(struct loader *l, const yaml_node_t *node);

/* In dependency order: params need the game. */
static const struct {
    enum top_key key;
    key_loader load;
} key_loaders[] = {
    {KEY_GAME, load_game},       {KEY_MAP, load_map},       {KEY_GENERATE, load_generate},
    {KEY_SEED, load_seed},       {KEY_PARAMS, load_params}, {KEY_LIMITS, load_limits},
    {KEY_PLAYERS, load_players}, {KEY_REPLAY, load_replay}, {KEY_ISOLATION, load_isolation},
    {KEY_FREEZE, load_freeze},
};

static int load_document(struct loader *l)
{
    const yaml_node_t *root = yr_root(l->r.file);
    struct config_keys top;
    if (!root) return yr_fail(l->r.file, yr_document_mark(l->r.file), &l->r.err, "missing key 'game'");
    if (yr_expect_mapping(l->r.file, root, "the match file", &l->r.err) < 0 ||
        config_read_keys(&l->r, root, top_key_names, KEY_COUNT, &top) < 0 || require_keys(l, &top) < 0)
        return -1;
    for (size_t i = 0; i < sizeof key_loaders / sizeof key_loaders[0]; i++) {
        const yaml_node_t *node = top.value[key_loaders[i].key];
        if (node && key_loaders[i].load(l, node) < 0) return -1;
    }
    bool no_map_needed = l->r.rules && config_game_needs_no_map(l->r.rules);
    if (!top.value[KEY_MAP] && !top.value[KEY_GENERATE] && l->r.rules && !no_map_needed)
        return yr_fail(l->r.file, yr_document_mark(l->r.file), &l->r.err, "missing key 'map' or 'generate'");
    if (!top.value[KEY_MAP] && !top.value[KEY_GENERATE] && l->r.rules && l->r.rules->map_parse)
        l->cfg->has_generate = true; /* sea battle: its empty map is generated as if `generate: {}` were written */
    if (l->cfg->has_generate)
        return default_generated_players(l, top.value[KEY_GENERATE] ? yr_node_mark(top.value[KEY_GENERATE])
                                                                    : yr_document_mark(l->r.file));
    return 0;
}

int match_config_load(const char *path, struct match_config *out, struct config_error *err)
{
    memset(out, 0, sizeof *out);
    out->isolation = ISOLATION_STRICT;
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
        match_config_free(out);
    }
    return rc;
}

void match_config_free(struct match_config *cfg)
{
    free(cfg->path);
    free(cfg->game);
    free(cfg->map_path);
    free(cfg->replay_path);
    config_named_free(cfg->generate, cfg->n_generate);
    config_named_free(cfg->params, cfg->n_params);
    config_named_free(cfg->limits, cfg->n_limits);
    for (int i = 0; i < cfg->n_players; i++) config_player_free(&cfg->players[i]);
    memset(cfg, 0, sizeof *cfg);
}
