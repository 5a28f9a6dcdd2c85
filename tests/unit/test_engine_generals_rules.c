/* test_engine_generals_rules.c - generals.md §2 (G1..G15), §6, §7 and the decisions D5..D19. */
#include "tests/unit/generals_fixture.h"

#include <stdio.h>

/* Row 1: capital, empty, city 40. Row 2: mountain, empty, capital. Player 1 at (1,1). */
#define MAP_2X3 SPEC_MAP

static struct game_result result_of(const struct fixture *f)
{
    struct game_result r;
    ck_assert_int_eq(generals_rules.result(f->g, &r), 0);
    return r;
}

/* ---- G1..G6 ---------------------------------------------------------------- */

START_TEST(g1_board_does_not_wrap)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, "1 4 2\n3\n1\n1\n3\n");
    ck_assert_int_eq(fx_board(&f)->n, 1);
    ck_assert_int_eq(fx_board(&f)->m, 4);
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 1 1 4"), VIOLATION_INVALID_MOVE);
    fx_free(&f);
}
END_TEST

START_TEST(g2_mountains_have_no_owner_or_units_and_never_change)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CITY_GROWTH_PERIOD] = 1;
    f.params[GP_LAND_GROWTH_PERIOD] = 1;
    fx_start(&f, MAP_2X3);
    for (int r = 0; r < 4; r++) {
        fx_reply(&f, 1, "-1");
        fx_reply(&f, 2, "-1");
    }
    ck_cell(&f, 2, 1, CELL_MOUNTAIN, 0, 0);
    fx_free(&f);
}
END_TEST

START_TEST(g3_capitals_go_to_players_in_row_major_order)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 7;
    fx_start(&f, "2 3 3\n1\n2 33\n3\n3\n3\n4\n");
    ck_cell(&f, 1, 3, CELL_CAPITAL, 1, 7);
    ck_cell(&f, 2, 1, CELL_CAPITAL, 2, 7);
    ck_cell(&f, 2, 2, CELL_CAPITAL, 3, 7);
    ck_cell(&f, 1, 1, CELL_EMPTY, 0, 0);
    ck_cell(&f, 1, 2, CELL_CITY, 0, 33);
    ck_cell(&f, 2, 3, CELL_MOUNTAIN, 0, 0);
    fx_free(&f);
}
END_TEST

START_TEST(g3_match_must_name_exactly_k_bots)
{
    struct fixture f;
    fx_init(&f);
    struct game_error err;
    ck_assert_int_eq(generals_rules.map_parse(MAP_2X3, strlen(MAP_2X3), f.params, &f.map, &err), 0);
    struct game_setup setup = {f.map, f.params, 0, 3};
    ck_assert_int_eq(generals_rules.create(&setup, &f.g, &err), -1);
    ck_assert_str_eq(err.msg, "the map has 2 capitals, so the match needs 2 players, not 3");
    f.g = NULL;
    fx_free(&f);
}
END_TEST

START_TEST(create_rechecks_parameter_values)
{
    struct fixture f;
    fx_init(&f);
    struct game_error err;
    ck_assert_int_eq(generals_rules.map_parse(MAP_2X3, strlen(MAP_2X3), f.params, &f.map, &err), 0);
    f.params[GP_CITY_GROWTH_PERIOD] = 0;
    struct game_setup setup = {f.map, f.params, 0, 2};
    ck_assert_int_eq(generals_rules.create(&setup, &f.g, &err), -1);
    ck_assert_str_eq(err.msg, "parameter city_growth_period = 0 is out of range 1..1000000");
    f.g = NULL;
    fx_free(&f);
}
END_TEST

START_TEST(g4_order_is_the_generals_order_shuffle)
{
    for (uint64_t seed = 0; seed < 20; seed++) {
        int expect[4] = {1, 2, 3, 4};
        struct rng r = rng_stream(seed, "generals/order");
        rng_shuffle_int(&r, expect, 4);
        struct fixture f;
        fx_init(&f);
        fx_start_seed(&f, "2 2 4\n3\n3\n3\n3\n", seed);
        for (int round = 1; round <= 2; round++) {
            for (int x = 0; x < 4; x++) {
                ck_assert_int_eq(generals_rules.round(f.g), round);
                ck_assert_int_eq(fx_reply(&f, expect[x], "-1"), VIOLATION_NONE);
            }
        }
        fx_free(&f);
    }
}
END_TEST

