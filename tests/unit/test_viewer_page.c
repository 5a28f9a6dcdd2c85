/* test_viewer_page.c - the viewer's page (viewer/page.c): base64, HTML escaping, and the three
 * slots of page.html filled inline (judge view) or with shared files (judge results). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "viewer/page.h"

START_TEST(base64_matches_rfc4648_vectors)
{
    static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        struct strbuf sb = STRBUF_INIT;
        ck_assert_int_eq(viewer_base64(&sb, in[i], strlen(in[i])), 0);
        ck_assert_str_eq(sb.data ? sb.data : "", out[i]);
        sb_free(&sb);
    }
    struct strbuf sb = STRBUF_INIT;
    const unsigned char high[] = {0xff, 0xfe, 0x00};
    ck_assert_int_eq(viewer_base64(&sb, high, 3), 0);
    ck_assert_str_eq(sb.data, "//4A");
    sb_free(&sb);
}
END_TEST

START_TEST(html_escape_escapes_markup_and_quotes)
{
    struct strbuf sb = STRBUF_INIT;
    const char *name = "a<b>&\"c'.jsonl.gz";
    ck_assert_int_eq(viewer_html_escape(&sb, name, strlen(name)), 0);
    ck_assert_str_eq(sb.data, "a&lt;b&gt;&amp;&quot;c&#39;.jsonl.gz");
    sb_free(&sb);
}
END_TEST

START_TEST(inline_page_holds_the_viewer_and_the_replay)
{
    struct strbuf sb = STRBUF_INIT;
    ck_assert_int_eq(viewer_page(&sb, "foo", 3, "m<1>.jsonl.gz", NULL), 0);
    ck_assert_ptr_nonnull(strstr(sb.data, "<script type=\"application/octet-stream\" id=\"jv-replay\" "
                                          "data-name=\"m&lt;1&gt;.jsonl.gz\">Zm9v</script>"));
    ck_assert_ptr_nonnull(strstr(sb.data, "<style>\n"));
    ck_assert_ptr_nonnull(strstr(sb.data, "JV.App = function"));
    ck_assert_ptr_null(strstr(sb.data, "<!--jv:"));
    ck_assert_ptr_null(strstr(sb.data, "src=\""));
    /* Only the page's own elements close a script: the embedded sources never do. */
    size_t closes = 0;
    for (const char *at = sb.data; (at = strstr(at, "</script>")); at++)
        closes++;
    ck_assert_uint_eq(closes, 2);
    sb_free(&sb);
}
END_TEST

START_TEST(shared_page_links_the_viewer_beside_it)
{
    struct strbuf sb = STRBUF_INIT;
    ck_assert_int_eq(viewer_page(&sb, "x", 1, "r.jsonl.gz", ".."), 0);
    ck_assert_ptr_nonnull(strstr(sb.data, "<link rel=\"stylesheet\" href=\"../viewer.css\">"));
    ck_assert_ptr_nonnull(strstr(sb.data, "<script src=\"../viewer.js\"></script>"));
    ck_assert_ptr_null(strstr(sb.data, "JV.App = function"));
    ck_assert_ptr_nonnull(strstr(sb.data, ">eA==</script>"));
    ck_assert_uint_lt(sb.len, 4096);
    sb_free(&sb);
}
END_TEST

/* judge results' pages of several matches: one element per replay, named by its id. */
START_TEST(page_of_several_replays_names_each)
{
    struct strbuf replays = STRBUF_INIT, sb = STRBUF_INIT;
    ck_assert_int_eq(viewer_replay_element(&replays, "Zm9v", 4, "a.jsonl.gz", "1-a"), 0);
    ck_assert_int_eq(viewer_replay_element(&replays, "eA==", 4, "b\".jsonl.gz", "2-<b>"), 0);
    ck_assert_int_eq(viewer_page_of(&sb, replays.data, replays.len, ".."), 0);
    ck_assert_ptr_nonnull(strstr(sb.data, "<script type=\"application/octet-stream\" class=\"jv-replay\" data-id=\"1-a\" "
                                          "data-name=\"a.jsonl.gz\">Zm9v</script>\n"
                                          "<script type=\"application/octet-stream\" class=\"jv-replay\" "
                                          "data-id=\"2-&lt;b&gt;\" data-name=\"b&quot;.jsonl.gz\">eA==</script>"));
    ck_assert_ptr_null(strstr(sb.data, "id=\"jv-replay\""));
    ck_assert_ptr_nonnull(strstr(sb.data, "<script src=\"../viewer.js\"></script>"));
    sb_free(&replays);
    sb_free(&sb);
}
END_TEST

static Suite *page_suite(void)
{
    Suite *s = suite_create("viewer_page");
    TCase *t = tcase_create("page");
    tcase_add_test(t, base64_matches_rfc4648_vectors);
    tcase_add_test(t, html_escape_escapes_markup_and_quotes);
    tcase_add_test(t, inline_page_holds_the_viewer_and_the_replay);
    tcase_add_test(t, shared_page_links_the_viewer_beside_it);
    tcase_add_test(t, page_of_several_replays_names_each);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(page_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
