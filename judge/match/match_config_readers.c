/* match_config_readers.c - the reader of each section of a match file (judge/match/match_config.h),
 * shared by match files and tournament files. */
#include "judge/match/match_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/compile/language_profile.h"
#include "common/suggest.h"
#include "sandbox/seccomp_policy.h"

#define PLAYER_NAME_MAX 64
#define PATH_QUOTE_SIZE 256
#define GAME_LIST_MAX   32

enum player_key { PKEY_NAME, PKEY_COMMAND, PKEY_DIR, PKEY_PROFILE, PKEY_SOURCE, PKEY_LANGUAGE, PKEY_COUNT };
static const char *const player_key_names[PKEY_COUNT] = {"name", "command", "dir", "profile", "source",
                                                         "language"};

/* Options every map generator is given (engine/game.h struct game_option). */
static const char *const generator_options[] = {
    "rows",          "cols",          "players",          "mountains", "cities",
    "city_army_min", "city_army_max", "min_capital_dist", "symmetric",
    "blocks",        "bonuses",
};
#define GENERATOR_BOOL_OPTION "symmetric"

/* ---- helpers ---------------------------------------------------------- */

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

int config_fail_no_memory(struct config_reader *r)
{
    return yr_fail(r->file, yr_document_mark(r->file), &r->err, "out of memory");
}

static int find_name(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], name)) return (int)i;
    return -1;
}

int config_read_keys(struct config_reader *r, const yaml_node_t *map, const char *const *names, size_t n,
                     struct config_keys *keys)
{
    memset(keys, 0, sizeof *keys);
    char q[YR_QUOTE_SIZE];
    for (size_t i = 0; i < yr_mapping_size(map); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(r->file, map, i, &e, &r->err) < 0) return -1;
        int k = find_name(names, n, e.key);
        if (k < 0) {
            const char *near = suggest_nearest(e.key, names, n);
            return yr_fail(r->file, e.key_mark, &r->err, "unknown key '%s'%s%s%s", quote(e.key, q),
                           near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        }
        keys->value[k] = e.value;
        keys->key_mark[k] = e.key_mark;
    }
    return 0;
}

/* A path written in the file, taken relative to the file's directory. */
static char *resolve_beside(const char *file_path, const char *rel)
{
    const char *slash = strrchr(file_path, '/');
    if (rel[0] == '/' || !slash) return strdup(rel);
    int dir_len = (int)(slash - file_path);
    char *out = NULL;
    if (asprintf(&out, "%.*s/%s", dir_len, file_path, rel) < 0) return NULL;
    return out;
}

static int read_owned_string(struct config_reader *r, const yaml_node_t *node, char **out)
{
    const char *s;
    if (yr_string(r->file, node, &s, &r->err) < 0) return -1;
    *out = strdup(s);
    return *out ? 0 : config_fail_no_memory(r);
}

int config_add_named(struct config_reader *r, struct named_value *list, size_t *n, const char *name,
                     int64_t value, struct yr_mark at)
{
    if (*n >= MATCH_MAX_NAMED)
        return yr_fail(r->file, at, &r->err, "too many entries (at most %d)", MATCH_MAX_NAMED);
    struct named_value *v = &list[*n];
    v->name = strdup(name);
    if (!v->name) return config_fail_no_memory(r);
    v->value = value;
    v->line = at.line;
    v->col = at.col;
    (*n)++;
    return 0;
}

/* ---- sections --------------------------------------------------------- */

