/* breaker.c - a bomberman bot that breaks blocks and collects the bonuses they hide: it walks to
 * the nearest visible bonus or the nearest cell next to a block, bombs there when it can get
 * out of the blast, and runs for a calm cell whenever a flame threatens it. */
#include "bomberman_bot.h"

static int next_to_block(const struct state *s, int x, int y)
{
    for (int k = 0; k < 4; k++)
        if (s->map[y + dy[k]][x + dx[k]] == '+') return 1;
    return 0;
}

static int is_target(const struct state *s, void *ctx, int x, int y)
{
    (void)ctx;
    return calm(s, x, y) && (s->bonus[y][x] || next_to_block(s, x, y));
}

/* With a bomb of ours on our cell, placed this step: can we reach a calm cell in time? */
static int can_escape(struct state *s)
{
    const struct player *me = &s->p[s->me];
    if (s->n_bombs >= SIDE * SIDE) return 0;
    struct bomb *b = &s->bomb[s->n_bombs++];
    *b = (struct bomb){me->x, me->y, s->me, me->radius, (int)(s->bomb_live_time > 0 ? s->bomb_live_time : 5)};
    find_danger(s);
    int way = walk_to(s, me->x, me->y, 1, is_calm, NULL);
    s->n_bombs--;
    find_danger(s);
    return way >= 0;
}

static const char *choose(struct state *s)
{
    const struct player *me = &s->p[s->me];
    find_danger(s);
    if (!calm(s, me->x, me->y)) {
        int way = walk_to(s, me->x, me->y, 0, is_calm, NULL);
        return way >= 0 ? dir_name[way] : "WAIT";
    }
    if (me->bombs_left > 0 && next_to_block(s, me->x, me->y) && can_escape(s)) return "BOMB";
    int way = walk_to(s, me->x, me->y, 0, is_target, NULL);
    return way >= 0 ? dir_name[way] : "WAIT";
}

int main(void)
{
    static struct state s;
    while (read_state(&s) == 0) say(choose(&s));
    return 0;
}
