/* test_engine_generals_protocol.c - what the bots read and write (generals.md §5, §10, D13, D17). */
#include "tests/unit/generals_fixture.h"

#define P1_ROUND1                                                                              \
    "1\n1 1\n1 1\n"                                                                            \
    "1 3 1 1\n1 1 0 0\n0 2\n1 4\n1 1 0 0\n0 1\n"
#define P2_ROUND1                                                                              \
    "1\n1 1\n1 1\n"                                                                            \
    "0 1\n1 1 0 0\n1 2 0 40\n0 2\n1 1 0 0\n1 3 2 1\n"
#define P1_ROUND3                                                                              \
    "1\n2 1\n2 1\n"                                                                            \
    "1 3 1 2\n1 1 0 0\n0 2\n1 4\n1 1 0 0\n0 1\n"
#define P2_ROUND3                                                                              \
    "1\n2 2\n2 1\n"                                                                            \
    "0 1\n1 1 1 1\n1 2 0 40\n0 2\n1 1 0 0\n1 3 2 2\n"

/* The §5 example, up to player 2's reply in round 3; log and events are collected. */
static void play_spec_example(struct fixture *f, struct strbuf *log)
{
    fx_init(f);
    fx_start(f, SPEC_MAP); /* a seed found with the rng functions so that π = (1, 2) */
    if (log)
        generals_rules.set_log(f->g, log);
    ck_assert_str_eq(fx_outbox(f, 1), "2 3 2 1\n");
    ck_assert_str_eq(fx_outbox(f, 2), "2 3 2 2\n");
    ck_assert_str_eq(fx_prompt(f, 1), P1_ROUND1);
    ck_assert_int_eq(fx_reply(f, 1, "1 1 1 1 2"), VIOLATION_NONE);
    ck_assert_str_eq(fx_prompt(f, 2), P2_ROUND1);
    ck_assert_int_eq(fx_reply(f, 2, "-1"), VIOLATION_NONE);
    ck_assert_int_eq(generals_rules.round(f->g), 2);
    ck_assert_str_eq(fx_prompt(f, 1), P1_ROUND1);
    ck_assert_int_eq(fx_reply(f, 1, "-1"), VIOLATION_NONE);
    ck_assert_str_eq(fx_prompt(f, 2), P2_ROUND1);
    ck_assert_int_eq(fx_reply(f, 2, "-1"), VIOLATION_NONE);
    ck_assert_str_eq(fx_prompt(f, 1), P1_ROUND3);
    ck_assert_int_eq(fx_reply(f, 1, "2 1 1 1 2"), VIOLATION_NONE);
    ck_assert_str_eq(fx_prompt(f, 2), P2_ROUND3);
    ck_assert_int_eq(fx_reply(f, 2, "1 2 3 2 1"), VIOLATION_INVALID_MOVE);
}

START_TEST(spec_example_byte_for_byte)
{
    struct fixture f;
    play_spec_example(&f, NULL);
    ck_assert(generals_rules.over(f.g));
    ck_assert_str_eq(fx_outbox(&f, 2), "0\n");
    ck_assert_str_eq(fx_outbox(&f, 1), "0\n");
    ck_assert(generals_rules.player_done(f.g, 1));
    ck_assert(generals_rules.player_done(f.g, 2));
    ck_assert_int_eq(fx_pending(&f), 0);
    ck_cell(&f, 2, 3, CELL_CITY, 0, 2);
    struct game_result r;
    ck_assert_int_eq(generals_rules.result(f.g, &r), 0);
    ck_assert_int_eq(r.winner, 1);
    ck_assert(!r.draw);
    ck_assert_int_eq(r.rounds, 3);
    ck_assert_int_eq(r.p[2].violation, VIOLATION_INVALID_MOVE);
    fx_free(&f);
}
END_TEST