/* "unknown game 'X' (did you mean 'Y'?; games: a, b, c)". */
static int unknown_game(struct config_reader *r, const yaml_node_t *node, const char *name)
{
    size_t n;
    const struct game_rules *const *all = game_all(&n);
    const char *names[GAME_LIST_MAX];
    char list[256] = "", q[YR_QUOTE_SIZE];
    size_t used = 0;
    for (size_t i = 0; i < n && i < GAME_LIST_MAX; i++) {
        names[i] = all[i]->name;
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", all[i]->name);
        if (w > 0 && (size_t)w < sizeof list - used) used += (size_t)w;
    }
    const char *near = suggest_nearest(name, names, n < GAME_LIST_MAX ? n : GAME_LIST_MAX);
    return yr_fail(r->file, yr_node_mark(node), &r->err, "unknown game '%s'%s%s%s (games: %s)", quote(name, q),
                   near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", list);
}

int config_read_game(struct config_reader *r, const yaml_node_t *node, char **name_out)
{
    const char *name;
    if (yr_string(r->file, node, &name, &r->err) < 0) return -1;
    r->rules = game_find(name);
    if (!r->rules) return unknown_game(r, node, name);
    *name_out = strdup(name);
    return *name_out ? 0 : config_fail_no_memory(r);
}

bool config_game_needs_no_map(const struct game_rules *rules)
{
    if (!rules->map_parse) return true;
    int64_t params[GAME_MAX_PARAMS];
    struct game_map *map = NULL;
    struct game_error gerr;
    game_params_defaults(rules, params);
    if (rules->map_parse("", 0, params, &map, &gerr) < 0) return false;
    rules->map_free(map);
    return true;
}

int config_read_map(struct config_reader *r, const yaml_node_t *node, char **path)
{
    const char *rel;
    if (yr_string(r->file, node, &rel, &r->err) < 0) return -1;
    *path = resolve_beside(r->path, rel);
    if (!*path) return config_fail_no_memory(r);
    struct stat st;
    char q[PATH_QUOTE_SIZE];
    if (stat(*path, &st) < 0)
        return yr_fail(r->file, yr_node_mark(node), &r->err, "map '%s': %s", quote_path(*path, q),
                       strerror(errno));
    if (!S_ISREG(st.st_mode))
        return yr_fail(r->file, yr_node_mark(node), &r->err, "map '%s': not a regular file",
                       quote_path(*path, q));
    return 0;
}

int config_read_generate(struct config_reader *r, const yaml_node_t *node, struct named_value *list,
                         size_t *n)
{
    if (yr_expect_mapping(r->file, node, "generate", &r->err) < 0) return -1;
    char q[YR_QUOTE_SIZE];
    size_t n_known = sizeof generator_options / sizeof generator_options[0];
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(r->file, node, i, &e, &r->err) < 0) return -1;
        if (find_name(generator_options, n_known, e.key) < 0)
            return yr_fail(r->file, e.key_mark, &r->err, "unknown generator option '%s'", quote(e.key, q));
        int64_t value;
        if (!strcmp(e.key, GENERATOR_BOOL_OPTION)) {
            bool on;
            if (yr_bool(r->file, e.value, &on, &r->err) < 0) return -1;
            value = on;
        } else if (yr_int64(r->file, e.value, &value, &r->err) < 0) {
            return -1;
        }
        if (config_add_named(r, list, n, e.key, value, e.key_mark) < 0) return -1;
    }
    return 0;
}

static int check_param_range(struct config_reader *r, const struct game_param *p, int64_t v,
                             struct yr_mark at)
{
    if (v >= p->min && v <= p->max) return 0;
    return yr_fail(r->file, at, &r->err, "parameter '%s' must be between %lld and %lld, got %lld", p->name,
                   (long long)p->min, (long long)p->max, (long long)v);
}

int config_read_params(struct config_reader *r, const yaml_node_t *node, struct named_value *list, size_t *n)
{
    if (yr_expect_mapping(r->file, node, "params", &r->err) < 0) return -1;
    char q[YR_QUOTE_SIZE];
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(r->file, node, i, &e, &r->err) < 0) return -1;
        int idx = game_param_index(r->rules, e.key);
        if (idx < 0)
            return yr_fail(r->file, e.key_mark, &r->err, "unknown parameter '%s' for game '%s'",
                           quote(e.key, q), r->rules->name);
        int64_t v;
        if (yr_int64(r->file, e.value, &v, &r->err) < 0 ||
            check_param_range(r, &r->rules->params[idx], v, e.key_mark) < 0 ||
            config_add_named(r, list, n, e.key, v, e.key_mark) < 0)
            return -1;
    }
    return 0;
}

