/*
 * test_engine_warlight_rng.c - warlight's use of the shared streams (README C6, W4, W5, D11).
 *
 * The numbers were computed by tests/unit/warlight_golden/reference.py, a separate Python
 * reading of C6 and W4/W5. A stream depends only on the seed and the label, never on the game:
 * the same engine/rng.h gives generals its "generals/..." streams (test_engine_rng.c pins those
 * against games/rng-vectors.txt) and warlight these.
 */
#include "tests/unit/warlight_fixture.h"

struct label_vector {
    uint64_t seed;
    const char *label;
    uint64_t fnv;
    uint64_t next[3];
    uint64_t uniform100[5];
};

static const struct label_vector labels[] = {
    {0, "warlight/setup/1", 0xfa9a88d23f0e2a65ULL,
     {15123861534520850838ULL, 16361465135310843682ULL, 811144278726375877ULL}, {38, 82, 77, 53, 6}},
    {42, "warlight/play/1", 0x9bd6084e99f5deb2ULL,
     {7504314592067319895ULL, 13105715733290898259ULL, 9336893475887078671ULL}, {95, 59, 71, 3, 93}},
    {18446744073709551615ULL, "warlight/setup/20", 0xe2b6e0412509b1b4ULL,
     {18217052216530038848ULL, 11020779932673683208ULL, 13448672577550387008ULL}, {48, 8, 8, 80, 16}},
    {42, "warlight/setup/1", 0xfa9a88d23f0e2a65ULL,
     {9890317487651922147ULL, 8538699594049444385ULL, 14081680442463964683ULL}, {47, 85, 83, 84, 12}},
};
#define N_LABELS ((int)(sizeof labels / sizeof labels[0]))

START_TEST(c6_streams_of_warlight_labels)
{
    const struct label_vector *v = &labels[_i];
    ck_assert_uint_eq(fnv1a64(v->label), v->fnv);
    struct rng r = rng_stream(v->seed, v->label);
    ck_assert_uint_eq(r.state, v->seed ^ v->fnv);
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(rng_next(&r), v->next[i]);
    r = rng_stream(v->seed, v->label);
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(rng_uniform(&r, 100), v->uniform100[i]);
}
END_TEST

/* Seed 42, default parameters, 3 players: the board of round 1 by W4 and W5. */
START_TEST(w4_w5_round_one_of_seed_42)
{
    static const int bonus[100] = {
        8, 2, 2, 2, 4, 8, 6, 6, 5, 5, 2, 8, 2, 4, 2, 8, 8, 8, 6, 8, 2, 2, 2, 7, 7, 7, 9, 8, 8, 6,
        7, 2, 7, 9, 9, 1, 9, 8, 3, 3, 7, 7, 7, 1, 1, 9, 9, 9, 3, 7, 3, 1, 1, 1, 9, 9, 0, 0, 0, 3,
        3, 3, 1, 9, 0, 0, 4, 0, 0, 0, 3, 5, 7, 1, 4, 4, 4, 4, 0, 0, 5, 5, 5, 1, 6, 4, 4, 6, 5, 3,
        3, 5, 1, 5, 4, 6, 6, 6, 6, 5};
    static const int64_t values[10] = {6, 6, 9, 10, 9, 5, 7, 10, 6, 10};
    static const int starts[3] = {35, 46, 78};
    struct wfix f;
    wf_init(&f);
    wf_create(&f, 42, 3);
    const struct warlight_board *b = warlight_board_of(f.g);
    for (int t = 0; t < 100; t++) {
        ck_assert_int_eq(b->bonus[t], bonus[t]);
        ck_assert_int_eq(b->owner[t], t == 35 ? 0 : t == 46 ? 1 : t == 78 ? 2 : -1);
        ck_assert_int_eq(b->armies[t], b->owner[t] >= 0 ? 5 : 2);
    }
    for (int x = 0; x < 10; x++) {
        ck_assert_int_eq(b->bonus_value[x], values[x]);
        ck_assert_int_eq(b->bonus_size[x], 10);
    }
    for (int id = 0; id < 3; id++)
        ck_assert_int_eq(b->start[id], starts[id]);
    wf_free(&f);
}
END_TEST

