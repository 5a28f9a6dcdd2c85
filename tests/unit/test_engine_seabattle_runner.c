/* test_engine_seabattle_runner.c - what sea battle gives the runner beyond the rules: each reply's
 * wall limit (§6, D12), board lines checked as they arrive (D11) and the parameters as a whole
 * (D14). */
#include "tests/unit/seabattle_fixture.h"

static struct game_reply_wall wall_of(struct sea_fixture *f, int p)
{
    struct game_reply_wall w = {.ms = 12345, .param = "unset"};
    seabattle_rules.reply_wall(f->g, p, &w);
    return w;
}

START_TEST(wall_board_from_start_then_shots)
{
    struct sea_fixture f;
    sfx_init(&f);
    f.params[SP_BOARD_WALL_MS] = 700;
    f.params[SP_MOVE_WALL_MS] = 300;
    sfx_start(&f);
    struct game_reply_wall w = wall_of(&f, 2);
    ck_assert_uint_eq(w.ms, 700);
    ck_assert(w.from_start);
    ck_assert_str_eq(w.param, "board_wall_ms");
    ck_assert_int_eq(sfx_board(&f, 1, README_BOARD), VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(&f, 2, README_BOARD), VIOLATION_NONE);
    w = wall_of(&f, 1);
    ck_assert_uint_eq(w.ms, 300);
    ck_assert(!w.from_start);
    ck_assert_str_eq(w.param, "move_wall_ms");
    sfx_free(&f);
}
END_TEST

START_TEST(wall_board_off)
{
    struct sea_fixture f;
    sfx_init(&f);
    f.params[SP_BOARD_WALL_MS] = 0;
    sfx_start(&f);
    ck_assert_uint_eq(wall_of(&f, 1).ms, 0);
    sfx_free(&f);
}
END_TEST

/* Lines of a board string checked one by one: the index of the first refused, or -1. */
static int first_refused(struct sea_fixture *f, int p, const char *board, struct game_verdict *v)
{
    char buf[2048];
    const char *lines[SEA_SIDE];
    int n = sfx_split(board, buf, sizeof buf, lines, SEA_SIDE);
    for (int i = 0; i < n && i < SEA_SIDE - 1; i++) {
        ck_assert_int_eq(seabattle_rules.reply_line_check(f->g, p, i, lines[i], strlen(lines[i]), v), 0);
        if (v->kind != VIOLATION_NONE)
            return i;
    }
    return -1;
}

START_TEST(d11_line_check_s2_at_once)
{
    struct sea_fixture f;
    struct game_verdict v;
    sfx_init(&f);
    sfx_start(&f);
    ck_assert_int_eq(first_refused(&f, 1, "####______\n__________\n###_###___\n#_#\n", &v), 3);
    ck_assert_int_eq(v.kind, VIOLATION_INVALID_OUTPUT);
    ck_assert_str_eq(v.reason, "board line 4 has 3 cells, not 10 (S2)");
    /* submit with the lines so far gives the same verdict and ends the board */
    const char *lines[4] = {"####______", "__________", "###_###___", "#_#"};
    struct game_verdict s;
    ck_assert_int_eq(seabattle_rules.submit(f.g, 1, lines, 4, &s), 0);
    ck_assert_int_eq(s.kind, VIOLATION_INVALID_OUTPUT);
    ck_assert_str_eq(s.reason, v.reason);
    ck_assert_str_eq(sfx_events(&f), "{\"t\":\"board_invalid\",\"round\":0,\"player\":1,\"by\":\"invalid_output\","
                                     "\"rule\":\"S2\"}\n");
    ck_assert_int_eq(sfx_pending(&f), 2);
    sfx_free(&f);
}
END_TEST

START_TEST(d11_line_check_s3a_at_once)
{
    struct sea_fixture f;
    struct game_verdict v;
    sfx_init(&f);
    sfx_start(&f);
    ck_assert_int_eq(first_refused(&f, 2, "####______\n____#_____\n__________\n", &v), 1);
    ck_assert_int_eq(v.kind, VIOLATION_INVALID_MOVE);
    ck_assert_str_eq(v.reason, "the ship cell at x=5 y=2 touches the one at x=4 y=1 at a corner (S3a)");
    sfx_free(&f);
}
END_TEST

START_TEST(d11_good_lines_pass_and_partial_submit_refused)
{
    struct sea_fixture f;
    struct game_verdict v;
    sfx_init(&f);
    sfx_start(&f);
    ck_assert_int_eq(first_refused(&f, 1, README_BOARD, &v), -1);
    /* a reply cut short whose last line is fine is a malformed call: nothing changes */
    const char *lines[2] = {"####______", "__________"};
    ck_assert_int_eq(seabattle_rules.submit(f.g, 1, lines, 2, &v), -1);
    ck_assert_int_eq(sfx_pending(&f), 3);
    ck_assert_str_eq(sfx_events(&f), "");
    /* a new reply starts again at line 0; out of order is refused */
    ck_assert_int_eq(seabattle_rules.reply_line_check(f.g, 1, 0, "__________", 10, &v), 0);
    ck_assert_int_eq(seabattle_rules.reply_line_check(f.g, 1, 2, "__________", 10, &v), -1);
    ck_assert_int_eq(sfx_board(&f, 1, README_BOARD), VIOLATION_NONE);
    ck_assert_int_eq(seabattle_rules.reply_line_check(f.g, 1, 0, "__________", 10, &v), -1); /* not pending */
    sfx_free(&f);
}
END_TEST

START_TEST(d14_params_as_a_whole)
{
    int64_t params[SP_COUNT];
    struct game_error err;
    int param = -1;
    game_params_defaults(&seabattle_rules, params);
    ck_assert_int_eq(seabattle_rules.params_check(params, &param, &err), 0);
    params[SP_SHIPS_1] = params[SP_SHIPS_2] = params[SP_SHIPS_3] = 0;
    ck_assert_int_eq(seabattle_rules.params_check(params, &param, &err), 0);
    params[SP_SHIPS_4] = 0;
    ck_assert_int_eq(seabattle_rules.params_check(params, &param, &err), -1);
    ck_assert_str_eq(seabattle_params[param].name, "ships_1");
    ck_assert_str_eq(err.msg, "the fleet has no ship: ships_1..ships_4 are all 0 (D14)");
}
END_TEST

static Suite *runner_suite(void)
{
    Suite *s = suite_create("seabattle_runner");
    TCase *tc = tcase_create("entries");
    tcase_add_test(tc, wall_board_from_start_then_shots);
    tcase_add_test(tc, wall_board_off);
    tcase_add_test(tc, d11_line_check_s2_at_once);
    tcase_add_test(tc, d11_line_check_s3a_at_once);
    tcase_add_test(tc, d11_good_lines_pass_and_partial_submit_refused);
    tcase_add_test(tc, d14_params_as_a_whole);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(runner_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
