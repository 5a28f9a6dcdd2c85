/* test_engine_warlight_reply.c - reading a reply's raw bytes: §4, §8, D14, D15, README C3/C4. */
#include "tests/unit/warlight_fixture.h"

struct read_case { const char *text; size_t len; enum wl_status status; };
#define CASE(s, st) {s, sizeof s - 1, st}

/* Player 0 owns (0,0) and (7,7) on a 10 x 10 board; its income is 5. */
static enum wl_status read_bytes(const char *bytes, size_t len, int64_t max_output, struct wl_orders *o)
{
    struct warlight_board b;
    wf_board(&b, 10, 10, 10, 2);
    wf_own(&b, 0, 0, 0, 3);
    wf_own(&b, 7, 7, 0, 3);
    ck_assert_int_eq(wl_orders_read(o, &b, 0, 5, max_output, bytes, len), 0);
    wl_board_free(&b);
    return o->status;
}

static void check_cases(const struct read_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct wl_orders o = {0};
        enum wl_status got = read_bytes(cases[i].text, cases[i].len, 65536, &o);
        ck_assert_msg(got == cases[i].status, "case %zu: got %s, want %s (%s)", i,
                      wl_status_name(got), wl_status_name(cases[i].status), o.reason);
        ck_assert(got == WS_OK || got == WS_BADMOVES || o.n_deploy == 0);
        ck_assert(got == WS_OK || o.n_cmd == 0);
        ck_assert(got == WS_OK || o.reason[0] != '\0');
        wl_orders_free(&o);
    }
}

