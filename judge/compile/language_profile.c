/* language_profile.c - read a language profile (containers/NAME.yaml) through common/yaml_reader.h. */
#include "judge/compile/language_profile.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/yaml_reader.h"

/* Defaults of the compile limits a profile leaves out. */
#define MS  1000000ull
#define MIB (1ull << 20)
static const struct lp_compile_limits default_compile_limits = {
    .cpu_ns = 10000 * MS,
    .wall_ns = 30000 * MS,
    .memory_bytes = 512 * MIB,
    .pids = 32,
    .file_size_bytes = 64 * MIB,
    .tmp_bytes = 128 * MIB,
    .output_bytes = 256 << 10,
};

#define MAX_KEYS 8
struct keys {
    const yaml_node_t *value[MAX_KEYS];
    struct yr_mark mark[MAX_KEYS];
};

struct loader {
    struct yr_file file;
    struct language_profile *p;
    struct yr_error err;
};

enum { TOP_NAME, TOP_LANGUAGE, TOP_SOURCES, TOP_ENTRY, TOP_MOUNTS, TOP_COMPILE, TOP_RUN, TOP_COUNT };
static const char *const top_keys[] = {"name",   "language", "sources", "entry",
                                       "mounts", "compile",  "run",     NULL};
enum { STEP_COMMAND, STEP_ENV, STEP_SECCOMP, STEP_SECCOMP_ALLOW, STEP_LIMITS, STEP_COUNT };
static const char *const step_keys[] = {"command", "env", "seccomp", "seccomp_allow", "limits", NULL};
_Static_assert(TOP_COUNT <= MAX_KEYS && STEP_COUNT <= MAX_KEYS, "struct keys holds every key of a mapping");

/* A limit key: its multiplier to the field's unit, its range in the key's unit, and its field. */
struct limit_key {
    const char *name;
    uint64_t scale, min, max;
    size_t offset;
};
#define CL(field) offsetof(struct lp_compile_limits, field)
static const struct limit_key compile_limit_keys[] = {
    {"cpu_ms", MS, 1, 3600000, CL(cpu_ns)},
    {"wall_ms", MS, 1, 3600000, CL(wall_ns)},
    {"memory_mb", MIB, 16, 65536, CL(memory_bytes)},
    {"pids", 1, 1, 4096, CL(pids)},
    {"file_size_mb", MIB, 1, 65536, CL(file_size_bytes)},
    {"tmp_mb", MIB, 1, 65536, CL(tmp_bytes)},
    {"output_kb", 1024, 1, 1048576, CL(output_bytes)},
};
#define RL(field) offsetof(struct lp_run_limits, field)
static const struct limit_key run_limit_keys[] = {
    {"memory_extra_mb", MIB, 0, 65536, RL(memory_extra_bytes)},
    {"pids", 1, 0, 4096, RL(pids)},
};

/* Variables each step's commands may use. */
static const char *const compile_vars[] = {"SRC", "OUT", "SOURCES", "ENTRY", "MAIN", NULL};
static const char *const run_vars[] = {"BOT", "ENTRY", "MAIN", "MEMORY_MB", NULL};

/* ---- helpers ------------------------------------------------------------------ */

static int fail_no_memory(struct loader *l)
{
    return yr_fail(&l->file, yr_document_mark(&l->file), &l->err, "out of memory");
}

/* User text made safe for a one-line message (q has YR_QUOTE_SIZE bytes). */
static const char *quoted(const char *s, char *q)
{
    yr_quote(s, strlen(s), q, YR_QUOTE_SIZE);
    return q;
}

static int index_of(const char *const *names, const char *name, size_t len)
{
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == len && !strncmp(names[i], name, len)) return i;
    return -1;
}

