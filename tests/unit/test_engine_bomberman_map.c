/* test_engine_bomberman_map.c - the map file of bomberman.md §3 (D16): each broken rule named at
 * its line and column; the generator's maps valid, reachable, free around every start. */
#include "tests/unit/bomberman_fixture.h"

static void expect_error(const char *text, int line, int col, const char *words)
{
    struct game_map *map = NULL;
    struct game_error err = {0};
    ck_assert_msg(bomberman_rules.map_parse(text, strlen(text), NULL, &map, &err) == -1, "accepted: %s",
                  words);
    ck_assert_msg(err.line == line && err.col == col, "%s: at %d:%d, expected %d:%d (%s)", words, err.line,
                  err.col, line, col, err.msg);
    ck_assert_msg(strstr(err.msg, words), "'%s' not in '%s'", words, err.msg);
    ck_assert_ptr_null(strchr(err.msg, '\n'));
}

/* src (a 15-row map) with row y replaced. */
static void with_row_of(char *out, size_t size, const char *src, int y, const char *row)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", src);
    out[0] = '\0';
    char *save = NULL;
    int i = 1;
    for (char *r = strtok_r(copy, "\n", &save); r; r = strtok_r(NULL, "\n", &save), i++) {
        strncat(out, i == y ? row : r, size - strlen(out) - 2);
        strcat(out, "\n");
    }
}

static void with_row(char *out, size_t size, int y, const char *row)
{
    with_row_of(out, size, CLASSIC_MAP, y, row);
}

START_TEST(s3_the_classic_map_reads_and_writes_back)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_map(&f, CLASSIC_MAP);
    ck_assert_int_eq(bomberman_rules.map_players(f.map), 4);
    struct strbuf out = STRBUF_INIT;
    ck_assert_int_eq(bomberman_rules.map_write(f.map, &out), 0);
    ck_assert_str_eq(out.data, CLASSIC_MAP);
    const struct bomberman_map *m = (const struct bomberman_map *)f.map;
    ck_assert_int_eq(m->start[2], bm_cell(1, 15));
    ck_assert_int_eq(m->hidden[bm_cell(10, 3)], 'R');
    ck_assert_int_eq(m->terrain[bm_cell(2, 2)], BM_WALL);
    sb_free(&out);
    bfx_free(&f);
}
END_TEST

START_TEST(s3_c3_tolerated_forms)
{
    char text[512];
    with_row(text, sizeof text, 4, "  +#+#+#+#+#+#+#+\r"); /* spaces around, one \r */
    struct bm_fixture f;
    bfx_init(&f);
    bfx_map(&f, text);
    bfx_free(&f);
    bfx_init(&f);
    snprintf(text, sizeof text, "%.*s", (int)strlen(CLASSIC_MAP) - 1, CLASSIC_MAP); /* no last \n */
    bfx_map(&f, text);
    bfx_free(&f);
    bfx_init(&f);
    char three[512];
    with_row(text, sizeof text, 15, "2......3......."); /* starts 1..3 only: a 3-player map */
    with_row_of(three, sizeof three, text, 1, "1..............");
    bfx_map(&f, three);
    ck_assert_int_eq(bomberman_rules.map_players(f.map), 3);
    bfx_free(&f);
}
END_TEST

