/* test_engine_rng.c - the seeded streams against every line of games/rng-vectors.txt. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/rng.h"

struct uniform_vector { uint64_t n; uint64_t values[3]; };
struct vector {
    uint64_t seed;
    const char *label;
    uint64_t fnv, state;
    uint64_t next[5];
    struct uniform_vector uniform[5];
    int shuffle[10];
};

/* Copied from /work/shared/games/rng-vectors.txt, block by block. */
static const struct vector vectors[] = {
    {0ULL, "generals/order", 0x6d85c58c7d721cf7ULL, 0x6d85c58c7d721cf7ULL,
     {6006052972618529156ULL, 1246957938945314836ULL, 4700586363737873309ULL, 14468759977858556722ULL, 12094491092410286961ULL},
     {{1, {0, 0, 0}}, {2, {0, 0, 1}}, {3, {2, 1, 2}}, {7, {4, 2, 1}}, {1000, {156, 836, 309}}},
     {10, 1, 2, 5, 9, 4, 3, 6, 8, 7}},
    {0ULL, "generals/mapgen", 0x70d4eb6423cdfcd1ULL, 0x70d4eb6423cdfcd1ULL,
     {10318555429172241636ULL, 8537843324955917217ULL, 15811405344173269142ULL, 5184583143864088281ULL, 2143061153301776946ULL},
     {{1, {0, 0, 0}}, {2, {0, 1, 0}}, {3, {0, 0, 2}}, {7, {0, 0, 4}}, {1000, {636, 217, 142}}},
     {2, 6, 9, 5, 8, 1, 3, 10, 4, 7}},
    {1ULL, "generals/order", 0x6d85c58c7d721cf7ULL, 0x6d85c58c7d721cf6ULL,
     {7006136854332392613ULL, 17417882907888623494ULL, 965005873999345732ULL, 4495202934798038882ULL, 5200340372924847571ULL},
     {{1, {0, 0, 0}}, {2, {1, 0, 0}}, {3, {0, 1, 1}}, {7, {4, 5, 1}}, {1000, {613, 494, 732}}},
     {3, 1, 10, 6, 9, 2, 7, 5, 8, 4}},
    {1ULL, "generals/mapgen", 0x70d4eb6423cdfcd1ULL, 0x70d4eb6423cdfcd0ULL,
     {2246412998296978518ULL, 11230231248304205859ULL, 6021182730640045872ULL, 3051147680103754431ULL, 4579410074770981029ULL},
     {{1, {0, 0, 0}}, {2, {0, 1, 0}}, {3, {0, 0, 0}}, {7, {0, 1, 1}}, {1000, {518, 859, 872}}},
     {8, 2, 3, 7, 6, 4, 5, 10, 1, 9}},
    {42ULL, "generals/order", 0x6d85c58c7d721cf7ULL, 0x6d85c58c7d721cddULL,
     {15365398089669912642ULL, 18323750273208774239ULL, 3268202031980861650ULL, 17780007085946915459ULL, 265474909197651399ULL},
     {{1, {0, 0, 0}}, {2, {0, 1, 0}}, {3, {0, 2, 1}}, {7, {1, 6, 3}}, {1000, {642, 239, 650}}},
     {8, 1, 5, 2, 6, 4, 7, 9, 10, 3}},
    {42ULL, "generals/mapgen", 0x70d4eb6423cdfcd1ULL, 0x70d4eb6423cdfcfbULL,
     {15579279202270634892ULL, 3684541271652192551ULL, 17272755982169504205ULL, 7025504321779197584ULL, 5602820993027800089ULL},
     {{1, {0, 0, 0}}, {2, {0, 1, 1}}, {3, {0, 2, 0}}, {7, {6, 5, 4}}, {1000, {892, 551, 205}}},
     {8, 10, 1, 7, 5, 4, 2, 9, 6, 3}},
    {18446744073709551615ULL, "generals/order", 0x6d85c58c7d721cf7ULL, 0x927a3a73828de308ULL,
     {3586383018308354950ULL, 17533971754663644798ULL, 10381159131861404927ULL, 8695865080745464517ULL, 399277378458995189ULL},
     {{1, {0, 0, 0}}, {2, {0, 0, 1}}, {3, {1, 0, 2}}, {7, {0, 0, 5}}, {1000, {950, 798, 927}}},
     {2, 9, 5, 3, 4, 6, 10, 8, 7, 1}},
    {18446744073709551615ULL, "generals/mapgen", 0x70d4eb6423cdfcd1ULL, 0x8f2b149bdc32032eULL,
     {5239893408485001728ULL, 3309052542576576821ULL, 9722199898689268079ULL, 7733162626096298299ULL, 13218043465893738083ULL},
     {{1, {0, 0, 0}}, {2, {0, 1, 1}}, {3, {2, 2, 2}}, {7, {0, 4, 5}}, {1000, {728, 821, 79}}},
     {4, 3, 1, 5, 2, 6, 7, 8, 10, 9}},
};
#define N_VECTORS ((int)(sizeof vectors / sizeof vectors[0]))

START_TEST(fnv1a64_of_label)
{
    ck_assert_uint_eq(fnv1a64(vectors[_i].label), vectors[_i].fnv);
}
END_TEST

