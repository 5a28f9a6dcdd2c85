/* test_engine_seabattle_board.c - the board rules: S2, S3a, S3b, S3c, their order and where (D9..D11). */
#include "tests/unit/seabattle_fixture.h"

/* README_BOARD with line y replaced by text. */
static const char *with_line(int y, const char *text)
{
    static char out[512];
    char buf[512];
    const char *lines[SEA_SIDE];
    sfx_split(README_BOARD, buf, sizeof buf, lines, SEA_SIDE);
    out[0] = '\0';
    for (int i = 0; i < SEA_SIDE; i++) {
        strcat(out, i + 1 == y ? text : lines[i]);
        strcat(out, "\n");
    }
    return out;
}

static void expect(const char *board, enum sea_rule rule, const char *msg)
{
    struct sea_board_error err;
    enum sea_rule got = sfx_check(board, NULL, &err);
    ck_assert_msg(got == rule, "rule %s, expected %s (%s)", sea_rule_name(got), sea_rule_name(rule), err.msg);
    if (msg)
        ck_assert_str_eq(err.msg, msg);
}

START_TEST(spec_boards_are_valid)
{
    expect(README_BOARD, SEA_RULE_NONE, NULL);
    expect(SPEC_BOARD_1, SEA_RULE_NONE, NULL);
    expect(SPEC_BOARD_2, SEA_RULE_NONE, NULL);
}
END_TEST

/* ---- S2 (D10) ---------------------------------------------------------------------------- */

START_TEST(s2_line_of_nine_cells)
{
    expect(with_line(4, "_________"), SEA_RULE_S2, "board line 4 has 9 cells, not 10 (S2)");
}
END_TEST

START_TEST(s2_line_of_eleven_cells)
{
    expect(with_line(2, "___________"), SEA_RULE_S2, "board line 2 has 11 cells, not 10 (S2)");
}
END_TEST

START_TEST(s2_other_character)
{
    expect(with_line(6, "____o_____"), SEA_RULE_S2, "board line 6, column 5: 'o' is neither '_' nor '#' (S2)");
    expect(with_line(1, "####.____"), SEA_RULE_S2, NULL);
}
END_TEST

START_TEST(s2_space_inside)
{
    expect(with_line(2, "_____ _____"), SEA_RULE_S2, "board line 2, column 6: a space inside the line (S2)");
    expect(with_line(2, "_____ ____"), SEA_RULE_S2, NULL);
}
END_TEST

START_TEST(s2_empty_line)
{
    expect(with_line(10, ""), SEA_RULE_S2, "board line 10 is empty (S2)");
    expect(with_line(10, "   "), SEA_RULE_S2, "board line 10 is empty (S2)");
}
END_TEST

START_TEST(s2_surrounding_spaces_and_cr_tolerated)
{
    expect(with_line(2, "  __________  "), SEA_RULE_NONE, NULL);
    expect(with_line(2, "__________\r"), SEA_RULE_NONE, NULL);
    expect(with_line(1, " ####______ \r"), SEA_RULE_NONE, NULL);
}
END_TEST

START_TEST(s2_control_byte)
{
    struct sea_board_error err;
    ck_assert_int_eq(sfx_check(with_line(3, "###_###__\t"), NULL, &err), SEA_RULE_S2);
    ck_assert_msg(!strncmp(err.msg, "board line 3, column 10: ", 25), "%s", err.msg);
}
END_TEST

START_TEST(s2_line_longer_than_max_line_bytes)
{
    struct sea_board b;
    struct sea_board_error err;
    sea_board_init(&b);
    ck_assert_int_eq(sea_board_add_line(&b, "__________     ", 15, 14, &err), -1);
    ck_assert_str_eq(err.msg, "board line 1 is longer than max_line_bytes (14) (S2)");
    sea_board_init(&b);
    ck_assert_int_eq(sea_board_add_line(&b, "__________    ", 14, 14, &err), 0);
}
END_TEST

