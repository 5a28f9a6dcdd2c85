/*
 * warlight_bot.h - what the example warlight bots share: reading the state, running a turn.
 *
 * Per-turn mode (warlight.md §4): the judge starts the bot every turn as
 *     bot ID INCOME "r,c,bonus,owner,armies ..." "id,value,left ..." [X]
 * and reads two lines from its stdout: the deployment "r,c,a ..." and the commands
 * "sr,sc,dr,dc,a ..." (an empty second line means none).
 * Persistent mode (§9): the bot is started once a round with no argument and reads each
 * turn's state as one line on stdin, the same arguments joined by spaces; it answers with
 * the same two lines, flushed, and exits on "END".
 *
 * Rows, columns and ids are 0-based. The board wraps around; the bots take it to be square,
 * its side found from the bonus list (all territories = owned + the sum of "left").
 * A bot file defines `static void play(const struct state *s, FILE *out)` and includes this.
 */
#ifndef WARLIGHT_BOT_H
#define WARLIGHT_BOT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERR 2500
#define MAX_LINE (1 << 20)

struct terr { int r, c, bonus, owner; long long armies; };

struct state {
    int id, side;
    long long income;
    int n;                       /* territories listed: owned and their neighbours */
    struct terr t[MAX_TERR];
    int owned;
};

static void play(const struct state *s, FILE *out);

/* Territory (r, c) in the list, or NULL. */
static inline const struct terr *find(const struct state *s, int r, int c)
{
    for (int i = 0; i < s->n; i++)
        if (s->t[i].r == r && s->t[i].c == c)
            return &s->t[i];
    return NULL;
}

/* The i-th (0..7) neighbour of a, wrapping, if listed. */
static inline const struct terr *neighbour(const struct state *s, const struct terr *a, int i)
{
    static const int dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int side = s->side;
    return find(s, ((a->r + dr[i]) % side + side) % side, ((a->c + dc[i]) % side + side) % side);
}

/* The state from the words of one turn; 0 when they make no sense. */
static int parse_state(char *text, struct state *s)
{
    long long total = 0;
    char *save, *w = strtok_r(text, " \n", &save);
    memset(s, 0, sizeof *s);
    if (!w)
        return 0;
    s->id = atoi(w);
    if (!(w = strtok_r(NULL, " \n", &save)))
        return 0;
    s->income = atoll(w);
    while ((w = strtok_r(NULL, " \n", &save)) != NULL) {
        struct terr t;
        long long id, value, left;
        if (sscanf(w, "%d,%d,%d,%d,%lld", &t.r, &t.c, &t.bonus, &t.owner, &t.armies) == 5) {
            if (s->n < MAX_TERR)
                s->t[s->n++] = t;
            s->owned += t.owner == s->id;
        } else if (sscanf(w, "%lld,%lld,%lld", &id, &value, &left) == 3) {
            total += left;
        }
    }
    total += s->owned;
    while ((long long)s->side * s->side < total)
        s->side++;
    return s->n > 0 && s->side >= 3;
}

/* Per-turn mode: argv joined by spaces. Persistent mode: one line a turn until END. */
int main(int argc, char **argv)
{
    static struct state s;
    static char line[MAX_LINE];
    if (argc > 1) {
        size_t at = 0;
        for (int a = 1; a < argc && at + strlen(argv[a]) + 2 < sizeof line; a++)
            at += (size_t)sprintf(line + at, "%s ", argv[a]);
        if (parse_state(line, &s))
            play(&s, stdout);
        return 0;
    }
    while (fgets(line, sizeof line, stdin) && strncmp(line, "END", 3) != 0) {
        if (parse_state(line, &s))
            play(&s, stdout);
        else
            fputs("\n\n", stdout);
        fflush(stdout);
    }
    return 0;
}

#endif
