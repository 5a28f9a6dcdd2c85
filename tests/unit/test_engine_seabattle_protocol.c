/* test_engine_seabattle_protocol.c - the exact exchange of seabattle.md §4 and the log of §7, byte
 * for byte, on the source's example game; D1 (x is the column). */
#include "tests/unit/seabattle_fixture.h"

#define SPEC_LOG_START                                                                         \
    SPEC_BOARD_1 "\n" SPEC_BOARD_2 "\n"                                                        \
    "1 2 9 miss\n2 1 1 miss\n1 9 9 miss\n2 1 5 miss\n1 10 1 sunk\n1 8 8 miss\n"

/* Steps 1..14 of the §4 table. */
static void play_spec_exchange(struct sea_fixture *f, struct strbuf *log)
{
    sfx_init(f);
    sfx_start(f);
    if (log)
        seabattle_rules.set_log(f->g, log);
    /* both bots are asked for their board at once, with nothing written to them */
    ck_assert_int_eq(sfx_pending(f), 3);
    struct strbuf prompt = STRBUF_INIT;
    ck_assert_int_eq(seabattle_rules.prompt(f->g, 1, &prompt), 0);
    ck_assert_int_eq(seabattle_rules.prompt(f->g, 2, &prompt), 0);
    ck_assert_uint_eq(prompt.len, 0);
    ck_assert_str_eq(sfx_outbox(f, 1), "");
    ck_assert_int_eq(sfx_board(f, 1, SPEC_BOARD_1), VIOLATION_NONE);           /* 1 */
    ck_assert_int_eq(sfx_pending(f), 2);
    ck_assert_int_eq(sfx_board(f, 2, SPEC_BOARD_2), VIOLATION_NONE);           /* 2 */
    ck_assert_str_eq(sfx_outbox(f, 1), "");
    ck_assert_str_eq(sfx_outbox(f, 2), "");
    ck_assert_int_eq(seabattle_rules.prompt(f->g, 1, &prompt), 0);
    ck_assert_int_eq(seabattle_rules.prompt(f->g, 2, &prompt), -1);          /* not its turn */
    ck_assert_uint_eq(prompt.len, 0);
    ck_shot(f, 1, "2 9", "miss");   /* 3, 4 */
    ck_shot(f, 2, "1 1", "miss");   /* 5, 6 */
    ck_shot(f, 1, "9 9", "miss");   /* 7, 8 */
    ck_shot(f, 2, "1 5", "miss");   /* 9, 10 */
    ck_shot(f, 1, "10 1", "sunk");  /* 11, 12: a one-cell ship; player 1 shoots again */
    ck_shot(f, 1, "8 8", "miss");   /* 13, 14 */
    ck_assert_int_eq(sfx_pending(f), 2);
    sb_free(&prompt);
}

START_TEST(spec_exchange_byte_for_byte)
{
    struct sea_fixture f;
    play_spec_exchange(&f, NULL);
    ck_assert(!seabattle_rules.over(f.g));
    ck_assert(!seabattle_rules.player_done(f.g, 1));
    ck_assert(!seabattle_rules.player_done(f.g, 2));
    ck_assert_int_eq(seabattle_rules.round(f.g), 7);
    sfx_free(&f);
}
END_TEST

START_TEST(spec_log_byte_for_byte)
{
    struct sea_fixture f;
    struct strbuf log = STRBUF_INIT;
    play_spec_exchange(&f, &log);
    ck_assert_str_eq(log.data, SPEC_LOG_START);
    sb_free(&log);
    sfx_free(&f);
}
END_TEST

START_TEST(log_set_late_gets_what_came_before)
{
    struct sea_fixture f;
    struct strbuf log = STRBUF_INIT;
    play_spec_exchange(&f, NULL);
    seabattle_rules.set_log(f.g, &log);
    ck_shot(&f, 2, "4 4", "miss");
    ck_assert_str_eq(log.data, SPEC_LOG_START "2 4 4 miss\n");
    seabattle_rules.set_log(f.g, NULL);
    ck_shot(&f, 1, "4 2", "hit");
    ck_assert_str_eq(log.data, SPEC_LOG_START "2 4 4 miss\n");
    sb_free(&log);
    sfx_free(&f);
}
END_TEST

/* D1: `1 3 4 miss`, `1 4 3 hit`, `1 4 2 sunk` of the source's log, on board 2. */
START_TEST(d1_x_is_the_column)
{
    struct sea_fixture f;
    play_spec_exchange(&f, NULL);
    ck_shot(&f, 2, "10 10", "miss");
    ck_shot(&f, 1, "3 4", "miss");
    ck_shot(&f, 2, "10 9", "miss");
    ck_shot(&f, 1, "4 3", "hit");
    ck_shot(&f, 1, "4 2", "hit");
    ck_shot(&f, 1, "4 4", "sunk");
    sfx_free(&f);
}
END_TEST

/* A board written with tolerated bytes (README C3) is logged as its 10 cell characters (D10). */
START_TEST(d10_log_writes_cell_characters)
{
    struct sea_fixture f;
    struct strbuf log = STRBUF_INIT;
    sfx_init(&f);
    sfx_start(&f);
    seabattle_rules.set_log(f.g, &log);
    ck_assert_int_eq(sfx_board(&f, 1,
                               "  ____###___ \r\n_________#\r\n__#___#__#\n__#_______\n__#______#\n"
                               "#_#__###__\n__________\n_#_##_#___\n_#________\n__________   \n"),
                     VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(&f, 2, SPEC_BOARD_2), VIOLATION_NONE);
    ck_assert_str_eq(log.data, SPEC_BOARD_1 "\n" SPEC_BOARD_2 "\n");
    sb_free(&log);
    sfx_free(&f);
}
END_TEST