START_TEST(d14_empty_stdout_is_printed_nothing_and_an_empty_line_one_is_not)
{
    static const struct read_case cases[] = {
        CASE("", WS_NOOUTPUT),
        CASE("\n", WS_OUTPUT),
        CASE("   \n", WS_OUTPUT),
        CASE(" ", WS_OUTPUT),
        CASE("\r\n", WS_OUTPUT),
        CASE("\n0,0,5\n", WS_OUTPUT),
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(d14_line_endings)
{
    static const struct read_case cases[] = {
        CASE("0,0,5", WS_OK),                 /* the final \n is optional */
        CASE("0,0,5\n", WS_OK),
        CASE("0,0,5\r\n", WS_OK),
        CASE("0,0,5\r", WS_OUTPUT),           /* unterminated, ending in \r */
        CASE("0,0,5\r\r\n", WS_OUTPUT),       /* only one \r is removed */
        CASE("0,0,5\n0,0,0,1,1", WS_OK),
        CASE("0,0,5\n0,0,0,1,1\r\n", WS_OK),
        CASE("0,0,5\n0,0,0,1,1\r", WS_BADMOVES),
        CASE("0,0,5\n \n", WS_OK),            /* the source's lone space */
        CASE("0,0,5\n\n", WS_OK),
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(d14_further_lines_must_be_empty)
{
    static const struct read_case cases[] = {
        CASE("0,0,5\n\n\n", WS_OK),
        CASE("0,0,5\n\n   \n  \r\n\n", WS_OK),
        CASE("0,0,5\n\n   ", WS_OK),
        CASE("0,0,5\n\nx\n", WS_OUTPUT),
        CASE("0,0,5\n0,0,0,1,1\n0,0,0,1,1\n", WS_OUTPUT),
        CASE("0,0,5\n\n\t\n", WS_OUTPUT),
        CASE("0,0,5\n\n \r", WS_OUTPUT),      /* a final unterminated line ending in \r */
        CASE("0,0,5\n\n\r\r\n", WS_OUTPUT),
        CASE("0,0,5\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
             "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nX", WS_OUTPUT),
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(c3_bytes_in_line_one_skip_the_turn)
{
    static const struct read_case cases[] = {
        CASE("0,0,5\t\n", WS_OUTPUT),
        CASE("0,0,5\0\n", WS_OUTPUT),          /* a NUL, seen because bytes come with a length */
        CASE("0,0,\0005\n", WS_OUTPUT),
        CASE("0,0,5\x7f\n", WS_OUTPUT),
        CASE("0,0,5 \xc3\xa9\n", WS_OUTPUT),
        CASE("\x1b[0m0,0,5\n", WS_OUTPUT),
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(c3_bytes_in_line_two_throw_the_commands_away)
{
    static const struct read_case cases[] = {
        CASE("0,0,5\n0,0,0,1,1\t\n", WS_BADMOVES),
        CASE("0,0,5\n0,0,0,1,1\0", WS_BADMOVES),
        CASE("0,0,5\n\x80\n", WS_BADMOVES),
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(c4_entries_and_numbers)
{
    static const struct read_case cases[] = {
        CASE("  0,0,2   7,7,3  \n", WS_OK),     /* runs of spaces, leading and trailing */
        CASE("00,000,5\n", WS_OK),              /* leading zeros */
        CASE("0,0,000000000000000005\n", WS_OK),
        CASE("0,0,0000000000000000005\n", WS_OUTPUT), /* 19 digits */
        CASE("0,0,+5\n", WS_OUTPUT),
        CASE("0,0,5,\n", WS_OUTPUT),
        CASE("0,0\n", WS_OUTPUT),
        CASE("0,,5\n", WS_OUTPUT),
        CASE(",0,0,5\n", WS_OUTPUT),
        CASE("0,0,5,1\n", WS_OUTPUT),
        CASE("0;0;5\n", WS_OUTPUT),
        CASE("0,0,5x\n", WS_OUTPUT),
        CASE("0,0,-\n", WS_OUTPUT),
        CASE("0,0,5\n0,0,0,1\n", WS_BADMOVES),
        CASE("0,0,5\n0,0,0,1,1,1\n", WS_BADMOVES),
        CASE("0,0,5\n0,0,0,1,1 x\n", WS_BADMOVES),
        CASE("0,0,5\n0,0,0,1,-1 0,0,-5,1,1\n", WS_OK),  /* parse fine, fail W8 later */
        CASE("0,0,5\n-0,0,0,1,1\n", WS_OK),
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(d15_the_first_fault_in_order_names_the_status)
{
    static const struct read_case cases[] = {
        CASE("0,0,4\n\nextra\n", WS_OUTPUT),    /* output before deploy */
        CASE("0,0,4\n0,0\n", WS_DEPLOY),        /* deploy before badmoves */
        CASE("9,9,5\n0,0\n", WS_DEPLOY),
        CASE("0,0,5\n0,0\n", WS_BADMOVES),
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(max_output_bytes_counts_every_byte)
{
    struct wl_orders o = {0};
    ck_assert_int_eq(read_bytes("0,0,5\n\n", 7, 7, &o), WS_OK);
    ck_assert_int_eq(read_bytes("0,0,5\n\n", 7, 6, &o), WS_OUTPUT);
    ck_assert_int_eq(read_bytes("0,0,5\r\n", 7, 6, &o), WS_OUTPUT);
    ck_assert_int_eq(read_bytes("", 0, 1, &o), WS_NOOUTPUT);
    wl_orders_free(&o);
}
END_TEST

START_TEST(entries_kept_as_written)
{
    const char *text = "7,7,2 0,0,1 7,7,2\n0,0,9,9,1 07,7,6,6,02\n";
    struct wl_orders o = {0};
    ck_assert_int_eq(read_bytes(text, strlen(text), 100, &o), WS_OK);
    ck_assert_uint_eq(o.n_deploy, 3);
    ck_assert_int_eq(o.deploy[2].r, 7);
    ck_assert_int_eq(o.deploy[2].a, 2);
    ck_assert_uint_eq(o.n_cmd, 2);
    ck_assert_int_eq(o.cmd[1].sr, 7);
    ck_assert_int_eq(o.cmd[1].a, 2);
    wl_orders_free(&o);
}
END_TEST

START_TEST(many_entries)
{
    struct strbuf sb = STRBUF_INIT;
    for (int i = 0; i < 5000; i++)
        sb_puts(&sb, i ? " 0,0,0" : "0,0,5");
    struct wl_orders o = {0};
    ck_assert_int_eq(read_bytes(sb.data, sb.len, 65536, &o), WS_DEPLOY);  /* amounts of 0 */
    sb_reset(&sb);
    sb_puts(&sb, "0,0,5\n");
    for (int i = 0; i < 3000; i++)
        sb_puts(&sb, "0,0,0,1,1 ");
    ck_assert_int_eq(read_bytes(sb.data, sb.len, 65536, &o), WS_OK);
    ck_assert_uint_eq(o.n_cmd, 3000);
    wl_orders_free(&o);
    sb_free(&sb);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("warlight_reply");
    TCase *tc = tcase_create("reply");
    tcase_add_test(tc, d14_empty_stdout_is_printed_nothing_and_an_empty_line_one_is_not);
    tcase_add_test(tc, d14_line_endings);
    tcase_add_test(tc, d14_further_lines_must_be_empty);
    tcase_add_test(tc, c3_bytes_in_line_one_skip_the_turn);
    tcase_add_test(tc, c3_bytes_in_line_two_throw_the_commands_away);
    tcase_add_test(tc, c4_entries_and_numbers);
    tcase_add_test(tc, d15_the_first_fault_in_order_names_the_status);
    tcase_add_test(tc, max_output_bytes_counts_every_byte);
    tcase_add_test(tc, entries_kept_as_written);
    tcase_add_test(tc, many_entries);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