START_TEST(s3_d16_each_broken_rule_at_its_place)
{
    char text[512];
    with_row(text, sizeof text, 3, "..+++a+++x+++..");
    expect_error(text, 3, 10, "'x' is not a cell");
    with_row(text, sizeof text, 3, "..+++a+++r+++.");
    expect_error(text, 3, 15, "row 3 has 14 cells, expected 15");
    with_row(text, sizeof text, 3, "..+++a+++r+++...");
    expect_error(text, 3, 16, "row 3 has 16 cells");
    with_row(text, sizeof text, 5, "+++++++ +++++++");
    expect_error(text, 5, 8, "a space inside row 5");
    with_row(text, sizeof text, 6, "+#+#+#r#a#+#+\t+");
    expect_error(text, 6, 14, "tab 0x09 is not allowed");
    with_row(text, sizeof text, 7, "+++++++.++++++\xc3");
    expect_error(text, 7, 15, "non-ASCII");
    with_row(text, sizeof text, 8, "");
    expect_error(text, 8, 1, "row 8 is blank");
    with_row(text, sizeof text, 15, "1..+++++++++..4");
    expect_error(text, 15, 1, "start 1 appears twice (first at line 1, column 1)");
    with_row(text, sizeof text, 15, "...+++++++++..4");
    expect_error(text, 15, 15, "start 4 is on the map but start 2 is not");
    char one[512];
    with_row(text, sizeof text, 15, "...+++++++++...");
    with_row_of(one, sizeof one, text, 1, "1..+++++++++...");
    expect_error(one, 1, 1, "the map has 1 start(s)");
    with_row_of(one, sizeof one, text, 1, "...+++++++++...");
    expect_error(one, 1, 1, "the map has 0 start(s)");
    snprintf(text, sizeof text, "%s\n", CLASSIC_MAP);
    expect_error(text, 16, 1, "the file ends with a blank line");
    snprintf(text, sizeof text, "%s...............\n", CLASSIC_MAP);
    expect_error(text, 16, 1, "more than 15 rows");
    snprintf(text, sizeof text, "%.*s", 16 * 14, CLASSIC_MAP);
    expect_error(text, 15, 1, "the map has 14 rows, expected 15");
    expect_error("", 1, 1, "the map has 0 rows");
}
END_TEST

/* Cells reachable from `from` over every non-wall cell (blocks gone). */
static int reachable(const struct bomberman_map *m, int from, bool *seen)
{
    int queue[BM_CELLS], head = 0, tail = 0, n = 0;
    memset(seen, 0, BM_CELLS);
    queue[tail++] = from;
    seen[from] = true;
    while (head < tail) {
        int c = queue[head++], x = bm_x(c), y = bm_y(c);
        n++;
        const int nx[4] = {x, x, x - 1, x + 1}, ny[4] = {y - 1, y + 1, y, y};
        for (int d = 0; d < 4; d++) {
            if (nx[d] < 1 || nx[d] > BM_SIDE || ny[d] < 1 || ny[d] > BM_SIDE) continue;
            int to = bm_cell(nx[d], ny[d]);
            if (!seen[to] && m->terrain[to] != BM_WALL) {
                seen[to] = true;
                queue[tail++] = to;
            }
        }
    }
    return n;
}

static struct game_map *generate(int players, int blocks, int bonuses, int symmetric, uint64_t seed,
                                 struct strbuf *notes)
{
    struct game_option opts[] = {
        {"players", players}, {"blocks", blocks}, {"bonuses", bonuses}, {"symmetric", symmetric}};
    struct game_map *map = NULL;
    struct game_error err = {0};
    ck_assert_msg(bomberman_rules.map_generate(opts, 4, seed, &map, notes, &err) == 0, "%s", err.msg);
    return map;
}

