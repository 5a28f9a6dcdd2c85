/* walker.c - a bomberman bot that walks at random and never steps where a flame or lava will be
 * at the end of the step; it never places a bomb. Its choices come from a generator seeded with
 * its player number, so a match replays the same. */
#include "bomberman_bot.h"

static unsigned long long rng_state;

static unsigned next_random(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33);
}

/* How long (cell) stays free of flames: NEVER, or the step of the first one. */
static int safety(const struct state *s, int x, int y)
{
    return s->lava[y][x] > 1 ? 0 : s->explodes[y][x];
}

static const char *choose(const struct state *s)
{
    const struct player *me = &s->p[s->me];
    int best = -1, options[5], n = 0;
    for (int k = -1; k < 4; k++) { /* -1: stay */
        int x = me->x + (k < 0 ? 0 : dx[k]), y = me->y + (k < 0 ? 0 : dy[k]);
        if (k >= 0 && !walkable(s, x, y)) continue;
        if (deadly(s, x, y, 1)) continue;
        int v = safety(s, x, y);
        if (v > best) {
            best = v;
            n = 0;
        }
        if (v == best) options[n++] = k;
    }
    if (n == 0) return "WAIT";
    int k = options[next_random() % (unsigned)n];
    return k < 0 ? "WAIT" : dir_name[k];
}

int main(void)
{
    static struct state s;
    while (read_state(&s) == 0) {
        if (s.tick == 0) rng_state = 0x9e3779b97f4a7c15ull * (unsigned long long)s.me;
        find_danger(&s);
        say(choose(&s));
    }
    return 0;
}
