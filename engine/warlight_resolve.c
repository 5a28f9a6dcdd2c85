/*
 * warlight_resolve.c - a turn's execution (§6): every kept deployment is added, the commands
 * are checked (W8), shuffled with the round's play stream and run one at a time (W9, W10).
 * Armies saturate at INT64_MAX, which only absurd parameters reach.
 */
#include <stdlib.h>

#include "engine/warlight.h"

int64_t wl_kills(int64_t armies, int64_t pct)
{
    __int128 k = ((__int128)armies * pct + 50) / 100;
    return k > INT64_MAX ? INT64_MAX : (int64_t)k;
}

static void add_deployments(struct warlight_board *b, struct wl_orders *const *orders)
{
    for (int id = 0; id < b->k; id++) {
        const struct wl_orders *o = orders[id];
        if (!o || (o->status != WS_OK && o->status != WS_BADMOVES))
            continue;
        for (size_t i = 0; i < o->n_deploy; i++) {
            int t = (int)(o->deploy[i].r * b->cols + o->deploy[i].c);
            wl_board_set(b, t, id, wl_sat_add(b->armies[t], o->deploy[i].a));
        }
    }
}

static bool on_board(const struct warlight_board *b, int64_t r, int64_t c)
{
    return r >= 0 && r < b->rows && c >= 0 && c < b->cols;
}

/* W8, against the board after every deployment. */
static bool valid_command(const struct warlight_board *b, int id, const struct wl_command *m)
{
    if (!on_board(b, m->sr, m->sc) || !on_board(b, m->dr, m->dc))
        return false;
    int from = (int)(m->sr * b->cols + m->sc), to = (int)(m->dr * b->cols + m->dc);
    return b->owner[from] == id && wl_board_adjacent(b, from, to) && m->a > 0 &&
           m->a <= b->armies[from] - 1;
}

static bool push(struct wl_moves *ran, int id, const struct wl_command *cmd)
{
    if (ran->n == ran->cap) {
        size_t cap = ran->cap ? 2 * ran->cap : 64;
        struct wl_move *v = realloc(ran->v, cap * sizeof *v);
        if (!v)
            return false;
        ran->v = v;
        ran->cap = cap;
    }
    ran->v[ran->n++] = (struct wl_move){id, *cmd, 0, WO_LOST_SOURCE};
    return true;
}

/* C of §6: the valid commands, by player id, then in the order each player wrote them. */
static int collect(const struct warlight_board *b, struct wl_orders *const *orders,
                   struct wl_moves *c, int *dropped)
{
    for (int id = 0; id < b->k; id++) {
        const struct wl_orders *o = orders[id];
        dropped[id] = 0;
        if (!o || o->status != WS_OK)
            continue;
        for (size_t i = 0; i < o->n_cmd; i++) {
            if (!valid_command(b, id, &o->cmd[i]))
                dropped[id]++;
            else if (!push(c, id, &o->cmd[i]))
                return -1;
        }
    }
    return 0;
}

/* W10: n attackers from `from` against the o defenders of `to`. */
static enum wl_outcome combat(struct warlight_board *b, int id, int from, int to, int64_t n,
                              const int64_t *params)
{
    int64_t o = b->armies[to];
    int64_t o2 = o - wl_kills(n, params[WP_ATTACK_KILL_PCT]);
    int64_t n2 = n - wl_kills(o, params[WP_DEFEND_KILL_PCT]);
    o2 = o2 > 0 ? o2 : 0;
    n2 = n2 > 0 ? n2 : 0;
    if (o2 == 0 && n2 > 0) {
        wl_board_set(b, to, id, n2);
        return WO_CAPTURE;
    }
    if (o2 == 0) {
        wl_board_set(b, to, b->owner[to], 1);
        return WO_STALEMATE;
    }
    wl_board_set(b, to, b->owner[to], o2);
    wl_board_set(b, from, id, wl_sat_add(b->armies[from], n2));
    return WO_REPELLED;
}

/* W9 for one command. */
static void run(struct warlight_board *b, struct wl_move *mv, const int64_t *params)
{
    const struct wl_command *m = &mv->cmd;
    int from = (int)(m->sr * b->cols + m->sc), to = (int)(m->dr * b->cols + m->dc);
    mv->n = 0;
    if (b->owner[from] != mv->id) {
        mv->outcome = WO_LOST_SOURCE;
        return;
    }
    int64_t n = m->a < b->armies[from] - 1 ? m->a : b->armies[from] - 1;
    if (n <= 0) {
        mv->outcome = WO_NOTHING_LEFT;
        return;
    }
    mv->n = n;
    wl_board_set(b, from, mv->id, b->armies[from] - n);
    if (b->owner[to] == mv->id) {
        wl_board_set(b, to, mv->id, wl_sat_add(b->armies[to], n));
        mv->outcome = WO_TRANSFER;
    } else {
        mv->outcome = combat(b, mv->id, from, to, n, params);
    }
}

static void shuffle_moves(struct wl_moves *c, struct rng *play)
{
    for (size_t i = c->n; i-- > 1;) {  /* README C6 shuffle, as rng_shuffle_int */
        size_t j = (size_t)rng_uniform(play, i + 1);
        struct wl_move t = c->v[i];
        c->v[i] = c->v[j];
        c->v[j] = t;
    }
}

int wl_resolve(struct warlight_board *b, struct wl_orders *const *orders, const int64_t *params,
               struct rng *play, struct wl_moves *ran, int *dropped)
{
    ran->n = 0;
    add_deployments(b, orders);
    if (collect(b, orders, ran, dropped) < 0)
        return -1;
    shuffle_moves(ran, play);
    for (size_t i = 0; i < ran->n; i++)
        run(b, &ran->v[i], params);
    return 0;
}