int config_read_limits(struct config_reader *r, const yaml_node_t *node, struct named_value *list, size_t *n)
{
    if (yr_expect_mapping(r->file, node, "limits", &r->err) < 0) return -1;
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        int64_t v;
        if (yr_mapping_entry(r->file, node, i, &e, &r->err) < 0 ||
            yr_int64(r->file, e.value, &v, &r->err) < 0 ||
            config_add_named(r, list, n, e.key, v, e.key_mark) < 0)
            return -1;
    }
    return 0;
}

int config_read_isolation(struct config_reader *r, const yaml_node_t *node, enum isolation_mode *out)
{
    const char *s;
    char q[YR_QUOTE_SIZE];
    if (yr_string(r->file, node, &s, &r->err) < 0) return -1;
    if (!strcmp(s, "strict"))
        *out = ISOLATION_STRICT;
    else if (!strcmp(s, "best-effort"))
        *out = ISOLATION_BEST_EFFORT;
    else
        return yr_fail(r->file, yr_node_mark(node), &r->err,
                       "isolation must be 'strict' or 'best-effort', got '%s'", quote(s, q));
    return 0;
}

int config_read_freeze(struct config_reader *r, const yaml_node_t *node, bool *no_freeze)
{
    bool freeze;
    if (yr_bool(r->file, node, &freeze, &r->err) < 0) return -1;
    *no_freeze = !freeze;
    return 0;
}

/* ---- a player --------------------------------------------------------- */

static bool valid_player_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len > PLAYER_NAME_MAX) return false;
    for (size_t i = 0; i < len; i++)
        if (name[i] < 0x20 || name[i] > 0x7e) return false;
    return true;
}

static int read_player_name(struct config_reader *r, struct player_config *p, const yaml_node_t *node,
                            const struct player_config *earlier, size_t n_earlier)
{
    if (read_owned_string(r, node, &p->name) < 0) return -1;
    if (!valid_player_name(p->name))
        return yr_fail(r->file, yr_node_mark(node), &r->err,
                       "a player name must be 1 to %d printable ASCII characters", PLAYER_NAME_MAX);
    for (size_t i = 0; i < n_earlier; i++)
        if (!strcmp(earlier[i].name, p->name))
            return yr_fail(r->file, yr_node_mark(node), &r->err, "duplicate player name '%s'", p->name);
    return 0;
}

static int push_arg(struct config_reader *r, struct player_config *p, const char *arg, size_t len)
{
    p->argv[p->argc] = strndup(arg, len);
    if (!p->argv[p->argc]) return config_fail_no_memory(r);
    p->argc++;
    return 0;
}

/* `command: ./bot --fast` is split on spaces. */
static int read_command_string(struct config_reader *r, struct player_config *p, const yaml_node_t *node)
{
    const char *s;
    if (yr_string(r->file, node, &s, &r->err) < 0) return -1;
    p->argv = calloc(strlen(s) / 2 + 2, sizeof *p->argv);
    if (!p->argv) return config_fail_no_memory(r);
    while (*s) {
        size_t len = strcspn(s, " ");
        if (len && push_arg(r, p, s, len) < 0) return -1;
        s += len + (s[len] == ' ');
    }
    return 0;
}

