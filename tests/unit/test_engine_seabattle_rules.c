/* test_engine_seabattle_rules.c - the course of a game: S4..S10, §6 violations, D12..D14, results. */
#include "tests/unit/seabattle_fixture.h"

/* A one-ship fleet of length 2, and boards for it. */
#define ONE_SHIP_A                                                                             \
    "##________\n__________\n__________\n__________\n__________\n"                             \
    "__________\n__________\n__________\n__________\n__________\n"
#define ONE_SHIP_B                                                                             \
    "__________\n__________\n__________\n__________\n__________\n"                             \
    "__________\n__________\n__________\n_________#\n_________#\n"

static void start_small(struct sea_fixture *f)
{
    sfx_init(f);
    f->params[SP_SHIPS_1] = f->params[SP_SHIPS_3] = f->params[SP_SHIPS_4] = 0;
    f->params[SP_SHIPS_2] = 1;
    sfx_start(f);
}

static void start_small_battle(struct sea_fixture *f)
{
    start_small(f);
    ck_assert_int_eq(sfx_board(f, 1, ONE_SHIP_A), VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(f, 2, ONE_SHIP_B), VIOLATION_NONE);
    sfx_events(f);
}

static struct game_result result_of(const struct sea_fixture *f)
{
    struct game_result r;
    ck_assert(seabattle_rules.over(f->g));
    ck_assert_int_eq(seabattle_rules.result(f->g, &r), 0);
    return r;
}

/* ---- parameters (§1, D14) ------------------------------------------------------------------ */

START_TEST(params_defaults_of_section_1)
{
    static const struct { const char *name; int64_t def; } want[] = {
        {"ships_1", 4}, {"ships_2", 3}, {"ships_3", 2}, {"ships_4", 1}, {"shot_limit", 400},
        {"board_wall_ms", 5000}, {"budget_base_ms", 2000}, {"budget_per_move_ms", 1},
        {"move_wall_ms", 5000}, {"memory_limit_mb", 256}, {"max_line_bytes", 64},
    };
    ck_assert_uint_eq(seabattle_rules.n_params, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ck_assert_str_eq(seabattle_params[i].name, want[i].name);
        ck_assert_int_eq(seabattle_params[i].def, want[i].def);
    }
    ck_assert_ptr_eq(game_find("seabattle"), &seabattle_rules);
    ck_assert_int_eq(seabattle_rules.time_model, TIME_CPU_BUDGET);
}
END_TEST

START_TEST(d14_parameter_ranges)
{
    int64_t v[SP_COUNT];
    struct game_error err;
    game_params_defaults(&seabattle_rules, v);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "ships_3", -1, &err), -1);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "ships_3", 0, &err), 0);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "shot_limit", 0, &err), -1);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "shot_limit", 1, &err), 0);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "board_wall_ms", -1, &err), -1);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "board_wall_ms", 0, &err), 0);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "move_wall_ms", 0, &err), 0);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "budget_base_ms", 0, &err), 0);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "max_line_bytes", 9, &err), -1);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "max_line_bytes", 10, &err), 0);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "memory_limit_mb", 0, &err), -1);
    ck_assert_int_eq(game_param_set(&seabattle_rules, v, "turn_limit", 5, &err), -1);
}
END_TEST

START_TEST(d14_fleet_not_empty)
{
    struct sea_fixture f;
    struct game_error err;
    sfx_init(&f);
    for (int x = SP_SHIPS_1; x <= SP_SHIPS_4; x++)
        f.params[x] = 0;
    struct game_setup setup = {NULL, f.params, 1, 2};
    ck_assert_int_eq(seabattle_rules.create(&setup, &f.g, &err), -1);
    ck_assert_str_eq(err.msg, "the fleet has no ship: ships_1..ships_4 are all 0 (D14)");
    f.params[SP_SHIPS_1] = 1;
    setup.players = 3;
    ck_assert_int_eq(seabattle_rules.create(&setup, &f.g, &err), -1);
    ck_assert_str_eq(err.msg, "sea battle is played by 2 players, not 3");
}
END_TEST

