/* test_engine_generals_map.c - the generals map file (generals.md §3, D11, D18, README C3). */
#include "tests/unit/generals_fixture.h"

#include <stdio.h>

static const struct generals_map *parse_ok(const char *text, struct game_map **out)
{
    struct game_error err;
    ck_assert_msg(generals_map_parse(text, strlen(text), NULL, out, &err) == 0, "%s", err.msg);
    return (const struct generals_map *)*out;
}

static void expect_rejected(const char *text, size_t len, const int64_t *params, int line,
                            int col, const char *msg)
{
    struct game_map *map = NULL;
    struct game_error err;
    ck_assert_int_eq(generals_map_parse(text, len, params, &map, &err), -1);
    ck_assert_ptr_null(map);
    ck_assert_str_eq(err.msg, msg);
    ck_assert_int_eq(err.line, line);
    ck_assert_int_eq(err.col, col);
}

#define REJECT(text, line, col, msg) expect_rejected(text, sizeof text - 1, NULL, line, col, msg)

START_TEST(spec_example_parses)
{
    struct game_map *gm;
    const struct generals_map *map = parse_ok(SPEC_MAP, &gm);
    ck_assert_int_eq(map->n, 2);
    ck_assert_int_eq(map->m, 3);
    ck_assert_int_eq(map->k, 2);
    ck_assert_int_eq(generals_rules.map_players(gm), 2);
    const uint8_t types[6] = {CELL_CAPITAL, CELL_EMPTY, CELL_CITY, CELL_MOUNTAIN, CELL_EMPTY,
                              CELL_CAPITAL};
    ck_assert_mem_eq(map->type, types, 6);
    ck_assert_int_eq(map->army[2], 40);
    generals_map_free(gm);
}
END_TEST

START_TEST(spaces_carriage_returns_zeros_and_missing_last_eol_are_accepted)
{
    struct game_map *gm;
    parse_ok("  002   3 2 \r\n3\r\n 01\r\n2   040 \r\n4\r\n1\r\n3", &gm);
    struct strbuf out = STRBUF_INIT;
    ck_assert_int_eq(generals_map_write(gm, &out), 0);
    ck_assert_str_eq(out.data, SPEC_MAP);
    sb_free(&out);
    generals_map_free(gm);
}
END_TEST

START_TEST(write_is_canonical_and_reads_back)
{
    const char *text = "1 4 2\n2 0\n3\n2 1000000\n3\n";
    struct game_map *gm;
    parse_ok(text, &gm);
    struct strbuf out = STRBUF_INIT;
    generals_map_write(gm, &out);
    ck_assert_str_eq(out.data, text);
    sb_free(&out);
    generals_map_free(gm);
}
END_TEST

START_TEST(rejects_an_empty_file)
{
    REJECT("", 1, 1, "line 1, column 1: empty map file: expected the header N M K");
}
END_TEST

START_TEST(rejects_a_bad_header)
{
    REJECT("2 3\n3\n3\n", 1, 5, "line 1, column 5: expected the header N M K");
    REJECT("2 3 2 1\n", 1, 7, "line 1, column 7: unexpected text after the header N M K");
    REJECT("x 3 2\n", 1, 1, "line 1, column 1: expected N (rows) in 1..50");
    REJECT("2 3.0 2\n", 1, 3, "line 1, column 3: expected M (columns) in 1..50");
}
END_TEST

START_TEST(rejects_n_and_m_outside_1_to_50)
{
    REJECT("0 3 2\n", 1, 1, "line 1, column 1: expected N (rows) in 1..50");
    REJECT("51 3 2\n", 1, 1, "line 1, column 1: expected N (rows) in 1..50");
    REJECT("2 51 2\n", 1, 3, "line 1, column 3: expected M (columns) in 1..50");
    REJECT("2 -1 2\n", 1, 3, "line 1, column 3: expected M (columns) in 1..50");
}
END_TEST

START_TEST(rejects_k_below_2)
{
    REJECT("1 2 1\n3\n1\n", 1, 5, "line 1, column 5: expected K (capitals) in 2..16");
    REJECT("5 5 17\n", 1, 5, "line 1, column 5: expected K (capitals) in 2..16");
}
END_TEST

START_TEST(rejects_a_capital_count_other_than_k)
{
    REJECT("2 3 3\n3\n1\n2 40\n4\n1\n3\n", 1, 5,
           "line 1, column 5: K = 3 but the map has 2 capitals (entries '3')");
}
END_TEST

START_TEST(rejects_too_few_entries)
{
    REJECT("2 3 2\n3\n1\n2 40\n4\n3\n", 7, 1,
           "line 7, column 1: expected 6 cell entries (N*M), found 5");
    REJECT("2 3 2\n3\n1\n2 40\n4\n3", 7, 1,
           "line 7, column 1: expected 6 cell entries (N*M), found 5");
}
END_TEST

