/* test_engine_generals_mapgen.c - the generals map generator (generals.md §4). */
#include "tests/unit/generals_fixture.h"

#include <stdio.h>

struct generated {
    struct game_map *gm;
    const struct generals_map *map;
    struct strbuf text, notes;
};

static int generate(struct generated *g, const struct game_option *opts, size_t n, uint64_t seed,
                    struct game_error *err)
{
    memset(g, 0, sizeof *g);
    if (generals_rules.map_generate(opts, n, seed, &g->gm, &g->notes, err) < 0)
        return -1;
    g->map = (const struct generals_map *)g->gm;
    ck_assert_int_eq(generals_rules.map_write(g->gm, &g->text), 0);
    return 0;
}

static void generate_ok(struct generated *g, const struct game_option *opts, size_t n,
                        uint64_t seed)
{
    struct game_error err;
    ck_assert_msg(generate(g, opts, n, seed, &err) == 0, "%s", err.msg);
}

static void generated_free(struct generated *g)
{
    if (g->gm)
        generals_rules.map_free(g->gm);
    sb_free(&g->text);
    sb_free(&g->notes);
}

static int count_type(const struct generals_map *map, int type)
{
    int n = 0;
    for (int c = 0; c < map->n * map->m; c++)
        n += map->type[c] == type;
    return n;
}

static int distance(const struct generals_map *map, int a, int b)
{
    return abs(a / map->m - b / map->m) + abs(a % map->m - b % map->m);
}

static int min_capital_distance(const struct generals_map *map)
{
    int best = 1000;
    for (int a = 0; a < map->n * map->m; a++)
        for (int b = a + 1; b < map->n * map->m; b++)
            if (map->type[a] == CELL_CAPITAL && map->type[b] == CELL_CAPITAL &&
                distance(map, a, b) < best)
                best = distance(map, a, b);
    return best;
}

/* Flood fill from one open cell: does it reach every non-mountain cell? */
static bool connected(const struct generals_map *map)
{
    int cells = map->n * map->m, open = 0, reached = 0, stack_len = 0;
    int *stack = malloc(sizeof(int) * (size_t)cells);
    char *seen = calloc((size_t)cells, 1);
    for (int c = 0; c < cells; c++) {
        if (map->type[c] == CELL_MOUNTAIN)
            continue;
        if (open++ == 0) {
            stack[stack_len++] = c;
            seen[c] = 1;
        }
    }
    while (stack_len) {
        int c = stack[--stack_len], i = c / map->m, j = c % map->m;
        reached++;
        const int nb[4][2] = {{i - 1, j}, {i + 1, j}, {i, j - 1}, {i, j + 1}};
        for (int d = 0; d < 4; d++) {
            int ni = nb[d][0], nj = nb[d][1], nc = ni * map->m + nj;
            if (ni >= 0 && nj >= 0 && ni < map->n && nj < map->m && !seen[nc] &&
                map->type[nc] != CELL_MOUNTAIN) {
                seen[nc] = 1;
                stack[stack_len++] = nc;
            }
        }
    }
    free(stack);
    free(seen);
    return reached == open;
}

/* Pinned outputs; an independent Python transcription of §4 gives the same maps. */
START_TEST(pinned_output_of_a_small_map)
{
    struct game_option opts[] = {{"rows", 4}, {"cols", 5}, {"players", 2}};
    struct generated g;
    generate_ok(&g, opts, 3, 42);
    ck_assert_str_eq(g.text.data, "4 5 2\n2 55\n1\n4\n3\n1\n2 51\n1\n1\n1\n1\n"
                                  "4\n4\n1\n4\n1\n1\n1\n3\n1\n1\n");
    ck_assert_uint_eq(g.notes.len, 0);
    generated_free(&g);
}
END_TEST

START_TEST(pinned_output_of_a_small_symmetric_map)
{
    struct game_option opts[] = {{"rows", 3}, {"cols", 4}, {"players", 2}, {"symmetric", 1}};
    struct generated g;
    generate_ok(&g, opts, 4, 7);
    ck_assert_str_eq(g.text.data, "3 4 2\n1\n1\n4\n3\n1\n1\n1\n1\n3\n4\n1\n1\n");
    generated_free(&g);
}
END_TEST

static uint64_t fnv1a(const char *text)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 0x100000001b3u;
    return h;
}

/* Large maps full of mountains, where most candidates are tried against the connectivity rule
 * (G1): digests of the maps the generator made when it flood-filled the whole board for every
 * candidate (commit 860f5b9), which its local search must give again. */
