/* test_engine_warlight_log.c - the §10 log (D17) and the replay events, line by line.
 * Seed 42 with 2 players: player 0 starts on (3,5), player 1 on (4,6) (see the rng test). */
#include "tests/unit/warlight_fixture.h"

static void game(struct wfix *f)
{
    wf_init(f);
    wf_set(f, "rounds", 1);
    wf_set(f, "turn_limit", 2);
    wf_set(f, "max_output_bytes", 100);
    wf_create(f, 42, 2);
}

/* The row lines of the board now. */
static void rows_now(struct wfix *f, struct strbuf *out)
{
    const struct warlight_board *b = warlight_board_of(f->g);
    for (int r = 0; r < 10; r++) {
        sb_printf(out, "row %d", r);
        for (int c = 0; c < 10; c++)
            sb_printf(out, " %d,%lld", b->owner[r * 10 + c], (long long)b->armies[r * 10 + c]);
        sb_putc(out, '\n');
    }
}

START_TEST(d17_header_param_lines_and_round_preamble)
{
    struct wfix f;
    game(&f);
    warlight_rules.set_log(f.g, &f.log);
    static const char head[] = "warlight 10 10 2 1 2 0\n"
                               "param rounds 1\n"
                               "param turn_limit 2\n"
                               "param max_output_bytes 100\n"
                               "round 1\n"
                               "bonus 0 6 5,6 5,7 5,8 6,4 6,5 6,7 6,8 6,9 7,8 7,9\n"
                               "bonus 1 6 3,5 4,3 4,4 5,1 5,2 5,3 6,2 7,3 8,3 9,2\n";
    ck_assert_msg(strncmp(f.log.data, head, sizeof head - 1) == 0, "%s", f.log.data);
    ck_assert_msg(strstr(f.log.data, "bonus 9 10 2,6 3,3 3,4 3,6 4,5 4,6 4,7 5,4 5,5 6,3\n"
                                     "start 0 3,5\nstart 1 4,6\n") != NULL, "%s", f.log.data);
    ck_assert(f.log.data[f.log.len - 1] == '\n');
    ck_assert(strstr(f.log.data, "start 1 4,6\n")[12] == '\0');
    wf_free(&f);
}
END_TEST

START_TEST(d17_default_parameters_make_no_param_line)
{
    struct wfix f;
    wf_init(&f);
    wf_create(&f, 1, 2);
    warlight_rules.set_log(f.g, &f.log);
    ck_assert(strncmp(f.log.data, "warlight 10 10 2 20 1000 0\nround 1\nbonus 0 ", 43) == 0);
    wf_free(&f);
}
END_TEST