static int read_keys(struct loader *l, const yaml_node_t *map, const char *what, const char *const *names,
                     struct keys *out)
{
    memset(out, 0, sizeof *out);
    if (yr_expect_mapping(&l->file, map, what, &l->err) < 0) return -1;
    char q[YR_QUOTE_SIZE];
    for (size_t i = 0; i < yr_mapping_size(map); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(&l->file, map, i, &e, &l->err) < 0) return -1;
        int k = index_of(names, e.key, strlen(e.key));
        if (k < 0)
            return yr_fail(&l->file, e.key_mark, &l->err, "unknown key '%s' in %s", quoted(e.key, q), what);
        out->value[k] = e.value;
        out->mark[k] = e.key_mark;
    }
    return 0;
}

static int owned_string(struct loader *l, const yaml_node_t *node, char **out)
{
    const char *s;
    if (yr_string(&l->file, node, &s, &l->err) < 0) return -1;
    return (*out = strdup(s)) ? 0 : fail_no_memory(l);
}

typedef bool (*string_check)(const char *s);

/* A sequence of strings, each passing check (NULL: any), at most LP_MAX_LIST. */
static int string_list(struct loader *l, const yaml_node_t *node, const char *what, size_t max,
                       string_check check, const char *rule, char **out, size_t *n)
{
    if (yr_expect_sequence(&l->file, node, what, &l->err) < 0) return -1;
    if (yr_sequence_size(node) > max)
        return yr_fail(&l->file, yr_node_mark(node), &l->err, "%s: at most %zu entries", what, max);
    for (size_t i = 0; i < yr_sequence_size(node); i++) {
        const yaml_node_t *item = yr_sequence_item(&l->file, node, i);
        if (!item) return yr_fail(&l->file, yr_node_mark(node), &l->err, "malformed sequence");
        if (owned_string(l, item, &out[*n]) < 0) return -1;
        (*n)++;
        if (check && !check(out[*n - 1]))
            return yr_fail(&l->file, yr_node_mark(item), &l->err, "%s: %s", what, rule);
    }
    return 0;
}

static bool is_name(const char *s)
{
    size_t len = strlen(s);
    if (len == 0 || len > LP_NAME_MAX) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr("_-", *s))) return false;
    return true;
}

static bool is_file_name(const char *s)
{
    return *s && *s != '-' && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/* "/a/b": absolute, and no component empty, "." or "..". */
static bool is_clean_absolute(const char *s)
{
    if (s[0] != '/' || !s[1]) return false;
    for (const char *c = s + 1;; c += strcspn(c, "/") + 1) {
        size_t len = strcspn(c, "/");
        if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.')) return false;
        if (!c[len]) return true;
    }
}

static bool is_syscall_name(const char *s)
{
    size_t len = strlen(s);
    if (len == 0 || len > 31) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')) return false;
    return true;
}

static bool is_env_entry(const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s) return false;
    for (const char *c = s; c < eq; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return false;
    return true;
}

/* ---- commands and their variables --------------------------------------------- */

/* Every ${NAME} in word names a variable of the step; ${SOURCES} only as a whole word. */
static int check_word(struct loader *l, const char *word, const char *const *vars, struct yr_mark at)
{
    char q[YR_QUOTE_SIZE];
    for (const char *s = strstr(word, "${"); s; s = strstr(s + 2, "${")) {
        const char *end = strchr(s, '}');
        if (!end) return yr_fail(&l->file, at, &l->err, "unterminated '${' in '%s'", quoted(word, q));
        char name[40];
        snprintf(name, sizeof name, "%.*s", (int)(end - s - 2 < 32 ? end - s - 2 : 32), s + 2);
        if (index_of(vars, s + 2, (size_t)(end - s - 2)) < 0)
            return yr_fail(&l->file, at, &l->err, "unknown variable '${%s}' here", quoted(name, q));
        if (!strcmp(name, "SOURCES") && strcmp(word, "${SOURCES}"))
            return yr_fail(&l->file, at, &l->err, "${SOURCES} must be a whole word");
        if ((!strcmp(name, "ENTRY") || !strcmp(name, "MAIN")) && l->p->n_entry == 0)
            return yr_fail(&l->file, at, &l->err, "${%s} needs an 'entry' list in the profile", name);
    }
    return 0;
}

static int load_command(struct loader *l, const yaml_node_t *node, struct lp_command *c,
                        const char *const *vars)
{
    if (string_list(l, node, "command", LP_MAX_WORDS, NULL, NULL, c->words, &c->n_words) < 0) return -1;
    if (c->n_words == 0) return yr_fail(&l->file, yr_node_mark(node), &l->err, "command must not be empty");
    if (c->words[0][0] != '/' && strncmp(c->words[0], "./", 2) && strncmp(c->words[0], "${", 2))
        return yr_fail(&l->file, yr_node_mark(node), &l->err,
                       "command must start with an absolute path, ./NAME or a variable");
    for (size_t i = 0; i < c->n_words; i++)
        if (check_word(l, c->words[i], vars, yr_node_mark(yr_sequence_item(&l->file, node, i))) < 0)
            return -1;
    return 0;
}

static int load_limits(struct loader *l, const yaml_node_t *node, const struct limit_key *table, size_t n,
                       void *limits)
{
    if (yr_expect_mapping(&l->file, node, "limits", &l->err) < 0) return -1;
    char q[YR_QUOTE_SIZE];
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        uint64_t v;
        if (yr_mapping_entry(&l->file, node, i, &e, &l->err) < 0) return -1;
        const struct limit_key *k = NULL;
        for (size_t j = 0; j < n && !k; j++) k = strcmp(table[j].name, e.key) ? NULL : &table[j];
        if (!k) return yr_fail(&l->file, e.key_mark, &l->err, "unknown limit '%s'", quoted(e.key, q));
        if (yr_uint64(&l->file, e.value, &v, &l->err) < 0) return -1;
        if (v < k->min || v > k->max)
            return yr_fail(&l->file, yr_node_mark(e.value), &l->err, "%s must be between %llu and %llu",
                           k->name, (unsigned long long)k->min, (unsigned long long)k->max);
        *(uint64_t *)((char *)limits + k->offset) = v * k->scale;
    }
    return 0;
}