START_TEST(stream_starts_at_seed_xor_fnv)
{
    struct rng r = rng_stream(vectors[_i].seed, vectors[_i].label);
    ck_assert_uint_eq(r.state, vectors[_i].state);
}
END_TEST

START_TEST(first_five_next_values)
{
    struct rng r = rng_stream(vectors[_i].seed, vectors[_i].label);
    for (int x = 0; x < 5; x++)
        ck_assert_uint_eq(rng_next(&r), vectors[_i].next[x]);
}
END_TEST

START_TEST(first_three_uniform_values_of_fresh_streams)
{
    for (int u = 0; u < 5; u++) {
        const struct uniform_vector *uv = &vectors[_i].uniform[u];
        struct rng r = rng_stream(vectors[_i].seed, vectors[_i].label);
        for (int x = 0; x < 3; x++)
            ck_assert_uint_eq(rng_uniform(&r, uv->n), uv->values[x]);
    }
}
END_TEST

START_TEST(shuffle_of_one_to_ten)
{
    struct rng r = rng_stream(vectors[_i].seed, vectors[_i].label);
    int a[10];
    for (int x = 0; x < 10; x++)
        a[x] = x + 1;
    rng_shuffle_int(&r, a, 10);
    for (int x = 0; x < 10; x++)
        ck_assert_int_eq(a[x], vectors[_i].shuffle[x]);
}
END_TEST

START_TEST(shuffle_of_sizes_matches_shuffle_of_ints)
{
    struct rng r = rng_stream(vectors[_i].seed, vectors[_i].label);
    size_t a[10];
    for (size_t x = 0; x < 10; x++)
        a[x] = x + 1;
    rng_shuffle_size(&r, a, 10);
    for (int x = 0; x < 10; x++)
        ck_assert_uint_eq(a[x], (size_t)vectors[_i].shuffle[x]);
}
END_TEST

START_TEST(range_is_lo_plus_uniform_of_span)
{
    /* uniform 1000 of seed 0 generals/order gives 156 836 309. */
    struct rng r = rng_stream(0, "generals/order");
    ck_assert_int_eq(rng_range(&r, -500, 499), 156 - 500);
    ck_assert_int_eq(rng_range(&r, -500, 499), 836 - 500);
    ck_assert_int_eq(rng_range(&r, 1, 1000), 310);
}
END_TEST

START_TEST(uniform_of_one_still_draws)
{
    struct rng a = rng_stream(42, "generals/order"), b = a;
    ck_assert_uint_eq(rng_uniform(&a, 1), 0);
    rng_next(&b);
    ck_assert_uint_eq(a.state, b.state);
}
END_TEST

START_TEST(short_shuffles_draw_nothing)
{
    struct rng r = rng_stream(7, "x"), before = r;
    int one[1] = {5};
    rng_shuffle_int(&r, one, 1);
    rng_shuffle_int(&r, NULL, 0);
    ck_assert_uint_eq(r.state, before.state);
    ck_assert_int_eq(one[0], 5);
}
END_TEST

START_TEST(uniform_of_zero_returns_zero_without_a_draw)
{
    struct rng r = rng_stream(7, "x"), before = r;
    ck_assert_uint_eq(rng_uniform(&r, 0), 0);
    ck_assert_uint_eq(r.state, before.state);
}
END_TEST

START_TEST(uniform_rejects_draws_below_the_threshold)
{
    /* n = 2^63 + 1: t = (2^64 - n) mod n = 2^63 - 1; every x < t is redrawn. */
    uint64_t n = (1ULL << 63) + 1;
    struct rng r = rng_stream(1, "generals/order"), copy = r;
    uint64_t expect;
    do
        expect = rng_next(&copy);
    while (expect < (1ULL << 63) - 1);
    ck_assert_uint_eq(rng_uniform(&r, n), expect % n);
    ck_assert_uint_eq(r.state, copy.state);
}
END_TEST

static Suite *rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *t = tcase_create("vectors");
    tcase_add_loop_test(t, fnv1a64_of_label, 0, N_VECTORS);
    tcase_add_loop_test(t, stream_starts_at_seed_xor_fnv, 0, N_VECTORS);
    tcase_add_loop_test(t, first_five_next_values, 0, N_VECTORS);
    tcase_add_loop_test(t, first_three_uniform_values_of_fresh_streams, 0, N_VECTORS);
    tcase_add_loop_test(t, shuffle_of_one_to_ten, 0, N_VECTORS);
    tcase_add_loop_test(t, shuffle_of_sizes_matches_shuffle_of_ints, 0, N_VECTORS);
    suite_add_tcase(s, t);
    TCase *e = tcase_create("edges");
    tcase_add_test(e, range_is_lo_plus_uniform_of_span);
    tcase_add_test(e, uniform_of_one_still_draws);
    tcase_add_test(e, short_shuffles_draw_nothing);
    tcase_add_test(e, uniform_of_zero_returns_zero_without_a_draw);
    tcase_add_test(e, uniform_rejects_draws_below_the_threshold);
    suite_add_tcase(s, e);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(rng_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