START_TEST(pinned_digests_of_large_maps_full_of_mountains)
{
    static const struct {
        struct game_option opts[5];
        size_t n;
        uint64_t seed, digest;
    } cases[] = {
        {{{"rows", 50}, {"cols", 50}, {"players", 2}, {"mountains", 45}}, 4, 7, 0xd1afd432aa0f673bu},
        {{{"rows", 40}, {"cols", 40}, {"players", 2}, {"symmetric", 1}, {"mountains", 35}},
         5, 3, 0x25e68fa6630e7349u},
        {{{"rows", 20}, {"cols", 30}, {"players", 4}, {"mountains", 60}}, 4, 11, 0xda5c78262c2e8672u},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct generated g;
        generate_ok(&g, cases[k].opts, cases[k].n, cases[k].seed);
        ck_assert_msg(fnv1a(g.text.data) == cases[k].digest, "case %zu: digest %#llx", k,
                      (unsigned long long)fnv1a(g.text.data));
        ck_assert(connected(g.map));
        generated_free(&g);
    }
}
END_TEST

START_TEST(same_seed_same_map_other_seed_other_map)
{
    struct game_option opts[] = {{"rows", 20}, {"cols", 25}, {"players", 3}};
    struct generated a, b, c;
    generate_ok(&a, opts, 3, 1234);
    generate_ok(&b, opts, 3, 1234);
    generate_ok(&c, opts, 3, 1235);
    ck_assert_str_eq(a.text.data, b.text.data);
    ck_assert_str_ne(a.text.data, c.text.data);
    generated_free(&a);
    generated_free(&b);
    generated_free(&c);
}
END_TEST

/* Every guarantee of §4 over a spread of sizes, player counts and seeds. */
START_TEST(guarantees_hold_for_many_maps)
{
    int rows = 2 + _i % 17, cols = 3 + (_i * 7) % 23, players = 2 + _i % 5;
    int mountains = (_i * 13) % 60;
    struct game_option opts[] = {{"rows", rows}, {"cols", cols}, {"players", players},
                                 {"mountains", mountains}, {"city_army_min", 10},
                                 {"city_army_max", 12}};
    struct generated g;
    generate_ok(&g, opts, 6, (uint64_t)_i * 7919);
    const struct generals_map *map = g.map;
    int cells = rows * cols, dist = (rows + cols) / (players + 1);
    int wanted_d = dist > 2 ? dist : 2, used_d = wanted_d;
    ck_assert_int_eq(map->k, players);
    ck_assert_int_eq(count_type(map, CELL_CAPITAL), players);
    ck_assert(connected(map));
    if (g.notes.len)
        ck_assert_int_eq(sscanf(g.notes.data, "min_capital_dist lowered to %d", &used_d), 1);
    ck_assert_int_le(used_d, wanted_d);
    ck_assert_int_ge(min_capital_distance(map), used_d);
    int want_cities = cells / 10 < cells - players ? cells / 10 : cells - players;
    ck_assert_int_eq(count_type(map, CELL_CITY), want_cities);
    for (int c = 0; c < cells; c++)
        if (map->type[c] == CELL_CITY)
            ck_assert(map->army[c] >= 10 && map->army[c] <= 12);
    ck_assert_int_le(count_type(map, CELL_MOUNTAIN), cells * mountains / 100);
    struct game_map *again;
    struct game_error err;
    ck_assert_int_eq(generals_map_parse(g.text.data, g.text.len, NULL, &again, &err), 0);
    generals_map_free(again);
    generated_free(&g);
}
END_TEST

START_TEST(symmetric_maps_look_the_same_after_a_half_turn)
{
    int rows = 3 + _i % 9, cols = 2 + (_i * 5) % 11;
    struct game_option opts[] = {{"rows", rows}, {"cols", cols}, {"players", 2},
                                 {"symmetric", 1}, {"mountains", 30}};
    struct generated g;
    generate_ok(&g, opts, 5, (uint64_t)_i);
    const struct generals_map *map = g.map;
    int cells = rows * cols;
    for (int c = 0; c < cells; c++) {
        ck_assert_int_eq(map->type[c], map->type[cells - 1 - c]);
        ck_assert_int_eq(map->army[c], map->army[cells - 1 - c]);
    }
    if (cells % 2)
        ck_assert_int_eq(map->type[cells / 2], CELL_EMPTY); /* its own mirror */
    ck_assert_int_eq(count_type(map, CELL_CAPITAL), 2);
    ck_assert_int_eq(count_type(map, CELL_CITY), 2 * (cells / 10 / 2));
    ck_assert_int_le(count_type(map, CELL_MOUNTAIN), cells * 30 / 100);
    ck_assert(connected(map));
    generated_free(&g);
}
END_TEST