START_TEST(spec_example_log)
{
    struct fixture f;
    struct strbuf log = STRBUF_INIT;
    play_spec_example(&f, &log);
    ck_assert_str_eq(log.data,
                     "2 3 2 0\n"
                     /* round 1: player 1's no-op move */
                     "1\n1 1\n1 1\n1 3 1 1\n1 1 0 0\n1 2 0 40\n1 4\n1 1 0 0\n1 3 2 1\n"
                     /* growth of round 2 */
                     "1\n2 1\n2 1\n1 3 1 2\n1 1 0 0\n1 2 0 40\n1 4\n1 1 0 0\n1 3 2 2\n"
                     /* round 3: player 1 takes (1,2) */
                     "1\n2 2\n2 1\n1 3 1 1\n1 1 1 1\n1 2 0 40\n1 4\n1 1 0 0\n1 3 2 2\n"
                     /* player 2's invalid move, after G12 (D15) */
                     "1\n2 2\n0 0\n1 3 1 1\n1 1 1 1\n1 2 0 40\n1 4\n1 1 0 0\n1 2 0 2\n"
                     "0\n");
    sb_free(&log);
    fx_free(&f);
}
END_TEST

START_TEST(spec_example_events)
{
    struct fixture f;
    play_spec_example(&f, NULL);
    struct strbuf ev = STRBUF_INIT;
    ck_assert_int_eq(generals_rules.take_events(f.g, &ev), 0);
    ck_assert_str_eq(
        ev.data,
        "{\"t\":\"start\",\"round\":0,\"order\":[1,2],\"cells\":[[1,1,3,1,1],[2,3,3,2,1]]}\n"
        "{\"t\":\"move\",\"round\":1,\"player\":1,\"move\":[1,1,1,1,2],\"cells\":[]}\n"
        "{\"t\":\"pass\",\"round\":1,\"player\":2}\n"
        "{\"t\":\"pass\",\"round\":2,\"player\":1}\n"
        "{\"t\":\"pass\",\"round\":2,\"player\":2}\n"
        "{\"t\":\"growth\",\"round\":2,\"cities\":1,\"land\":0}\n"
        "{\"t\":\"move\",\"round\":3,\"player\":1,\"move\":[2,1,1,1,2],\"cells\":[[1,1,3,1,1],[1,2,1,1,1]]}\n"
        "{\"t\":\"eliminated\",\"round\":3,\"player\":2,\"by\":\"invalid_move\",\"cells\":[[2,3,2,0,2]]}\n"
        "{\"t\":\"end\",\"round\":3,\"reason\":\"last_player\"}\n");
    sb_reset(&ev);
    ck_assert_int_eq(generals_rules.take_events(f.g, &ev), 0);
    ck_assert_uint_eq(ev.len, 0);
    sb_free(&ev);
    fx_free(&f);
}
END_TEST

START_TEST(header_line_goes_to_every_bot_at_once)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, "1 3 3\n3\n3\n3\n");
    ck_assert_str_eq(fx_outbox(&f, 1), "1 3 3 1\n");
    ck_assert_str_eq(fx_outbox(&f, 1), "");
    ck_assert_str_eq(fx_outbox(&f, 2), "1 3 3 2\n");
    /* The game ends before player 3's first turn: it still reads the header first (D13). */
    ck_assert_int_eq(fx_reply(&f, 1, "x"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(fx_reply(&f, 2, "x"), VIOLATION_INVALID_OUTPUT);
    ck_assert(generals_rules.over(f.g));
    ck_assert_str_eq(fx_outbox(&f, 3), "1 3 3 3\n0\n");
    ck_assert_str_eq(fx_outbox(&f, 2), "0\n");
    fx_free(&f);
}
END_TEST

/* D17: how one line is read, and what it costs the player. */
static enum violation_kind first_reply_kind(const char *line)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, SPEC_MAP);
    enum violation_kind k = fx_reply(&f, 1, line);
    bool eliminated = generals_rules.player_done(f.g, 1);
    ck_assert_int_eq(eliminated, k != VIOLATION_NONE);
    fx_free(&f);
    return k;
}

