/* seabattle_fixture.h - shared set-up for the sea battle unit tests: boards, a game, replies. */
#ifndef TESTS_SEABATTLE_FIXTURE_H
#define TESTS_SEABATTLE_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "engine/seabattle.h"

/* The two boards of the source's example game (seabattle.md §7), one string of 10 lines. */
#define SPEC_BOARD_1                                                                           \
    "____###___\n_________#\n__#___#__#\n__#_______\n__#______#\n"                             \
    "#_#__###__\n__________\n_#_##_#___\n_#________\n__________\n"
#define SPEC_BOARD_2                                                                           \
    "#________#\n___#______\n___#______\n#__#___#__\n#______#__\n"                             \
    "#_#______#\n#_#______#\n_____##__#\n__________\n#________#\n"
/* The valid board of seabattle.md §3. */
#define README_BOARD                                                                           \
    "####______\n__________\n###_###___\n__________\n##_##_##__\n"                             \
    "__________\n#_#_#_#___\n__________\n__________\n__________\n"

struct sea_fixture {
    int64_t params[SP_COUNT];
    struct game_map *map;
    struct game *g;
    struct strbuf text;   /* the last outbox or events read */
};

static inline void sfx_init(struct sea_fixture *f)
{
    memset(f, 0, sizeof *f);
    game_params_defaults(&seabattle_rules, f->params);
}

static inline void sfx_start(struct sea_fixture *f)
{
    struct game_error err;
    const struct game_option players = {"players", 2};
    struct strbuf notes = STRBUF_INIT;
    ck_assert(seabattle_rules.map_generate(&players, 1, 0, &f->map, &notes, &err) == 0);
    sb_free(&notes);
    struct game_setup setup = {f->map, f->params, 1, 2};
    ck_assert_msg(seabattle_rules.create(&setup, &f->g, &err) == 0, "create: %s", err.msg);
}

static inline void sfx_free(struct sea_fixture *f)
{
    if (f->g)
        seabattle_rules.destroy(f->g);
    if (f->map)
        seabattle_rules.map_free(f->map);
    sb_free(&f->text);
}

/* Bit p - 1 set for every pending player p. */
static inline int sfx_pending(const struct sea_fixture *f)
{
    int p[GAME_MAX_PLAYERS], mask = 0;
    int n = seabattle_rules.pending(f->g, p, GAME_MAX_PLAYERS);
    for (int i = 0; i < n; i++)
        mask |= 1 << (p[i] - 1);
    return mask;
}

/* Splits text at '\n' into at most max lines (the '\n' removed), in buf. */
static inline int sfx_split(const char *text, char *buf, size_t size, const char **lines, int max)
{
    snprintf(buf, size, "%s", text);
    int n = 0;
    for (char *s = buf; *s && n < max;) {
        lines[n++] = s;
        char *nl = strchr(s, '\n');
        if (!nl)
            break;
        *nl = '\0';
        s = nl + 1;
    }
    return n;
}

/* Player p's board, 10 lines in one string; returns the verdict, with its reason in why. */
static inline enum violation_kind sfx_board_why(struct sea_fixture *f, int p, const char *board, char *why,
                                               size_t size)
{
    char buf[2048];
    const char *lines[SEA_SIDE];
    ck_assert_int_eq(sfx_split(board, buf, sizeof buf, lines, SEA_SIDE), SEA_SIDE);
    ck_assert_int_eq(seabattle_rules.reply_lines(f->g, p), SEA_SIDE);
    struct game_verdict v;
    ck_assert_int_eq(seabattle_rules.submit(f->g, p, lines, SEA_SIDE, &v), 0);
    if (why)
        snprintf(why, size, "%s", v.reason);
    return v.kind;
}

static inline enum violation_kind sfx_board(struct sea_fixture *f, int p, const char *board)
{
    return sfx_board_why(f, p, board, NULL, 0);
}

/* One shot line of the pending shooter p. */
static inline enum violation_kind sfx_shot(struct sea_fixture *f, int p, const char *line)
{
    ck_assert_int_eq(sfx_pending(f), 1 << (p - 1));
    ck_assert_int_eq(seabattle_rules.reply_lines(f->g, p), 1);
    struct game_verdict v;
    const char *lines[1] = {line};
    ck_assert_int_eq(seabattle_rules.submit(f->g, p, lines, 1, &v), 0);
    return v.kind;
}

static inline const char *sfx_outbox(struct sea_fixture *f, int p)
{
    sb_reset(&f->text);
    ck_assert_int_eq(seabattle_rules.outbox(f->g, p, &f->text), 0);
    return f->text.data ? f->text.data : "";
}

static inline const char *sfx_events(struct sea_fixture *f)
{
    sb_reset(&f->text);
    ck_assert_int_eq(seabattle_rules.take_events(f->g, &f->text), 0);
    return f->text.data ? f->text.data : "";
}

/* A shot of player p that must be valid and give result to p alone ("miss", "hit", "sunk"). */
#define ck_shot(f, p, line, result)                                                            \
    do {                                                                                       \
        ck_assert_int_eq(sfx_shot(f, p, line), VIOLATION_NONE);                                \
        ck_assert_str_eq(sfx_outbox(f, 3 - (p)), "");                                          \
        ck_assert_str_eq(sfx_outbox(f, p), result "\n");                                       \
    } while (0)

/* A fresh board checker run over a 10-line string: the first rule broken, msg in err. */
static inline enum sea_rule sfx_check(const char *board, const struct sea_fleet *fleet,
                                      struct sea_board_error *err)
{
    static struct sea_board b;
    char buf[2048];
    const char *lines[SEA_SIDE + 1];
    int n = sfx_split(board, buf, sizeof buf, lines, SEA_SIDE + 1);
    struct sea_fleet def = sea_fleet_of(NULL);
    sea_board_init(&b);
    for (int i = 0; i < n; i++)
        if (sea_board_add_line(&b, lines[i], strlen(lines[i]), 64, err) < 0)
            return err->rule;
    if (sea_board_finish(&b, fleet ? fleet : &def, err) < 0)
        return err->rule;
    return SEA_RULE_NONE;
}

#endif
