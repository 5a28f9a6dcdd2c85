/* test_engine_generals_events.c - the replay events of generals.c: growth states its rule
 * (G13) instead of its cells, and the events alone rebuild every board. */
#include "tests/unit/generals_fixture.h"

#include <inttypes.h>

/* ---- growth events ---------------------------------------------------------- */

static void pass_round(struct fixture *f)
{
    fx_reply(f, 1, "-1");
    fx_reply(f, 2, "-1");
}

/* The growth event of the last round passed by both players, or "" if it had none. */
static const char *growth_of_round(struct fixture *f)
{
    pass_round(f);
    const char *ev = fx_events(f), *growth = strstr(ev, "{\"t\":\"growth\"");
    return growth ? growth : "";
}

START_TEST(growth_event_states_the_amounts_of_the_round)
{
    /* cap P1, empty, cap P2: city growth 2 every 2nd round, land growth 5 every 3rd. */
    struct fixture f;
    fx_init(&f);
    f.params[GP_CITY_GROWTH_AMOUNT] = 2;
    f.params[GP_LAND_GROWTH_PERIOD] = 3;
    f.params[GP_LAND_GROWTH_AMOUNT] = 5;
    f.params[GP_CAPITAL_START_ARMY] = 3;
    fx_start(&f, "1 3 2\n3\n1\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2"); /* (1,1) 1, (1,2) 2 */
    fx_reply(&f, 2, "-1");
    ck_assert_ptr_null(strstr(fx_events(&f), "growth")); /* round 1 */
    ck_assert_str_eq(growth_of_round(&f), "{\"t\":\"growth\",\"round\":2,\"cities\":2,\"land\":0}\n");
    ck_assert_str_eq(growth_of_round(&f), "{\"t\":\"growth\",\"round\":3,\"cities\":0,\"land\":5}\n");
    ck_assert_str_eq(growth_of_round(&f), "{\"t\":\"growth\",\"round\":4,\"cities\":2,\"land\":0}\n");
    ck_assert_str_eq(growth_of_round(&f), "");
    pass_round(&f); /* round 6: both periods divide it */
    fx_reply(&f, 1, "1 1 2 1 1");
    ck_assert_str_eq(fx_events(&f),
                     "{\"t\":\"pass\",\"round\":6,\"player\":1}\n"
                     "{\"t\":\"pass\",\"round\":6,\"player\":2}\n"
                     "{\"t\":\"growth\",\"round\":6,\"cities\":2,\"land\":5}\n"
                     /* the grown cells are not left over for the next event to list */
                     "{\"t\":\"move\",\"round\":7,\"player\":1,\"move\":[1,1,2,1,1],"
                     "\"cells\":[[1,2,1,1,1],[1,1,3,1,18]]}\n");
    ck_cell(&f, 1, 3, CELL_CAPITAL, 2, 9); /* 3 + 3 x 2 */
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 18); /* 1 + 3 x 2 + 11 from (1,2) */
    fx_free(&f);
}
END_TEST

START_TEST(no_growth_event_when_no_owned_cell_grows)
{
    /* Only capitals are owned, and every living player owns one (G15), so a city round
     * always grows something; a land round grows nothing until a player owns an empty
     * cell, and an amount 0 grows nothing at all. */
    struct fixture f;
    struct strbuf log = STRBUF_INIT;
    fx_init(&f);
    f.params[GP_CITY_GROWTH_PERIOD] = 3;
    f.params[GP_LAND_GROWTH_PERIOD] = 2;
    fx_start(&f, "1 3 2\n3\n1\n3\n");
    pass_round(&f);
    ck_assert_str_eq(growth_of_round(&f), ""); /* round 2: land only, no empty cell owned */
    ck_assert_str_eq(growth_of_round(&f), "{\"t\":\"growth\",\"round\":3,\"cities\":1,\"land\":0}\n");
    pass_round(&f);
    pass_round(&f);
    ck_assert_str_eq(growth_of_round(&f), "{\"t\":\"growth\",\"round\":6,\"cities\":1,\"land\":0}\n");
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 3);
    fx_free(&f);

    fx_init(&f);
    f.params[GP_CITY_GROWTH_AMOUNT] = 0;
    f.params[GP_LAND_GROWTH_PERIOD] = 2;
    f.params[GP_LAND_GROWTH_AMOUNT] = 0;
    f.params[GP_CAPITAL_START_ARMY] = 3;
    fx_start(&f, "1 3 2\n3\n1\n3\n");
    generals_rules.set_log(f.g, &log);
    fx_reply(&f, 1, "1 1 1 1 2");
    fx_reply(&f, 2, "-1");
    sb_reset(&log);
    ck_assert_str_eq(growth_of_round(&f), ""); /* round 2: amounts 0 */
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 2);
    ck_assert_str_eq(log.data, "1\n3 2\n3 1\n1 3 1 1\n1 1 1 2\n1 3 2 3\n"); /* §10: a frame */
    sb_free(&log);
    fx_free(&f);
}
END_TEST

/* ---- a viewer that knows only the map and the events ---------------------------- */

struct viewer {
    int m;
    size_t cells;
    uint8_t type[64], owner[64];
    int64_t units[64];
};