/* ---- the map: there is none ------------------------------------------------------------------- */

START_TEST(no_map)
{
    struct game_map *m;
    struct game_error err;
    struct strbuf text = STRBUF_INIT, notes = STRBUF_INIT;
    ck_assert_int_eq(seabattle_rules.map_parse("", 0, NULL, &m, &err), 0);
    ck_assert_int_eq(seabattle_rules.map_players(m), 2);
    ck_assert_int_eq(seabattle_rules.map_write(m, &text), 0);
    ck_assert_uint_eq(text.len, 0);
    seabattle_rules.map_free(m);
    ck_assert_int_eq(seabattle_rules.map_parse("x", 1, NULL, &m, &err), -1);
    ck_assert(err.line == 1 && err.col == 1);
    const struct game_option three = {"players", 3}, rows = {"rows", 10};
    ck_assert_int_eq(seabattle_rules.map_generate(&three, 1, 0, &m, &notes, &err), -1);
    ck_assert_str_eq(err.msg, "sea battle is played by 2 players, not 3");
    ck_assert_int_eq(seabattle_rules.map_generate(&rows, 1, 0, &m, &notes, &err), -1);
    ck_assert_int_eq(seabattle_rules.map_generate(NULL, 0, 0, &m, &notes, &err), 0);
    seabattle_rules.map_free(m);
    sb_free(&text);
    sb_free(&notes);
}
END_TEST

/* ---- S4: the boards ------------------------------------------------------------------------------ */

START_TEST(s4_both_valid_player_1_shoots_first)
{
    struct sea_fixture f;
    start_small_battle(&f);
    ck_assert_int_eq(sfx_pending(&f), 1);
    ck_assert_int_eq(seabattle_rules.round(f.g), 1);
    sfx_free(&f);
}
END_TEST

START_TEST(s4_one_invalid_loses)
{
    struct sea_fixture f;
    char why[160];
    start_small(&f);
    ck_assert_int_eq(sfx_board_why(&f, 1, ONE_SHIP_A, why, sizeof why), VIOLATION_NONE);
    sfx_events(&f);
    ck_assert_int_eq(sfx_board_why(&f, 2, README_BOARD, why, sizeof why), VIOLATION_INVALID_MOVE);
    ck_assert_str_eq(why, "the ship at x=1..4 y=1 is one of length 4 too many; the fleet has 0 (S3c)");
    struct game_result r = result_of(&f);
    ck_assert(r.winner == 1 && !r.draw && r.rounds == 0);
    ck_assert(r.p[1].place == 1 && r.p[1].points == 1 && r.p[1].alive);
    ck_assert(r.p[2].place == 2 && r.p[2].points == 0 && !r.p[2].alive);
    ck_assert_int_eq(r.p[2].violation, VIOLATION_INVALID_MOVE);
    ck_assert_str_eq(sfx_outbox(&f, 1), "");
    ck_assert_str_eq(sfx_events(&f),
                     "{\"t\":\"board_invalid\",\"round\":0,\"player\":2,\"by\":\"invalid_move\",\"rule\":\"S3c\"}\n"
                     "{\"t\":\"end\",\"round\":0,\"reason\":\"boards\",\"winner\":1}\n");
    sfx_free(&f);
}
END_TEST

