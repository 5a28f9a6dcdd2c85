/*
 * test_ci_class_ranking.c - results a teacher can trust, on hand-made replays of a gauntlet
 * (no jail): the standings rank by points per match, so reference bots that play many more
 * matches do not rise above students who won everything, and list the reference bots apart
 * (by the replay header or by the grading file); `top_percent` never lifts a tie of broken
 * bots at the bottom into a band; the verdict column shows a player's violations.
 */
#include <check.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ci/results.h"

static char root[64];

static void make_root(void)
{
    strcpy(root, "/tmp/test_ci_class_ranking.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    char in[128];
    snprintf(in, sizeof in, "%s/in", root);
    ck_assert_int_eq(mkdir(in, 0755), 0);
}

static void remove_root(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

struct seat {
    const char *name;
    int place;
    const char *verdict; /* a verdict other than OK comes with a violation line */
    int reference;
};

/* One two-player match into ROOT/in/ID.jsonl.gz: the winner scores 1. */
static void put_match(int id, struct seat a, struct seat b)
{
    const struct seat *s[2] = {&a, &b};
    char path[256];
    snprintf(path, sizeof path, "%s/in/%04d.jsonl.gz", root, id);
    gzFile gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    gzprintf(gz,
             "{\"type\":\"header\",\"format\":\"judge-replay\",\"version\":1,\"game\":\"toy\",\"map\":\"m\","
             "\"map_source\":\"maps/toy.map\",\"seed\":%d,\"match_id\":\"m%d\",\"players\":[",
             id, id);
    for (int i = 0; i < 2; i++)
        gzprintf(gz, "%s{\"player\":%d,\"name\":\"%s\",\"command\":[\"./bot\"],\"dir\":null,\"profile\":\"default\"%s}",
                 i ? "," : "", i + 1, s[i]->name, s[i]->reference ? ",\"reference\":true" : "");
    gzprintf(gz, "]}\n");
    for (int i = 0; i < 2; i++)
        if (strcmp(s[i]->verdict, "OK"))
            gzprintf(gz,
                     "{\"type\":\"violation\",\"player\":%d,\"round\":1,\"reply\":1,\"kind\":\"invalid_output\","
                     "\"verdict\":\"%s\",\"by\":\"judge\",\"reason\":\"not a move\",\"evidence\":{\"line\":\"x\"},"
                     "\"stderr_tail\":\"\"}\n",
                     i + 1, s[i]->verdict);
    gzprintf(gz, "{\"type\":\"result\",\"winner\":1,\"draw\":false,\"rounds\":1,\"replies\":1,\"players\":[");
    for (int i = 0; i < 2; i++)
        gzprintf(gz,
                 "%s{\"player\":%d,\"name\":\"%s\",\"place\":%d,\"points\":%d,\"verdict\":\"%s\","
                 "\"violation\":null,\"moves\":1,\"cpu_ns\":1000000,\"budget_ns\":0,\"memory_peak_bytes\":1,"
                 "\"stats\":[]}",
                 i ? "," : "", i + 1, s[i]->name, s[i]->place, s[i]->place == 1, s[i]->verdict);
    gzprintf(gz, "]}\n");
    gzclose(gz);
}

static const char *write_grading(const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/grading.yaml", root);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void run(const char *out, const char *grading)
{
    char in[128], out_path[128];
    snprintf(in, sizeof in, "%s/in", root);
    snprintf(out_path, sizeof out_path, "%s/%s", root, out);
    const char *inputs[] = {in};
    struct results_options opt = {.inputs = inputs, .n_inputs = 1, .out_dir = out_path, .grading_path = grading};
    struct results_report rep;
    struct ci_error err;
    ck_assert_msg(results_run(&opt, NULL, &rep, &err) == 0, "%s", err.msg);
    results_report_free(&rep);
}

static struct json_object *load(const char *out, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/%s", root, out, file);
    struct json_object *o = json_object_from_file(path);
    ck_assert_ptr_nonnull(o);
    return o;
}

static char *slurp(const char *out, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/%s", root, out, file);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static struct json_object *player_at(struct json_object *doc, size_t i)
{
    return json_object_array_get_idx(json_object_object_get(doc, "players"), i);
}

static const char *field_str(struct json_object *p, const char *key)
{
    return json_object_get_string(json_object_object_get(p, key));
}

static int64_t field_int(struct json_object *p, const char *key)
{
    return json_object_get_int64(json_object_object_get(p, key));
}

/* A gauntlet: ref-a beats every student but "ace" in both seats, so it plays 4 times as many matches as a
 * student and has more points than ace, who won its 4 matches. */
static void gauntlet(int mark_references)
{
    const char *students[] = {"ace", "mid", "low", "zed"};
    const char *refs[] = {"ref-a", "ref-b"};
    int id = 0;
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < 2; r++)
            for (int seat = 0; seat < 2; seat++) {
                bool student_wins = s == 0 || (s == 1 && r == 1);
                struct seat st = {students[s], student_wins ? 1 : 2, "OK", 0};
                struct seat rf = {refs[r], student_wins ? 2 : 1, "OK", mark_references};
                put_match(id++, seat ? rf : st, seat ? st : rf);
            }
}

START_TEST(reference_bots_are_ranked_apart_by_points_per_match)
{
    make_root();
    gauntlet(1);
    run("out", NULL);
    struct json_object *doc = load("out", "standings.json");
    /* ref-a: 8 matches, 6 points; ace: 4 matches, 4 points. By total points ref-a was first. */
    const char *want[] = {"ace", "mid", "low", "zed", "ref-a", "ref-b"};
    const int ranks[] = {1, 2, 3, 3, 1, 2};
    for (size_t i = 0; i < 6; i++) {
        struct json_object *p = player_at(doc, i);
        ck_assert_str_eq(field_str(p, "name"), want[i]);
        ck_assert_int_eq(field_int(p, "rank"), ranks[i]);
        ck_assert_int_eq(json_object_get_boolean(json_object_object_get(p, "reference")), i >= 4);
    }
    ck_assert_double_eq_tol(json_object_get_double(json_object_object_get(player_at(doc, 0), "points_per_match")),
                            1.0, 1e-9);
    ck_assert_ptr_nonnull(strstr(field_str(doc, "ranking"), "points per match"));
    json_object_put(doc);
    const char *md = slurp("out", "standings.md");
    const char *ace = strstr(md, "| 1 | ace |"), *apart = strstr(md, "Reference bots"),
               *ref = strstr(md, "| 1 | ref-a |");
    ck_assert(ace && apart && ref && ace < apart && apart < ref);
    remove_root();
}
END_TEST

START_TEST(the_grading_files_references_are_ranked_apart_too)
{
    make_root();
    gauntlet(0);
    run("out", write_grading("reference: [ref-a, ref-b]\nrules:\n  - name: plays\n    points: 1\n"
                             "    no_violations: true\n"));
    struct json_object *doc = load("out", "standings.json");
    ck_assert_str_eq(field_str(player_at(doc, 0), "name"), "ace");
    ck_assert_str_eq(field_str(player_at(doc, 4), "name"), "ref-a");
    ck_assert(json_object_get_boolean(json_object_object_get(player_at(doc, 4), "reference")));
    json_object_put(doc);
    remove_root();
}
END_TEST

/* good beats everyone; three broken bots never make a legal move and tie at the bottom. */
static void class_with_broken_bots(void)
{
    const char *broken[] = {"b1", "b2", "b3"};
    int id = 0;
    for (int i = 0; i < 3; i++) {
        put_match(id++, (struct seat){"good", 1, "OK", 0}, (struct seat){broken[i], 2, "INVALID_OUTPUT", 0});
        put_match(id++, (struct seat){"ref", 1, "OK", 1}, (struct seat){broken[i], 2, "INVALID_OUTPUT", 0});
    }
    put_match(id++, (struct seat){"good", 1, "OK", 0}, (struct seat){"ref", 2, "OK", 1});
}

START_TEST(a_tie_of_broken_bots_at_the_bottom_gets_no_top_band)
{
    make_root();
    class_with_broken_bots();
    run("out", write_grading("reference: [ref]\nrules:\n  - name: top three quarters\n    points: 10\n    top_percent: 75\n"
                             "  - name: beats b1\n    points: 0\n    wins: {against: b1, at_least: 1}\n"));
    const char *md = slurp("out", "grades.md");
    ck_assert_ptr_nonnull(strstr(md, "good, beats b1: 1 win in 1 match against b1 (needs 1)"));
    ck_assert_ptr_nonnull(strstr(md, "b1, beats b1: 0 wins in 0 matches against b1"));
    struct json_object *doc = load("out", "grades.json");
    struct json_object *players = json_object_object_get(doc, "players");
    ck_assert_uint_eq(json_object_array_length(players), 4); /* the reference bot is not graded */
    for (size_t i = 0; i < 4; i++) {
        struct json_object *p = json_object_array_get_idx(players, i);
        bool good = !strcmp(field_str(p, "name"), "good");
        ck_assert_msg(field_int(p, "points") == (good ? 10 : 0), "%s: %s", field_str(p, "name"),
                      json_object_to_json_string(p));
    }
    json_object_put(doc);
    remove_root();
}
END_TEST

START_TEST(the_verdict_column_shows_violations)
{
    make_root();
    class_with_broken_bots();
    run("out", NULL);
    struct json_object *doc = load("out", "standings.json");
    for (size_t i = 0; i < 5; i++) {
        struct json_object *p = player_at(doc, i);
        bool broken = field_str(p, "name")[0] == 'b';
        ck_assert_str_eq(field_str(p, "verdict"), broken ? "INVALID_OUTPUT" : "OK");
        if (broken)
            ck_assert_int_eq(field_int(p, "violation_matches"), 2);
    }
    json_object_put(doc);
    const char *md = slurp("out", "standings.md");
    ck_assert_ptr_nonnull(strstr(md, "| 2 | b1 | 2 | 0 | 0 | 2 | 0 | 0.00 |"));
    ck_assert_ptr_nonnull(strstr(md, "`INVALID_OUTPUT` in 2 of 2 matches |"));
    remove_root();
}
END_TEST

START_TEST(a_failed_compile_is_named_once)
{
    make_root();
    class_with_broken_bots();
    char path[256];
    snprintf(path, sizeof path, "%s/in/erin.jsonl.gz", root);
    gzFile gz = gzopen(path, "wb");
    gzputs(gz, "{\"type\":\"compile\",\"format\":\"judge-compile\",\"version\":1,\"player\":\"erin\",\"profile\":"
               "\"cpp\",\"source\":\"s/erin\",\"verdict\":\"COMPILE_ERROR\",\"exit_code\":1,\"messages\":\"e\","
               "\"cpu_ns\":5,\"wall_ns\":6,\"judge_version\":\"x\"}\n");
    gzclose(gz);
    run("out", NULL);
    const char *md = slurp("out", "summary.md");
    ck_assert_ptr_nonnull(strstr(md, "| `COMPILE_ERROR` |"));
    ck_assert_ptr_null(strstr(md, "COMPILE\\_ERROR"));
    remove_root();
}
END_TEST

static Suite *ranking_suite(void)
{
    Suite *s = suite_create("class_ranking");
    TCase *t = tcase_create("class_ranking");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, reference_bots_are_ranked_apart_by_points_per_match);
    tcase_add_test(t, the_grading_files_references_are_ranked_apart_too);
    tcase_add_test(t, a_tie_of_broken_bots_at_the_bottom_gets_no_top_band);
    tcase_add_test(t, the_verdict_column_shows_violations);
    tcase_add_test(t, a_failed_compile_is_named_once);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ranking_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