static int read_command_sequence(struct config_reader *r, struct player_config *p, const yaml_node_t *node)
{
    size_t n = yr_sequence_size(node);
    p->argv = calloc(n + 1, sizeof *p->argv);
    if (!p->argv) return config_fail_no_memory(r);
    for (size_t i = 0; i < n; i++) {
        const char *arg;
        const yaml_node_t *item = yr_sequence_item(r->file, node, i);
        if (!item || yr_string(r->file, item, &arg, &r->err) < 0 || push_arg(r, p, arg, strlen(arg)) < 0)
            return -1;
    }
    return 0;
}

static int read_command(struct config_reader *r, struct player_config *p, const yaml_node_t *node)
{
    int rc;
    if (yr_is_scalar(node))
        rc = read_command_string(r, p, node);
    else if (yr_expect_sequence(r->file, node, "command", &r->err) < 0)
        return -1;
    else
        rc = read_command_sequence(r, p, node);
    if (rc == 0 && p->argc == 0)
        return yr_fail(r->file, yr_node_mark(node), &r->err, "command must not be empty");
    return rc;
}

/* A directory named beside the file (`dir`, `source`), made absolute. */
static int read_player_dir(struct config_reader *r, const yaml_node_t *node, const char *what, char **out)
{
    const char *rel;
    if (yr_string(r->file, node, &rel, &r->err) < 0) return -1;
    char *joined = resolve_beside(r->path, rel);
    if (!joined) return config_fail_no_memory(r);
    struct stat st;
    char q[PATH_QUOTE_SIZE];
    const char *problem = NULL;
    if (stat(joined, &st) == 0 && !S_ISDIR(st.st_mode))
        problem = "not a directory";
    else if (!(*out = realpath(joined, NULL)))
        problem = strerror(errno);
    int rc = 0;
    if (problem)
        rc = yr_fail(r->file, yr_node_mark(node), &r->err, "player %s '%s': %s", what, quote_path(joined, q),
                     problem);
    free(joined);
    return rc;
}

/* `source: DIR` + `language: NAME`: the language profile is loaded now, so a
 * typo stops the file. `profile:` is taken as a deprecated spelling of
 * `language:` here, so files written before the key existed still run. */
static int read_player_source(struct config_reader *r, struct player_config *p,
                              const struct config_keys *keys)
{
    const yaml_node_t *source = keys->value[PKEY_SOURCE], *language = keys->value[PKEY_LANGUAGE];
    if (keys->value[PKEY_DIR])
        return yr_fail(r->file, keys->key_mark[PKEY_DIR], &r->err,
                       "'dir' belongs to a 'command' player: a 'source' player runs from its compiled bot");
    if (language && keys->value[PKEY_PROFILE])
        return yr_fail(r->file, keys->key_mark[PKEY_PROFILE], &r->err,
                       "a 'source' player names its language with 'language' alone ('profile' is the old "
                       "spelling of it)");
    if (!language) language = keys->value[PKEY_PROFILE];
    if (!language)
        return yr_fail(r->file, keys->key_mark[PKEY_SOURCE], &r->err,
                       "a 'source' player needs 'language' (c, cpp, python3, java, ...)");
    if (read_player_dir(r, source, "source", &p->source) < 0 ||
        read_owned_string(r, language, &p->profile) < 0)
        return -1;
    struct lp_error lerr;
    /* A profile file's path (it holds a '/') is taken beside this file, like every path here. */
    char *name = strchr(p->profile, '/') ? resolve_beside(r->path, p->profile) : strdup(p->profile);
    p->language = malloc(sizeof *p->language);
    int rc = name && p->language ? language_profile_find(name, NULL, p->language, &lerr) : -2;
    free(name);
    if (rc == 0) return 0;
    free(p->language);
    p->language = NULL;
    if (rc == -2) return config_fail_no_memory(r);
    return yr_fail(r->file, yr_node_mark(language), &r->err, "%s", lerr.msg);
}

/* "default, interpreter, compiler, jvm": the run profiles a command player may name. */
static void list_run_profiles(char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *const *n = seccomp_profile_names(); *n && used < size; n++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", used ? ", " : "", *n);
}

