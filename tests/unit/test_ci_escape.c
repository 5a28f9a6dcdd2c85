/* test_ci_escape.c - hostile text (tags, quotes, ANSI escapes, invalid UTF-8) made safe for each output
 * format. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ci/escape.h"

typedef int (*escaper)(struct strbuf *, const char *, size_t);

static char *run(escaper fn, const char *s, size_t n)
{
    struct strbuf sb = STRBUF_INIT;
    ck_assert_int_eq(fn(&sb, s, n), 0);
    return sb_steal(&sb);
}

#define CHECK(fn, in, want)                                                                                  \
    do {                                                                                                     \
        char *got = run(fn, in, sizeof(in) - 1);                                                             \
        ck_assert_str_eq(got, want);                                                                         \
        free(got);                                                                                           \
    } while (0)

START_TEST(xml_escapes_markup_controls_and_bad_utf8)
{
    CHECK(esc_xml, "</testcase>", "&lt;/testcase&gt;");
    CHECK(esc_xml, "a \"b\" 'c' & d", "a &quot;b&quot; &apos;c&apos; &amp; d");
    CHECK(esc_xml, "\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
    CHECK(esc_xml, "line\nnext\ttab\r", "line&#10;next&#9;tab&#13;");
    CHECK(esc_xml, "nul\0end", "nul\\x00end");
    CHECK(esc_xml, "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac"); /* valid UTF-8 kept */
    CHECK(esc_xml, "\xff\xfe", "\xef\xbf\xbd\xef\xbf\xbd");                 /* invalid bytes */
    CHECK(esc_xml, "\xc3", "\xef\xbf\xbd");                                 /* cut sequence */
    CHECK(esc_xml, "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* a surrogate */
    CHECK(esc_xml, "\xef\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* U+FFFF: not XML */
    CHECK(esc_xml, "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");                 /* overlong '/' */
    CHECK(esc_xml, "]]>", "]]&gt;");
}
END_TEST

START_TEST(markdown_inline_is_inert)
{
    CHECK(esc_md_inline, "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;");
    CHECK(esc_md_inline, "a|b", "a&#124;b");
    CHECK(esc_md_inline, "*b* _i_ `c` [l](u) ~s~ $m$ !x @team \\",
          "\\*b\\* \\_i\\_ \\`c\\` \\[l\\](u) \\~s\\~ \\$m\\$ \\!x \\@team \\\\");
    CHECK(esc_md_inline, "two\nlines", "two\\x0alines");
    CHECK(esc_md_inline, "&amp;", "&amp;amp;");
}
END_TEST

START_TEST(markdown_block_fence_outlasts_the_text)
{
    CHECK(esc_md_block, "plain", "```\nplain\n```\n");
    CHECK(esc_md_block, "a ```` b\n", "`````\na ```` b\n`````\n");
    CHECK(esc_md_block, "\x1b[1mbold\n\tx", "```\n\\x1b[1mbold\n\tx\n```\n");
    CHECK(esc_md_block, "", "```\n\n```\n");
    CHECK(esc_md_code, "judge run 'a b'", "`judge run 'a b'`");
    CHECK(esc_md_code, "a`b", "`a'b`");
}
END_TEST

static int annotation_message(struct strbuf *sb, const char *s, size_t n)
{
    return esc_annotation(sb, s, n, false);
}

static int annotation_property(struct strbuf *sb, const char *s, size_t n)
{
    return esc_annotation(sb, s, n, true);
}

START_TEST(annotations_cannot_inject_commands)
{
    CHECK(annotation_message, "100% done\n::set-output name=x::y\r",
          "100%25 done%0A::set-output name=x::y%0D");
    CHECK(annotation_property, "a: b, c", "a%3A b%2C c");
    CHECK(annotation_message, "\x1b[0m", "\\x1b[0m");
}
END_TEST

START_TEST(terminal_text_holds_no_command)
{
    CHECK(esc_terminal, "::stop-commands::x.c:4: error\n", "\\x3a:stop-commands::x.c:4: error\n");
    CHECK(esc_terminal, "ok\n  \t::error::x\n", "ok\n  \t\\x3a:error::x\n");     /* after blanks */
    CHECK(esc_terminal, "\xc2\xa0\xe2\x80\x83::warning::x", "\xc2\xa0\xe2\x80\x83\\x3a:warning::x");
    CHECK(esc_terminal, "a::b and x ::c", "a::b and x ::c");                       /* not at a line start */
    CHECK(esc_terminal, "x ##[error]y ##vso[task.setvariable]z", "x ##\\x5berror]y ##vso\\x5btask.setvariable]z");
    CHECK(esc_terminal, "\x1b[2J\rred\x07\n", "\\x1b[2J\\x0dred\\x07\n");        /* controls, not newlines */
    CHECK(esc_terminal, "caf\xc3\xa9 \xff", "caf\xc3\xa9 \xef\xbf\xbd");
    CHECK(esc_terminal, "\xe2\x82\xac::x", "\xe2\x82\xac::x");                   /* a non-blank first */
}
END_TEST

/* U+009B is CSI to a terminal as ESC [ is, U+009D OSC, U+0085 a new line: valid UTF-8, never
 * raw in any format (a bot's stderr line "\xc2\x9b2J" cleared the screen of `judge run`). */
START_TEST(c1_controls_are_shown_not_obeyed)
{
    CHECK(esc_terminal, "\xc2\x9b" "2J\xc2\x9d" "0;t\x07", "\\xc2\\x9b2J\\xc2\\x9d0;t\\x07");
    CHECK(esc_terminal, "\xc2\x85::error::x", "\\xc2\\x85::error::x");   /* NEL: shown, so no line start */
    CHECK(esc_terminal, "\xc2\xa0\xc2\xbf\xc2\x7f", "\xc2\xa0\xc2\xbf\xef\xbf\xbd\\x7f"); /* not C1 */
    CHECK(esc_visible, "a\xc2\x9b" "31mb", "a\\xc2\\x9b31mb");
    CHECK(esc_xml, "\xc2\x80<", "\\xc2\\x80&lt;");
    CHECK(esc_md_inline, "\xc2\x9f", "\\xc2\\x9f");
    CHECK(esc_md_block, "\xc2\x9b" "2J\n", "```\n\\xc2\\x9b2J\n```\n");
    CHECK(annotation_message, "\xc2\x9b", "\\xc2\\x9b");
    CHECK(esc_yaml, "\xc2\x9b" "x", "\"\\x9bx\"");   /* YAML's escape of U+009B: the same name */
}
END_TEST

START_TEST(shell_words_and_yaml_scalars)
{
    CHECK(esc_shell, "out/rerun/ab12.yaml", "out/rerun/ab12.yaml");
    CHECK(esc_shell, "it's here; rm -rf /", "'it'\\''s here; rm -rf /'");
    CHECK(esc_shell, "$(x)", "'$(x)'");
    CHECK(esc_shell, "", "''");
    CHECK(esc_yaml, "say \"hi\" \\ now", "\"say \\\"hi\\\" \\\\ now\"");
    CHECK(esc_yaml, "\x1b\n", "\"\\x1b\\x0a\"");
    CHECK(esc_visible, "a\tb\xff", "a\\x09b\xef\xbf\xbd");
}
END_TEST

START_TEST(utf8_lengths)
{
    ck_assert_uint_eq(esc_utf8_len((const unsigned char *)"a", 1), 1);
    ck_assert_uint_eq(esc_utf8_len((const unsigned char *)"\xc3\xa9", 2), 2);
    ck_assert_uint_eq(esc_utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
    ck_assert_uint_eq(esc_utf8_len((const unsigned char *)"\xf0\x9f\x98", 3), 0);
    ck_assert_uint_eq(esc_utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0); /* above U+10FFFF */
}
END_TEST

static Suite *escape_suite(void)
{
    Suite *s = suite_create("escape");
    TCase *t = tcase_create("escape");
    tcase_add_test(t, xml_escapes_markup_controls_and_bad_utf8);
    tcase_add_test(t, markdown_inline_is_inert);
    tcase_add_test(t, markdown_block_fence_outlasts_the_text);
    tcase_add_test(t, annotations_cannot_inject_commands);
    tcase_add_test(t, terminal_text_holds_no_command);
    tcase_add_test(t, c1_controls_are_shown_not_obeyed);
    tcase_add_test(t, shell_words_and_yaml_scalars);
    tcase_add_test(t, utf8_lengths);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(escape_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