START_TEST(g5_a_move_is_seen_later_in_the_same_round)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 5;
    fx_start(&f, "1 3 2\n3\n1\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2");
    ck_assert_str_eq(fx_prompt(&f, 2), "1\n5 2\n5 1\n0 1\n1 1 1 4\n1 3 2 5\n");
    fx_free(&f);
}
END_TEST

START_TEST(g5_eliminated_players_take_no_turns)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, "1 3 3\n3\n3\n3\n");
    fx_reply(&f, 1, "-1");
    ck_assert_int_eq(fx_reply(&f, 2, "0 0 0 0 0"), VIOLATION_INVALID_MOVE);
    fx_reply(&f, 3, "-1");
    fx_reply(&f, 1, "-1");
    ck_assert_int_eq(fx_pending(&f), 3);
    ck_assert_int_eq(generals_rules.round(f.g), 2);
    fx_free(&f);
}
END_TEST

START_TEST(g6_a_pass_changes_nothing)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, MAP_2X3);
    struct strbuf ev = STRBUF_INIT;
    generals_rules.take_events(f.g, &ev);
    sb_reset(&ev);
    fx_reply(&f, 1, "-1");
    generals_rules.take_events(f.g, &ev);
    ck_assert_str_eq(ev.data, "{\"t\":\"pass\",\"round\":1,\"player\":1}\n");
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    sb_free(&ev);
    fx_free(&f);
}
END_TEST

/* ---- G7: every way a move is invalid --------------------------------------- */

static void expect_invalid_move(const char *move, const char *reason)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 5;
    fx_start(&f, MAP_2X3);
    struct game_verdict v;
    const char *lines[1] = {move};
    ck_assert_int_eq(generals_rules.submit(f.g, 1, lines, 1, &v), 0);
    ck_assert_int_eq(v.kind, VIOLATION_INVALID_MOVE);
    ck_assert_str_eq(v.reason, reason);
    ck_assert(generals_rules.player_done(f.g, 1));
    ck_assert_int_eq(result_of(&f).winner, 2);
    fx_free(&f);
}

START_TEST(g7_opt_neither_1_nor_2)
{
    expect_invalid_move("0 1 1 1 2", "opt 0 is neither 1 nor 2");
    expect_invalid_move("3 1 1 1 2", "opt 3 is neither 1 nor 2");
    expect_invalid_move("-1 1 1 1 2", "opt -1 is neither 1 nor 2");
}
END_TEST

START_TEST(g7_cell_off_the_board)
{
    expect_invalid_move("1 0 1 1 1", "a cell of (0, 1) -> (1, 1) is off the 2x3 board");
    expect_invalid_move("1 1 3 1 4", "a cell of (1, 3) -> (1, 4) is off the 2x3 board");
    expect_invalid_move("1 2 1 3 1", "a cell of (2, 1) -> (3, 1) is off the 2x3 board");
}
END_TEST

START_TEST(g7_cells_not_adjacent)
{
    expect_invalid_move("1 1 1 2 2", "(1, 1) and (2, 2) are not adjacent");
    expect_invalid_move("1 1 1 1 1", "(1, 1) and (1, 1) are not adjacent");
    expect_invalid_move("1 1 1 1 3", "(1, 1) and (1, 3) are not adjacent");
}
END_TEST

START_TEST(g7_source_not_owned)
{
    expect_invalid_move("1 1 2 1 3", "player 1 does not own (1, 2)");   /* neutral */
    expect_invalid_move("1 2 3 2 2", "player 1 does not own (2, 3)");   /* the enemy's */
    expect_invalid_move("1 2 1 2 2", "player 1 does not own (2, 1)");   /* a mountain */
}
END_TEST

START_TEST(g7_target_is_a_mountain)
{
    expect_invalid_move("1 1 1 2 1", "(2, 1) is a mountain");
}
END_TEST

/* ---- G8..G10 -------------------------------------------------------------- */

