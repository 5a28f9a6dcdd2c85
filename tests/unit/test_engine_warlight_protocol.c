/* test_engine_warlight_protocol.c - the bot protocol: §4's example argv byte for byte, the
 * persistent line of §9, and the game.h entries a runner uses. */
#include "tests/unit/warlight_fixture.h"

#define EX_TERRITORIES "6,6,7,-1,2 6,7,7,-1,2 6,8,9,-1,2 7,6,7,-1,2 7,7,7,0,5 7,8,9,-1,2 " \
                       "8,6,7,-1,2 8,7,7,-1,2 8,8,9,-1,2"
#define EX_BONUSES "0,5,10 1,5,10 2,9,10 3,9,10 4,9,10 5,5,10 6,5,10 7,6,9 8,7,10 9,7,10"

/* The hand-made board of §4's example (D20): player 0 on (7,7) with 5; the territories it
 * sees in bonuses 7 and 9 as listed; every other territory fills bonuses to 10 in row-major
 * order; values as listed. Player 1 sits far away on (2,2). */
static void example_board(struct warlight_board *b)
{
    static const int64_t values[10] = {5, 5, 9, 9, 9, 5, 5, 6, 7, 7};
    ck_assert_int_eq(wl_board_init(b, 10, 10, 10, 2), 0);
    for (int t = 0; t < 100; t++) {
        b->bonus[t] = -1;
        b->armies[t] = 2;
    }
    for (int r = 6; r <= 8; r++)
        for (int c = 6; c <= 8; c++)
            b->bonus[r * 10 + c] = c == 8 ? 9 : 7;
    int filled[10] = {0, 0, 0, 0, 0, 0, 0, 6, 0, 3};
    for (int t = 0, x = 0; t < 100; t++) {
        if (b->bonus[t] >= 0)
            continue;
        while (filled[x] == 10)
            x++;
        b->bonus[t] = x;
        filled[x]++;
    }
    for (int x = 0; x < 10; x++) {
        b->bonus_value[x] = values[x];
        b->bonus_size[x] = 10;
    }
    wf_own(b, 7, 7, 0, 5);
    wf_own(b, 2, 2, 1, 5);
}

/* Splits NUL-terminated arguments. */
static int split_args(const struct strbuf *sb, const char **args, int max)
{
    int n = 0;
    for (size_t at = 0; at < sb->len && n < max; at += strlen(sb->data + at) + 1)
        args[n++] = sb->data + at;
    return n;
}

START_TEST(s4_example_argv_byte_for_byte)
{
    struct warlight_board b;
    struct strbuf sb = STRBUF_INIT;
    int argc;
    example_board(&b);
    ck_assert_int_eq(wl_board_income(&b, 0, 5), 5);
    ck_assert_int_eq(wl_board_prompt(&b, 0, 5, true, false, &sb, &argc), 0);
    ck_assert_int_eq(argc, 5);
    static const char expect[] = "0\0" "5\0" EX_TERRITORIES "\0" EX_BONUSES "\0" "X";
    ck_assert_uint_eq(sb.len, sizeof expect);  /* the last argument's NUL included */
    ck_assert(memcmp(sb.data, expect, sizeof expect) == 0);
    const char *args[8];
    ck_assert_int_eq(split_args(&sb, args, 8), 5);
    ck_assert_str_eq(args[2], EX_TERRITORIES);
    ck_assert_str_eq(args[3], EX_BONUSES);
    ck_assert_str_eq(args[4], "X");
    sb_free(&sb);
    wl_board_free(&b);
}
END_TEST

START_TEST(s4_later_turns_have_no_x)
{
    struct warlight_board b;
    struct strbuf sb = STRBUF_INIT;
    int argc;
    example_board(&b);
    ck_assert_int_eq(wl_board_prompt(&b, 0, 5, false, false, &sb, &argc), 0);
    ck_assert_int_eq(argc, 4);
    static const char expect[] = "0\0" "5\0" EX_TERRITORIES "\0" EX_BONUSES;
    ck_assert_uint_eq(sb.len, sizeof expect);
    ck_assert(memcmp(sb.data, expect, sizeof expect) == 0);
    sb_free(&sb);
    wl_board_free(&b);
}
END_TEST