START_TEST(s2_eleventh_line_refused)
{
    struct sea_board b;
    struct sea_board_error err;
    sea_board_init(&b);
    for (int y = 0; y < SEA_SIDE; y++)
        ck_assert_int_eq(sea_board_add_line(&b, "__________", 10, 64, &err), 0);
    ck_assert_int_eq(sea_board_add_line(&b, "__________", 10, 64, &err), -1);
    ck_assert_int_eq(err.rule, SEA_RULE_S2);
}
END_TEST

START_TEST(s2_finish_before_ten_lines)
{
    struct sea_board b;
    struct sea_board_error err;
    struct sea_fleet fleet = sea_fleet_of(NULL);
    sea_board_init(&b);
    ck_assert_int_eq(sea_board_add_line(&b, "#_________", 10, 64, &err), 0);
    ck_assert_int_eq(sea_board_finish(&b, &fleet, &err), -1);
    ck_assert_str_eq(err.msg, "the board has 1 lines, not 10 (S2)");
}
END_TEST

/* ---- S3a (D9, D11) ---------------------------------------------------------------------- */

START_TEST(s3a_above_left)
{
    expect(with_line(2, "____#_____"), SEA_RULE_S3A,
           "the ship cell at x=5 y=2 touches the one at x=4 y=1 at a corner (S3a)");
}
END_TEST

START_TEST(s3a_above_left_first)
{
    /* under "###_###___", x=4 has ship cells above-left (3,3) and above-right (5,3) */
    expect(with_line(4, "_#________"), SEA_RULE_S3A,
           "the ship cell at x=2 y=4 touches the one at x=1 y=3 at a corner (S3a)");
    expect(with_line(4, "___#______"), SEA_RULE_S3A,
           "the ship cell at x=4 y=4 touches the one at x=3 y=3 at a corner (S3a)");
}
END_TEST

START_TEST(s3a_only_above_right)
{
    expect("_#________\n#_________\n__________\n__________\n__________\n"
           "__________\n__________\n__________\n__________\n__________\n",
           SEA_RULE_S3A, "the ship cell at x=1 y=2 touches the one at x=2 y=1 at a corner (S3a)");
}
END_TEST

START_TEST(s3a_first_in_row_major_order)
{
    expect("__________\n#___#_____\n_#_#______\n__________\n__________\n"
           "__________\n__________\n__________\n__________\n__________\n",
           SEA_RULE_S3A, "the ship cell at x=2 y=3 touches the one at x=1 y=2 at a corner (S3a)");
}
END_TEST

START_TEST(s3a_rules_out_bent_and_thick_groups)
{
    /* an L and a 2x2 block break S3a, never S3b (D9) */
    expect("##________\n#_________\n__________\n__________\n__________\n"
           "__________\n__________\n__________\n__________\n__________\n",
           SEA_RULE_S3A, "the ship cell at x=1 y=2 touches the one at x=2 y=1 at a corner (S3a)");
    expect("__________\n__________\n__________\n__________\n____##____\n"
           "____##____\n__________\n__________\n__________\n__________\n",
           SEA_RULE_S3A, "the ship cell at x=5 y=6 touches the one at x=6 y=5 at a corner (S3a)");
}
END_TEST

/* ---- S3b -------------------------------------------------------------------------------------- */

START_TEST(s3b_horizontal_run_of_five)
{
    expect(with_line(1, "#####_____"), SEA_RULE_S3B, "the ship at x=1..5 y=1 is 5 cells long; the longest is 4 (S3b)");
}
END_TEST

START_TEST(s3b_vertical_run_of_six)
{
    expect("_________#\n_________#\n_________#\n_________#\n_________#\n"
           "_________#\n__________\n__________\n__________\n__________\n",
           SEA_RULE_S3B, "the ship at x=10 y=1..6 is 6 cells long; the longest is 4 (S3b)");
}
END_TEST

START_TEST(s3b_comes_before_s3c)
{
    /* a 5-run makes the fleet wrong too, but S3b is reported */
    expect("##########\n__________\n__________\n__________\n__________\n"
           "__________\n__________\n__________\n__________\n__________\n",
           SEA_RULE_S3B, "the ship at x=1..10 y=1 is 10 cells long; the longest is 4 (S3b)");
}
END_TEST