START_TEST(s4_both_invalid_draw)
{
    struct sea_fixture f;
    sfx_init(&f);
    sfx_start(&f);
    ck_assert_int_eq(sfx_board(&f, 1, ONE_SHIP_A), VIOLATION_INVALID_MOVE);
    ck_assert(!seabattle_rules.over(f.g));   /* waits for the other board */
    ck_assert_int_eq(sfx_pending(&f), 2);
    ck_assert_int_eq(sfx_board(&f, 2, "x\n" ONE_SHIP_A), VIOLATION_INVALID_OUTPUT);
    struct game_result r = result_of(&f);
    ck_assert(r.winner == 0 && r.draw);
    ck_assert(r.p[1].place == 1 && r.p[2].place == 1 && r.p[1].points == 0 && r.p[2].points == 0);
    ck_assert_int_eq(r.p[2].violation, VIOLATION_INVALID_OUTPUT);
    sfx_free(&f);
}
END_TEST

START_TEST(s4_violation_while_sending_the_board)
{
    static const enum violation_kind kinds[] = {VIOLATION_MEMORY, VIOLATION_SYSCALL, VIOLATION_TIME,
                                                VIOLATION_CRASH, VIOLATION_INVALID_OUTPUT};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        struct sea_fixture f;
        sfx_init(&f);
        sfx_start(&f);
        ck_assert_int_eq(seabattle_rules.violation(f.g, 1, kinds[i]), 0);
        ck_assert_int_eq(sfx_pending(&f), 2);
        ck_assert_int_eq(sfx_board(&f, 2, README_BOARD), VIOLATION_NONE);
        struct game_result r = result_of(&f);
        ck_assert(r.winner == 2 && r.p[1].violation == kinds[i] && !r.p[1].alive);
        sfx_free(&f);
    }
}
END_TEST

START_TEST(s4_board_event_names_the_violation)
{
    struct sea_fixture f;
    sfx_init(&f);
    sfx_start(&f);
    ck_assert_int_eq(seabattle_rules.violation(f.g, 2, VIOLATION_TIME), 0);
    ck_assert_int_eq(seabattle_rules.violation(f.g, 1, VIOLATION_CRASH), 0);
    ck_assert_str_eq(sfx_events(&f),
                     "{\"t\":\"board_invalid\",\"round\":0,\"player\":2,\"by\":\"time\"}\n"
                     "{\"t\":\"board_invalid\",\"round\":0,\"player\":1,\"by\":\"crash\"}\n"
                     "{\"t\":\"end\",\"round\":0,\"reason\":\"boards\",\"winner\":0}\n");
    sfx_free(&f);
}
END_TEST

/* ---- S5..S8 ---------------------------------------------------------------------------------------- */

START_TEST(s5_s7_hit_shoots_again_miss_passes)
{
    struct sea_fixture f;
    start_small_battle(&f);
    ck_shot(&f, 1, "10 9", "hit");
    ck_assert_int_eq(sfx_pending(&f), 1);    /* S7: again */
    ck_shot(&f, 1, "10 9", "miss");          /* a ship cell already hit (S5) */
    ck_assert_int_eq(sfx_pending(&f), 2);
    ck_shot(&f, 2, "5 5", "miss");
    ck_shot(&f, 1, "5 5", "miss");
    ck_shot(&f, 2, "5 5", "miss");           /* water already shot at (D2): not a violation */
    ck_assert_int_eq(sfx_pending(&f), 1);
    sfx_free(&f);
}
END_TEST

START_TEST(s6_opponent_learns_nothing)
{
    struct sea_fixture f;
    start_small_battle(&f);
    ck_shot(&f, 1, "10 9", "hit");           /* ck_shot checks the opponent's outbox is empty */
    ck_shot(&f, 1, "1 1", "miss");
    ck_shot(&f, 2, "1 1", "hit");
    sfx_free(&f);
}
END_TEST

