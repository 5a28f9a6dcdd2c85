/* test_engine_seabattle_mapgen.c - random boards for `judge mapgen seabattle`: valid (S3), the same
 * for the same seed, drawn from the README C6 stream "seabattle/board". */
#include "tests/unit/seabattle_fixture.h"
#include "engine/rng.h"

/* Computed apart from the judge, by a short Python transcription of README C6 and of the
 * algorithm at the top of engine/seabattle_mapgen.c. */
#define BOARD_LABEL_FNV 0x508817d4ca9d9ac1ULL
static const struct { uint64_t seed, next[3]; } label_vectors[] = {
    {0, {18255639891876794083ULL, 18196930067465063564ULL, 11318445024994751974ULL}},
    {1, {1083923990098661460ULL, 13330119220768521238ULL, 5786661290764608225ULL}},
    {42, {3136173019561951008ULL, 5983893047226207797ULL, 7351954680475905619ULL}},
    {18446744073709551615ULL, {2021462244842128883ULL, 9467056971643267849ULL, 10176130778477286369ULL}},
};
#define SEED_1_BOARD                                                                           \
    "####______\n_____#_##_\n_###______\n_______##_\n#___#_____\n"                             \
    "__________\n__________\n________#_\n_###____#_\n_____#____\n"
#define SEED_7_BOARD                                                                           \
    "___#____#_\n___#____#_\n__________\n_###___###\n__________\n"                             \
    "_####___#_\n__________\n______#_#_\n__________\n_#__##____\n"
#define SEED_3_TWO_FOURS_AND_ONE                                                               \
    "_______#__\n__________\n__________\n___#__#___\n___#__#___\n"                             \
    "___#__#___\n___#__#___\n__________\n__________\n__________\n"

static const char *generate(const struct sea_fleet *fleet, uint64_t seed, struct strbuf *out)
{
    struct game_error err;
    sb_reset(out);
    ck_assert_msg(sea_board_generate(fleet, seed, out, &err) == 0, "%s", err.msg);
    return out->data;
}

START_TEST(label_stream_is_readme_c6)
{
    ck_assert_str_eq(SEA_BOARD_LABEL, "seabattle/board");
    ck_assert_uint_eq(fnv1a64(SEA_BOARD_LABEL), BOARD_LABEL_FNV);
    for (size_t i = 0; i < sizeof label_vectors / sizeof label_vectors[0]; i++) {
        struct rng r = rng_stream(label_vectors[i].seed, SEA_BOARD_LABEL);
        for (int k = 0; k < 3; k++)
            ck_assert_uint_eq(rng_next(&r), label_vectors[i].next[k]);
    }
}
END_TEST

START_TEST(golden_boards)
{
    struct strbuf out = STRBUF_INIT;
    struct sea_fleet def = sea_fleet_of(NULL), custom = {{0, 1, 0, 0, 2}};
    ck_assert_str_eq(generate(&def, 1, &out), SEED_1_BOARD);
    ck_assert_str_eq(generate(&def, 7, &out), SEED_7_BOARD);
    ck_assert_str_eq(generate(&custom, 3, &out), SEED_3_TWO_FOURS_AND_ONE);
    sb_free(&out);
}
END_TEST

START_TEST(every_board_valid_and_seeded)
{
    struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
    struct sea_fleet def = sea_fleet_of(NULL);
    struct sea_board_error err;
    int differ = 0;
    char first[128];
    snprintf(first, sizeof first, "%s", generate(&def, 0, &out));
    for (uint64_t seed = 0; seed < 300; seed++) {
        generate(&def, seed, &out);
        ck_assert_uint_eq(out.len, SEA_SIDE * (SEA_SIDE + 1));
        ck_assert_msg(sfx_check(out.data, &def, &err) == SEA_RULE_NONE, "seed %llu: %s",
                      (unsigned long long)seed, err.msg);
        ck_assert_str_eq(generate(&def, seed, &again), out.data);
        differ += strcmp(first, out.data) != 0;
    }
    ck_assert_int_ge(differ, 295);
    sb_free(&out);
    sb_free(&again);
}
END_TEST

START_TEST(custom_fleets_valid)
{
    struct strbuf out = STRBUF_INIT;
    struct sea_board_error err;
    static const struct sea_fleet fleets[] = {
        {{0, 1, 0, 0, 0}}, {{0, 0, 0, 0, 4}}, {{0, 10, 4, 2, 1}}, {{0, 25, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof fleets / sizeof fleets[0]; i++)
        for (uint64_t seed = 0; seed < 5; seed++)
            ck_assert_msg(sfx_check(generate(&fleets[i], seed, &out), &fleets[i], &err) == SEA_RULE_NONE,
                          "fleet %zu seed %llu: %s", i, (unsigned long long)seed, err.msg);
    sb_free(&out);
}
END_TEST

START_TEST(impossible_fleets_refused)
{
    struct strbuf out = STRBUF_INIT;
    struct game_error err;
    struct sea_fleet none = {{0}}, too_many = {{0, 26, 0, 0, 0}}, no_fit = {{0, 0, 0, 0, 13}};
    ck_assert_int_eq(sea_board_generate(&none, 1, &out, &err), -1);
    ck_assert_str_eq(err.msg, "the fleet has no ship");
    ck_assert_int_eq(sea_board_generate(&too_many, 1, &out, &err), -1);
    ck_assert_str_eq(err.msg, "each ship count must be in 0..25");
    ck_assert_int_eq(sea_board_generate(&no_fit, 1, &out, &err), -1);
    ck_assert_str_eq(err.msg, "the fleet does not fit on a 10x10 board without ships touching");
    ck_assert_uint_eq(out.len, 0);
    sb_free(&out);
}
END_TEST

static Suite *mapgen_suite(void)
{
    Suite *s = suite_create("seabattle_mapgen");
    TCase *tc = tcase_create("mapgen");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, label_stream_is_readme_c6);
    tcase_add_test(tc, golden_boards);
    tcase_add_test(tc, every_board_valid_and_seeded);
    tcase_add_test(tc, custom_fleets_valid);
    tcase_add_test(tc, impossible_fleets_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(mapgen_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