/* ---- S3c ------------------------------------------------------------------------------------ */

START_TEST(s3c_one_too_many)
{
    /* a fifth one-cell ship */
    expect(with_line(10, "_________#"), SEA_RULE_S3C,
           "the ship at x=10 y=10 is one of length 1 too many; the fleet has 4 (S3c)");
}
END_TEST

START_TEST(s3c_ends_touching_make_one_longer_ship)
{
    /* "##_##_##" -> "#####_##": one ship of 5 is S3b; "##_###" gives a third 3 */
    expect(with_line(5, "##_#####__"), SEA_RULE_S3B, "the ship at x=4..8 y=5 is 5 cells long; the longest is 4 (S3b)");
    expect(with_line(5, "#####_____"), SEA_RULE_S3B, NULL);
    expect(with_line(5, "##_###____"), SEA_RULE_S3C,
           "the ship at x=4..6 y=5 is one of length 3 too many; the fleet has 2 (S3c)");
}
END_TEST

START_TEST(s3c_too_few)
{
    expect(with_line(7, "#_#_#_____"), SEA_RULE_S3C, "only 3 ship(s) of length 1; the fleet has 4 (S3c)");
    expect(with_line(1, "__________"), SEA_RULE_S3C, "only 0 ship(s) of length 4; the fleet has 1 (S3c)");
}
END_TEST

/* The README board turned about its main diagonal: line y holds column y. */
static const char *transposed(const char *board)
{
    static char out[SEA_SIDE * (SEA_SIDE + 1) + 1];
    for (int y = 0; y < SEA_SIDE; y++) {
        for (int x = 0; x < SEA_SIDE; x++)
            out[y * (SEA_SIDE + 1) + x] = board[x * (SEA_SIDE + 1) + y];
        out[y * (SEA_SIDE + 1) + SEA_SIDE] = '\n';
    }
    out[sizeof out - 1] = '\0';
    return out;
}

START_TEST(s3c_vertical_ships_count)
{
    static struct sea_board b;
    struct sea_board_error err;
    struct sea_fleet fleet = sea_fleet_of(NULL);
    char buf[512];
    const char *lines[SEA_SIDE];
    sfx_split(transposed(README_BOARD), buf, sizeof buf, lines, SEA_SIDE);
    sea_board_init(&b);
    for (int y = 0; y < SEA_SIDE; y++)
        ck_assert_int_eq(sea_board_add_line(&b, lines[y], strlen(lines[y]), 64, &err), 0);
    ck_assert_int_eq(sea_board_finish(&b, &fleet, &err), 0);
    ck_assert_int_eq(b.n_ships, 10);
    ck_assert(b.ships[0].vertical && b.ships[0].len == 4 && b.ships[0].x == 1 && b.ships[0].y == 1);
    expect(with_line(1, "#_#_#_#__#"), SEA_RULE_S3C, NULL);
}
END_TEST

START_TEST(s3c_custom_fleet)
{
    struct sea_fleet one = {{0, 0, 0, 0, 1}};
    struct sea_board_error err;
    const char *lone = "__________\n__________\n___####___\n__________\n__________\n"
                       "__________\n__________\n__________\n__________\n__________\n";
    ck_assert_int_eq(sfx_check(lone, &one, &err), SEA_RULE_NONE);
    ck_assert_int_eq(sfx_check(README_BOARD, &one, &err), SEA_RULE_S3C);
    ck_assert_str_eq(err.msg, "the ship at x=1..3 y=3 is one of length 3 too many; the fleet has 0 (S3c)");
}
END_TEST

/* ---- the order of D11: line by line, S2 and S3a as each line arrives ------------------------------ */

START_TEST(d11_earlier_line_first)
{
    /* line 2 breaks S3a, line 5 breaks S2: line 2 is the first bad line */
    const char *board = "#_________\n_#________\n__________\n__________\nxx________\n"
                        "__________\n__________\n__________\n__________\n__________\n";
    expect(board, SEA_RULE_S3A, "the ship cell at x=2 y=2 touches the one at x=1 y=1 at a corner (S3a)");
}
END_TEST

