/* standings.c - per-player and per-pair aggregates of the matches read (standings.h). */
#include "ci/standings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void standings_init(struct standings *st)
{
    memset(st, 0, sizeof *st);
}

void standings_free(struct standings *st)
{
    for (uint32_t i = 0; i < st->n; i++)
        free(st->players[i].name);
    for (size_t i = 0; i < st->n_games; i++)
        free(st->games[i]);
    free(st->players);
    free(st->name_slots);
    free(st->pairs);
    free(st->order);
    memset(st, 0, sizeof *st);
}

static uint64_t name_hash(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h ^ (h >> 32);
}

/* The slot holding name, or the empty slot where it would go. */
static uint32_t *name_slot(uint32_t *slots, uint32_t cap, const struct ci_player *players, const char *s,
                           size_t n)
{
    uint32_t i = (uint32_t)name_hash(s, n) & (cap - 1);
    while (slots[i]) {
        const struct ci_player *p = &players[slots[i] - 1];
        if (p->name_len == n && !memcmp(p->name, s, n))
            break;
        i = (i + 1) & (cap - 1);
    }
    return &slots[i];
}

static int grow_names(struct standings *st)
{
    uint32_t cap = st->name_cap ? st->name_cap * 2 : 256;
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t i = 0; i < st->n; i++)
        *name_slot(slots, cap, st->players, st->players[i].name, st->players[i].name_len) = i + 1;
    free(st->name_slots);
    st->name_slots = slots;
    st->name_cap = cap;
    return 0;
}

static int append_player(struct standings *st, const char *name, size_t len)
{
    if (st->n == st->cap) {
        uint32_t cap = st->cap ? st->cap * 2 : 64;
        struct ci_player *p = realloc(st->players, cap * sizeof *p);
        if (!p)
            return -1;
        st->players = p;
        st->cap = cap;
    }
    struct ci_player *p = &st->players[st->n];
    memset(p, 0, sizeof *p);
    if (!(p->name = malloc(len + 1)))
        return -1;
    memcpy(p->name, name, len);
    p->name[len] = '\0';
    p->name_len = len;
    st->n++;
    return 0;
}

int standings_player(struct standings *st, const char *name, size_t len, uint32_t *index,
                     struct ci_error *err)
{
    if ((st->n + 1) * 2 > st->name_cap && grow_names(st) < 0)
        return ci_fail_oom(err);
    uint32_t *slot = name_slot(st->name_slots, st->name_cap, st->players, name, len);
    if (!*slot) {
        if (append_player(st, name, len) < 0)
            return ci_fail_oom(err);
        *slot = st->n;
    }
    *index = *slot - 1;
    return 0;
}

int standings_find(const struct standings *st, const char *name, size_t len, uint32_t *index)
{
    if (!st->name_cap)
        return 0;
    uint32_t slot = *name_slot(st->name_slots, st->name_cap, st->players, name, len);
    const struct ci_player *p = slot ? &st->players[slot - 1] : NULL;
    if (!p || (!p->matches && !p->has_compile && !p->smoke_failed))
        return 0;
    *index = slot - 1;
    return 1;
}

static size_t pair_index(const struct ci_pair *pairs, size_t cap, uint32_t a, uint32_t b)
{
    size_t i =
        (size_t)(((uint64_t)a * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)b * 0xc2b2ae3d27d4eb4full)) & (cap - 1);
    while (pairs[i].matches && (pairs[i].a != a || pairs[i].b != b))
        i = (i + 1) & (cap - 1);
    return i;
}

static int grow_pairs(struct standings *st)
{
    size_t cap = st->pair_cap ? st->pair_cap * 2 : 256;
    struct ci_pair *pairs = calloc(cap, sizeof *pairs);
    if (!pairs)
        return -1;
    for (size_t i = 0; i < st->pair_cap; i++)
        if (st->pairs[i].matches)
            pairs[pair_index(pairs, cap, st->pairs[i].a, st->pairs[i].b)] = st->pairs[i];
    free(st->pairs);
    st->pairs = pairs;
    st->pair_cap = cap;
    return 0;
}

const struct ci_pair *standings_pair(const struct standings *st, uint32_t a, uint32_t b)
{
    if (!st->pair_cap || a == b)
        return NULL;
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    const struct ci_pair *p = &st->pairs[pair_index(st->pairs, st->pair_cap, lo, hi)];
    return p->matches ? p : NULL;
}

