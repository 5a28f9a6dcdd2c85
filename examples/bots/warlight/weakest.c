/*
 * weakest.c - a warlight bot that attacks its weakest neighbour.
 *
 * Of every territory next to its own that it does not own (neutral or enemy), it picks the
 * one with the fewest armies, deploys everything on its strongest territory next to it and
 * attacks from there with all but one army. With no such territory it deploys on its
 * strongest and waits. Protocol and modes: warlight_bot.h.
 */
#include "warlight_bot.h"

static void play(const struct state *s, FILE *out)
{
    const struct terr *target = NULL, *from = NULL;
    for (int i = 0; i < s->n; i++) {
        const struct terr *a = &s->t[i];
        if (a->owner != s->id)
            continue;
        for (int d = 0; d < 8; d++) {
            const struct terr *b = neighbour(s, a, d);
            if (!b || b->owner == s->id)
                continue;
            if (!target || b->armies < target->armies ||
                (b == target && a->armies > from->armies)) {
                target = b;
                from = a;
            }
        }
        if (!from || (!target && a->armies > from->armies))
            from = a;
    }
    fprintf(out, "%d,%d,%lld\n", from->r, from->c, s->income);
    if (target)
        fprintf(out, "%d,%d,%d,%d,%lld", from->r, from->c, target->r, target->c,
                from->armies + s->income - 1);
    fputc('\n', out);
}
