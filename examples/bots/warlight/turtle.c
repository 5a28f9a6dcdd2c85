/*
 * turtle.c - a warlight bot that puts all its armies on one territory (its strongest) and
 * never attacks. Protocol and modes: warlight_bot.h.
 */
#include "warlight_bot.h"

static void play(const struct state *s, FILE *out)
{
    const struct terr *best = NULL;
    for (int i = 0; i < s->n; i++)
        if (s->t[i].owner == s->id && (!best || s->t[i].armies > best->armies))
            best = &s->t[i];
    if (best)
        fprintf(out, "%d,%d,%lld\n\n", best->r, best->c, s->income);
    else
        fputs("\n\n", out);
}