START_TEST(s8_win_on_the_last_cell)
{
    struct sea_fixture f;
    start_small_battle(&f);
    ck_shot(&f, 1, "10 9", "hit");
    ck_shot(&f, 1, "10 10", "sunk");
    struct game_result r = result_of(&f);
    ck_assert(r.winner == 1 && r.rounds == 2);
    ck_assert(r.p[1].alive && !r.p[2].alive && r.p[2].eliminated_at == 2);
    ck_assert_int_eq(r.p[2].violation, VIOLATION_NONE);
    ck_assert(r.p[1].stats[0] == 2 && r.p[1].stats[1] == 2 && r.p[1].stats[2] == 1);
    ck_assert_int_eq(sfx_pending(&f), 0);
    const char *ev = sfx_events(&f);
    ck_assert_msg(strstr(ev, "{\"t\":\"end\",\"round\":2,\"reason\":\"fleet_sunk\",\"winner\":1}\n"), "%s", ev);
    sfx_free(&f);
}
END_TEST

START_TEST(s8_sunk_ship_is_not_the_win)
{
    struct sea_fixture f;
    sfx_init(&f);
    sfx_start(&f);
    ck_assert_int_eq(sfx_board(&f, 1, SPEC_BOARD_1), VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(&f, 2, SPEC_BOARD_2), VIOLATION_NONE);
    ck_shot(&f, 1, "10 1", "sunk");
    ck_assert(!seabattle_rules.over(f.g));
    ck_assert_int_eq(sfx_pending(&f), 1);
    sfx_free(&f);
}
END_TEST

/* ---- S9 ------------------------------------------------------------------------------------------ */

START_TEST(s9_shot_limit_more_hits_wins)
{
    struct sea_fixture f;
    sfx_init(&f);
    f.params[SP_SHOT_LIMIT] = 3;
    f.params[SP_SHIPS_1] = f.params[SP_SHIPS_3] = f.params[SP_SHIPS_4] = 0;
    f.params[SP_SHIPS_2] = 1;
    sfx_start(&f);
    ck_assert_int_eq(sfx_board(&f, 1, ONE_SHIP_A), VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(&f, 2, ONE_SHIP_B), VIOLATION_NONE);
    ck_shot(&f, 1, "5 5", "miss");
    ck_shot(&f, 2, "1 1", "hit");
    ck_assert(!seabattle_rules.over(f.g));
    ck_shot(&f, 2, "1 1", "miss");
    struct game_result r = result_of(&f);
    ck_assert(r.winner == 2 && r.rounds == 3 && r.p[1].alive && r.p[2].alive);
    ck_assert(r.p[1].place == 2 && r.p[2].stats[0] == 1);
    const char *ev = sfx_events(&f);
    ck_assert_msg(strstr(ev, "{\"t\":\"end\",\"round\":3,\"reason\":\"shot_limit\",\"winner\":2}\n"), "%s", ev);
    sfx_free(&f);
}
END_TEST

START_TEST(s9_shot_limit_equal_hits_draw)
{
    struct sea_fixture f;
    sfx_init(&f);
    f.params[SP_SHOT_LIMIT] = 2;
    f.params[SP_SHIPS_1] = f.params[SP_SHIPS_3] = f.params[SP_SHIPS_4] = 0;
    f.params[SP_SHIPS_2] = 1;
    sfx_start(&f);
    ck_assert_int_eq(sfx_board(&f, 1, ONE_SHIP_A), VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(&f, 2, ONE_SHIP_B), VIOLATION_NONE);
    ck_shot(&f, 1, "1 1", "miss");
    ck_shot(&f, 2, "5 5", "miss");
    struct game_result r = result_of(&f);
    ck_assert(r.draw && r.winner == 0 && r.p[1].place == 1 && r.p[2].place == 1);
    sfx_free(&f);
}
END_TEST

