/* test_ci_grading.c - grading files: the documented example, and every mistake named at FILE:LINE:COL. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ci/grading.h"

static char path[64];

static void write_file(const char *text)
{
    strcpy(path, "/tmp/test_ci_grading.XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
}

/* Loading text fails with "PATH:want". */
static void expect_error(const char *text, const char *want)
{
    struct grading g;
    struct ci_error err;
    write_file(text);
    ck_assert_int_eq(grading_load(path, &g, &err), -1);
    ck_assert_int_eq(err.status, CI_STATUS_USAGE);
    char full[256];
    snprintf(full, sizeof full, "%s:%s", path, want);
    ck_assert_str_eq(err.msg, full);
    unlink(path);
}

START_TEST(the_documented_example_loads)
{
    struct grading g;
    struct ci_error err;
    ck_assert_int_eq(grading_load("examples/grading/generals-course.yaml", &g, &err), 0);
    ck_assert_uint_eq(g.n_rules, 5);
    ck_assert_int_eq(g.max_points, 100);
    ck_assert_uint_eq(g.n_reference, 2);
    ck_assert(g.rules[0].kind == GR_WINS && !strcmp(g.rules[0].against, "random"));
    ck_assert_int_eq(g.rules[0].at_least, 8);
    ck_assert_int_eq(g.rules[0].of, 10);
    ck_assert(g.rules[2].kind == GR_NO_VIOLATIONS);
    ck_assert(g.rules[3].kind == GR_TOP_PERCENT && g.rules[3].percent == 50);
    ck_assert(g.rules[4].kind == GR_WINS && !g.rules[4].against && g.rules[4].of == 0);
    ck_assert(grading_is_reference(&g, "random", 6));
    ck_assert(!grading_is_reference(&g, "rand", 4));
    /* wins are asked of students against anyone (rule 5), never of the reference bots */
    ck_assert(grading_wants_wins(&g, "alice", 5, "bob", 3));
    ck_assert(!grading_wants_wins(&g, "random", 6, "alice", 5));
    grading_free(&g);
}
END_TEST

START_TEST(wins_against_one_opponent_only)
{
    struct grading g;
    struct ci_error err;
    write_file("rules:\n  - name: beat random\n    points: 10\n    wins: {against: random, at_least: 2}\n");
    ck_assert_int_eq(grading_load(path, &g, &err), 0);
    ck_assert(grading_wants_wins(&g, "alice", 5, "random", 6));
    ck_assert(!grading_wants_wins(&g, "alice", 5, "greedy", 6));
    grading_free(&g);
    unlink(path);
}
END_TEST

START_TEST(mistakes_are_named_where_they_are)
{
    expect_error("", "1:1: the grading file is empty");
    expect_error("- a\n", "1:1: expected a mapping for the grading file, got a sequence");
    expect_error("rules: []\n", "1:8: rules is empty");
    expect_error("reference: [a]\n", "1:1: the grading file has no rules");
    expect_error("rulez: []\n", "1:1: unknown key (rules, reference)");
    expect_error("rules:\n  - name: x\n    points: 5\n", "2:5: a rule needs a name, points and one criterion "
                                                         "(wins, no_violations or top_percent)");
    expect_error("rules:\n  - name: x\n    points: 5\n    no_violations: true\n    top_percent: 10\n",
                 "5:5: a rule has one criterion (wins, no_violations or top_percent)");
    expect_error("rules:\n  - name: x\n    points: -1\n    no_violations: true\n",
                 "3:13: expected an integer from 0 to 1000000000");
    expect_error("rules:\n  - name: x\n    points: 1\n    no_violations: false\n",
                 "4:20: no_violations can only be true");
    expect_error("rules:\n  - name: x\n    points: 1\n    wins: {at_least: 9, of: 3}\n",
                 "4:11: at_least (9) is more than of (3)");
    expect_error("rules:\n  - name: x\n    points: 1\n    wins: {of: 3}\n", "4:11: wins needs at_least");
    expect_error("rules:\n  - name: x\n    points: 1\n    wins: {against: a, at_least: 1, versus: b}\n",
                 "4:37: unknown key in wins (against, at_least, of)");
    expect_error("rules:\n  - name: x\n    points: 1\n    colour: blue\n",
                 "4:5: unknown key in a rule (name, points, wins, no_violations, top_percent)");
    expect_error("rules:\n  - name: \"\"\n    points: 1\n    top_percent: 5\n",
                 "2:11: expected a non-empty string");
}
END_TEST

START_TEST(a_missing_file)
{
    struct grading g;
    struct ci_error err;
    ck_assert_int_eq(grading_load("/nonexistent/grading.yaml", &g, &err), -1);
    ck_assert_int_eq(err.status, CI_STATUS_USAGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/grading.yaml"));
}
END_TEST

static Suite *grading_suite(void)
{
    Suite *s = suite_create("grading");
    TCase *t = tcase_create("grading");
    tcase_add_test(t, the_documented_example_loads);
    tcase_add_test(t, wins_against_one_opponent_only);
    tcase_add_test(t, mistakes_are_named_where_they_are);
    tcase_add_test(t, a_missing_file);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(grading_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
