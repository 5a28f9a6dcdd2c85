/*
 * tournament_plan.c - the matches of a tournament, in a fixed order that
 * depends on the file alone, so every shard and every resumed run agrees on
 * which match has which index and id.
 *
 * A "group" is the players of one match in seat order. Round-robin: every
 * pair, both seat orders. Gauntlet: every submission with every combination
 * of per_match - 1 references, the submission in each seat in turn.
 * Free-for-all: every combination of per_match players (or `sample` of them,
 * drawn per seed), each with its seats shuffled; both draws come from the
 * seed's C6 stream "tournament".
 */
#include "judge/tournament/tournament.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rng.h"

#define ID_SOFT_MAX 180 /* names are cut past this; the index keeps ids unique */
#define TAG_MAX     24
#define SHARDS_MAX  100000

struct groups {
    uint16_t *seats; /* n groups of k seats, one after another */
    size_t n, cap;
    int k;
};

static int add_group(struct groups *g, const uint16_t *seats)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        uint16_t *s = realloc(g->seats, cap * (size_t)g->k * sizeof *s);
        if (!s) return -1;
        g->seats = s;
        g->cap = cap;
    }
    memcpy(g->seats + g->n * (size_t)g->k, seats, (size_t)g->k * sizeof *seats);
    g->n++;
    return 0;
}

/* C(n, k), or limit + 1 when larger than limit. */
static uint64_t binomial_capped(uint64_t n, uint64_t k, uint64_t limit)
{
    if (k > n) return 0;
    uint64_t r = 1;
    for (uint64_t i = 1; i <= k; i++) {
        r = r * (n - k + i) / i;
        if (r > limit) return limit + 1;
    }
    return r;
}

/* The next combination of c[0..m) out of 0..n-1 in lexicographic order; false after the last. */
static bool next_combination(uint16_t *c, int m, size_t n)
{
    int i = m - 1;
    while (i >= 0 && c[i] == n - (size_t)m + (size_t)i) i--;
    if (i < 0) return false;
    c[i]++;
    for (int j = i + 1; j < m; j++) c[j] = (uint16_t)(c[j - 1] + 1);
    return true;
}

static void first_combination(uint16_t *c, int m, size_t offset)
{
    for (int i = 0; i < m; i++) c[i] = (uint16_t)(offset + (size_t)i);
}

/* ---- the formats ----------------------------------------------------------------- */

static int round_robin_groups(const struct tournament_config *cfg, struct groups *g)
{
    for (size_t i = 0; i < cfg->n_players; i++)
        for (size_t j = i + 1; j < cfg->n_players; j++) {
            uint16_t ab[2] = {(uint16_t)i, (uint16_t)j}, ba[2] = {(uint16_t)j, (uint16_t)i};
            if (add_group(g, ab) < 0 || add_group(g, ba) < 0) return -1;
        }
    return 0;
}

static int gauntlet_groups(const struct tournament_config *cfg, struct groups *g)
{
    int m = g->k - 1;
    size_t refs = cfg->n_players - cfg->n_submissions;
    uint16_t combo[GAME_MAX_PLAYERS], seats[GAME_MAX_PLAYERS];
    for (size_t s = 0; s < cfg->n_submissions; s++) {
        first_combination(combo, m, 0);
        do {
            for (int at = 0; at < g->k; at++) {
                for (int i = 0, r = 0; i < g->k; i++)
                    seats[i] = i == at ? (uint16_t)s : (uint16_t)(cfg->n_submissions + combo[r++]);
                if (add_group(g, seats) < 0) return -1;
            }
        } while (next_combination(combo, m, refs));
    }
    return 0;
}

static void shuffle_seats(struct rng *r, uint16_t *seats, int k)
{
    for (int i = k - 1; i > 0; i--) {
        int j = (int)rng_uniform(r, (uint64_t)i + 1);
        uint16_t t = seats[i];
        seats[i] = seats[j];
        seats[j] = t;
    }
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The combinations drawn so far, by hash: open addressing over group numbers + 1. */
struct seen {
    size_t *slots, mask;
};

static uint64_t group_hash(const uint16_t *seats, int k)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < k; i++) h = (h ^ seats[i]) * 0x100000001b3ULL;
    return h;
}