START_TEST(g8_opt_1_moves_all_but_one)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 5;
    fx_start(&f, MAP_2X3);
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 1 1 2"), VIOLATION_NONE);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 4);
    fx_free(&f);
}
END_TEST

START_TEST(g8_opt_2_moves_half_rounded_down)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 5;
    fx_start(&f, MAP_2X3);
    ck_assert_int_eq(fx_reply(&f, 1, "2 1 1 1 2"), VIOLATION_NONE);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 3);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 2);
    fx_free(&f);
}
END_TEST

START_TEST(d5_move_from_fewer_than_two_units_is_a_legal_no_op)
{
    for (int units = 0; units <= 1; units++) {
        for (int opt = 1; opt <= 2; opt++) {
            struct fixture f;
            fx_init(&f);
            f.params[GP_CAPITAL_START_ARMY] = units;
            fx_start(&f, MAP_2X3);
            char move[32];
            snprintf(move, sizeof move, "%d 1 1 1 2", opt);
            ck_assert_int_eq(fx_reply(&f, 1, move), VIOLATION_NONE);
            ck_assert(!generals_rules.player_done(f.g, 1));
            ck_cell(&f, 1, 1, CELL_CAPITAL, 1, units);
            ck_cell(&f, 1, 2, CELL_EMPTY, 0, 0);
            fx_free(&f);
        }
    }
}
END_TEST

START_TEST(g9_moving_onto_an_own_cell_adds_units)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 9;
    fx_start(&f, MAP_2X3);
    fx_reply(&f, 1, "2 1 1 1 2"); /* (1,1) 5, (1,2) 4 */
    fx_reply(&f, 2, "-1");
    fx_reply(&f, 1, "1 1 1 1 2"); /* y = 4 */
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 8);
    fx_free(&f);
}
END_TEST

START_TEST(g10_stronger_army_takes_the_cell_with_the_difference)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 50;
    fx_start(&f, "1 3 2\n3\n2 40\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2"); /* 49 against 40 */
    ck_cell(&f, 1, 2, CELL_CITY, 1, 9);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    fx_free(&f);
}
END_TEST

START_TEST(g10_weaker_army_leaves_the_defender_with_the_rest)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 30;
    fx_start(&f, "1 3 2\n3\n2 40\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2"); /* 29 against 40 */
    ck_cell(&f, 1, 2, CELL_CITY, 0, 11);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    fx_free(&f);
}
END_TEST

START_TEST(d6_equal_armies_leave_a_neutral_city_at_zero)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 41;
    fx_start(&f, "1 3 2\n3\n2 40\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2"); /* 40 against 40 */
    ck_cell(&f, 1, 2, CELL_CITY, 0, 0);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    fx_free(&f);
}
END_TEST

START_TEST(d6_equal_armies_leave_the_defender_owner_at_zero)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 21;
    fx_start(&f, "1 3 2\n3\n1\n3\n");
    fx_reply(&f, 1, "-1");
    fx_reply(&f, 2, "2 1 3 1 2"); /* player 2: 10 units onto (1,2), 11 stay */
    fx_reply(&f, 1, "2 1 1 1 2"); /* player 1: 10 against 10 */
    ck_cell(&f, 1, 2, CELL_EMPTY, 2, 0);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 11);
    fx_free(&f);
}
END_TEST

/* ---- G11, G12 ------------------------------------------------------------- */

