/* test_engine_game_params.c - the game registry, parameter helpers and violation names. */
#include <check.h>
#include <stdlib.h>

#include "engine/game.h"

START_TEST(registry_finds_generals)
{
    const struct game_rules *g = game_find("generals");
    ck_assert_ptr_nonnull(g);
    ck_assert_str_eq(g->name, "generals");
    ck_assert_ptr_null(game_find("chess"));
    size_t n;
    const struct game_rules *const *all = game_all(&n);
    ck_assert_uint_ge(n, 1);
    ck_assert_ptr_eq(all[0], g);
}
END_TEST

START_TEST(rounds_are_named_for_each_game)
{
    ck_assert_str_eq(game_rounds_word("generals", 1), "round");
    ck_assert_str_eq(game_rounds_word("generals", 2), "rounds");
    ck_assert_str_eq(game_rounds_word("seabattle", 1), "shot");
    ck_assert_str_eq(game_rounds_word("seabattle", 57), "shots");
    ck_assert_str_eq(game_rounds_word("no-such-game", 0), "rounds");
    ck_assert_str_eq(game_rounds_word(NULL, 1), "round");
}
END_TEST

START_TEST(generals_parameters_and_defaults)
{
    const struct game_rules *g = game_find("generals");
    int64_t v[GAME_MAX_PARAMS];
    game_params_defaults(g, v);
    const struct { const char *name; int64_t def; } expect[] = {
        {"turn_limit", 1000}, {"city_growth_period", 2}, {"city_growth_amount", 1},
        {"land_growth_period", 50}, {"land_growth_amount", 1}, {"capital_start_army", 1},
        {"vision_radius", 1}, {"budget_base_ms", 2000}, {"budget_per_move_ms", 1},
        {"move_wall_ms", 5000}, {"memory_limit_mb", 256}, {"max_line_bytes", 256},
    };
    ck_assert_uint_eq(g->n_params, sizeof expect / sizeof expect[0]);
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        ck_assert_int_eq(game_param_index(g, expect[i].name), (int)i);
        ck_assert_int_eq(game_param(g, v, expect[i].name), expect[i].def);
        ck_assert_int_eq(game_param(g, NULL, expect[i].name), expect[i].def);
    }
    ck_assert_int_eq(game_param_index(g, "nope"), -1);
    ck_assert_int_eq(game_param(g, v, "nope"), 0);
}
END_TEST

START_TEST(param_set_checks_the_constraints)
{
    const struct game_rules *g = game_find("generals");
    int64_t v[GAME_MAX_PARAMS];
    struct game_error err;
    game_params_defaults(g, v);
    ck_assert_int_eq(game_param_set(g, v, "turn_limit", 5, &err), 0);
    ck_assert_int_eq(game_param(g, v, "turn_limit"), 5);
    ck_assert_int_eq(game_param_set(g, v, "turn_limit", 0, &err), -1);
    ck_assert_str_eq(err.msg, "parameter turn_limit = 0 is out of range 1..100000");
    ck_assert_int_eq(game_param(g, v, "turn_limit"), 5);
    ck_assert_int_eq(game_param_set(g, v, "city_growth_period", 0, &err), -1);
    ck_assert_int_eq(game_param_set(g, v, "land_growth_amount", -1, &err), -1);
    ck_assert_int_eq(game_param_set(g, v, "vision_radius", -1, &err), -1);
    ck_assert_int_eq(game_param_set(g, v, "memory_limit_mb", 0, &err), -1);
    ck_assert_int_eq(game_param_set(g, v, "max_line_bytes", 15, &err), -1);
    ck_assert_int_eq(game_param_set(g, v, "budget_base_ms", 0, &err), 0);
    ck_assert_int_eq(game_param_set(g, v, "move_wall_ms", 0, &err), 0);
    ck_assert_int_eq(game_param_set(g, v, "fog", 1, &err), -1);
    ck_assert_str_eq(err.msg, "generals has no parameter 'fog'");
}
END_TEST

START_TEST(violation_names_round_trip)
{
    const char *names[] = {"none", "memory_limit", "forbidden_syscall", "time", "crash",
                           "invalid_output", "invalid_move"};
    for (int k = VIOLATION_NONE; k <= VIOLATION_INVALID_MOVE; k++) {
        enum violation_kind back;
        ck_assert_str_eq(violation_name((enum violation_kind)k), names[k]);
        ck_assert_int_eq(violation_parse(names[k], &back), 0);
        ck_assert_int_eq(back, k);
    }
    enum violation_kind back;
    ck_assert_int_eq(violation_parse("timeout", &back), -1);
    ck_assert_str_eq(violation_name((enum violation_kind)99), "unknown");
}
END_TEST

static Suite *params_suite(void)
{
    Suite *s = suite_create("game_params");
    TCase *t = tcase_create("params");
    tcase_add_test(t, registry_finds_generals);
    tcase_add_test(t, rounds_are_named_for_each_game);
    tcase_add_test(t, generals_parameters_and_defaults);
    tcase_add_test(t, param_set_checks_the_constraints);
    tcase_add_test(t, violation_names_round_trip);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(params_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