/* D8: nothing is written to the bots at the end; the winner's last result is sent (S8). */
START_TEST(nothing_written_at_the_end)
{
    struct sea_fixture f;
    struct strbuf log = STRBUF_INIT;
    const char *one = "#_________\n__________\n__________\n__________\n__________\n"
                      "__________\n__________\n__________\n__________\n__________\n";
    sfx_init(&f);
    f.params[SP_SHIPS_1] = 1;
    f.params[SP_SHIPS_2] = f.params[SP_SHIPS_3] = f.params[SP_SHIPS_4] = 0;
    sfx_start(&f);
    seabattle_rules.set_log(f.g, &log);
    ck_assert_int_eq(sfx_board(&f, 1, one), VIOLATION_NONE);
    ck_assert_int_eq(sfx_board(&f, 2, one), VIOLATION_NONE);
    ck_assert_int_eq(sfx_shot(&f, 1, "1 1"), VIOLATION_NONE);
    ck_assert(seabattle_rules.over(f.g));
    ck_assert_str_eq(sfx_outbox(&f, 1), "sunk\n");
    ck_assert_str_eq(sfx_outbox(&f, 2), "");
    ck_assert(seabattle_rules.player_done(f.g, 1) && seabattle_rules.player_done(f.g, 2));
    ck_assert_str_eq(log.data, "#_________\n__________\n__________\n__________\n__________\n"
                               "__________\n__________\n__________\n__________\n__________\n\n"
                               "#_________\n__________\n__________\n__________\n__________\n"
                               "__________\n__________\n__________\n__________\n__________\n\n"
                               "1 1 1 sunk\n");
    sb_free(&log);
    sfx_free(&f);
}
END_TEST

/* §7: with an invalid board no battle takes place and the log is empty. */
START_TEST(invalid_board_empty_log)
{
    struct sea_fixture f;
    struct strbuf log = STRBUF_INIT;
    sfx_init(&f);
    sfx_start(&f);
    seabattle_rules.set_log(f.g, &log);
    ck_assert_int_eq(sfx_board(&f, 1, SPEC_BOARD_1), VIOLATION_NONE);
    ck_assert_int_eq(seabattle_rules.violation(f.g, 2, VIOLATION_TIME), 0);
    ck_assert(seabattle_rules.over(f.g));
    ck_assert_uint_eq(log.len, 0);
    sb_free(&log);
    sfx_free(&f);
}
END_TEST

START_TEST(events_of_the_exchange)
{
    struct sea_fixture f;
    play_spec_exchange(&f, NULL);
    ck_assert_str_eq(sfx_events(&f),
                     "{\"t\":\"board\",\"round\":0,\"player\":1,\"board\":[\"____###___\",\"_________#\","
                     "\"__#___#__#\",\"__#_______\",\"__#______#\",\"#_#__###__\",\"__________\","
                     "\"_#_##_#___\",\"_#________\",\"__________\"]}\n"
                     "{\"t\":\"board\",\"round\":0,\"player\":2,\"board\":[\"#________#\",\"___#______\","
                     "\"___#______\",\"#__#___#__\",\"#______#__\",\"#_#______#\",\"#_#______#\","
                     "\"_____##__#\",\"__________\",\"#________#\"]}\n"
                     "{\"t\":\"shot\",\"round\":1,\"player\":1,\"x\":2,\"y\":9,\"result\":\"miss\"}\n"
                     "{\"t\":\"shot\",\"round\":2,\"player\":2,\"x\":1,\"y\":1,\"result\":\"miss\"}\n"
                     "{\"t\":\"shot\",\"round\":3,\"player\":1,\"x\":9,\"y\":9,\"result\":\"miss\"}\n"
                     "{\"t\":\"shot\",\"round\":4,\"player\":2,\"x\":1,\"y\":5,\"result\":\"miss\"}\n"
                     "{\"t\":\"shot\",\"round\":5,\"player\":1,\"x\":10,\"y\":1,\"result\":\"sunk\"}\n"
                     "{\"t\":\"shot\",\"round\":6,\"player\":1,\"x\":8,\"y\":8,\"result\":\"miss\"}\n");
    ck_assert_str_eq(sfx_events(&f), "");
    sfx_free(&f);
}
END_TEST

static Suite *protocol_suite(void)
{
    Suite *s = suite_create("seabattle_protocol");
    TCase *tc = tcase_create("protocol");
    tcase_add_test(tc, spec_exchange_byte_for_byte);
    tcase_add_test(tc, spec_log_byte_for_byte);
    tcase_add_test(tc, log_set_late_gets_what_came_before);
    tcase_add_test(tc, d1_x_is_the_column);
    tcase_add_test(tc, d10_log_writes_cell_characters);
    tcase_add_test(tc, nothing_written_at_the_end);
    tcase_add_test(tc, invalid_board_empty_log);
    tcase_add_test(tc, events_of_the_exchange);
    suite_add_tcase(s, tc);
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