START_TEST(g11_capital_capture)
{
    /* 1 x 5, capitals at columns 1, 3, 5. */
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 7;
    fx_start(&f, "1 5 3\n3\n1\n3\n1\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2");   /* (1,1) 1, (1,2) 6 */
    fx_reply(&f, 2, "2 1 3 1 4");   /* (1,3) 4, (1,4) 3 */
    fx_reply(&f, 3, "-1");
    fx_outbox(&f, 2);
    struct strbuf ev = STRBUF_INIT;
    generals_rules.take_events(f.g, &ev);
    sb_reset(&ev);
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 2 1 3"), VIOLATION_NONE); /* 5 against 4 */
    ck_cell(&f, 1, 3, CELL_CITY, 1, 1);          /* a city of the attacker, holding y */
    ck_cell(&f, 1, 4, CELL_EMPTY, 1, 2);         /* (3 + 1) / 2 */
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 1);
    ck_assert(generals_rules.player_done(f.g, 2));
    ck_assert_str_eq(fx_outbox(&f, 2), "0\n");
    ck_assert(!generals_rules.over(f.g));
    generals_rules.take_events(f.g, &ev);
    ck_assert_str_eq(ev.data,
                     "{\"t\":\"move\",\"round\":2,\"player\":1,\"move\":[1,1,2,1,3],"
                     "\"cells\":[[1,2,1,1,1],[1,3,2,1,1]]}\n"
                     "{\"t\":\"eliminated\",\"round\":2,\"player\":2,\"by\":\"capture\","
                     "\"capturer\":1,\"cells\":[[1,4,1,1,2]]}\n");
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.p[2].eliminated_at, 2);
    ck_assert_int_eq(r.p[2].violation, VIOLATION_NONE);
    /* D7: the captured capital grows as a city at the end of round 2. */
    fx_reply(&f, 3, "-1");
    ck_cell(&f, 1, 3, CELL_CITY, 1, 2);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 2);
    ck_cell(&f, 1, 4, CELL_EMPTY, 1, 2);
    ck_assert_int_eq(fx_pending(&f), 1);
    sb_free(&ev);
    fx_free(&f);
}
END_TEST

START_TEST(g11_capture_with_two_players_ends_the_game)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 7;
    fx_start(&f, "1 4 2\n3\n1\n3\n1\n");
    fx_reply(&f, 1, "1 1 1 1 2");
    fx_reply(&f, 2, "2 1 3 1 4");
    fx_reply(&f, 1, "1 1 2 1 3");
    ck_assert(generals_rules.over(f.g));
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.winner, 1);
    ck_assert_int_eq(r.p[1].points, 1);
    ck_assert_int_eq(r.p[2].points, 0);
    ck_assert_int_eq(r.p[2].place, 2);
    fx_free(&f);
}
END_TEST

START_TEST(g12_invalid_move_makes_every_cell_neutral)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 5;
    fx_start(&f, "1 4 3\n3\n1\n3\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2");
    fx_reply(&f, 2, "-1");
    fx_reply(&f, 3, "-1");
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 2 1 4"), VIOLATION_INVALID_MOVE);
    ck_cell(&f, 1, 1, CELL_CITY, 0, 1);   /* the capital becomes a neutral city */
    ck_cell(&f, 1, 2, CELL_EMPTY, 0, 4);  /* units kept */
    ck_assert_str_eq(fx_outbox(&f, 1), "1 4 3 1\n0\n");
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.p[1].violation, VIOLATION_INVALID_MOVE);
    ck_assert_int_eq(r.p[1].eliminated_at, 2);
    ck_assert_int_eq(r.p[1].stats[0], 0);
    ck_assert_int_eq(fx_pending(&f), 2);
    fx_free(&f);
}
END_TEST

START_TEST(g12_neutral_city_from_a_capital_does_not_grow)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, "1 3 3\n3\n3\n3\n");
    generals_rules.violation(f.g, 1, VIOLATION_CRASH);
    fx_reply(&f, 2, "-1");
    fx_reply(&f, 3, "-1");
    fx_reply(&f, 2, "-1");
    fx_reply(&f, 3, "-1");
    ck_cell(&f, 1, 1, CELL_CITY, 0, 1);
    ck_cell(&f, 1, 2, CELL_CAPITAL, 2, 2);
    fx_free(&f);
}
END_TEST

/* ---- G13, D14 ------------------------------------------------------------- */

static void pass_round(struct fixture *f)
{
    fx_reply(f, 1, "-1");
    fx_reply(f, 2, "-1");
}