static int load_step(struct loader *l, const yaml_node_t *node, const char *what, struct lp_command *c,
                     const char *const *vars, const struct limit_key *limit_table, size_t n_limits,
                     void *limits)
{
    struct keys k;
    if (read_keys(l, node, what, step_keys, &k) < 0) return -1;
    if (!k.value[STEP_COMMAND])
        return yr_fail(&l->file, yr_node_mark(node), &l->err, "%s: missing key 'command'", what);
    if (!k.value[STEP_SECCOMP])
        return yr_fail(&l->file, yr_node_mark(node), &l->err, "%s: missing key 'seccomp'", what);
    if (load_command(l, k.value[STEP_COMMAND], c, vars) < 0 ||
        owned_string(l, k.value[STEP_SECCOMP], &c->seccomp) < 0)
        return -1;
    if (k.value[STEP_ENV] && string_list(l, k.value[STEP_ENV], "env", LP_MAX_LIST, is_env_entry,
                                         "each entry is NAME=VALUE", c->env, &c->n_env) < 0)
        return -1;
    if (k.value[STEP_SECCOMP_ALLOW] &&
        string_list(l, k.value[STEP_SECCOMP_ALLOW], "seccomp_allow", LP_MAX_LIST, is_syscall_name,
                    "a system call name (a-z, 0-9, '_')", c->seccomp_allow, &c->n_allow) < 0)
        return -1;
    if (k.value[STEP_LIMITS] && load_limits(l, k.value[STEP_LIMITS], limit_table, n_limits, limits) < 0)
        return -1;
    return 0;
}

/* ---- the file ---------------------------------------------------------------- */

/* The name must be the file's: NAME.yaml. */
static int load_name(struct loader *l, const yaml_node_t *node)
{
    if (owned_string(l, node, &l->p->name) < 0) return -1;
    if (!is_name(l->p->name))
        return yr_fail(&l->file, yr_node_mark(node), &l->err,
                       "name must be 1 to %d characters of a-z, 0-9, '_', '-'", LP_NAME_MAX);
    const char *base = strrchr(l->p->path, '/');
    base = base ? base + 1 : l->p->path;
    size_t len = strlen(l->p->name);
    if (strncmp(base, l->p->name, len) || strcmp(base + len, ".yaml"))
        return yr_fail(&l->file, yr_node_mark(node), &l->err, "name '%s' must match the file name (%s.yaml)",
                       l->p->name, l->p->name);
    return 0;
}