static void viewer_init(struct viewer *v, const struct generals_map *map)
{
    v->m = map->m;
    v->cells = (size_t)map->n * (size_t)map->m;
    ck_assert_uint_le(v->cells, 64);
    for (size_t c = 0; c < v->cells; c++) {
        v->type[c] = map->type[c];
        v->owner[c] = 0;
        v->units[c] = map->type[c] == CELL_CITY ? map->army[c] : 0;
    }
}

/* Applies "cells":[[i,j,type,owner,units],...] at s; returns the end of the list. */
static const char *viewer_cells(struct viewer *v, const char *s)
{
    ck_assert_int_eq(*s, '[');
    if (s[1] == ']')
        return s + 2;
    while (*s == '[' || *s == ',') { /* s + 1 is the next cell */
        int i, j, t, o, len;
        int64_t u;
        ck_assert_int_eq(sscanf(s + 1, "[%d,%d,%d,%d,%" SCNd64 "]%n", &i, &j, &t, &o, &u, &len), 5);
        size_t c = (size_t)(i - 1) * (size_t)v->m + (size_t)(j - 1);
        ck_assert_uint_lt(c, v->cells);
        v->type[c] = (uint8_t)t;
        v->owner[c] = (uint8_t)o;
        v->units[c] = u;
        s += 1 + len;
    }
    ck_assert_int_eq(*s, ']');
    return s + 1;
}

/* G13 as the event states it. */
static void viewer_grow(struct viewer *v, const char *event)
{
    int64_t cities, land;
    const char *at = strstr(event, "\"cities\":");
    ck_assert_ptr_nonnull(at);
    ck_assert_int_eq(sscanf(at, "\"cities\":%" SCNd64 ",\"land\":%" SCNd64 "}", &cities, &land), 2);
    ck_assert(cities > 0 || land > 0);
    for (size_t c = 0; c < v->cells; c++)
        if (v->owner[c])
            v->units[c] += v->type[c] == CELL_EMPTY ? land : cities;
}

static void viewer_apply(struct viewer *v, const char *jsonl)
{
    for (const char *line = jsonl; *line;) {
        const char *end = strchr(line, '\n'), *cells = strstr(line, "\"cells\":");
        ck_assert_ptr_nonnull(end);
        if (!strncmp(line, "{\"t\":\"growth\"", 13)) {
            ck_assert(!cells || cells > end); /* no cell list */
            viewer_grow(v, line);
        } else if (cells && cells < end) {
            ck_assert_int_eq(*viewer_cells(v, cells + 8), '}');
        }
        line = end + 1;
    }
}

static void viewer_check(const struct viewer *v, const struct generals_board *b)
{
    for (size_t c = 0; c < v->cells; c++)
        ck_assert_msg(v->type[c] == b->type[c] && v->owner[c] == b->owner[c] &&
                          v->units[c] == b->units[c],
                      "cell %zu: viewer %d %d %lld, engine %d %d %lld", c, v->type[c],
                      v->owner[c], (long long)v->units[c], b->type[c], b->owner[c],
                      (long long)b->units[c]);
}

START_TEST(events_alone_rebuild_every_board)
{
    struct rng r = rng_stream((uint64_t)_i, "test/events-rebuild");
    struct game_option opts[] = {{"rows", 5 + _i % 3}, {"cols", 6}, {"players", 2 + _i % 2},
                                 {"cities", 5}, {"city_army_min", 0}, {"city_army_max", 3}};
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 10;
    f.params[GP_TURN_LIMIT] = 120;
    f.params[GP_CITY_GROWTH_AMOUNT] = 1 + _i % 3;
    f.params[GP_LAND_GROWTH_PERIOD] = 3 + _i % 4;
    f.params[GP_LAND_GROWTH_AMOUNT] = _i % 2 ? 2 : 1;
    fx_start_generated(&f, opts, 6, (uint64_t)_i);
    struct viewer v;
    viewer_init(&v, (const struct generals_map *)f.map);
    viewer_apply(&v, fx_events(&f));
    viewer_check(&v, fx_board(&f));
    int growths = 0;
    while (!generals_rules.over(f.g)) {
        char line[64];
        fx_random_reply(fx_board(&f), fx_pending(&f), &r, line, sizeof line);
        fx_reply(&f, fx_pending(&f), line);
        const char *ev = fx_events(&f);
        growths += strstr(ev, "{\"t\":\"growth\"") != NULL;
        viewer_apply(&v, ev);
        viewer_check(&v, fx_board(&f));
    }
    ck_assert_int_gt(growths, 5);
    fx_free(&f);
}
END_TEST

static Suite *events_suite(void)
{
    Suite *s = suite_create("generals_events");
    TCase *growth = tcase_create("growth");
    tcase_add_test(growth, growth_event_states_the_amounts_of_the_round);
    tcase_add_test(growth, no_growth_event_when_no_owned_cell_grows);
    suite_add_tcase(s, growth);
    TCase *rebuild = tcase_create("rebuild");
    tcase_add_loop_test(rebuild, events_alone_rebuild_every_board, 0, 12);
    suite_add_tcase(s, rebuild);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(events_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