START_TEST(g13_cities_and_capitals_every_2nd_round_land_every_50th)
{
    /* cap P1, empty, city 0, city 10 (stays neutral), cap P2 */
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 4;
    fx_start(&f, "1 5 2\n3\n1\n2 0\n2 10\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2");     /* (1,1) 1, (1,2) 3 */
    fx_reply(&f, 2, "-1");
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1); /* round 1: no growth */
    fx_reply(&f, 1, "1 1 2 1 3");     /* (1,2) 1, city (1,3) 2 */
    fx_reply(&f, 2, "-1");
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 2);
    ck_cell(&f, 1, 3, CELL_CITY, 1, 3);
    ck_cell(&f, 1, 5, CELL_CAPITAL, 2, 5);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 1);
    ck_cell(&f, 1, 4, CELL_CITY, 0, 10);
    for (int r = 3; r <= 49; r++)
        pass_round(&f);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 25);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 1);
    pass_round(&f); /* round 50 */
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 26);
    ck_cell(&f, 1, 3, CELL_CITY, 1, 27);
    ck_cell(&f, 1, 5, CELL_CAPITAL, 2, 29);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 2);
    ck_cell(&f, 1, 4, CELL_CITY, 0, 10);
    fx_free(&f);
}
END_TEST

START_TEST(g13_amounts_and_periods_are_parameters)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CITY_GROWTH_PERIOD] = 3;
    f.params[GP_CITY_GROWTH_AMOUNT] = 5;
    f.params[GP_LAND_GROWTH_PERIOD] = 1;
    f.params[GP_LAND_GROWTH_AMOUNT] = 2;
    f.params[GP_CAPITAL_START_ARMY] = 3;
    fx_start(&f, "1 3 2\n3\n1\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2"); /* (1,1) 1, (1,2) 2 */
    fx_reply(&f, 2, "-1");
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 4);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    pass_round(&f);
    pass_round(&f);
    ck_cell(&f, 1, 2, CELL_EMPTY, 1, 8);
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 6);
    fx_free(&f);
}
END_TEST

START_TEST(d14_no_growth_after_the_deciding_elimination)
{
    struct fixture f;
    struct strbuf log = STRBUF_INIT, ev = STRBUF_INIT;
    fx_init(&f);
    fx_start(&f, "1 2 2\n3\n3\n");
    generals_rules.set_log(f.g, &log);
    pass_round(&f);
    fx_reply(&f, 1, "-1");
    ck_assert_int_eq(fx_reply(&f, 2, "1 1 2 1 3"), VIOLATION_INVALID_MOVE); /* last of round 2 */
    ck_assert(generals_rules.over(f.g));
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 1);
    ck_assert_str_eq(log.data, "1 2 2 0\n1\n1 1\n0 0\n1 3 1 1\n1 2 0 1\n0\n");
    generals_rules.take_events(f.g, &ev);
    ck_assert_ptr_null(strstr(ev.data, "growth"));
    ck_assert_int_eq(result_of(&f).rounds, 2);
    sb_free(&ev);
    sb_free(&log);
    fx_free(&f);
}
END_TEST

/* ---- G14, G15 and the log ------------------------------------------------- */

START_TEST(g14_vision_follows_ownership)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 9;
    fx_start(&f, "1 5 2\n3\n1\n1\n2 3\n3\n");
    ck_assert_str_eq(fx_prompt(&f, 1), "1\n9 1\n9 1\n1 3 1 9\n1 1 0 0\n0 1\n0 2\n0 1\n");
    fx_reply(&f, 1, "1 1 1 1 2");
    fx_reply(&f, 2, "-1");
    ck_assert_str_eq(fx_prompt(&f, 1), "1\n9 2\n9 1\n1 3 1 1\n1 1 1 8\n1 1 0 0\n0 2\n0 1\n");
    fx_reply(&f, 1, "1 1 2 1 3");
    fx_reply(&f, 2, "-1");
    fx_reply(&f, 1, "1 1 3 1 2"); /* (1,3) back to 1 unit: still owned, still seen */
    fx_reply(&f, 2, "-1");
    ck_assert_str_eq(fx_prompt(&f, 1),
                     "1\n10 3\n10 1\n1 3 1 2\n1 1 1 7\n1 1 1 1\n1 2 0 3\n0 1\n");
    fx_free(&f);
}
END_TEST

START_TEST(log_frames_follow_moves_violations_and_city_growth_rounds_only)
{
    struct fixture f;
    struct strbuf log = STRBUF_INIT;
    fx_init(&f);
    f.params[GP_TURN_LIMIT] = 3;
    f.params[GP_LAND_GROWTH_PERIOD] = 3;
    fx_start(&f, "1 2 2\n3\n3\n");
    generals_rules.set_log(f.g, &log);
    pass_round(&f);
    pass_round(&f);
    pass_round(&f); /* round 3: land growth only, no frame */
    ck_assert(generals_rules.over(f.g));
    ck_assert_str_eq(log.data, "1 2 2 0\n1\n2 1\n2 1\n1 3 1 2\n1 3 2 2\n0\n");
    sb_free(&log);
    fx_free(&f);
}
END_TEST