static int require(struct loader *l, const struct keys *k, int key, const char *name)
{
    if (k->value[key]) return 0;
    return yr_fail(&l->file, yr_document_mark(&l->file), &l->err, "missing key '%s'", name);
}

static int load_top(struct loader *l, const yaml_node_t *root)
{
    struct keys k;
    struct language_profile *p = l->p;
    if (read_keys(l, root, "a language profile", top_keys, &k) < 0) return -1;
    if (require(l, &k, TOP_NAME, "name") < 0 || require(l, &k, TOP_SOURCES, "sources") < 0 ||
        require(l, &k, TOP_COMPILE, "compile") < 0 || require(l, &k, TOP_RUN, "run") < 0)
        return -1;
    if (load_name(l, k.value[TOP_NAME]) < 0 ||
        (k.value[TOP_LANGUAGE] && owned_string(l, k.value[TOP_LANGUAGE], &p->language) < 0) ||
        string_list(l, k.value[TOP_SOURCES], "sources", LP_MAX_LIST, is_file_name,
                    "a file name pattern (no '/', not starting with '-')", p->sources, &p->n_sources) < 0 ||
        (k.value[TOP_ENTRY] &&
         string_list(l, k.value[TOP_ENTRY], "entry", LP_MAX_LIST, is_file_name,
                     "a file name (no '/', not starting with '-')", p->entry, &p->n_entry) < 0) ||
        (k.value[TOP_MOUNTS] &&
         string_list(l, k.value[TOP_MOUNTS], "mounts", LP_MAX_LIST, is_clean_absolute,
                     "an absolute path without '.', '..' or '//'", p->mounts, &p->n_mounts) < 0))
        return -1;
    if (p->n_sources == 0)
        return yr_fail(&l->file, yr_node_mark(k.value[TOP_SOURCES]), &l->err, "sources must not be empty");
    p->compile_limits = default_compile_limits;
    if (load_step(l, k.value[TOP_COMPILE], "compile", &p->compile, compile_vars, compile_limit_keys,
                  sizeof compile_limit_keys / sizeof *compile_limit_keys, &p->compile_limits) < 0 ||
        load_step(l, k.value[TOP_RUN], "run", &p->run, run_vars, run_limit_keys,
                  sizeof run_limit_keys / sizeof *run_limit_keys, &p->run_limits) < 0)
        return -1;
    return 0;
}

int language_profile_load(const char *path, struct language_profile *out, struct lp_error *err)
{
    memset(out, 0, sizeof *out);
    struct loader l = {.p = out};
    if (!(out->path = strdup(path))) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    int rc = yr_load(path, &l.file, &l.err);
    if (rc == 0) {
        const yaml_node_t *root = yr_root(&l.file);
        rc = root ? load_top(&l, root)
                  : yr_fail(&l.file, yr_document_mark(&l.file), &l.err,
                            "empty file: a language profile is a mapping");
    }
    yr_free(&l.file);
    if (rc < 0) {
        snprintf(err->msg, sizeof err->msg, "%s", l.err.msg);
        language_profile_free(out);
    }
    return rc;
}

static void free_words(char **words, size_t n)
{
    for (size_t i = 0; i < n; i++) free(words[i]);
}

static void free_command(struct lp_command *c)
{
    free_words(c->words, c->n_words);
    free_words(c->env, c->n_env);
    free_words(c->seccomp_allow, c->n_allow);
    free(c->seccomp);
}

void language_profile_free(struct language_profile *p)
{
    free(p->path);
    free(p->name);
    free(p->language);
    free_words(p->sources, p->n_sources);
    free_words(p->entry, p->n_entry);
    free_words(p->mounts, p->n_mounts);
    free_command(&p->compile);
    free_command(&p->run);
    memset(p, 0, sizeof *p);
}