/* True when g already holds seats; otherwise adds it (rc -1 when out of memory). */
static bool seen_or_add(struct seen *s, struct groups *g, const uint16_t *seats, int *rc)
{
    size_t at = (size_t)group_hash(seats, g->k) & s->mask;
    for (; s->slots[at]; at = (at + 1) & s->mask)
        if (!memcmp(g->seats + (s->slots[at] - 1) * (size_t)g->k, seats, (size_t)g->k * sizeof *seats))
            return true;
    *rc = add_group(g, seats);
    s->slots[at] = g->n;
    return false;
}

/* k players drawn without replacement (a partial Fisher-Yates shuffle of pool,
 * undone afterwards so pool stays 0..n-1), sorted. */
static void draw_combination(struct rng *r, uint16_t *pool, size_t n, int k, uint16_t *pick)
{
    size_t swaps[GAME_MAX_PLAYERS];
    for (int i = 0; i < k; i++) {
        swaps[i] = (size_t)i + (size_t)rng_uniform(r, n - (size_t)i);
        uint16_t t = pool[i];
        pool[i] = pool[swaps[i]];
        pool[swaps[i]] = t;
        pick[i] = pool[i];
    }
    for (int i = k - 1; i >= 0; i--) {
        uint16_t t = pool[i];
        pool[i] = pool[swaps[i]];
        pool[swaps[i]] = t;
    }
    qsort(pick, (size_t)k, sizeof *pick, cmp_u16);
}

/* `sample` distinct combinations, each redrawn while it was drawn before. */
static int sample_groups(const struct tournament_config *cfg, struct rng *r, struct groups *g)
{
    size_t n = cfg->n_players, table = 16;
    while (table < 2 * cfg->sample) table *= 2;
    struct seen seen = {calloc(table, sizeof *seen.slots), table - 1};
    uint16_t *pool = malloc(n * sizeof *pool);
    int rc = pool && seen.slots ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) pool[i] = (uint16_t)i;
    while (rc == 0 && g->n < cfg->sample) {
        uint16_t pick[GAME_MAX_PLAYERS];
        draw_combination(r, pool, n, g->k, pick);
        seen_or_add(&seen, g, pick, &rc);
    }
    free(pool);
    free(seen.slots);
    return rc;
}

static int every_combination(size_t n, struct groups *g)
{
    uint16_t combo[GAME_MAX_PLAYERS];
    first_combination(combo, g->k, 0);
    do
        if (add_group(g, combo) < 0) return -1;
    while (next_combination(combo, g->k, n));
    return 0;
}

static int free_for_all_groups(const struct tournament_config *cfg, uint64_t seed, struct groups *g)
{
    struct rng r = rng_stream(seed, "tournament");
    uint64_t all = binomial_capped(cfg->n_players, (uint64_t)g->k, TOURNAMENT_MAX_MATCHES);
    bool sampled = cfg->sample && cfg->sample < all;
    if ((sampled ? sample_groups(cfg, &r, g) : every_combination(cfg->n_players, g)) < 0) return -1;
    for (size_t i = 0; i < g->n; i++) shuffle_seats(&r, g->seats + i * (size_t)g->k, g->k);
    return 0;
}

/* ---- the plan ---------------------------------------------------------------------- */

/* Matches per seed and arena, or TOURNAMENT_MAX_MATCHES + 1 when more. */
static uint64_t groups_per_seed(const struct tournament_config *cfg)
{
    uint64_t k = (uint64_t)cfg->per_match, n = cfg->n_players, s = cfg->n_submissions;
    switch (cfg->format) {
    case TOURNAMENT_ROUND_ROBIN:
        return n * (n - 1);
    case TOURNAMENT_GAUNTLET:
        return s * k * binomial_capped(n - s, k - 1, TOURNAMENT_MAX_MATCHES);
    case TOURNAMENT_FREE_FOR_ALL:
        break;
    }
    uint64_t all = binomial_capped(n, k, TOURNAMENT_MAX_MATCHES);
    return cfg->sample && cfg->sample < all ? cfg->sample : all;
}

