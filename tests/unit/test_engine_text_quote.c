/* test_engine_text_quote.c - file text made safe for one-line messages: quoted, escaped, shortened. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text_quote.h"

START_TEST(controls_quotes_and_backslashes_are_escaped)
{
    char buf[256];
    ck_assert_str_eq(text_quote(buf, sizeof buf, "a\x1b[2J\nb\t\"c\"\\\x7f"),
                     "\"a\\x1b[2J\\nb\\t\\\"c\\\"\\\\\\x7f\"");
    ck_assert_str_eq(text_quote(buf, sizeof buf, NULL), "\"\"");
}
END_TEST

START_TEST(utf8_is_kept_and_the_rest_shown_as_bytes)
{
    char buf[256];
    ck_assert_str_eq(text_quote(buf, sizeof buf, "caf\xc3\xa9 \xff \xc2\x9b" "31m \xe2\x82"),
                     "\"caf\xc3\xa9 \\xff \\xc2\\x9b" "31m \\xe2\\x82\"");
}
END_TEST

START_TEST(long_text_is_shortened_without_cutting_a_character)
{
    char text[200], buf[512];
    memset(text, 'x', sizeof text);
    memcpy(text + TEXT_QUOTE_MAX - 1, "\xc3\xa9", 2); /* straddles the limit */
    text[sizeof text - 1] = '\0';
    text_quote(buf, sizeof buf, text);
    ck_assert_uint_eq(strlen(buf), 1 + (TEXT_QUOTE_MAX - 1) + 1 + 3);
    ck_assert_str_eq(buf + strlen(buf) - 6, "xx\"...");
}
END_TEST

START_TEST(a_whole_message_becomes_one_line)
{
    char msg[32] = "line 1\nline 2 \x1b[31m\xc3\xa9\xc3\xa9";
    text_escape_in_place(msg, sizeof msg);
    ck_assert_str_eq(msg, "line 1\\nline 2 \\x1b[31m\xc3\xa9\xc3\xa9");
    char small[16] = "abcdef\n\xc3\xa9";
    text_escape_in_place(small, 10); /* "abcdef\\n\xc3\xa9" would not fit: the sequence is left out whole */
    ck_assert_str_eq(small, "abcdef\\n");
}
END_TEST

static Suite *quote_suite(void)
{
    Suite *s = suite_create("text_quote");
    TCase *t = tcase_create("text_quote");
    tcase_add_test(t, controls_quotes_and_backslashes_are_escaped);
    tcase_add_test(t, utf8_is_kept_and_the_rest_shown_as_bytes);
    tcase_add_test(t, long_text_is_shortened_without_cutting_a_character);
    tcase_add_test(t, a_whole_message_becomes_one_line);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(quote_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