START_TEST(rejects_extra_entries_and_trailing_lines)
{
    REJECT(SPEC_MAP "1\n", 8, 1, "line 8, column 1: unexpected line after the 6 cell entries");
    REJECT(SPEC_MAP "\n", 8, 1, "line 8, column 1: unexpected line after the 6 cell entries");
    REJECT("2 3 2\n3 1\n1\n2 40\n4\n1\n3\n", 2, 3,
           "line 2, column 3: unexpected text after the cell entry");
    REJECT("2 3 2\n3\n1\n2 40 7\n4\n1\n3\n", 4, 6,
           "line 4, column 6: unexpected text after the cell entry");
}
END_TEST

START_TEST(rejects_blank_lines)
{
    REJECT("2 3 2\n3\n\n1\n2 40\n4\n1\n3\n", 3, 1, "line 3, column 1: blank line");
    REJECT("2 3 2\n3\n   \n1\n2 40\n4\n1\n3\n", 3, 1, "line 3, column 1: blank line");
    REJECT("\n2 3 2\n", 1, 1, "line 1, column 1: blank line");
}
END_TEST

START_TEST(rejects_tabs_and_control_bytes)
{
    REJECT("2 3 2\n3\n1\t\n", 3, 2, "line 3, column 2: tab 0x09 is not allowed");
    REJECT("2\t3 2\n", 1, 2, "line 1, column 2: tab 0x09 is not allowed");
    REJECT("2 3 2\n3\n1\n2 40\x01\n", 4, 5, "line 4, column 5: control byte 0x01 is not allowed");
    REJECT("2 3 2\n3\n1\n2 4\0" "0\n", 4, 4, "line 4, column 4: control byte 0x00 is not allowed");
    REJECT("2 3 2\n3\n1\r\r\n", 3, 2, "line 3, column 2: control byte 0x0d is not allowed");
    REJECT("2 3 2\n\xef\xbb\xbf" "3\n", 2, 1, "line 2, column 1: non-ASCII byte 0xef is not allowed");
}
END_TEST

START_TEST(rejects_a_cell_type_outside_1_to_4)
{
    REJECT("2 3 2\n3\n5\n", 3, 1, "line 3, column 1: expected cell type 1..4");
    REJECT("2 3 2\n3\n0\n", 3, 1, "line 3, column 1: expected cell type 1..4");
    REJECT("2 3 2\n3\n city\n", 3, 2, "line 3, column 2: expected cell type 1..4");
}
END_TEST

START_TEST(rejects_a_city_army_out_of_range_or_missing)
{
    REJECT("2 3 2\n3\n1\n2 1000001\n4\n1\n3\n", 4, 3,
           "line 4, column 3: expected a city army in 0..1000000");
    REJECT("2 3 2\n3\n1\n2 -1\n4\n1\n3\n", 4, 3,
           "line 4, column 3: expected a city army in 0..1000000");
    REJECT("2 3 2\n3\n1\n2\n4\n1\n3\n", 4, 3,
           "line 4, column 3: expected the army of the city after '2'");
}
END_TEST

START_TEST(rejects_a_line_longer_than_max_line_bytes)
{
    char text[600];
    int n = snprintf(text, sizeof text, "1 2 2\n%300s\n3\n", "3");
    expect_rejected(text, (size_t)n, NULL, 2, 257,
                    "line 2, column 257: line is longer than max_line_bytes (256)");
    int64_t params[GP_COUNT];
    game_params_defaults(&generals_rules, params);
    params[GP_MAX_LINE_BYTES] = 400;
    struct game_map *gm;
    struct game_error err;
    ck_assert_int_eq(generals_map_parse(text, (size_t)n, params, &gm, &err), 0);
    generals_map_free(gm);
}
END_TEST

static Suite *map_suite(void)
{
    Suite *s = suite_create("generals_map");
    TCase *ok = tcase_create("accepted");
    tcase_add_test(ok, spec_example_parses);
    tcase_add_test(ok, spaces_carriage_returns_zeros_and_missing_last_eol_are_accepted);
    tcase_add_test(ok, write_is_canonical_and_reads_back);
    suite_add_tcase(s, ok);
    TCase *bad = tcase_create("rejected");
    tcase_add_test(bad, rejects_an_empty_file);
    tcase_add_test(bad, rejects_a_bad_header);
    tcase_add_test(bad, rejects_n_and_m_outside_1_to_50);
    tcase_add_test(bad, rejects_k_below_2);
    tcase_add_test(bad, rejects_a_capital_count_other_than_k);
    tcase_add_test(bad, rejects_too_few_entries);
    tcase_add_test(bad, rejects_extra_entries_and_trailing_lines);
    tcase_add_test(bad, rejects_blank_lines);
    tcase_add_test(bad, rejects_tabs_and_control_bytes);
    tcase_add_test(bad, rejects_a_cell_type_outside_1_to_4);
    tcase_add_test(bad, rejects_a_city_army_out_of_range_or_missing);
    tcase_add_test(bad, rejects_a_line_longer_than_max_line_bytes);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(map_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