/* ---- §6, §7: the end and the ranking ------------------------------------- */

START_TEST(turn_limit_ends_after_the_growth_of_the_last_round)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_TURN_LIMIT] = 2;
    fx_start(&f, "1 2 2\n3\n3\n");
    fx_outbox(&f, 1);
    fx_outbox(&f, 2);
    pass_round(&f);
    fx_reply(&f, 1, "-1");
    ck_assert(!generals_rules.over(f.g));
    ck_assert(!generals_rules.player_done(f.g, 1));
    fx_reply(&f, 2, "-1");
    ck_assert(generals_rules.over(f.g));
    ck_cell(&f, 1, 1, CELL_CAPITAL, 1, 2);
    ck_assert_str_eq(fx_outbox(&f, 1), "0\n");
    ck_assert_str_eq(fx_outbox(&f, 2), "0\n");
    ck_assert(generals_rules.player_done(f.g, 1));
    ck_assert(generals_rules.player_done(f.g, 2));
    ck_assert_int_eq(fx_pending(&f), 0);
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.rounds, 2);
    ck_assert(r.draw);
    ck_assert_int_eq(r.winner, 0);
    ck_assert_int_eq(r.p[1].place, 1);
    ck_assert_int_eq(r.p[2].place, 1);
    ck_assert_int_eq(r.p[1].points, 0);
    ck_assert(r.p[1].alive);
    fx_free(&f);
}
END_TEST

START_TEST(ranking_by_army_first)
{
    /* Player 1 spends 2 units on a neutral city: fewer units, more cities. */
    struct fixture f;
    fx_init(&f);
    f.params[GP_TURN_LIMIT] = 1;
    f.params[GP_CAPITAL_START_ARMY] = 4;
    fx_start(&f, "1 4 2\n3\n2 2\n1\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2");
    fx_reply(&f, 2, "-1");
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.winner, 2);
    ck_assert_int_eq(r.p[1].place, 2);
    ck_assert_int_eq(r.p[1].stats[0], 2);
    ck_assert_int_eq(r.p[1].stats[1], 1);
    ck_assert_int_eq(r.p[1].stats[2], 2);
    ck_assert_int_eq(r.p[2].points, 1);
    fx_free(&f);
}
END_TEST

START_TEST(ranking_by_cities_when_armies_are_equal)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_TURN_LIMIT] = 1;
    f.params[GP_CAPITAL_START_ARMY] = 4;
    fx_start(&f, "1 4 2\n3\n2 0\n1\n3\n");
    fx_reply(&f, 1, "1 1 1 1 2"); /* a city with 3 */
    fx_reply(&f, 2, "1 1 4 1 3"); /* an empty cell with 3 */
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.p[1].stats[0], r.p[2].stats[0]);
    ck_assert_int_eq(r.p[1].stats[2], r.p[2].stats[2]);
    ck_assert_int_eq(r.winner, 1);
    ck_assert_int_eq(r.p[2].place, 2);
    fx_free(&f);
}
END_TEST

START_TEST(ranking_by_cells_when_armies_and_cities_are_equal)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_TURN_LIMIT] = 1;
    f.params[GP_CAPITAL_START_ARMY] = 4;
    fx_start(&f, "1 4 2\n3\n1\n1\n3\n");
    fx_reply(&f, 1, "-1");
    fx_reply(&f, 2, "1 1 4 1 3");
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.winner, 2);
    ck_assert_int_eq(r.p[1].place, 2);
    ck_assert_int_eq(r.p[2].stats[2], 2);
    fx_free(&f);
}
END_TEST