START_TEST(d11_s2_before_s3a_in_one_line)
{
    expect(with_line(2, "____#____x"), SEA_RULE_S2, "board line 2, column 10: 'x' is neither '_' nor '#' (S2)");
}
END_TEST

START_TEST(d11_s3a_before_s3b)
{
    const char *board = "#####_____\n_____#____\n__________\n__________\n__________\n"
                        "__________\n__________\n__________\n__________\n__________\n";
    expect(board, SEA_RULE_S3A, NULL);
}
END_TEST

/* ---- shots on a finished board (S5) ---------------------------------------------------- */

START_TEST(s5_shots_on_a_board)
{
    struct sea_board b;
    struct sea_board_error err;
    struct sea_fleet fleet = sea_fleet_of(NULL);
    char buf[512];
    const char *lines[SEA_SIDE];
    sfx_split(README_BOARD, buf, sizeof buf, lines, SEA_SIDE);
    sea_board_init(&b);
    for (int y = 0; y < SEA_SIDE; y++)
        ck_assert_int_eq(sea_board_add_line(&b, lines[y], strlen(lines[y]), 64, &err), 0);
    ck_assert_int_eq(sea_board_finish(&b, &fleet, &err), 0);
    ck_assert_int_eq(b.n_ships, 10);
    ck_assert_int_eq(b.ship_cells, 20);
    ck_assert_int_eq(sea_board_shoot(&b, 10, 10), SEA_MISS);
    ck_assert_int_eq(sea_board_shoot(&b, 10, 10), SEA_MISS);
    ck_assert_int_eq(sea_board_shoot(&b, 1, 5), SEA_HIT);
    ck_assert_int_eq(sea_board_shoot(&b, 1, 5), SEA_MISS);   /* a ship cell already hit */
    ck_assert_int_eq(sea_board_shoot(&b, 2, 5), SEA_SUNK);
    ck_assert_int_eq(sea_board_shoot(&b, 2, 5), SEA_MISS);
    ck_assert_int_eq(sea_board_shoot(&b, 1, 7), SEA_SUNK);   /* a one-cell ship */
    ck_assert_int_eq(b.cells_hit, 3);
}
END_TEST

static Suite *board_suite(void)
{
    Suite *s = suite_create("seabattle_board");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, spec_boards_are_valid);
    tcase_add_test(tc, s2_line_of_nine_cells);
    tcase_add_test(tc, s2_line_of_eleven_cells);
    tcase_add_test(tc, s2_other_character);
    tcase_add_test(tc, s2_space_inside);
    tcase_add_test(tc, s2_empty_line);
    tcase_add_test(tc, s2_surrounding_spaces_and_cr_tolerated);
    tcase_add_test(tc, s2_control_byte);
    tcase_add_test(tc, s2_line_longer_than_max_line_bytes);
    tcase_add_test(tc, s2_eleventh_line_refused);
    tcase_add_test(tc, s2_finish_before_ten_lines);
    tcase_add_test(tc, s3a_above_left);
    tcase_add_test(tc, s3a_above_left_first);
    tcase_add_test(tc, s3a_only_above_right);
    tcase_add_test(tc, s3a_first_in_row_major_order);
    tcase_add_test(tc, s3a_rules_out_bent_and_thick_groups);
    tcase_add_test(tc, s3b_horizontal_run_of_five);
    tcase_add_test(tc, s3b_vertical_run_of_six);
    tcase_add_test(tc, s3b_comes_before_s3c);
    tcase_add_test(tc, s3c_one_too_many);
    tcase_add_test(tc, s3c_ends_touching_make_one_longer_ship);
    tcase_add_test(tc, s3c_too_few);
    tcase_add_test(tc, s3c_vertical_ships_count);
    tcase_add_test(tc, s3c_custom_fleet);
    tcase_add_test(tc, d11_earlier_line_first);
    tcase_add_test(tc, d11_s2_before_s3a_in_one_line);
    tcase_add_test(tc, d11_s3a_before_s3b);
    tcase_add_test(tc, s5_shots_on_a_board);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(board_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
