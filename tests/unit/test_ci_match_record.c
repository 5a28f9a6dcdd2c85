/*
 * test_ci_match_record.c - a match's identity (docs/results.md: its whole header but when
 * and where it ran) is the same for the same match written another way, and differs for
 * any change of what was played, down to a value's type and a nested member.
 */
#include <check.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci/match_record.h"

#define PLAYERS                                                                                            \
    "\"players\":[{\"player\":1,\"name\":\"a\",\"command\":[\"./a\"],\"dir\":\"/x\"},"                     \
    "{\"player\":2,\"name\":\"b\",\"command\":[\"./b\"],\"dir\":\"/y\"}]"
static const char base[] = "{\"type\":\"header\",\"format\":\"judge-replay\",\"version\":1,\"game\":\"generals\",\"map\":\"2 2 2\\n1\\n\","
                           "\"seed\":7,\"params\":{\"turn_limit\":60,\"fog\":true,\"list\":[1,[2,3]],\"none\":null},"
                           PLAYERS ",\"timing\":{\"started_unix\":1},\"kernel\":\"Linux 6\"}";

static struct key128 identity_of(const char *text)
{
    struct json_object *header = json_tokener_parse(text);
    ck_assert_msg(header != NULL, "not JSON: %s", text);
    struct match_record m;
    memset(&m, 0, sizeof m);
    struct ci_error err = {0};
    ck_assert_msg(mr_header(&m, header, "r.jsonl.gz", &err) == 0, "%s: %s", err.msg, text);
    struct key128 id = m.identity;
    mr_free(&m);
    json_object_put(header); /* the record took its own reference */
    return id;
}

static bool same_identity(const char *a, const char *b)
{
    struct key128 x = identity_of(a), y = identity_of(b);
    return !memcmp(&x, &y, sizeof x);
}

/* base with its first `from` replaced by `to` */
static const char *variant(const char *from, const char *to)
{
    static char text[2048];
    const char *at = strstr(base, from);
    ck_assert_msg(at != NULL, "%s not in the header", from);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    return text;
}

START_TEST(the_same_match_written_another_way_is_the_same)
{
    static const char reordered[] =
        "{\"kernel\":\"Linux 5\",\"timing\":{\"started_unix\":9},\"seed\":7,\"type\":\"header\",\"version\":1,\"format\":\"judge-replay\","
        "\"game\":\"generals\",\"map\":\"2 2 2\\n1\\n\",\"params\":{\"turn_limit\":60,\"fog\":true,\"list\":[1,[2,3]],"
        "\"none\":null},\"players\":[{\"dir\":\"/z\",\"name\":\"a\",\"player\":1,\"command\":[\"./a\"]},"
        "{\"player\":2,\"name\":\"b\",\"command\":[\"./b\"],\"dir\":\"/y\"}],\"cpu_model\":\"x\"}";
    ck_assert(same_identity(base, base));
    ck_assert(same_identity(base, reordered));
}
END_TEST

START_TEST(any_change_of_what_was_played_is_another_match)
{
    static const char *const changes[][2] = {
        {"\"seed\":7", "\"seed\":8"},
        {"\"turn_limit\":60", "\"turn_limit\":\"60\""},
        {"\"turn_limit\":60", "\"turn_limit\":60.0"},
        {"\"turn_limit\":60", "\"turn_limit\":61"},
        {"\"fog\":true", "\"fog\":false"},
        {"\"none\":null", "\"none\":0"},
        {"\"none\":null", "\"none\":\"\""},
        {"[1,[2,3]]", "[[1,2],3]"},
        {"[1,[2,3]]", "[1,2,3]"},
        {"[1,[2,3]]", "[1,{\"2\":3}]"},
        {"\"list\"", "\"lisT\""},
        {"\"./a\"", "\"./A\""},
        {"\"map\":\"2 2 2\\n1\\n\"", "\"map\":\"2 2 2\\n1\\n \""},
    };
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++)
        ck_assert_msg(!same_identity(base, variant(changes[i][0], changes[i][1])), "%s -> %s: the same identity",
                      changes[i][0], changes[i][1]);
    /* Seeds past INT64_MAX, which json-c reads as unsigned: each still its own match. */
    static char big[2048];
    snprintf(big, sizeof big, "%s", variant("\"seed\":7", "\"seed\":18446744073709551615"));
    ck_assert(!same_identity(big, variant("\"seed\":7", "\"seed\":18446744073709551614")));
    ck_assert(!same_identity(big, variant("\"seed\":7", "\"seed\":9223372036854775807")));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("match_record");
    TCase *t = tcase_create("identity");
    tcase_add_test(t, the_same_match_written_another_way_is_the_same);
    tcase_add_test(t, any_change_of_what_was_played_is_another_match);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
