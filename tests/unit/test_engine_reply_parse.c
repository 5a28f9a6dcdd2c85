/* test_engine_reply_parse.c - README C3/C4 reading of one line. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/reply_parse.h"

static bool number_of(const char *text, int64_t *v)
{
    struct reply_token t = {text, strlen(text), 1};
    return reply_number(&t, v);
}

START_TEST(spaces_separate_and_surround_tokens)
{
    struct reply_token t[4];
    int count;
    struct game_error err;
    const char *line = "  -1   5  x ";
    ck_assert_int_eq(reply_tokens(line, strlen(line), t, 4, &count, &err), 0);
    ck_assert_int_eq(count, 3);
    ck_assert_int_eq(t[0].col, 3);
    ck_assert_uint_eq(t[0].len, 2);
    ck_assert_int_eq(t[1].col, 8);
    ck_assert_int_eq(t[2].col, 11);
    ck_assert(!memcmp(t[2].text, "x", 1));
}
END_TEST

START_TEST(count_goes_on_beyond_max)
{
    struct reply_token t[2];
    int count;
    struct game_error err;
    ck_assert_int_eq(reply_tokens("1 2 3 4 5 6", 11, t, 2, &count, &err), 0);
    ck_assert_int_eq(count, 6);
    ck_assert_int_eq(t[1].col, 3);
}
END_TEST

START_TEST(one_carriage_return_is_removed)
{
    int64_t v[3];
    int count;
    struct game_error err;
    ck_assert_int_eq(reply_numbers("1 2\r", 4, v, 3, &count, &err), 0);
    ck_assert_int_eq(count, 2);
    ck_assert_int_eq(v[1], 2);
}
END_TEST

START_TEST(a_second_carriage_return_is_a_control_byte)
{
    int64_t v[3];
    int count;
    struct game_error err;
    ck_assert_int_eq(reply_numbers("1 2\r\r", 5, v, 3, &count, &err), -1);
    ck_assert_int_eq(err.col, 4);
    ck_assert_str_eq(err.msg, "control byte 0x0d is not allowed");
}
END_TEST

START_TEST(tab_is_rejected_at_its_column)
{
    int64_t v[3];
    int count;
    struct game_error err;
    ck_assert_int_eq(reply_numbers("1\t2", 3, v, 3, &count, &err), -1);
    ck_assert_int_eq(err.col, 2);
    ck_assert_str_eq(err.msg, "tab 0x09 is not allowed");
}
END_TEST

START_TEST(nul_del_and_non_ascii_are_rejected)
{
    struct reply_token t[2];
    int count;
    struct game_error err;
    ck_assert_int_eq(reply_tokens("1 \0" "2", 4, t, 2, &count, &err), -1);
    ck_assert_int_eq(err.col, 3);
    ck_assert_int_eq(reply_tokens("12\x7f", 3, t, 2, &count, &err), -1);
    ck_assert_int_eq(err.col, 3);
    ck_assert_int_eq(reply_tokens("\xc3\xa9", 2, t, 2, &count, &err), -1);
    ck_assert_int_eq(err.col, 1);
    ck_assert_str_eq(err.msg, "non-ASCII byte 0xc3 is not allowed");
}
END_TEST

START_TEST(empty_and_space_only_lines_have_no_tokens)
{
    struct reply_token t[2];
    int count = 9;
    struct game_error err;
    ck_assert_int_eq(reply_tokens("", 0, t, 2, &count, &err), 0);
    ck_assert_int_eq(count, 0);
    ck_assert_int_eq(reply_tokens("   \r", 4, t, 2, &count, &err), 0);
    ck_assert_int_eq(count, 0);
}
END_TEST

START_TEST(numbers_accept_leading_zeros_and_minus)
{
    int64_t v = 0;
    ck_assert(number_of("-01", &v));
    ck_assert_int_eq(v, -1);
    ck_assert(number_of("007", &v));
    ck_assert_int_eq(v, 7);
    ck_assert(number_of("-0", &v));
    ck_assert_int_eq(v, 0);
    ck_assert(number_of("999999999999999999", &v));
    ck_assert_int_eq(v, 999999999999999999LL);
    ck_assert(number_of("-999999999999999999", &v));
    ck_assert_int_eq(v, -999999999999999999LL);
}
END_TEST

START_TEST(numbers_reject_everything_else)
{
    int64_t v;
    const char *bad[] = {"", "-", "+1", "1a", "--1", "1-", "0x1", "1.0", "1000000000000000000",
                         "-0000000000000000000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!number_of(bad[i], &v), "'%s' read as a number", bad[i]);
}
END_TEST

START_TEST(reply_numbers_reports_the_bad_token)
{
    int64_t v[5];
    int count;
    struct game_error err;
    ck_assert_int_eq(reply_numbers("1 1 1 1 x", 9, v, 5, &count, &err), -1);
    ck_assert_int_eq(err.col, 9);
    ck_assert_str_eq(err.msg, "'x' is not a number");
}
END_TEST

START_TEST(reply_numbers_counts_all_and_stores_max)
{
    int64_t v[2] = {0, 0};
    int count;
    struct game_error err;
    ck_assert_int_eq(reply_numbers("4 5 6", 5, v, 2, &count, &err), 0);
    ck_assert_int_eq(count, 3);
    ck_assert_int_eq(v[0], 4);
    ck_assert_int_eq(v[1], 5);
}
END_TEST

static Suite *reply_parse_suite(void)
{
    Suite *s = suite_create("reply_parse");
    TCase *t = tcase_create("lines");
    tcase_add_test(t, spaces_separate_and_surround_tokens);
    tcase_add_test(t, count_goes_on_beyond_max);
    tcase_add_test(t, one_carriage_return_is_removed);
    tcase_add_test(t, a_second_carriage_return_is_a_control_byte);
    tcase_add_test(t, tab_is_rejected_at_its_column);
    tcase_add_test(t, nul_del_and_non_ascii_are_rejected);
    tcase_add_test(t, empty_and_space_only_lines_have_no_tokens);
    suite_add_tcase(s, t);
    TCase *n = tcase_create("numbers");
    tcase_add_test(n, numbers_accept_leading_zeros_and_minus);
    tcase_add_test(n, numbers_reject_everything_else);
    tcase_add_test(n, reply_numbers_reports_the_bad_token);
    tcase_add_test(n, reply_numbers_counts_all_and_stores_max);
    suite_add_tcase(s, n);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reply_parse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
