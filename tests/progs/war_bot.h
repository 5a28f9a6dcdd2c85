/*
 * war_bot.h - what the rule-breaking warlight test bots (tests/progs/war_*.c)
 * share: reading a turn, either from argv (a process per turn, warlight.md §4)
 * or as one line on stdin (persistent mode, §9: no argument, "END" ends it),
 * and a valid reply: the whole income on the first territory it owns, no
 * commands. A bot defines `static void play(const struct war_turn *t)`, which
 * prints (or misbehaves), and calls war_main. WAR_FIXED_ARGS words of the
 * command come before the judge's arguments (a bot's own settings).
 */
#ifndef WAR_BOT_H
#define WAR_BOT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WAR_FIXED_ARGS
#define WAR_FIXED_ARGS 0
#endif

struct war_turn {
    int id;
    long long income;
    int r, c;          /* the first territory it owns */
    bool first;        /* turn 1 of a round ("X") */
    char **fixed;      /* the WAR_FIXED_ARGS settings */
};

static void play(const struct war_turn *t);

/* The turn from the judge's words joined by spaces; 0 when they make no sense. */
static inline int war_parse(char *text, struct war_turn *t)
{
    char *save, *w = strtok_r(text, " \n", &save);
    if (!w)
        return 0;
    t->id = atoi(w);
    if (!(w = strtok_r(NULL, " \n", &save)))
        return 0;
    t->income = atoll(w);
    t->r = t->c = -1;
    t->first = false;
    while ((w = strtok_r(NULL, " \n", &save)) != NULL) {
        int r, c, bonus, owner;
        long long armies;
        if (sscanf(w, "%d,%d,%d,%d,%lld", &r, &c, &bonus, &owner, &armies) == 5 && owner == t->id &&
            t->r < 0) {
            t->r = r;
            t->c = c;
        }
        t->first = t->first || strcmp(w, "X") == 0;
    }
    return t->r >= 0;
}

static inline void war_valid_reply(const struct war_turn *t)
{
    printf("%d,%d,%lld\n\n", t->r, t->c, t->income);
    fflush(stdout);
}

static inline int war_main(int argc, char **argv)
{
    struct war_turn t;
    t.fixed = argv + 1;
    if (argc > 1 + WAR_FIXED_ARGS) {   /* a process per turn: the state is in argv */
        size_t len = 1;
        for (int i = 1 + WAR_FIXED_ARGS; i < argc; i++)
            len += strlen(argv[i]) + 1;
        char *text = calloc(len, 1);
        for (int i = 1 + WAR_FIXED_ARGS; text && i < argc; i++)
            strcat(strcat(text, argv[i]), " ");
        if (!text || !war_parse(text, &t))
            return 2;
        play(&t);
        free(text);
        return 0;
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0 && strcmp(line, "END\n") != 0)
        if (war_parse(line, &t))
            play(&t);
    free(line);
    return 0;
}

#endif