START_TEST(s9_winning_shot_at_the_limit_wins_by_s8)
{
    struct sea_fixture f;
    sfx_init(&f);
    f.params[SP_SHOT_LIMIT] = 2;
    f.params[SP_SHIPS_1] = f.params[SP_SHIPS_3] = f.params[SP_SHIPS_4] = 0;
    f.params[SP_SHIPS_2] = 1;
    sfx_start(&f);
    ck_assert_int_eq(sfx_board(&f, 1, ONE_SHIP_A), VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(&f, 2, ONE_SHIP_B), VIOLATION_NONE);
    sfx_events(&f);
    ck_shot(&f, 1, "10 9", "hit");
    ck_shot(&f, 1, "10 10", "sunk");
    ck_assert_int_eq(result_of(&f).winner, 1);
    const char *ev = sfx_events(&f);
    ck_assert_msg(strstr(ev, "\"reason\":\"fleet_sunk\""), "%s", ev);
    sfx_free(&f);
}
END_TEST

/* ---- S10 and the shot grammar (D13) --------------------------------------------------------------- */

static void expect_shot_verdict(const char *line, enum violation_kind kind, const char *reason)
{
    struct sea_fixture f;
    start_small_battle(&f);
    ck_shot(&f, 1, "5 5", "miss");
    struct game_verdict v;
    const char *lines[1] = {line};
    ck_assert_int_eq(seabattle_rules.submit(f.g, 2, lines, 1, &v), 0);
    ck_assert_msg(v.kind == kind, "'%s': %s", line, v.reason);
    if (reason)
        ck_assert_str_eq(v.reason, reason);
    struct game_result r = result_of(&f);
    ck_assert(r.winner == 1 && r.p[2].violation == kind && !r.p[2].alive && r.p[2].eliminated_at == 2);
    ck_assert_str_eq(sfx_outbox(&f, 2), "");
    sfx_free(&f);
}

START_TEST(d13_invalid_output)
{
    expect_shot_verdict("", VIOLATION_INVALID_OUTPUT, "empty line: expected a shot `x y` (two numbers)");
    expect_shot_verdict("5", VIOLATION_INVALID_OUTPUT, "expected a shot `x y` (two numbers), got 1 number(s)");
    expect_shot_verdict("5 5 5", VIOLATION_INVALID_OUTPUT, "expected a shot `x y` (two numbers), got 3 number(s)");
    expect_shot_verdict("+1 5", VIOLATION_INVALID_OUTPUT, NULL);
    expect_shot_verdict("hello", VIOLATION_INVALID_OUTPUT, NULL);
    expect_shot_verdict("5\t5", VIOLATION_INVALID_OUTPUT, NULL);
    expect_shot_verdict("1234567890123456789 5", VIOLATION_INVALID_OUTPUT, NULL);
    expect_shot_verdict("1                                                                  1",
                        VIOLATION_INVALID_OUTPUT, "the line is longer than max_line_bytes (64)");
}
END_TEST

START_TEST(d13_invalid_move)
{
    expect_shot_verdict("11 5", VIOLATION_INVALID_MOVE, "the shot (11, 5) is off the board: x and y are 1..10");
    expect_shot_verdict("0 5", VIOLATION_INVALID_MOVE, NULL);
    expect_shot_verdict("5 -0", VIOLATION_INVALID_MOVE, NULL);
    expect_shot_verdict("-3 4", VIOLATION_INVALID_MOVE, NULL);
}
END_TEST

START_TEST(d13_tolerated_shot_lines)
{
    struct sea_fixture f;
    start_small_battle(&f);
    ck_shot(&f, 1, "  010   09 \r", "hit");
    ck_shot(&f, 1, "10 10", "sunk");
    sfx_free(&f);
}
END_TEST

START_TEST(s10_violation_while_shooting)
{
    struct sea_fixture f;
    start_small_battle(&f);
    ck_shot(&f, 1, "10 9", "hit");
    ck_assert_int_eq(seabattle_rules.violation(f.g, 2, VIOLATION_TIME), -1);   /* not its turn */
    ck_assert_int_eq(seabattle_rules.violation(f.g, 1, VIOLATION_TIME), 0);
    struct game_result r = result_of(&f);
    ck_assert(r.winner == 2 && r.p[1].violation == VIOLATION_TIME && r.p[1].eliminated_at == 2);
    ck_assert(r.p[2].alive && r.p[2].violation == VIOLATION_NONE);
    const char *ev = sfx_events(&f);
    ck_assert_msg(strstr(ev, "{\"t\":\"end\",\"round\":2,\"reason\":\"violation\",\"winner\":2,\"player\":1,"
                             "\"by\":\"time\"}\n"), "%s", ev);
    sfx_free(&f);
}
END_TEST

