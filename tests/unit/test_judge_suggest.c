/* test_judge_suggest.c - "did you mean": the nearest known word, only when it is near. */
#include <check.h>
#include <stdlib.h>

#include "common/suggest.h"

static const char *const keys[] = {"game", "map", "generate", "seed", "params", "limits", "players"};
#define N_KEYS (sizeof keys / sizeof keys[0])

START_TEST(near_words_are_found)
{
    ck_assert_str_eq(suggest_nearest("seeed", keys, N_KEYS), "seed");     /* one inserted */
    ck_assert_str_eq(suggest_nearest("gmae", keys, N_KEYS), "game");      /* two swapped */
    ck_assert_str_eq(suggest_nearest("playrs", keys, N_KEYS), "players"); /* one left out */
    ck_assert_str_eq(suggest_nearest("limts", keys, N_KEYS), "limits");
    ck_assert_str_eq(suggest_nearest("genrate", keys, N_KEYS), "generate");
}
END_TEST

START_TEST(far_words_are_not)
{
    ck_assert_ptr_null(suggest_nearest("chess", keys, N_KEYS));
    ck_assert_ptr_null(suggest_nearest("xy", keys, N_KEYS)); /* "map" is 2 away: too far for 2 letters */
    ck_assert_ptr_null(suggest_nearest("", keys, N_KEYS));
    ck_assert_ptr_null(suggest_nearest("seed", keys, 0));
    char longer[200];
    for (size_t i = 0; i < sizeof longer - 1; i++)
        longer[i] = 'a';
    longer[sizeof longer - 1] = '\0';
    ck_assert_ptr_null(suggest_nearest(longer, keys, N_KEYS));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("suggest");
    TCase *t = tcase_create("suggest");
    tcase_add_test(t, near_words_are_found);
    tcase_add_test(t, far_words_are_not);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
