/*
 * test_ci_replay_load.c - the results stage passes over reply and event lines without
 * building them (replay_reader_skip_moves), and still judges every line exactly as
 * json-c does: for each line below, and for thousands of random mutations of real
 * ones, loaded_file_read says "damaged" with the same message, or keeps the same
 * violations and result, as a plain read of every line with json-c.
 */
#include <check.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ci/replay_load.h"
#include "replay/replay.h"

static const char header[] =
    "{\"type\":\"header\",\"format\":\"judge-replay\",\"version\":1,\"game\":\"toy\","
    "\"seed\":1,\"players\":[{\"name\":\"a\"},{\"name\":\"b\"}]}\n";
static const char violation[] =
    "{\"type\":\"violation\",\"player\":2,\"kind\":\"invalid_move\",\"verdict\":\"OK\"}\n";
static const char result[] =
    "{\"type\":\"result\",\"players\":[{\"place\":1,\"points\":1,\"verdict\":\"OK\"},"
    "{\"place\":2,\"points\":0,\"verdict\":\"OK\"}]}\n";

static char path[64];

static void write_replay(const char *move, size_t len)
{
    gzFile gz = gzopen(path, "wb1");
    ck_assert_ptr_nonnull(gz);
    gzwrite(gz, header, sizeof header - 1);
    gzwrite(gz, violation, sizeof violation - 1);
    gzwrite(gz, move, (unsigned)len);
    gzwrite(gz, "\n", 1);
    gzwrite(gz, result, sizeof result - 1);
    gzclose(gz);
}

/* What reading every line with json-c makes of the file: "" for a complete replay
 * (with the number of lines of type violation and result in *kept), or the error. */
static void plain_read(char *msg, size_t cap, int *kept)
{
    struct replay_reader *rd;
    struct replay_error rerr;
    *kept = 0;
    ck_assert_int_eq(replay_reader_open(path, &rd, &rerr), 0);
    struct json_object *obj;
    int rc;
    while ((rc = replay_reader_next(rd, &obj, &rerr)) == 1) {
        struct json_object *t;
        json_object_object_get_ex(obj, "type", &t);
        const char *type = json_object_get_string(t);
        *kept += !strcmp(type, "violation") || !strcmp(type, "result");
        json_object_put(obj);
    }
    snprintf(msg, cap, "%s", rc < 0 ? rerr.msg : "");
    replay_reader_close(rd);
}

/* Both readings of one move line agree; returns whether the line was found damaged. */
static bool same_judgement(const char *move, size_t len)
{
    write_replay(move, len);
    char expect[sizeof((struct replay_error *)0)->msg];
    int kept;
    plain_read(expect, sizeof expect, &kept);
    struct loaded_file lf;
    loaded_file_read(&lf, path);
    if (expect[0]) {
        ck_assert_msg(lf.kind == LOADED_DAMAGED, "taken, json-c says %s: %.*s", expect, (int)len, move);
        ck_assert_str_eq(lf.msg, expect);
    } else {
        ck_assert_msg(lf.kind == LOADED_REPLAY, "damaged (%s), json-c takes: %.*s", lf.msg, (int)len, move);
        ck_assert_int_eq((int)lf.n_violations + (lf.result.obj != NULL), kept);
    }
    loaded_file_free(&lf);
    return expect[0] != '\0';
}

static const char *const moves[] = {
    "{\"type\":\"reply\",\"n\":1,\"player\":1,\"round\":1,\"reply\":1,\"line\":\"1 2 3 4 "
    "0\",\"cpu_ns\":12,\"wall_ns\":9}",
    "{\"type\":\"event\",\"event\":{\"kind\":\"move\",\"cells\":[[1,2],[3,-4]],\"ok\":true,\"x\":null,\"y\":"
    "false}}",
    "{\"type\":\"reply\",\"line\":\"tab\\t quote\\\" slash\\/ back\\\\ \\u00e9 \\u0000\"}",
    "{\"type\":\"reply\",\"line\":\"caf\xc3\xa9 \xff\"}",
    "{\"type\":\"reply\",\"\":1,\"a\" : [ ] , \"b\":{ }}",
    "{\"type\":\"reply\",\"n\":1,}",
    "{\"type\":\"reply\",\"n\":[1,2,]}",
    "{\"type\":\"reply\",\"n\":01}",
    "{\"type\":\"reply\",\"n\":-0}",
    "{\"type\":\"reply\",\"n\":-}",
    "{\"type\":\"reply\",\"n\":1.5}",
    "{\"type\":\"reply\",\"n\":1e5}",
    "{\"type\":\"reply\",\"n\":123456789012345678901234567890}",
    "{\"type\":\"reply\",\"n\":-9223372036854775809}",
    "{\"type\":\"reply\",\"n\":NaN}",
    "{\"type\":\"reply\",\"n\":Infinity}",
    "{\"type\":\"reply\",\"n\":TRUE}",
    "{\"type\":\"reply\",\"n\":nul}",
    "{\"type\":\"reply\",\"n\":'x'}",
    "{\"type\":\"reply\",\"n\":\"a\tb\"}",
    "{\"type\":\"reply\",\"n\":\"\\x\"}",
    "{\"type\":\"reply\",\"n\":\"\\u12\"}",
    "{\"type\":\"reply\",\"n\":\"\\ud800\"}",
    "{\"type\":\"reply\",\"n\":\"\\ud83d\\ude00\"}",
    "{\"type\":\"reply\",\"n\":\"\\udc00x\"}",
    "{\"type\":\"reply\",\"n\":1/*c*/}",
    "{\"type\":\"reply\",\"n\":1} ",
    "{\"type\":\"reply\",\"n\":1}x",
    "{\"type\":\"reply\",\"n\":1}}",
    "{\"type\":\"reply\",\"n\":1",
    "{\"type\":\"reply\",n:1}",
    "{\"type\":\"reply\",\"type\":\"header\"}",
    "{\"type\":\"reply\",\"typ\\u0065\":\"result\"}",
    "{\"type\":\"reply\",\"type\":\"violation\",\"player\":2,\"kind\":\"k\",\"verdict\":\"OK\"}",
    "{\"type\":\"reply\",\"n\":\v1}",
    "{\"type\":\"reply\",\"n\":\f1}",
    "{\"type\":\"reply\"}",
    "{\"type\":\"reply\" ,\"n\":1}",
    "{\"type\":\"replies\",\"n\":1}",
    "{\"type\":\"event\",\"event\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
    "]]]]]]]}",
    "{\"type\":\"event\",\"event\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
    "{\"type\":\"event\",\"event\":[[[[[[[[[[[[[[1]]]]]]]]]]]]]]}",
};