START_TEST(s9_persistent_line_joins_the_same_arguments)
{
    struct warlight_board b;
    struct strbuf sb = STRBUF_INIT;
    int argc;
    example_board(&b);
    ck_assert_int_eq(wl_board_prompt(&b, 0, 5, true, true, &sb, &argc), 0);
    ck_assert_str_eq(sb.data, "0 5 " EX_TERRITORIES " " EX_BONUSES " X\n");
    sb_reset(&sb);
    ck_assert_int_eq(wl_board_prompt(&b, 0, 5, false, true, &sb, &argc), 0);
    ck_assert_str_eq(sb.data, "0 5 " EX_TERRITORIES " " EX_BONUSES "\n");
    sb_free(&sb);
    wl_board_free(&b);
}
END_TEST

START_TEST(s4_example_reply_plays_as_described)
{
    struct warlight_board b;
    struct wl_orders o = {0};
    struct wl_moves ran = {0};
    int64_t params[WP_COUNT];
    int dropped[GAME_MAX_PLAYERS];
    example_board(&b);
    game_params_defaults(&warlight_rules, params);
    const char out[] = "7,7,5\n7,7,6,6,3 7,7,8,8,3\n";
    ck_assert_int_eq(wl_orders_read(&o, &b, 0, 5, 65536, out, strlen(out)), 0);
    ck_assert_int_eq(o.status, WS_OK);
    struct wl_orders *orders[GAME_MAX_PLAYERS] = {&o, NULL};
    struct rng play = rng_stream(1, "warlight/play/1");
    ck_assert_int_eq(wl_resolve(&b, orders, params, &play, &ran, dropped), 0);
    ck_assert_int_eq(dropped[0], 0);
    ck_assert_uint_eq(ran.n, 2);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(ran.v[i].outcome, WO_CAPTURE);
        ck_assert_int_eq(ran.v[i].n, 3);
    }
    ck_assert_int_eq(b.owner[66], 0);
    ck_assert_int_eq(b.armies[66], 2);
    ck_assert_int_eq(b.owner[88], 0);
    ck_assert_int_eq(b.armies[88], 2);
    ck_assert_int_eq(b.armies[77], 4);
    free(ran.v);
    wl_orders_free(&o);
    wl_board_free(&b);
}
END_TEST

/* ---- through game.h --------------------------------------------------------------------- */

START_TEST(per_turn_process_entries)
{
    struct wfix f;
    wf_init(&f);
    wf_create(&f, 42, 3);
    ck_assert_int_eq(warlight_rules.process_model, PROCESS_PER_TURN);
    ck_assert_int_eq(warlight_rules.time_model, TIME_REPLY_WALL);
    ck_assert_ptr_null(warlight_rules.map_parse);
    ck_assert_int_eq(warlight_rules.match_process_model(f.g), PROCESS_PER_TURN);
    ck_assert_int_eq(warlight_rules.reply_lines(f.g, 1), 0);
    int pending[GAME_MAX_PLAYERS];
    ck_assert_int_eq(wf_pending(&f, pending), 3);
    ck_assert_int_eq(pending[0], 1);
    ck_assert_int_eq(pending[2], 3);
    ck_assert_int_eq(warlight_rules.prompt(f.g, 2, &f.text), 0);
    ck_assert_uint_eq(f.text.len, 0);  /* empty stdin */
    int argc;
    ck_assert_int_eq(warlight_rules.prompt_argv(f.g, 2, &f.text, &argc), 0);
    ck_assert_int_eq(argc, 5);
    const char *args[8];
    ck_assert_int_eq(split_args(&f.text, args, 8), 5);
    ck_assert_str_eq(args[0], "1");   /* player 2 is id 1 (D1) */
    ck_assert_str_eq(args[1], "5");
    ck_assert_str_eq(args[4], "X");
    /* Every player sees 9 territories: its start and its 8 neighbours. */
    int listed = 1;
    for (const char *p = args[2]; *p; p++)
        listed += *p == ' ';
    ck_assert_int_eq(listed, 9);
    ck_assert_int_eq(warlight_rules.outbox(f.g, 1, &f.text), 0);
    ck_assert(!warlight_rules.player_done(f.g, 1));
    wf_free(&f);
}
END_TEST