/* Seed 7, a 3 x 4 board of 2 bonuses of 6, round 2 (its own stream "warlight/setup/2"). */
START_TEST(w4_w5_round_two_of_a_small_board)
{
    static const int bonus[12] = {0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0};
    struct warlight_board b;
    int64_t params[WP_COUNT];
    game_params_defaults(&warlight_rules, params);
    params[WP_ROWS] = 3;
    params[WP_COLS] = 4;
    params[WP_BONUS_COUNT] = 2;
    params[WP_BONUS_SIZE] = 6;
    ck_assert_int_eq(wl_board_init(&b, 3, 4, 2, 2), 0);
    ck_assert_int_eq(wl_setup_round(&b, params, 7, 2), 0);
    for (int t = 0; t < 12; t++)
        ck_assert_int_eq(b.bonus[t], bonus[t]);
    ck_assert_int_eq(b.bonus_value[0], 7);
    ck_assert_int_eq(b.bonus_value[1], 8);
    ck_assert_int_eq(b.start[0], 0);
    ck_assert_int_eq(b.start[1], 11);
    ck_assert_int_eq(b.land[0], 1);
    wl_board_free(&b);
}
END_TEST

/* W4 on its own terms: sizes, the first members, and compactness whenever a neighbour was free. */
START_TEST(w4_layout_invariants_over_many_seeds)
{
    int64_t params[WP_COUNT];
    game_params_defaults(&warlight_rules, params);
    struct warlight_board b;
    ck_assert_int_eq(wl_board_init(&b, 10, 10, 10, 2), 0);
    for (uint64_t seed = 0; seed < 50; seed++) {
        ck_assert_int_eq(wl_setup_round(&b, params, seed, 1 + (int64_t)seed % 20), 0);
        int order[100];
        for (int t = 0; t < 100; t++)
            order[t] = t;
        char label[40];
        snprintf(label, sizeof label, "warlight/setup/%d", 1 + (int)(seed % 20));
        struct rng r = rng_stream(seed, label);
        rng_shuffle_int(&r, order, 100);
        for (int x = 0; x < 10; x++) {
            ck_assert_int_eq(b.bonus[order[x]], x);  /* bonus b starts with element b (D11) */
            ck_assert_int_eq(b.bonus_size[x], 10);
            ck_assert(b.bonus_value[x] >= 5 && b.bonus_value[x] <= 10);
        }
        ck_assert_int_ne(b.start[0], b.start[1]);
    }
    wl_board_free(&b);
}
END_TEST

START_TEST(d11_each_round_has_its_own_board)
{
    struct wfix f;
    wf_init(&f);
    wf_set(&f, "turn_limit", 1);
    wf_create(&f, 42, 2);
    int first[100];
    memcpy(first, warlight_board_of(f.g)->bonus, sizeof first);
    ck_assert_int_eq(wf_out(&f, 1, "", 0), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(wf_out(&f, 2, "", 0), VIOLATION_INVALID_OUTPUT);
    ck_assert_int_eq(warlight_rules.round(f.g), 2);
    struct warlight_board b;
    int64_t params[WP_COUNT];
    game_params_defaults(&warlight_rules, params);
    ck_assert_int_eq(wl_board_init(&b, 10, 10, 10, 2), 0);
    ck_assert_int_eq(wl_setup_round(&b, params, 42, 2), 0);
    ck_assert(memcmp(b.bonus, warlight_board_of(f.g)->bonus, sizeof first) == 0);
    ck_assert(memcmp(first, b.bonus, sizeof first) != 0);
    wl_board_free(&b);
    wf_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("warlight_rng");
    TCase *tc = tcase_create("rng");
    tcase_add_loop_test(tc, c6_streams_of_warlight_labels, 0, N_LABELS);
    tcase_add_test(tc, w4_w5_round_one_of_seed_42);
    tcase_add_test(tc, w4_w5_round_two_of_a_small_board);
    tcase_add_test(tc, w4_layout_invariants_over_many_seeds);
    tcase_add_test(tc, d11_each_round_has_its_own_board);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