START_TEST(mapgen_maps_are_valid_reachable_and_free_around_the_starts)
{
    for (uint64_t seed = 0; seed < 40; seed++) {
        int players = 2 + (int)(seed % 3);
        struct strbuf text = STRBUF_INIT, notes = STRBUF_INIT;
        struct game_map *map = generate(players, 100, 6, (int)(seed % 2), seed, &notes);
        ck_assert_int_eq(bomberman_rules.map_write(map, &text), 0);
        struct game_map *again = NULL;
        struct game_error err = {0};
        ck_assert_msg(bomberman_rules.map_parse(text.data, text.len, NULL, &again, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(bomberman_rules.map_players(again), players);
        const struct bomberman_map *m = (const struct bomberman_map *)again;
        bool seen[BM_CELLS];
        int open = 0;
        for (int c = 0; c < BM_CELLS; c++) open += m->terrain[c] != BM_WALL;
        ck_assert_int_eq(reachable(m, m->start[1], seen), open);
        for (int p = 1; p <= players; p++) {
            int x = bm_x(m->start[p]), y = bm_y(m->start[p]);
            ck_assert(x == 1 || x == BM_SIDE);
            ck_assert(y == 1 || y == BM_SIDE);
            int dx = x == 1 ? 1 : -1, dy = y == 1 ? 1 : -1;
            ck_assert_int_eq(m->terrain[bm_cell(x + dx, y)], BM_FREE); /* a way out of the first bomb */
            ck_assert_int_eq(m->terrain[bm_cell(x + 2 * dx, y)], BM_FREE);
            ck_assert_int_eq(m->terrain[bm_cell(x + 2 * dx, y + dy)], BM_FREE);
            ck_assert_int_eq(m->terrain[bm_cell(x, y + 2 * dy)], BM_FREE);
        }
        int bonuses = 0;
        for (int c = 0; c < BM_CELLS; c++) bonuses += m->hidden[c] != 0;
        ck_assert_int_le(bonuses, 6);
        bomberman_rules.map_free(map);
        bomberman_rules.map_free(again);
        sb_free(&text);
        sb_free(&notes);
    }
}
END_TEST

START_TEST(mapgen_symmetric_and_deterministic)
{
    struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, notes = STRBUF_INIT;
    struct game_map *m1 = generate(4, 60, 8, 1, 99, &notes), *m2 = generate(4, 60, 8, 1, 99, &notes);
    bomberman_rules.map_write(m1, &a);
    bomberman_rules.map_write(m2, &b);
    ck_assert_str_eq(a.data, b.data);
    const struct bomberman_map *m = (const struct bomberman_map *)m1;
    int bonuses = 0;
    for (int x = 1; x <= BM_SIDE; x++)
        for (int y = 1; y <= BM_SIDE; y++) {
            int c = bm_cell(x, y), mx = bm_cell(BM_SIDE + 1 - x, y), my = bm_cell(x, BM_SIDE + 1 - y);
            ck_assert_int_eq(m->terrain[c], m->terrain[mx]);
            ck_assert_int_eq(m->terrain[c], m->terrain[my]);
            ck_assert_int_eq(m->hidden[c], m->hidden[mx]);
            bonuses += m->hidden[c] != 0;
        }
    ck_assert_int_eq(bonuses, 8);
    struct game_map *m3 = generate(4, 60, 8, 1, 100, &notes);
    sb_reset(&b);
    bomberman_rules.map_write(m3, &b);
    ck_assert_str_ne(a.data, b.data);
    bomberman_rules.map_free(m1);
    bomberman_rules.map_free(m2);
    bomberman_rules.map_free(m3);
    sb_free(&a);
    sb_free(&b);
    sb_free(&notes);
}
END_TEST

START_TEST(mapgen_options_checked)
{
    static const struct {
        const char *name;
        int64_t value;
        const char *words;
    } bad[] = {
        {"players", 1, "players must be 2 to 4"},  {"players", 5, "players must be 2 to 4"},
        {"blocks", 101, "blocks is a percentage"}, {"bonuses", -1, "bonuses must be"},
        {"symmetric", 2, "symmetric is 0 or 1"},   {"mountains", 3, "no option 'mountains'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct game_option opt = {bad[i].name, bad[i].value};
        struct game_map *map = NULL;
        struct game_error err = {0};
        ck_assert_int_eq(bomberman_rules.map_generate(&opt, 1, 1, &map, NULL, &err), -1);
        ck_assert_msg(strstr(err.msg, bad[i].words), "%s", err.msg);
    }
    struct strbuf notes = STRBUF_INIT;
    struct game_map *map = generate(2, 0, 5, 0, 1, &notes); /* no blocks: no bonus fits */
    ck_assert_ptr_nonnull(strstr(notes.data, "hid 0 bonuses, not 5"));
    bomberman_rules.map_free(map);
    sb_free(&notes);
}
END_TEST

static Suite *map_suite(void)
{
    Suite *s = suite_create("bomberman_map");
    TCase *tc = tcase_create("map");
    tcase_add_test(tc, s3_the_classic_map_reads_and_writes_back);
    tcase_add_test(tc, s3_c3_tolerated_forms);
    tcase_add_test(tc, s3_d16_each_broken_rule_at_its_place);
    tcase_add_test(tc, mapgen_maps_are_valid_reachable_and_free_around_the_starts);
    tcase_add_test(tc, mapgen_symmetric_and_deterministic);
    tcase_add_test(tc, mapgen_options_checked);
    suite_add_tcase(s, tc);
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