/* ---- the engine interface --------------------------------------------------------------------- */

START_TEST(calls_for_players_not_pending_refused)
{
    struct sea_fixture f;
    struct game_verdict v;
    const char *one[1] = {"1 1"};
    start_small(&f);
    ck_assert_int_eq(sfx_board(&f, 1, ONE_SHIP_A), VIOLATION_NONE);
    ck_assert_int_eq(seabattle_rules.submit(f.g, 1, one, 1, &v), -1);           /* its board is in */
    ck_assert_int_eq(seabattle_rules.violation(f.g, 1, VIOLATION_TIME), -1);
    const char *water[1] = {"__________"};
    ck_assert_int_eq(seabattle_rules.submit(f.g, 2, water, 1, &v), -1);  /* cut short at a good line */
    ck_assert_int_eq(seabattle_rules.submit(f.g, 3, one, 1, &v), -1);
    ck_assert_int_eq(seabattle_rules.violation(f.g, 2, VIOLATION_NONE), -1);
    ck_assert_int_eq(sfx_board(&f, 2, ONE_SHIP_B), VIOLATION_NONE);
    ck_assert_int_eq(seabattle_rules.submit(f.g, 2, one, 1, &v), -1);
    sfx_free(&f);
}
END_TEST

START_TEST(round_numbers)
{
    struct sea_fixture f;
    start_small(&f);
    ck_assert_int_eq(seabattle_rules.round(f.g), 0);
    ck_assert_int_eq(sfx_board(&f, 1, ONE_SHIP_A), VIOLATION_NONE);
    ck_assert_int_eq(seabattle_rules.round(f.g), 0);
    ck_assert_int_eq(sfx_board(&f, 2, ONE_SHIP_B), VIOLATION_NONE);
    ck_assert_int_eq(seabattle_rules.round(f.g), 1);
    ck_shot(&f, 1, "3 3", "miss");
    ck_assert_int_eq(seabattle_rules.round(f.g), 2);
    sfx_free(&f);
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *s = suite_create("seabattle_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, params_defaults_of_section_1);
    tcase_add_test(tc, d14_parameter_ranges);
    tcase_add_test(tc, d14_fleet_not_empty);
    tcase_add_test(tc, no_map);
    tcase_add_test(tc, s4_both_valid_player_1_shoots_first);
    tcase_add_test(tc, s4_one_invalid_loses);
    tcase_add_test(tc, s4_both_invalid_draw);
    tcase_add_test(tc, s4_violation_while_sending_the_board);
    tcase_add_test(tc, s4_board_event_names_the_violation);
    tcase_add_test(tc, s5_s7_hit_shoots_again_miss_passes);
    tcase_add_test(tc, s6_opponent_learns_nothing);
    tcase_add_test(tc, s8_win_on_the_last_cell);
    tcase_add_test(tc, s8_sunk_ship_is_not_the_win);
    tcase_add_test(tc, s9_shot_limit_more_hits_wins);
    tcase_add_test(tc, s9_shot_limit_equal_hits_draw);
    tcase_add_test(tc, s9_winning_shot_at_the_limit_wins_by_s8);
    tcase_add_test(tc, d13_invalid_output);
    tcase_add_test(tc, d13_invalid_move);
    tcase_add_test(tc, d13_tolerated_shot_lines);
    tcase_add_test(tc, s10_violation_while_shooting);
    tcase_add_test(tc, calls_for_players_not_pending_refused);
    tcase_add_test(tc, round_numbers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(rules_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