static int check_size(const struct tournament_config *cfg, struct tournament_error *err)
{
    uint64_t per_seed = groups_per_seed(cfg);
    if (per_seed <= TOURNAMENT_MAX_MATCHES && per_seed * cfg->n_arenas <= TOURNAMENT_MAX_MATCHES &&
        per_seed * cfg->n_arenas * cfg->n_seeds <= TOURNAMENT_MAX_MATCHES)
        return 0;
    snprintf(err->msg, sizeof err->msg, "%s:1:1: the tournament has more than %d matches%s", cfg->path,
             TOURNAMENT_MAX_MATCHES, cfg->format == TOURNAMENT_FREE_FOR_ALL ? "; set 'sample'" : "");
    return -1;
}

static int add_matches(struct tournament_plan *plan, const struct groups *g, size_t arena, uint64_t seed)
{
    for (size_t i = 0; i < g->n; i++) {
        struct tournament_match *m = &plan->matches[plan->n];
        memset(m, 0, sizeof *m);
        m->index = plan->n++;
        m->arena = arena;
        m->seed = seed;
        m->n_seats = g->k;
        memcpy(m->seats, g->seats + i * (size_t)g->k, (size_t)g->k * sizeof *m->seats);
    }
    return 0;
}

static int build_seed(const struct tournament_config *cfg, uint64_t seed, struct groups *fixed,
                      struct tournament_plan *plan)
{
    struct groups drawn = {.k = cfg->per_match};
    struct groups *g = fixed;
    if (cfg->format == TOURNAMENT_FREE_FOR_ALL) {
        if (free_for_all_groups(cfg, seed, &drawn) < 0) {
            free(drawn.seats);
            return -1;
        }
        g = &drawn;
    }
    for (size_t a = 0; a < cfg->n_arenas; a++) add_matches(plan, g, a, seed);
    free(drawn.seats);
    return 0;
}

static int digits(size_t n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

int tournament_plan_build(const struct tournament_config *cfg, struct tournament_plan *out,
                          struct tournament_error *err)
{
    memset(out, 0, sizeof *out);
    if (cfg->per_match < 1 || cfg->per_match > GAME_MAX_PLAYERS) { /* the loader allows no other */
        snprintf(err->msg, sizeof err->msg, "%s: %d players per match", cfg->path, cfg->per_match);
        return -1;
    }
    if (check_size(cfg, err) < 0) return -1;
    size_t total = (size_t)groups_per_seed(cfg) * cfg->n_arenas * cfg->n_seeds;
    struct groups fixed = {.k = cfg->per_match};
    int rc = 0;
    if (cfg->format == TOURNAMENT_ROUND_ROBIN)
        rc = round_robin_groups(cfg, &fixed);
    else if (cfg->format == TOURNAMENT_GAUNTLET)
        rc = gauntlet_groups(cfg, &fixed);
    out->matches = calloc(total ? total : 1, sizeof *out->matches);
    if (!out->matches) rc = -1;
    for (size_t s = 0; rc == 0 && s < cfg->n_seeds; s++) rc = build_seed(cfg, cfg->seeds[s], &fixed, out);
    free(fixed.seats);
    if (rc < 0) {
        tournament_plan_free(out);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", cfg->path);
        return -1;
    }
    out->index_width = digits(out->n ? out->n - 1 : 0);
    if (out->index_width < 4) out->index_width = 4;
    return 0;
}

void tournament_plan_free(struct tournament_plan *plan)
{
    free(plan->matches);
    memset(plan, 0, sizeof *plan);
}

/* ---- ids --------------------------------------------------------------------------- */

static bool id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '+' || c == '-';
}

/* Appends at most max characters of s, cleaned, keeping id[] within ID_SOFT_MAX. */
static void append_clean(char *id, size_t *len, const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max && *len < ID_SOFT_MAX; i++) id[(*len)++] = id_char(s[i]) ? s[i] : '_';
    id[*len] = '\0';
}

static void append_text(char *id, size_t *len, const char *s)
{
    append_clean(id, len, s, strlen(s));
}

/* Separators are written whole or not at all. */
static void append_raw(char *id, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n > ID_SOFT_MAX) return;
    memcpy(id + *len, s, n + 1);
    *len += n;
}

static int64_t generator_option(const struct tournament_arena *a, const char *name)
{
    for (size_t i = 0; i < a->n_generate; i++)
        if (!strcmp(a->generate[i].name, name)) return a->generate[i].value;
    return -1;
}