START_TEST(shared_place_gives_competition_ranks)
{
    /* Players 1 and 2 tie on everything; player 3 loses units on a neutral city. */
    struct fixture f;
    fx_init(&f);
    f.params[GP_TURN_LIMIT] = 1;
    f.params[GP_CAPITAL_START_ARMY] = 4;
    fx_start(&f, "1 5 3\n3\n3\n1\n3\n2 5\n");
    fx_reply(&f, 1, "-1");
    fx_reply(&f, 2, "-1");
    fx_reply(&f, 3, "1 1 4 1 5");
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.p[1].place, 1);
    ck_assert_int_eq(r.p[2].place, 1);
    ck_assert_int_eq(r.p[3].place, 3);
    ck_assert(r.draw);
    ck_assert_int_eq(r.winner, 0);
    for (int p = 1; p <= 3; p++)
        ck_assert_int_eq(r.p[p].points, 0);
    fx_free(&f);
}
END_TEST

START_TEST(eliminated_players_rank_below_survivors_later_first)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_TURN_LIMIT] = 1;
    fx_start(&f, "1 4 4\n3\n3\n3\n3\n");
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 1 9 9"), VIOLATION_INVALID_MOVE);
    ck_assert_int_eq(generals_rules.violation(f.g, 2, VIOLATION_CRASH), 0);
    fx_reply(&f, 3, "-1");
    fx_reply(&f, 4, "-1");
    ck_assert(generals_rules.over(f.g));
    struct game_result r = result_of(&f);
    ck_assert_int_eq(r.players, 4);
    ck_assert_int_eq(r.p[3].place, 1);
    ck_assert_int_eq(r.p[4].place, 1);
    ck_assert_int_eq(r.p[2].place, 3);
    ck_assert_int_eq(r.p[1].place, 4);
    ck_assert(!r.p[1].alive);
    ck_assert_int_eq(r.p[1].violation, VIOLATION_INVALID_MOVE);
    ck_assert_int_eq(r.p[2].violation, VIOLATION_CRASH);
    ck_assert_int_eq(r.p[2].eliminated_at, 1);
    ck_assert_int_eq(r.p[3].eliminated_at, 0);
    fx_free(&f);
}
END_TEST

/* ---- invariants over random play ------------------------------------------ */

/* G15 and the kept totals and vision counts, recomputed from scratch. */
static void check_invariants(const struct fixture *f)
{
    const struct generals_board *b = fx_board(f);
    int64_t army[GAME_MAX_PLAYERS + 1] = {0}, land[GAME_MAX_PLAYERS + 1] = {0};
    int capitals[GAME_MAX_PLAYERS + 1] = {0};
    for (size_t c = 0; c < b->cells; c++) {
        ck_assert_int_ge(b->units[c], 0);
        army[b->owner[c]] += b->units[c];
        land[b->owner[c]]++;
        if (b->type[c] == CELL_CAPITAL)
            capitals[b->owner[c]]++;
        for (int p = 1; p <= b->k; p++) {
            int seen = 0, i = (int)c / b->m, j = (int)c % b->m, r = b->vision_radius;
            for (size_t d = 0; d < b->cells; d++)
                if (b->owner[d] == p && abs((int)d / b->m - i) <= r && abs((int)d % b->m - j) <= r)
                    seen++;
            ck_assert_int_eq(b->vision[(size_t)(p - 1) * b->cells + c], seen);
        }
    }
    ck_assert_int_eq(capitals[0], 0);
    struct game_result r = result_of(f);
    for (int p = 1; p <= b->k; p++) {
        ck_assert_int_eq(b->army[p], army[p]);
        ck_assert_int_eq(b->land[p], land[p]);
        if (r.p[p].alive)
            ck_assert_int_eq(capitals[p], 1); /* G15 */
        else
            ck_assert_int_eq(land[p], 0);
    }
}