START_TEST(minus_one_passes_in_any_spelling)
{
    ck_assert_int_eq(first_reply_kind("-1"), VIOLATION_NONE);
    ck_assert_int_eq(first_reply_kind("-01"), VIOLATION_NONE);
    ck_assert_int_eq(first_reply_kind("  -1  \r"), VIOLATION_NONE);
    ck_assert_int_eq(first_reply_kind("-1\n"), VIOLATION_NONE);
}
END_TEST

START_TEST(a_single_other_number_is_invalid_output)
{
    ck_assert_int_eq(first_reply_kind("5"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("1"), VIOLATION_INVALID_OUTPUT);
}
END_TEST

START_TEST(four_or_six_numbers_are_invalid_output)
{
    ck_assert_int_eq(first_reply_kind("1 2 3 4"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("1 1 1 1 2 1"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("-1 -1"), VIOLATION_INVALID_OUTPUT);
}
END_TEST

START_TEST(a_token_that_is_not_a_number_is_invalid_output)
{
    ck_assert_int_eq(first_reply_kind("1 1 1 1 x"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("pass"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("1 1 1 1 +2"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("1 1 1 1 1234567890123456789"), VIOLATION_INVALID_OUTPUT);
}
END_TEST

START_TEST(empty_line_tab_and_control_bytes_are_invalid_output)
{
    ck_assert_int_eq(first_reply_kind(""), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("   "), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("1\t1 1 1 2"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("1 1 1 1 2\x1b"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(first_reply_kind("-1\xff"), VIOLATION_INVALID_OUTPUT);
}
END_TEST

START_TEST(line_longer_than_max_line_bytes_is_invalid_output)
{
    char line[300];
    memset(line, ' ', sizeof line);
    memcpy(line, "-1", 2);
    line[256] = '\0'; /* 256 bytes: allowed */
    ck_assert_int_eq(first_reply_kind(line), VIOLATION_NONE);
    line[256] = '\r'; /* the '\r' counts too (D17) */
    line[257] = '\0';
    ck_assert_int_eq(first_reply_kind(line), VIOLATION_INVALID_OUTPUT);
}
END_TEST

START_TEST(five_numbers_out_of_range_are_an_invalid_move)
{
    ck_assert_int_eq(first_reply_kind("3 1 1 1 2"), VIOLATION_INVALID_MOVE);
    ck_assert_int_eq(first_reply_kind("1 0 1 1 1"), VIOLATION_INVALID_MOVE);
    ck_assert_int_eq(first_reply_kind("1 1 1 1 4"), VIOLATION_INVALID_MOVE);
    ck_assert_int_eq(first_reply_kind("1 -5 -5 -5 -4"), VIOLATION_INVALID_MOVE);
    ck_assert_int_eq(first_reply_kind("1 999999999999999999 1 1 1"), VIOLATION_INVALID_MOVE);
}
END_TEST

START_TEST(verdict_reason_says_why)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, SPEC_MAP);
    struct game_verdict v;
    const char *lines[1] = {"1 1 1 2 2"};
    ck_assert_int_eq(generals_rules.submit(f.g, 1, lines, 1, &v), 0);
    ck_assert_int_eq(v.kind, VIOLATION_INVALID_MOVE);
    ck_assert_str_eq(v.reason, "(1, 1) and (2, 2) are not adjacent");
    fx_free(&f);
    fx_init(&f);
    fx_start(&f, SPEC_MAP);
    lines[0] = "1 1 1 1 x";
    ck_assert_int_eq(generals_rules.submit(f.g, 1, lines, 1, &v), 0);
    ck_assert_int_eq(v.kind, VIOLATION_INVALID_OUTPUT);
    ck_assert_str_eq(v.reason, "column 9: 'x' is not a number");
    fx_free(&f);
}
END_TEST

START_TEST(fog_hides_cities_and_mountains_as_0_2_and_the_rest_as_0_1)
{
    /* Row 1: capital 1, empty, empty, city 7, capital 2. Row 2: mountain, empty x3, mountain. */
    struct fixture f;
    fx_init(&f);
    fx_start(&f, "2 5 2\n3\n1\n1\n2 7\n3\n4\n1\n1\n1\n4\n");
    ck_assert_str_eq(fx_prompt(&f, 1), "1\n1 1\n1 1\n"
                                        "1 3 1 1\n1 1 0 0\n0 1\n0 2\n0 1\n"
                                        "1 4\n1 1 0 0\n0 1\n0 1\n0 2\n");
    ck_assert_int_eq(fx_reply(&f, 1, "-1"), VIOLATION_NONE);
    ck_assert_str_eq(fx_prompt(&f, 2), "1\n1 1\n1 1\n"
                                        "0 1\n0 1\n0 1\n1 2 0 7\n1 3 2 1\n"
                                        "0 2\n0 1\n0 1\n1 1 0 0\n1 4\n");
    fx_free(&f);
}
END_TEST

START_TEST(vision_radius_two_sees_further)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_VISION_RADIUS] = 2;
    fx_start(&f, "1 5 2\n3\n1\n2 9\n4\n3\n");
    ck_assert_str_eq(fx_prompt(&f, 1), "1\n1 1\n1 1\n1 3 1 1\n1 1 0 0\n1 2 0 9\n0 2\n0 1\n");
    fx_free(&f);
}
END_TEST

START_TEST(vision_radius_zero_sees_only_own_cells)
{
    struct fixture f;
    fx_init(&f);
    f.params[GP_VISION_RADIUS] = 0;
    fx_start(&f, "1 3 2\n3\n2 5\n3\n");
    ck_assert_str_eq(fx_prompt(&f, 1), "1\n1 1\n1 1\n1 3 1 1\n0 2\n0 1\n");
    fx_free(&f);
}
END_TEST

START_TEST(captured_capital_is_hidden_as_a_city)
{
    /* 1 x 5, capitals at columns 1, 3, 5; vision 0, so player 3 sees only its own cell. */
    struct fixture f;
    fx_init(&f);
    f.params[GP_VISION_RADIUS] = 0;
    f.params[GP_CAPITAL_START_ARMY] = 5;
    fx_start(&f, "1 5 3\n3\n1\n3\n1\n3\n");
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 1 1 2"), VIOLATION_NONE);
    ck_assert_int_eq(fx_reply(&f, 2, "1 1 3 1 4"), VIOLATION_NONE);
    ck_assert_int_eq(fx_reply(&f, 3, "-1"), VIOLATION_NONE);
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 2 1 3"), VIOLATION_NONE); /* 3 units beat 1 */
    ck_cell(&f, 1, 3, CELL_CITY, 1, 2);
    ck_assert_str_eq(fx_prompt(&f, 3), "1\n6 4\n0 0\n5 1\n0 1\n0 1\n0 2\n0 1\n1 3 3 5\n");
    fx_free(&f);
}
END_TEST

/* Does viewer see cell c? Counted afresh from the owners (G14). */
static bool plain_sees(const struct generals_board *b, int viewer, size_t c)
{
    int i = (int)(c / (size_t)b->m), j = (int)(c % (size_t)b->m), r = b->vision_radius;
    for (size_t d = 0; viewer && d < b->cells; d++)
        if (b->owner[d] == viewer && abs((int)(d / (size_t)b->m) - i) <= r &&
            abs((int)(d % (size_t)b->m) - j) <= r)
            return true;
    return viewer == 0;
}

/* The §5 state written the plain way, one cell at a time, from the board alone. */
static void plain_state(const struct generals_board *b, int viewer, struct strbuf *out)
{
    sb_reset(out);
    sb_puts(out, "1\n");
    for (int p = 1; p <= b->k; p++)
        sb_printf(out, "%lld %lld\n", (long long)b->army[p], (long long)b->land[p]);
    for (size_t c = 0; c < b->cells; c++) {
        int t = b->type[c];
        if (!plain_sees(b, viewer, c))
            sb_puts(out, t == CELL_CITY || t == CELL_MOUNTAIN ? "0 2\n" : "0 1\n");
        else if (t == CELL_MOUNTAIN)
            sb_puts(out, "1 4\n");
        else
            sb_printf(out, "1 %d %d %lld\n", t, b->owner[c], (long long)b->units[c]);
    }
}

START_TEST(every_state_matches_a_plain_rendering_in_random_play)
{
    /* Sizes that are no multiple of 4, cities and mountains, vision radius 0..2. */
    struct rng r = rng_stream((uint64_t)_i, "test/state-render");
    struct game_option opts[] = {{"rows", 5 + _i % 4}, {"cols", 9}, {"players", 2 + _i % 3},
                                 {"cities", 8}, {"city_army_min", 0}, {"city_army_max", 2}};
    struct fixture f;
    struct strbuf plain = STRBUF_INIT, frame = STRBUF_INIT;
    fx_init(&f);
    f.params[GP_CAPITAL_START_ARMY] = 15;
    f.params[GP_VISION_RADIUS] = _i % 3;
    f.params[GP_TURN_LIMIT] = 100;
    f.params[GP_LAND_GROWTH_PERIOD] = 4;
    fx_start_generated(&f, opts, 6, (uint64_t)_i);
    while (!generals_rules.over(f.g)) {
        int p = fx_pending(&f);
        plain_state(fx_board(&f), p, &plain);
        ck_assert_str_eq(fx_prompt(&f, p), plain.data);
        plain_state(fx_board(&f), 0, &plain);
        sb_reset(&frame);
        ck_assert_int_eq(generals_board_write_state(fx_board(&f), 0, &frame), 0);
        ck_assert_str_eq(frame.data, plain.data);
        char line[64];
        fx_random_reply(fx_board(&f), p, &r, line, sizeof line);
        fx_reply(&f, p, line);
    }
    sb_free(&plain);
    sb_free(&frame);
    fx_free(&f);
}
END_TEST

START_TEST(runner_violation_eliminates_the_pending_player)
{
    struct fixture f;
    struct strbuf log = STRBUF_INIT;
    fx_init(&f);
    fx_start(&f, "1 4 3\n3\n1\n3\n3\n");
    generals_rules.set_log(f.g, &log);
    fx_outbox(&f, 1);
    ck_assert_int_eq(generals_rules.violation(f.g, 2, VIOLATION_TIME), -1); /* not its turn */
    ck_assert_int_eq(generals_rules.violation(f.g, 1, VIOLATION_NONE), -1);
    ck_assert_int_eq(generals_rules.violation(f.g, 1, VIOLATION_TIME), 0);
    ck_assert_str_eq(fx_outbox(&f, 1), "0\n");
    ck_assert(generals_rules.player_done(f.g, 1));
    ck_assert(!generals_rules.over(f.g));
    ck_assert_int_eq(fx_pending(&f), 2);
    ck_cell(&f, 1, 1, CELL_CITY, 0, 1);
    /* One frame for the elimination (§10), already without player 1's cells. */
    ck_assert_str_eq(log.data, "1 4 3 0\n1\n0 0\n1 1\n1 1\n1 2 0 1\n1 1 0 0\n1 3 2 1\n1 3 3 1\n");
    struct game_result r;
    generals_rules.result(f.g, &r);
    ck_assert_int_eq(r.p[1].violation, VIOLATION_TIME);
    ck_assert_int_eq(r.p[1].eliminated_at, 1);
    sb_free(&log);
    fx_free(&f);
}
END_TEST

START_TEST(calls_for_a_player_out_of_turn_fail)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, SPEC_MAP);
    struct strbuf out = STRBUF_INIT;
    struct game_verdict v;
    const char *lines[1] = {"-1"};
    ck_assert_int_eq(generals_rules.prompt(f.g, 2, &out), -1);
    ck_assert_int_eq(generals_rules.submit(f.g, 2, lines, 1, &v), -1);
    ck_assert_int_eq(generals_rules.submit(f.g, 1, lines, 2, &v), -1);
    ck_assert_int_eq(generals_rules.outbox(f.g, 3, &out), -1);
    ck_assert_int_eq(generals_rules.reply_lines(f.g, 1), 1);
    ck_assert_int_eq(fx_pending(&f), 1);
    sb_free(&out);
    fx_free(&f);
}
END_TEST

START_TEST(eliminated_player_reads_0_0_in_the_totals)
{
    struct fixture f;
    fx_init(&f);
    fx_start(&f, "1 3 3\n3\n3\n3\n");
    ck_assert_int_eq(fx_reply(&f, 1, "1 1 1 1 1"), VIOLATION_INVALID_MOVE);
    ck_assert_str_eq(fx_prompt(&f, 2), "1\n0 0\n1 1\n1 1\n1 2 0 1\n1 3 2 1\n1 3 3 1\n");
    fx_free(&f);
}
END_TEST

START_TEST(log_attached_after_the_end_is_complete)
{
    struct fixture f;
    struct strbuf log = STRBUF_INIT;
    play_spec_example(&f, NULL);
    generals_rules.set_log(f.g, &log);
    ck_assert_str_eq(log.data, "2 3 2 0\n0\n");
    generals_rules.set_log(f.g, NULL);
    sb_free(&log);
    fx_free(&f);
}
END_TEST

static Suite *protocol_suite(void)
{
    Suite *s = suite_create("generals_protocol");
    TCase *golden = tcase_create("golden");
    tcase_add_test(golden, spec_example_byte_for_byte);
    tcase_add_test(golden, spec_example_log);
    tcase_add_test(golden, spec_example_events);
    tcase_add_test(golden, header_line_goes_to_every_bot_at_once);
    suite_add_tcase(s, golden);
    TCase *reading = tcase_create("reading");
    tcase_add_test(reading, minus_one_passes_in_any_spelling);
    tcase_add_test(reading, a_single_other_number_is_invalid_output);
    tcase_add_test(reading, four_or_six_numbers_are_invalid_output);
    tcase_add_test(reading, a_token_that_is_not_a_number_is_invalid_output);
    tcase_add_test(reading, empty_line_tab_and_control_bytes_are_invalid_output);
    tcase_add_test(reading, line_longer_than_max_line_bytes_is_invalid_output);
    tcase_add_test(reading, five_numbers_out_of_range_are_an_invalid_move);
    tcase_add_test(reading, verdict_reason_says_why);
    suite_add_tcase(s, reading);
    TCase *state = tcase_create("state");
    tcase_add_test(state, fog_hides_cities_and_mountains_as_0_2_and_the_rest_as_0_1);
    tcase_add_test(state, vision_radius_two_sees_further);
    tcase_add_test(state, vision_radius_zero_sees_only_own_cells);
    tcase_add_test(state, captured_capital_is_hidden_as_a_city);
    tcase_add_test(state, eliminated_player_reads_0_0_in_the_totals);
    tcase_add_loop_test(state, every_state_matches_a_plain_rendering_in_random_play, 0, 12);
    suite_add_tcase(s, state);
    TCase *runner = tcase_create("runner");
    tcase_add_test(runner, runner_violation_eliminates_the_pending_player);
    tcase_add_test(runner, calls_for_a_player_out_of_turn_fail);
    tcase_add_test(runner, log_attached_after_the_end_is_complete);
    suite_add_tcase(s, runner);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(protocol_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
