/*
 * grabber.c - a warlight bot that takes neutral land and leaves other players alone.
 *
 * It deploys everything on the territory it owns with the most neutral neighbours, then
 * from every territory it owns sends to each neutral neighbour, weakest first, the fewest
 * armies that capture it under the default combat rules (60% and 70%, rounded), while it
 * has them. Protocol and modes: warlight_bot.h.
 */
#include "warlight_bot.h"

/* The fewest attackers that capture o defenders: kd >= o and n - ka >= 1. */
static long long needed(long long o)
{
    long long ka = (o * 70 + 50) / 100, n = ka + 1;
    while ((n * 60 + 50) / 100 < o)
        n++;
    return n;
}

static int neutral_neighbours(const struct state *s, const struct terr *a)
{
    int count = 0;
    for (int i = 0; i < 8; i++) {
        const struct terr *b = neighbour(s, a, i);
        count += b && b->owner == -1;
    }
    return count;
}

static const struct terr *deploy_target(const struct state *s)
{
    const struct terr *best = NULL;
    int best_count = -1;
    for (int i = 0; i < s->n; i++) {
        const struct terr *a = &s->t[i];
        if (a->owner != s->id)
            continue;
        int count = neutral_neighbours(s, a);
        if (count > best_count || (count == best_count && a->armies > best->armies)) {
            best = a;
            best_count = count;
        }
    }
    return best;
}

/* Commands from a, which holds `armies` after the deployment. */
static void grab_from(const struct state *s, const struct terr *a, long long armies, FILE *out)
{
    int taken[8] = {0};
    long long spare = armies - 1;
    for (;;) {
        int pick = -1;
        for (int i = 0; i < 8; i++) {
            const struct terr *b = neighbour(s, a, i);
            if (b && b->owner == -1 && !taken[i] &&
                (pick < 0 || b->armies < neighbour(s, a, pick)->armies))
                pick = i;
        }
        if (pick < 0)
            return;
        const struct terr *b = neighbour(s, a, pick);
        long long n = needed(b->armies);
        taken[pick] = 1;
        if (n > spare)
            return;
        fprintf(out, "%d,%d,%d,%d,%lld ", a->r, a->c, b->r, b->c, n);
        spare -= n;
    }
}

static void play(const struct state *s, FILE *out)
{
    const struct terr *home = deploy_target(s);
    fprintf(out, "%d,%d,%lld\n", home->r, home->c, s->income);
    for (int i = 0; i < s->n; i++) {
        const struct terr *a = &s->t[i];
        if (a->owner == s->id)
            grab_from(s, a, a->armies + (a == home ? s->income : 0), out);
    }
    fputc('\n', out);
}