START_TEST(d17_a_turn_in_the_log)
{
    struct wfix f;
    game(&f);
    warlight_rules.set_log(f.g, &f.log);
    size_t before = f.log.len;
    ck_assert_int_eq(wf_say(&f, 1, "3,5,02 3,5,3\n3,5,2,4,9 3,5,9,9,1 3,5,2,4,9\n"), VIOLATION_NONE);
    ck_assert_int_eq(wf_say(&f, 2, "4,6,5"), VIOLATION_NONE);
    struct strbuf want = STRBUF_INIT;
    sb_puts(&want, "turn 1\nplayer 0 5 ok\nplayer 1 5 ok\n"
                   "deploy 0 3,5,2 3,5,3\ndeploy 1 4,6,5\n"
                   "move 0 3,5,2,4,9 9 capture\nmove 0 3,5,2,4,9 0 nothing-left\n");
    rows_now(&f, &want);
    ck_assert_str_eq(f.log.data + before, want.data);
    const struct warlight_board *b = warlight_board_of(f.g);
    ck_assert_int_eq(b->owner[24], 0);
    ck_assert_int_eq(b->armies[24], 8);
    ck_assert_int_eq(b->armies[35], 1);
    ck_assert_int_eq(b->armies[46], 10);

    before = f.log.len;
    ck_assert_int_eq(wf_say(&f, 1, "3,5,5\nzzz\n"), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(wf_out(&f, 2, "", 0), VIOLATION_INVALID_OUTPUT);
    sb_reset(&want);
    sb_puts(&want, "turn 2\nplayer 0 5 badmoves\nplayer 1 5 skip-nooutput\ndeploy 0 3,5,5\n");
    rows_now(&f, &want);
    sb_puts(&want, "endround 1 50 50\ntotal 50 50\n");
    ck_assert_str_eq(f.log.data + before, want.data);
    sb_free(&want);
    wf_free(&f);
}
END_TEST

START_TEST(set_log_null_stops_logging)
{
    struct wfix f;
    game(&f);
    warlight_rules.set_log(f.g, &f.log);
    warlight_rules.set_log(f.g, NULL);
    size_t len = f.log.len;
    wf_out(&f, 1, "", 0);
    wf_out(&f, 2, "", 0);
    ck_assert_uint_eq(f.log.len, len);
    wf_free(&f);
}
END_TEST

START_TEST(events_of_a_round_and_its_turns)
{
    struct wfix f;
    game(&f);
    const char *ev = wf_events(&f);
    static const char head[] = "{\"t\":\"round\",\"round\":1,\"bonuses\":[{\"id\":0,\"value\":6,"
                               "\"cells\":[[5,6],[5,7],[5,8],[6,4],[6,5],[6,7],[6,8],[6,9],[7,8],"
                               "[7,9]]},{\"id\":1,";
    ck_assert_msg(strncmp(ev, head, sizeof head - 1) == 0, "%s", ev);
    ck_assert_msg(strstr(ev, "]}],\"starts\":[[3,5],[4,6]]}\n") != NULL, "%s", ev);
    ck_assert_int_eq(strchr(ev, '\n')[1], '\0');

    wf_say(&f, 1, "3,5,02 3,5,3\n3,5,2,4,9 3,5,9,9,1 3,5,2,4,9\n");
    ck_assert_str_eq(wf_events(&f), "");  /* nothing until the turn resolves */
    wf_say(&f, 2, "4,6,5");
    ck_assert_str_eq(wf_events(&f),
                     "{\"t\":\"turn\",\"round\":1,\"turn\":1,\"players\":[[0,5,\"ok\",1],[1,5,\"ok\",0]],"
                     "\"deploy\":[[0,3,5,2],[0,3,5,3],[1,4,6,5]],"
                     "\"moves\":[[0,3,5,2,4,9,9,\"capture\"],[0,3,5,2,4,9,0,\"nothing-left\"]],"
                     "\"cells\":[[2,4,0,8],[3,5,0,1],[4,6,1,10]],\"out\":[]}\n");
    wf_say(&f, 1, "3,5,5\nzzz\n");
    ck_assert_int_eq(warlight_rules.violation(f.g, 2, VIOLATION_MEMORY), 0);
    ck_assert_str_eq(wf_events(&f),
                     "{\"t\":\"turn\",\"round\":1,\"turn\":2,\"players\":[[0,5,\"badmoves\",0],"
                     "[1,5,\"skip-memory\",0]],\"deploy\":[[0,3,5,5]],\"moves\":[],"
                     "\"cells\":[[3,5,0,6]],\"out\":[]}\n"
                     "{\"t\":\"endround\",\"round\":1,\"points\":[50,50]}\n"
                     "{\"t\":\"end\",\"points\":[50,50]}\n");
    wf_free(&f);
}
END_TEST

START_TEST(events_name_the_eliminated)
{
    struct wfix f;
    game(&f);
    wf_events(&f);
    /* (4,6) holds 5: 9 attackers kill 5 and lose 4, and capture it with 5. */
    wf_say(&f, 1, "3,5,5\n3,5,4,6,9\n");
    wf_out(&f, 2, "", 0);
    const char *ev = wf_events(&f);
    ck_assert_msg(strstr(ev, "\"moves\":[[0,3,5,4,6,9,9,\"capture\"]],\"cells\":[[3,5,0,1],[4,6,0,5]],"
                             "\"out\":[1]}\n{\"t\":\"endround\",\"round\":1,\"points\":[100,0]}\n") != NULL,
                  "%s", ev);
    wf_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("warlight_log");
    TCase *tc = tcase_create("log");
    tcase_add_test(tc, d17_header_param_lines_and_round_preamble);
    tcase_add_test(tc, d17_default_parameters_make_no_param_line);
    tcase_add_test(tc, d17_a_turn_in_the_log);
    tcase_add_test(tc, set_log_null_stops_logging);
    tcase_add_test(tc, events_of_a_round_and_its_turns);
    tcase_add_test(tc, events_name_the_eliminated);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