START_TEST(lowering_min_capital_dist_is_noted)
{
    struct game_option opts[] = {{"rows", 3}, {"cols", 3}, {"players", 4},
                                 {"min_capital_dist", 5}};
    struct generated g;
    generate_ok(&g, opts, 4, 3);
    int used = 0;
    ck_assert_int_eq(sscanf(g.notes.data, "min_capital_dist lowered to %d", &used), 1);
    ck_assert_int_lt(used, 5);
    ck_assert_int_ge(min_capital_distance(g.map), used);
    char expect[64];
    snprintf(expect, sizeof expect, "min_capital_dist lowered to %d\n", used);
    ck_assert_str_eq(g.notes.data, expect);
    generated_free(&g);
}
END_TEST

START_TEST(no_mountains_and_no_cities_when_asked)
{
    struct game_option opts[] = {{"rows", 10}, {"cols", 10}, {"players", 2},
                                 {"mountains", 0}, {"cities", 0}};
    struct generated g;
    generate_ok(&g, opts, 5, 9);
    ck_assert_int_eq(count_type(g.map, CELL_MOUNTAIN), 0);
    ck_assert_int_eq(count_type(g.map, CELL_CITY), 0);
    ck_assert_int_eq(count_type(g.map, CELL_EMPTY), 98);
    generated_free(&g);
}
END_TEST

START_TEST(every_cell_a_capital)
{
    struct game_option opts[] = {{"rows", 2}, {"cols", 2}, {"players", 4}};
    struct generated g;
    generate_ok(&g, opts, 3, 0);
    ck_assert_str_eq(g.text.data, "2 2 4\n3\n3\n3\n3\n");
    generated_free(&g);
}
END_TEST

static void expect_option_error(const struct game_option *opts, size_t n, const char *msg)
{
    struct generated g;
    struct game_error err;
    ck_assert_int_eq(generate(&g, opts, n, 1, &err), -1);
    ck_assert_str_eq(err.msg, msg);
    generated_free(&g);
}

START_TEST(bad_options_are_clear_errors)
{
    const struct game_option unknown[] = {{"rows", 5}, {"cols", 5}, {"players", 2}, {"lakes", 1}};
    expect_option_error(unknown, 4,
                        "unknown generals map option 'lakes' (known: rows, cols, players, "
                        "mountains, cities, city_army_min, city_army_max, min_capital_dist, "
                        "symmetric)");
    const struct game_option missing[] = {{"cols", 5}, {"players", 2}};
    expect_option_error(missing, 2, "map option 'rows' is required");
    const struct game_option twice[] = {{"rows", 5}, {"rows", 6}, {"cols", 5}, {"players", 2}};
    expect_option_error(twice, 4, "map option 'rows' is given twice");
    const struct game_option big[] = {{"rows", 51}, {"cols", 5}, {"players", 2}};
    expect_option_error(big, 3, "map option rows = 51 is out of range 1..50");
    const struct game_option crowd[] = {{"rows", 1}, {"cols", 3}, {"players", 4}};
    expect_option_error(crowd, 3, "players = 4 is more than rows*cols = 3");
    const struct game_option armies[] = {{"rows", 5}, {"cols", 5}, {"players", 2},
                                         {"city_army_min", 9}, {"city_army_max", 8}};
    expect_option_error(armies, 5, "city_army_min = 9 is above city_army_max = 8");
    const struct game_option sym[] = {{"rows", 5}, {"cols", 5}, {"players", 3}, {"symmetric", 1}};
    expect_option_error(sym, 4, "symmetric = 1 needs players = 2, not 3");
    const struct game_option pct[] = {{"rows", 5}, {"cols", 5}, {"players", 2}, {"mountains", 101}};
    expect_option_error(pct, 4, "map option mountains = 101 is out of range 0..100");
}
END_TEST

static Suite *mapgen_suite(void)
{
    Suite *s = suite_create("generals_mapgen");
    TCase *t = tcase_create("mapgen");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, pinned_output_of_a_small_map);
    tcase_add_test(t, pinned_output_of_a_small_symmetric_map);
    tcase_add_test(t, pinned_digests_of_large_maps_full_of_mountains);
    tcase_add_test(t, same_seed_same_map_other_seed_other_map);
    tcase_add_loop_test(t, guarantees_hold_for_many_maps, 0, 60);
    tcase_add_loop_test(t, symmetric_maps_look_the_same_after_a_half_turn, 0, 30);
    tcase_add_test(t, lowering_min_capital_dist_is_noted);
    tcase_add_test(t, no_mountains_and_no_cities_when_asked);
    tcase_add_test(t, every_cell_a_capital);
    tcase_add_test(t, bad_options_are_clear_errors);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(mapgen_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