/* `profile:` of a command player is its seccomp profile, known to the sandbox. */
static int read_run_profile(struct config_reader *r, struct player_config *p, const yaml_node_t *node)
{
    if (read_owned_string(r, node, &p->profile) < 0) return -1;
    if (seccomp_profile_exists(p->profile)) return 0;
    char known[256], q[YR_QUOTE_SIZE];
    list_run_profiles(known, sizeof known);
    return yr_fail(r->file, yr_node_mark(node), &r->err,
                   "unknown run profile '%s' (valid: %s); a program's language is not needed here: "
                   "java gets jvm by itself, and a 'source' player names its language with 'language'",
                   quote(p->profile, q), known);
}

/* No `dir:`: the bot runs from the match file's directory, where `command: [python3, bot.py]`
 * written beside the match file finds its bot.py. */
static int default_player_dir(struct config_reader *r, struct player_config *p)
{
    char *here = resolve_beside(r->path, ".");
    if (!here) return config_fail_no_memory(r);
    p->dir = realpath(here, NULL);
    free(here);
    if (p->dir || errno != ENOMEM) return 0; /* unreadable: the bot runs with no /bot, as before */
    return config_fail_no_memory(r);
}

static int read_player_command(struct config_reader *r, struct player_config *p,
                               const struct config_keys *keys)
{
    if (keys->value[PKEY_LANGUAGE])
        return yr_fail(r->file, keys->key_mark[PKEY_LANGUAGE], &r->err,
                       "'language' belongs to a 'source' player, compiled by the judge; a 'command' player "
                       "runs its command as written");
    if (read_command(r, p, keys->value[PKEY_COMMAND]) < 0) return -1;
    if (keys->value[PKEY_DIR] ? read_player_dir(r, keys->value[PKEY_DIR], "dir", &p->dir) < 0
                              : default_player_dir(r, p) < 0)
        return -1;
    if (keys->value[PKEY_PROFILE] && read_run_profile(r, p, keys->value[PKEY_PROFILE]) < 0) return -1;
    return 0;
}

int config_read_player(struct config_reader *r, const yaml_node_t *node, struct player_config *p,
                       const struct player_config *earlier, size_t n_earlier)
{
    struct config_keys keys;
    if (yr_expect_mapping(r->file, node, "a player", &r->err) < 0 ||
        config_read_keys(r, node, player_key_names, PKEY_COUNT, &keys) < 0)
        return -1;
    struct yr_mark at = yr_node_mark(node);
    p->line = at.line;
    p->col = at.col;
    if (!keys.value[PKEY_NAME]) return yr_fail(r->file, at, &r->err, "missing key 'name'");
    if (!keys.value[PKEY_COMMAND] && !keys.value[PKEY_SOURCE])
        return yr_fail(r->file, at, &r->err, "missing key 'command' (or 'source' with 'language')");
    if (keys.value[PKEY_COMMAND] && keys.value[PKEY_SOURCE])
        return yr_fail(r->file, keys.key_mark[PKEY_SOURCE], &r->err,
                       "a player has 'command' or 'source', not both");
    if (read_player_name(r, p, keys.value[PKEY_NAME], earlier, n_earlier) < 0) return -1;
    return keys.value[PKEY_SOURCE] ? read_player_source(r, p, &keys) : read_player_command(r, p, &keys);
}

/* ---- freeing ---------------------------------------------------------- */

void config_named_free(struct named_value *list, size_t n)
{
    for (size_t i = 0; i < n; i++) free(list[i].name);
}

void config_player_free(struct player_config *p)
{
    for (int i = 0; p->argv && i < p->argc; i++) free(p->argv[i]);
    free(p->argv);
    free(p->name);
    free(p->dir);
    free(p->profile);
    free(p->source);
    free(p->bot_dir);
    if (p->language) language_profile_free(p->language);
    free(p->language);
}