/* The map file's name without directory and extension, or "gen", "gen20x20". */
static void arena_tag(const struct tournament_arena *a, char *id, size_t *len)
{
    if (a->map_path) {
        const char *base = strrchr(a->map_path, '/');
        base = base ? base + 1 : a->map_path;
        const char *dot = strrchr(base, '.');
        size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
        append_clean(id, len, base, n < TAG_MAX ? n : TAG_MAX);
        return;
    }
    char tag[64];
    int64_t rows = generator_option(a, "rows"), cols = generator_option(a, "cols");
    if (rows >= 0 && cols >= 0)
        snprintf(tag, sizeof tag, "gen%lldx%lld", (long long)rows, (long long)cols);
    else
        snprintf(tag, sizeof tag, "gen");
    append_text(id, len, tag);
}

void tournament_match_id(const struct tournament_config *cfg, const struct tournament_plan *plan,
                         const struct tournament_match *m, char id[TOURNAMENT_ID_MAX])
{
    int n = snprintf(id, TOURNAMENT_ID_MAX, "%0*zu-", plan->index_width, m->index);
    size_t len = n > 0 ? (size_t)n : 0;
    arena_tag(&cfg->arenas[m->arena], id, &len);
    char seed[32];
    snprintf(seed, sizeof seed, "-s%llu-", (unsigned long long)m->seed);
    append_raw(id, &len, seed);
    for (int i = 0; i < m->n_seats; i++) {
        if (i > 0) append_raw(id, &len, "-vs-");
        append_text(id, &len, cfg->players[m->seats[i]].name);
    }
}

long tournament_id_index(const char *id)
{
    long v = 0;
    size_t i = 0;
    for (; id[i] >= '0' && id[i] <= '9' && i < 8; i++) v = v * 10 + (id[i] - '0');
    return i > 0 && id[i] == '-' ? v : -1;
}

/* ---- shards and per-match files ------------------------------------------------------ */

bool tournament_in_shard(const struct tournament_match *m, struct tournament_shard shard)
{
    return m->index % shard.count == shard.index - 1;
}

void tournament_shard_players(const struct tournament_plan *plan, struct tournament_shard shard,
                              bool *seated)
{
    for (size_t i = 0; i < plan->n; i++) {
        const struct tournament_match *m = &plan->matches[i];
        if (tournament_in_shard(m, shard))
            for (int s = 0; s < m->n_seats; s++) seated[m->seats[s]] = true;
    }
}

/* A decimal number of at most 6 digits ending at *end. */
static int parse_small(const char *s, const char **end, unsigned *out)
{
    unsigned v = 0;
    size_t i = 0;
    for (; s[i] >= '0' && s[i] <= '9' && i < 7; i++) v = v * 10 + (unsigned)(s[i] - '0');
    *end = s + i;
    *out = v;
    return i == 0 || i > 6 ? -1 : 0;
}

int tournament_shard_parse(const char *text, struct tournament_shard *out)
{
    const char *end;
    unsigned i, n;
    if (parse_small(text, &end, &i) < 0 || *end != '/' || parse_small(end + 1, &end, &n) < 0 || *end)
        return -1;
    if (n < 1 || n > SHARDS_MAX || i < 1 || i > n) return -1;
    out->index = i;
    out->count = n;
    return 0;
}

void tournament_match_config(const struct tournament_config *cfg, const struct tournament_match *m,
                             struct match_config *out)
{
    const struct tournament_arena *a = &cfg->arenas[m->arena];
    memset(out, 0, sizeof *out);
    out->path = cfg->path;
    out->game = cfg->game;
    out->map_path = a->map_path;
    out->has_generate = !a->map_path;
    memcpy(out->generate, a->generate, a->n_generate * sizeof *a->generate);
    out->n_generate = a->n_generate;
    out->has_seed = true;
    out->seed = m->seed;
    memcpy(out->params, cfg->params, cfg->n_params * sizeof *cfg->params);
    out->n_params = cfg->n_params;
    memcpy(out->limits, cfg->limits, cfg->n_limits * sizeof *cfg->limits);
    out->n_limits = cfg->n_limits;
    for (int i = 0; i < m->n_seats; i++) out->players[i] = cfg->players[m->seats[i]];
    out->n_players = m->n_seats;
    out->isolation = cfg->isolation;
    out->no_freeze = cfg->no_freeze;
}