START_TEST(random_play_keeps_the_invariants)
{
    struct rng r = rng_stream((uint64_t)_i, "test/random-play");
    struct game_option opts[] = {{"rows", 6 + _i % 3}, {"cols", 7}, {"players", 2 + _i % 3},
                                 {"cities", 6}, {"city_army_min", 0}, {"city_army_max", 3}};
    struct fixture f;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 12;
    f.params[GP_VISION_RADIUS] = _i % 3;
    f.params[GP_TURN_LIMIT] = 150;
    f.params[GP_LAND_GROWTH_PERIOD] = 5;
    fx_start_generated(&f, opts, 6, (uint64_t)_i);
    int replies = 0;
    while (!generals_rules.over(f.g)) {
        char line[64];
        fx_random_reply(fx_board(&f), fx_pending(&f), &r, line, sizeof line);
        fx_reply(&f, fx_pending(&f), line);
        check_invariants(&f);
        replies++;
    }
    ck_assert_int_gt(replies, 20);
    ck_assert_ptr_nonnull(strstr(fx_events(&f), "{\"t\":\"end\""));
    fx_free(&f);
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *s = suite_create("generals_rules");
    TCase *setup = tcase_create("setup");
    tcase_add_test(setup, g1_board_does_not_wrap);
    tcase_add_test(setup, g2_mountains_have_no_owner_or_units_and_never_change);
    tcase_add_test(setup, g3_capitals_go_to_players_in_row_major_order);
    tcase_add_test(setup, g3_match_must_name_exactly_k_bots);
    tcase_add_test(setup, create_rechecks_parameter_values);
    tcase_add_test(setup, g4_order_is_the_generals_order_shuffle);
    tcase_add_test(setup, g5_a_move_is_seen_later_in_the_same_round);
    tcase_add_test(setup, g5_eliminated_players_take_no_turns);
    tcase_add_test(setup, g6_a_pass_changes_nothing);
    suite_add_tcase(s, setup);
    TCase *invalid = tcase_create("invalid_moves");
    tcase_add_test(invalid, g7_opt_neither_1_nor_2);
    tcase_add_test(invalid, g7_cell_off_the_board);
    tcase_add_test(invalid, g7_cells_not_adjacent);
    tcase_add_test(invalid, g7_source_not_owned);
    tcase_add_test(invalid, g7_target_is_a_mountain);
    suite_add_tcase(s, invalid);
    TCase *moves = tcase_create("moves");
    tcase_add_test(moves, g8_opt_1_moves_all_but_one);
    tcase_add_test(moves, g8_opt_2_moves_half_rounded_down);
    tcase_add_test(moves, d5_move_from_fewer_than_two_units_is_a_legal_no_op);
    tcase_add_test(moves, g9_moving_onto_an_own_cell_adds_units);
    tcase_add_test(moves, g10_stronger_army_takes_the_cell_with_the_difference);
    tcase_add_test(moves, g10_weaker_army_leaves_the_defender_with_the_rest);
    tcase_add_test(moves, d6_equal_armies_leave_a_neutral_city_at_zero);
    tcase_add_test(moves, d6_equal_armies_leave_the_defender_owner_at_zero);
    tcase_add_test(moves, g11_capital_capture);
    tcase_add_test(moves, g11_capture_with_two_players_ends_the_game);
    tcase_add_test(moves, g12_invalid_move_makes_every_cell_neutral);
    tcase_add_test(moves, g12_neutral_city_from_a_capital_does_not_grow);
    suite_add_tcase(s, moves);
    TCase *rounds = tcase_create("rounds");
    tcase_add_test(rounds, g13_cities_and_capitals_every_2nd_round_land_every_50th);
    tcase_add_test(rounds, g13_amounts_and_periods_are_parameters);
    tcase_add_test(rounds, d14_no_growth_after_the_deciding_elimination);
    tcase_add_test(rounds, g14_vision_follows_ownership);
    tcase_add_test(rounds, log_frames_follow_moves_violations_and_city_growth_rounds_only);
    suite_add_tcase(s, rounds);
    TCase *end = tcase_create("end");
    tcase_add_test(end, turn_limit_ends_after_the_growth_of_the_last_round);
    tcase_add_test(end, ranking_by_army_first);
    tcase_add_test(end, ranking_by_cities_when_armies_are_equal);
    tcase_add_test(end, ranking_by_cells_when_armies_and_cities_are_equal);
    tcase_add_test(end, shared_place_gives_competition_ranks);
    tcase_add_test(end, eliminated_players_rank_below_survivors_later_first);
    suite_add_tcase(s, end);
    TCase *random = tcase_create("random");
    tcase_set_timeout(random, 60);
    tcase_add_loop_test(random, random_play_keeps_the_invariants, 0, 12);
    suite_add_tcase(s, random);
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