START_TEST(listed_lines_are_judged_as_json_c_judges_them)
{
    int damaged = 0;
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        damaged += same_judgement(moves[i], strlen(moves[i]));
    /* Both kinds are among them: the comparison is not vacuous. */
    ck_assert_int_gt(damaged, 5);
    ck_assert_int_lt(damaged, (int)(sizeof moves / sizeof moves[0]) - 5);
    const char nul[] = "{\"type\":\"reply\",\"n\":\"a\0b\"}";
    same_judgement(nul, sizeof nul - 1);
}
END_TEST

/* Strings and numbers are scanned eight bytes at a time: a byte that ends the run at any
 * offset, and runs of every length, are judged as json-c judges them. */
START_TEST(runs_of_every_length_are_judged_as_json_c_judges_them)
{
    static const char *const stops[] = {"\"", "\\n", "\\u00e9", "\x01", "\x1f", "\x7f", "\xc3\xa9", " ", "\\q"};
    static const char *const number_ends[] = {"", ".5", "e1", "x", "0"};
    int damaged = 0, lines = 0;
    for (int run = 0; run < 24; run++) {
        char plain[32], digits[32];
        memset(plain, 'a', (size_t)run);
        plain[run] = '\0';
        for (int i = 0; i < run; i++)
            digits[i] = (char)('1' + i % 9);
        digits[run] = '\0';
        for (size_t s = 0; s < sizeof stops / sizeof stops[0]; s++) {
            char line[160];
            int n = snprintf(line, sizeof line, "{\"type\":\"reply\",\"line\":\"%s%s%s\",\"n\":1}", plain, stops[s],
                             plain);
            damaged += same_judgement(line, (size_t)n);
            lines++;
        }
        for (size_t e = 0; e < sizeof number_ends / sizeof number_ends[0]; e++) {
            char line[160];
            int n = snprintf(line, sizeof line, "{\"type\":\"reply\",\"n\":-%s%s,\"m\":[%s%s]}", digits,
                             number_ends[e], digits, number_ends[e]);
            damaged += same_judgement(line, (size_t)n);
            lines++;
        }
    }
    ck_assert_int_gt(damaged, lines / 10);
    ck_assert_int_lt(damaged, lines - lines / 10);
}
END_TEST

START_TEST(mutated_lines_are_judged_as_json_c_judges_them)
{
    static const char alphabet[] = "{}[]\",:\\u0123456789eE.-+ tfnrlaxd\t\x01\x80";
    srand(7);
    int damaged = 0, rounds = 3000;
    for (int i = 0; i < rounds; i++) {
        char line[512];
        const char *base = moves[i % 3];
        size_t len = strlen(base);
        memcpy(line, base, len);
        for (int edits = 1 + rand() % 3; edits > 0; edits--) {
            size_t at = (size_t)rand() % len;
            char c = alphabet[rand() % (int)(sizeof alphabet - 1)];
            int op = rand() % 3;
            if (op == 0) { /* replace */
                line[at] = c;
            } else if (op == 1 && len + 1 < sizeof line) { /* insert */
                memmove(line + at + 1, line + at, len - at);
                line[at] = c;
                len++;
            } else if (len > 1) { /* delete */
                memmove(line + at, line + at + 1, len - at - 1);
                len--;
            }
        }
        damaged += same_judgement(line, len);
    }
    ck_assert_int_gt(damaged, rounds / 10);
    ck_assert_int_lt(damaged, rounds - rounds / 10);
}
END_TEST

static void setup(void)
{
    strcpy(path, "/tmp/test_ci_replay_load.XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static void teardown(void)
{
    unlink(path);
}

int main(void)
{
    Suite *s = suite_create("replay_load");
    TCase *t = tcase_create("replay_load");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, listed_lines_are_judged_as_json_c_judges_them);
    tcase_add_test(t, runs_of_every_length_are_judged_as_json_c_judges_them);
    tcase_add_test(t, mutated_lines_are_judged_as_json_c_judges_them);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