void standings_h2h(const struct standings *st, uint32_t x, uint32_t y, uint64_t *w, uint64_t *d, uint64_t *l)
{
    const struct ci_pair *p = standings_pair(st, x, y);
    *w = !p ? 0 : p->a == x ? p->a_wins : p->b_wins;
    *l = !p ? 0 : p->a == x ? p->b_wins : p->a_wins;
    *d = p ? p->draws : 0;
}

/* One pair's result in one match of k players. */
static int add_pair(struct standings *st, const struct mr_seat *x, const struct mr_seat *y, int k)
{
    if ((st->n_pairs + 1) * 2 > st->pair_cap && grow_pairs(st) < 0)
        return -1;
    const struct mr_seat *lo = x->player < y->player ? x : y, *hi = lo == x ? y : x;
    struct ci_pair *p = &st->pairs[pair_index(st->pairs, st->pair_cap, lo->player, hi->player)];
    if (!p->matches) {
        *p = (struct ci_pair){.a = lo->player, .b = hi->player};
        st->n_pairs++;
    }
    uint64_t win = CI_UNITS / (uint64_t)(k - 1);
    p->matches++;
    if (lo->place == hi->place) {
        p->draws++;
        p->a_units += win / 2;
        p->b_units += win / 2;
    } else if (lo->place < hi->place) {
        p->a_wins++;
        p->a_units += win;
    } else {
        p->b_wins++;
        p->b_units += win;
    }
    return 0;
}

static void add_game(struct standings *st, const char *game)
{
    for (size_t i = 0; i < st->n_games; i++)
        if (!strcmp(st->games[i], game))
            return;
    if (st->n_games == sizeof st->games / sizeof st->games[0] || !(st->games[st->n_games] = strdup(game)))
        st->more_games = true;
    else
        st->n_games++;
}

void standings_mark_reference(struct standings *st, uint32_t player)
{
    st->players[player].reference = true;
}

double standings_per_match(const struct ci_player *p)
{
    return p->matches ? (double)p->points / (double)p->matches : 0.0;
}

/* One finished match's verdict of a player; OK is not counted. */
static void count_verdict(struct ci_player *p, const char *verdict)
{
    if (!strcmp(verdict, "OK"))
        return;
    for (int i = 0; i < CI_MAX_VERDICTS; i++) {
        struct ci_verdict_count *v = &p->verdicts[i];
        if (!v->count)
            snprintf(v->name, sizeof v->name, "%s", verdict);
        if (!strcmp(v->name, verdict)) {
            v->count++;
            return;
        }
    }
    p->other_verdicts++;
}

int standings_add_match(struct standings *st, const struct match_record *m, struct ci_error *err)
{
    bool all_equal = true;
    for (int i = 1; i < m->n; i++)
        all_equal = all_equal && m->seats[i].place == m->seats[0].place;
    for (int i = 0; i < m->n; i++) {
        const struct mr_seat *s = &m->seats[i];
        struct ci_player *p = &st->players[s->player];
        p->matches++;
        p->points += s->points;
        p->cpu_ns += s->cpu_ns;
        p->reference = p->reference || s->reference;
        p->violation_matches += s->violation_total > 0;
        count_verdict(p, s->verdict);
        if (m->n > 1 && all_equal)
            p->draws++;
        else if (s->place == 1)
            p->wins++;
        else
            p->losses++;
        for (int j = i + 1; j < m->n; j++)
            if (add_pair(st, s, &m->seats[j], m->n) < 0)
                return ci_fail_oom(err);
    }
    add_game(st, m->game);
    st->matches++;
    return 0;
}

void standings_add_smoke(struct standings *st, uint32_t player, const char *verdict)
{
    struct ci_player *p = &st->players[player];
    p->smoke_failed = true;
    snprintf(p->smoke_verdict, sizeof p->smoke_verdict, "%s", verdict);
}

bool standings_not_played(const struct ci_player *p)
{
    return p->compile_failed || p->smoke_failed;
}

void standings_add_compile(struct standings *st, uint32_t player, const char *verdict)
{
    struct ci_player *p = &st->players[player];
    p->has_compile = true;
    p->compile_failed = p->compile_failed || strcmp(verdict, "OK") != 0;
    if (strcmp(verdict, "OK") || !p->compile_verdict[0])
        snprintf(p->compile_verdict, sizeof p->compile_verdict, "%s", verdict);
}