START_TEST(replies_only_from_pending_players)
{
    struct wfix f;
    wf_init(&f);
    wf_create(&f, 42, 2);
    struct game_verdict v;
    ck_assert_int_eq(warlight_rules.submit_output(f.g, 0, "", 0, &v), -1);
    ck_assert_int_eq(warlight_rules.submit_output(f.g, 3, "", 0, &v), -1);
    ck_assert_int_eq(wf_out(&f, 1, "", 0), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(warlight_rules.submit_output(f.g, 1, "", 0, &v), -1);
    ck_assert_int_eq(warlight_rules.violation(f.g, 1, VIOLATION_TIME), -1);
    int pending[GAME_MAX_PLAYERS];
    ck_assert_int_eq(wf_pending(&f, pending), 1);
    ck_assert_int_eq(pending[0], 2);
    ck_assert_int_eq(warlight_rules.violation(f.g, 2, VIOLATION_NONE), -1);
    ck_assert_int_eq(warlight_rules.violation(f.g, 2, VIOLATION_TIME), 0);
    ck_assert_int_eq(wf_pending(&f, pending), 2);  /* turn 2 */
    int argc;
    sb_reset(&f.text);
    ck_assert_int_eq(warlight_rules.prompt_argv(f.g, 1, &f.text, &argc), 0);
    ck_assert_int_eq(argc, 4);
    wf_free(&f);
}
END_TEST

START_TEST(d3_every_bot_sees_the_board_before_anyone_deployed)
{
    struct wfix f;
    wf_init(&f);
    wf_create(&f, 42, 3);  /* players 1 and 2 start next to each other: (3,5) and (4,6) */
    int argc;
    ck_assert_int_eq(warlight_rules.prompt_argv(f.g, 2, &f.text, &argc), 0);
    char *before = malloc(f.text.len);
    memcpy(before, f.text.data, f.text.len);
    size_t len = f.text.len;
    ck_assert_int_eq(wf_say(&f, 1, "3,5,5\n3,5,4,6,9\n"), VIOLATION_NONE);
    sb_reset(&f.text);
    ck_assert_int_eq(warlight_rules.prompt_argv(f.g, 2, &f.text, &argc), 0);
    ck_assert_uint_eq(f.text.len, len);
    ck_assert(memcmp(f.text.data, before, len) == 0);
    ck_assert(strstr(f.text.data + 4, "3,5,1,0,5 ") != NULL);  /* player 1's 5, not 10 */
    free(before);
    wf_free(&f);
}
END_TEST

START_TEST(verdicts_of_replies)
{
    struct wfix f;
    wf_init(&f);
    wf_create(&f, 42, 3);
    const struct warlight_board *b = warlight_board_of(f.g);
    char text[64];
    snprintf(text, sizeof text, "%d,%d,5\n", b->start[0] / 10, b->start[0] % 10);
    ck_assert_int_eq(wf_say(&f, 1, text), VIOLATION_NONE);
    ck_assert_str_eq(f.verdict.reason, "");
    ck_assert_int_eq(wf_say(&f, 2, "0,0\n"), VIOLATION_INVALID_OUTPUT);
    ck_assert_msg(strncmp(f.verdict.reason, "skip-output", 11) == 0, "%s", f.verdict.reason);
    snprintf(text, sizeof text, "%d,%d,4\n", b->start[2] / 10, b->start[2] % 10);
    ck_assert_int_eq(wf_say(&f, 3, text), VIOLATION_INVALID_MOVE);
    ck_assert_msg(strncmp(f.verdict.reason, "skip-deploy", 11) == 0, "%s", f.verdict.reason);
    snprintf(text, sizeof text, "%d,%d,5\nx\n", b->start[0] / 10, b->start[0] % 10);
    ck_assert_int_eq(wf_say(&f, 1, text), VIOLATION_INVALID_OUTPUT);
    ck_assert_msg(strncmp(f.verdict.reason, "badmoves", 8) == 0, "%s", f.verdict.reason);
    wf_free(&f);
}
END_TEST

START_TEST(submit_takes_lines_as_if_each_ended_with_a_newline)
{
    struct wfix a, b;
    wf_init(&a);
    wf_init(&b);
    wf_create(&a, 5, 2);
    wf_create(&b, 5, 2);
    const struct warlight_board *board = warlight_board_of(a.g);
    char l1[64], l2[96], joined[200];
    int s = board->start[0];
    snprintf(l1, sizeof l1, "%d,%d,5", s / 10, s % 10);
    snprintf(l2, sizeof l2, "%d,%d,%d,%d,9", s / 10, s % 10, s / 10, (s % 10 + 1) % 10);
    snprintf(joined, sizeof joined, "%s\n%s\n", l1, l2);
    const char *lines[2] = {l1, l2};
    struct game_verdict v;
    ck_assert_int_eq(warlight_rules.submit(a.g, 1, lines, 2, &v), 0);
    ck_assert_int_eq(v.kind, VIOLATION_NONE);
    ck_assert_int_eq(warlight_rules.submit(a.g, 2, lines, 0, &v), -1);
    ck_assert_int_eq(warlight_rules.violation(a.g, 2, VIOLATION_CRASH), 0);
    wf_say(&b, 1, joined);
    warlight_rules.violation(b.g, 2, VIOLATION_CRASH);
    char *events = strdup(wf_events(&a));
    ck_assert_str_eq(events, wf_events(&b));
    free(events);
    wf_free(&a);
    wf_free(&b);
}
END_TEST

START_TEST(persistent_process_entries)
{
    struct wfix f;
    wf_init(&f);
    wf_set(&f, "persistent", 1);
    wf_create(&f, 42, 2);
    ck_assert_int_eq(warlight_rules.match_process_model(f.g), PROCESS_PER_MATCH);
    ck_assert_int_eq(warlight_rules.reply_lines(f.g, 1), 2);
    ck_assert_int_eq(warlight_rules.process_serial(f.g, 1), 1);
    int argc = -1;
    ck_assert_int_eq(warlight_rules.prompt_argv(f.g, 1, &f.text, &argc), 0);
    ck_assert_int_eq(argc, 0);
    ck_assert_uint_eq(f.text.len, 0);
    /* The line is the per-turn arguments joined by spaces. */
    struct strbuf argv = STRBUF_INIT;
    struct wfix g;
    wf_init(&g);
    wf_create(&g, 42, 2);
    ck_assert_int_eq(warlight_rules.prompt_argv(g.g, 1, &argv, &argc), 0);
    for (size_t i = 0; i + 1 < argv.len; i++)
        if (argv.data[i] == '\0')
            argv.data[i] = ' ';
    argv.data[argv.len - 1] = '\n';
    ck_assert_int_eq(warlight_rules.prompt(f.g, 1, &f.text), 0);
    ck_assert_str_eq(f.text.data, argv.data);
    sb_free(&argv);
    wf_free(&g);
    wf_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("warlight_protocol");
    TCase *tc = tcase_create("protocol");
    tcase_add_test(tc, s4_example_argv_byte_for_byte);
    tcase_add_test(tc, s4_later_turns_have_no_x);
    tcase_add_test(tc, s9_persistent_line_joins_the_same_arguments);
    tcase_add_test(tc, s4_example_reply_plays_as_described);
    tcase_add_test(tc, per_turn_process_entries);
    tcase_add_test(tc, replies_only_from_pending_players);
    tcase_add_test(tc, d3_every_bot_sees_the_board_before_anyone_deployed);
    tcase_add_test(tc, verdicts_of_replies);
    tcase_add_test(tc, submit_takes_lines_as_if_each_ended_with_a_newline);
    tcase_add_test(tc, persistent_process_entries);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
