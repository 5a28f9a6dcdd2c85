/* test_engine_warlight_rules.c - W1, W6..W10 and §6's order on hand-made boards. */
#include "tests/unit/warlight_fixture.h"

/* One turn on a hand-made board: each player's reply, then the resolution. */
struct turn {
    struct warlight_board b;
    struct wl_orders o[GAME_MAX_PLAYERS];
    struct wl_moves ran;
    int dropped[GAME_MAX_PLAYERS];
    int64_t params[WP_COUNT];
    bool replied[GAME_MAX_PLAYERS];
};

static void turn_init(struct turn *t, int rows, int cols, int k)
{
    memset(t, 0, sizeof *t);
    wf_board(&t->b, rows, cols, rows, k);
    game_params_defaults(&warlight_rules, t->params);
}

static void turn_free(struct turn *t)
{
    wl_board_free(&t->b);
    for (int id = 0; id < GAME_MAX_PLAYERS; id++)
        wl_orders_free(&t->o[id]);
    free(t->ran.v);
}

static enum wl_status reply(struct turn *t, int id, int64_t income, const char *text)
{
    ck_assert_int_eq(wl_orders_read(&t->o[id], &t->b, id, income, 65536, text, strlen(text)), 0);
    t->replied[id] = true;
    return t->o[id].status;
}

static void resolve(struct turn *t, uint64_t seed)
{
    struct wl_orders *orders[GAME_MAX_PLAYERS] = {0};
    for (int id = 0; id < t->b.k; id++)
        orders[id] = t->replied[id] ? &t->o[id] : NULL;
    struct rng play = rng_stream(seed, "warlight/play/1");
    ck_assert_int_eq(wl_resolve(&t->b, orders, t->params, &play, &t->ran, t->dropped), 0);
}

static int64_t armies(const struct turn *t, int r, int c)
{
    return t->b.armies[r * t->b.cols + c];
}

static int owner(const struct turn *t, int r, int c)
{
    return t->b.owner[r * t->b.cols + c];
}

/* The first seed whose play stream shuffles a list of n into one with index `first` first. */
static uint64_t seed_putting_first(int n, int first)
{
    for (uint64_t seed = 0;; seed++) {
        int a[8];
        for (int i = 0; i < n; i++)
            a[i] = i;
        struct rng r = rng_stream(seed, "warlight/play/1");
        rng_shuffle_int(&r, a, (size_t)n);
        if (a[0] == first)
            return seed;
    }
}

/* ---- W1 ------------------------------------------------------------------------------- */

START_TEST(w1_eight_neighbours_wrap_around)
{
    struct warlight_board b;
    wf_board(&b, 10, 10, 10, 2);
    const int expect[8] = {99, 90, 91, 9, 1, 19, 10, 11};  /* of (0,0), in row-major step order */
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(wl_board_neighbour(&b, 0, i), expect[i]);
        ck_assert(wl_board_adjacent(&b, 0, expect[i]));
        ck_assert(wl_board_adjacent(&b, expect[i], 0));
    }
    ck_assert(!wl_board_adjacent(&b, 0, 0));
    ck_assert(!wl_board_adjacent(&b, 0, 2));
    ck_assert(!wl_board_adjacent(&b, 0, 20));
    ck_assert(!wl_board_adjacent(&b, 0, 88));
    ck_assert(wl_board_adjacent(&b, 55, 66));
    ck_assert(!wl_board_adjacent(&b, 55, 77));
    wl_board_free(&b);
}
END_TEST

START_TEST(w1_every_territory_touches_every_other_on_3x3)
{
    struct warlight_board b;
    wf_board(&b, 3, 3, 3, 2);
    for (int t = 0; t < 9; t++)
        for (int u = 0; u < 9; u++)
            ck_assert(wl_board_adjacent(&b, t, u) == (t != u));
    wl_board_free(&b);
}
END_TEST

START_TEST(w1_non_square_board_wraps_each_way)
{
    struct warlight_board b;
    wf_board(&b, 3, 5, 3, 2);
    ck_assert(wl_board_adjacent(&b, 0, 4));        /* (0,0)-(0,4) */
    ck_assert(wl_board_adjacent(&b, 0, 2 * 5 + 4)); /* (0,0)-(2,4) */
    ck_assert(!wl_board_adjacent(&b, 0, 2));       /* (0,0)-(0,2) */
    wl_board_free(&b);
}
END_TEST

/* ---- W6 ------------------------------------------------------------------------------- */

START_TEST(w6_income_is_base_plus_complete_bonuses)
{
    struct warlight_board b;
    wf_board(&b, 4, 4, 4, 2);  /* bonus = row, 4 territories each */
    const int64_t values[4] = {3, 4, 5, 6};
    memcpy(b.bonus_value, values, sizeof values);
    for (int c = 0; c < 4; c++)
        wf_own(&b, 1, c, 0, 1);
    for (int c = 0; c < 3; c++)
        wf_own(&b, 2, c, 0, 1);
    wf_own(&b, 2, 3, 1, 1);
    ck_assert_int_eq(wl_board_income(&b, 0, 5), 9);
    ck_assert_int_eq(wl_board_income(&b, 0, 7), 11);
    ck_assert_int_eq(wl_board_income(&b, 1, 5), 5);
    wf_own(&b, 2, 3, 0, 1);
    ck_assert_int_eq(wl_board_income(&b, 0, 5), 14);
    wl_board_free(&b);
}
END_TEST

/* ---- W7 ------------------------------------------------------------------------------- */

START_TEST(w7_valid_deployment_adds_up_repeats_included)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 2);
    wf_own(&t.b, 5, 5, 0, 2);
    ck_assert_int_eq(reply(&t, 0, 6, "0,0,3 5,5,1 0,0,2\n"), WS_OK);
    resolve(&t, 1);
    ck_assert_int_eq(armies(&t, 0, 0), 7);
    ck_assert_int_eq(armies(&t, 5, 5), 3);
    turn_free(&t);
}
END_TEST

START_TEST(w7_invalid_deployments_skip_the_turn)
{
    static const char *const bad[] = {
        "0,0,4\n",                  /* total below the income */
        "0,0,6\n",                  /* above */
        "1,1,5\n",                  /* not owned */
        "0,0,0 0,0,5\n",            /* an amount < 1 */
        "0,1,-2 0,0,7\n",           /* D6: a negative amount with the right total */
        "10,0,5\n", "0,-1,5\n",     /* D14: off the board */
        "0,0,999999999999999999 0,0,999999999999999999\n", /* D13: no overflow */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct turn t;
        turn_init(&t, 10, 10, 2);
        wf_own(&t.b, 0, 0, 0, 2);
        wf_own(&t.b, 0, 1, 0, 2);
        ck_assert_msg(reply(&t, 0, 5, bad[i]) == WS_DEPLOY, "%s", bad[i]);
        ck_assert(wl_status_skips(WS_DEPLOY));
        resolve(&t, 1);
        ck_assert_int_eq(armies(&t, 0, 0), 2);
        turn_free(&t);
    }
}
END_TEST

START_TEST(w7_skipped_turn_runs_no_command)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 9);
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,4\n0,0,0,1,8\n"), WS_DEPLOY);
    resolve(&t, 1);
    ck_assert_uint_eq(t.ran.n, 0);
    ck_assert_int_eq(armies(&t, 0, 0), 9);
    ck_assert_int_eq(owner(&t, 0, 1), -1);
    turn_free(&t);
}
END_TEST

/* ---- W8 ------------------------------------------------------------------------------- */

START_TEST(w8_unparsable_line_two_keeps_the_deployment)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 2);
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,5\n0,0,0,1,3 0,0,1\n"), WS_BADMOVES);
    ck_assert(!wl_status_skips(WS_BADMOVES));
    resolve(&t, 1);
    ck_assert_int_eq(armies(&t, 0, 0), 7);
    ck_assert_uint_eq(t.ran.n, 0);
    turn_free(&t);
}
END_TEST

START_TEST(w8_each_bad_command_is_dropped_alone)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 2);
    wf_own(&t.b, 1, 1, 1, 4);
    ck_assert_int_eq(reply(&t, 0, 5,
                           "0,0,5\n"
                           "0,0,1,1,7 "     /* more than armies - 1 (7 after deploying) */
                           "0,0,2,2,1 "     /* not a neighbour */
                           "0,0,0,0,1 "     /* itself */
                           "1,1,0,0,1 "     /* not its own */
                           "0,0,1,1,0 "     /* a <= 0 */
                           "0,0,10,0,1 "    /* off the board */
                           "0,0,9,9,6\n"),  /* valid: wraps, a = armies - 1 (D5) */
                     WS_OK);
    resolve(&t, 1);
    ck_assert_int_eq(t.dropped[0], 6);
    ck_assert_uint_eq(t.ran.n, 1);
    ck_assert_int_eq(t.ran.v[0].cmd.dr, 9);
    ck_assert_int_eq(t.ran.v[0].n, 6);
    turn_free(&t);
}
END_TEST

START_TEST(w8_checks_use_armies_after_every_deployment)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 1);
    wf_own(&t.b, 0, 1, 0, 1);
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,5\n0,0,0,1,5\n"), WS_OK);
    resolve(&t, 1);
    ck_assert_int_eq(t.dropped[0], 0);
    ck_assert_int_eq(armies(&t, 0, 0), 1);
    ck_assert_int_eq(armies(&t, 0, 1), 6);
    ck_assert_int_eq(t.ran.v[0].outcome, WO_TRANSFER);
    turn_free(&t);
}
END_TEST

/* ---- W9 ------------------------------------------------------------------------------- */

START_TEST(w9_later_commands_move_what_is_left)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 5);
    wf_own(&t.b, 0, 1, 0, 1);
    wf_own(&t.b, 1, 0, 0, 1);
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,5\n0,0,0,1,6 0,0,1,0,6\n"), WS_OK);
    resolve(&t, 3);
    ck_assert_uint_eq(t.ran.n, 2);
    ck_assert_int_eq(t.ran.v[0].n, 6);
    ck_assert_int_eq(t.ran.v[1].n, 3);  /* min(6, 4 - 1) */
    ck_assert_int_eq(armies(&t, 0, 0), 1);
    ck_assert_int_eq(armies(&t, 0, 1) + armies(&t, 1, 0), 2 + 9);
    turn_free(&t);
}
END_TEST

START_TEST(w9_nothing_left_is_dropped_with_n_zero)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 5);
    wf_own(&t.b, 0, 1, 0, 1);
    wf_own(&t.b, 1, 0, 0, 1);
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,5\n0,0,0,1,9 0,0,1,0,9\n"), WS_OK);
    resolve(&t, 3);
    ck_assert_int_eq(t.ran.v[0].n, 9);
    ck_assert_int_eq(t.ran.v[1].n, 0);
    ck_assert_int_eq(t.ran.v[1].outcome, WO_NOTHING_LEFT);
    turn_free(&t);
}
END_TEST

START_TEST(w9_a_source_lost_earlier_in_the_turn)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 3);
    wf_own(&t.b, 0, 1, 1, 15);
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,5\n0,0,1,0,7\n"), WS_OK);
    ck_assert_int_eq(reply(&t, 1, 5, "0,1,5\n0,1,0,0,19\n"), WS_OK);
    resolve(&t, seed_putting_first(2, 1));  /* C = [player 0's, player 1's] */
    ck_assert_int_eq(t.ran.v[0].id, 1);
    ck_assert_int_eq(t.ran.v[0].outcome, WO_CAPTURE);  /* 19 vs 8: kd 11, ka 6 */
    ck_assert_int_eq(owner(&t, 0, 0), 1);
    ck_assert_int_eq(armies(&t, 0, 0), 13);
    ck_assert_int_eq(t.ran.v[1].id, 0);
    ck_assert_int_eq(t.ran.v[1].outcome, WO_LOST_SOURCE);
    ck_assert_int_eq(t.ran.v[1].n, 0);
    ck_assert_int_eq(owner(&t, 1, 0), -1);
    ck_assert_int_eq(t.b.land[0], 0);
    ck_assert_int_eq(t.b.land[1], 2);
    turn_free(&t);
}
END_TEST

/* ---- W10 ------------------------------------------------------------------------------ */

START_TEST(w10_kills_round_half_away_from_zero_in_integers)
{
    ck_assert_int_eq(wl_kills(5, 70), 4);   /* 3.5 */
    ck_assert_int_eq(wl_kills(3, 70), 2);   /* 2.1 */
    ck_assert_int_eq(wl_kills(2, 70), 1);   /* 1.4 */
    ck_assert_int_eq(wl_kills(1, 60), 1);   /* 0.6 */
    ck_assert_int_eq(wl_kills(3, 60), 2);   /* 1.8 */
    ck_assert_int_eq(wl_kills(4, 60), 2);   /* 2.4 */
    ck_assert_int_eq(wl_kills(0, 60), 0);
    ck_assert_int_eq(wl_kills(7, 0), 0);
    ck_assert_int_eq(wl_kills(INT64_MAX, 100), INT64_MAX);
    ck_assert_int_eq(wl_kills(INT64_MAX, 999999999999999999LL), INT64_MAX);
    ck_assert_int_eq(wl_kills(999999999999999999LL, 60), 599999999999999999LL);
}
END_TEST

/* Player 0 deploys n on (0,0), holding 1, and attacks a neutral (1,1) holding o with n. */
static void attack(struct turn *t, int64_t n, int64_t o)
{
    turn_init(t, 10, 10, 2);
    wf_own(&t->b, 0, 0, 0, 1);
    t->b.armies[11] = o;
    char text[96];
    snprintf(text, sizeof text, "0,0,%lld\n0,0,1,1,%lld\n", (long long)n, (long long)n);
    ck_assert_int_eq(reply(t, 0, n, text), WS_OK);
    resolve(t, 1);
}

START_TEST(w10_capture)
{
    struct turn t;
    attack(&t, 10, 2);  /* kd 6, ka 1 */
    ck_assert_int_eq(t.ran.v[0].outcome, WO_CAPTURE);
    ck_assert_int_eq(owner(&t, 1, 1), 0);
    ck_assert_int_eq(armies(&t, 1, 1), 9);
    ck_assert_int_eq(armies(&t, 0, 0), 1);
    turn_free(&t);
}
END_TEST

START_TEST(w10_stalemate_keeps_the_owner_with_one_army)
{
    struct turn t;
    attack(&t, 1, 1);  /* kd 1, ka 1 */
    ck_assert_int_eq(t.ran.v[0].outcome, WO_STALEMATE);
    ck_assert_int_eq(owner(&t, 1, 1), -1);
    ck_assert_int_eq(armies(&t, 1, 1), 1);
    ck_assert_int_eq(armies(&t, 0, 0), 1);
    turn_free(&t);
}
END_TEST

START_TEST(w10_repelled_survivors_go_back)
{
    struct turn t;
    attack(&t, 5, 5);  /* kd 3 -> o' 2; ka 4 -> n' 1 */
    ck_assert_int_eq(t.ran.v[0].outcome, WO_REPELLED);
    ck_assert_int_eq(owner(&t, 1, 1), -1);
    ck_assert_int_eq(armies(&t, 1, 1), 2);
    ck_assert_int_eq(armies(&t, 0, 0), 2);
    ck_assert_int_eq(t.ran.v[0].n, 5);
    turn_free(&t);
    attack(&t, 3, 5);  /* kd 2 -> o' 3; ka 4 -> n' 0 */
    ck_assert_int_eq(t.ran.v[0].outcome, WO_REPELLED);
    ck_assert_int_eq(armies(&t, 1, 1), 3);
    ck_assert_int_eq(armies(&t, 0, 0), 1);
    turn_free(&t);
}
END_TEST

START_TEST(w10_percentages_are_parameters)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    t.params[WP_ATTACK_KILL_PCT] = 100;
    t.params[WP_DEFEND_KILL_PCT] = 0;
    wf_own(&t.b, 0, 0, 0, 1);
    t.b.armies[11] = 5;
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,5\n0,0,1,1,5\n"), WS_OK);
    resolve(&t, 1);
    ck_assert_int_eq(t.ran.v[0].outcome, WO_CAPTURE);
    ck_assert_int_eq(armies(&t, 1, 1), 5);
    turn_free(&t);
}
END_TEST

START_TEST(w10_capturing_a_players_territory_changes_its_land)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 10);
    wf_own(&t.b, 1, 1, 1, 2);
    wf_own(&t.b, 5, 5, 1, 2);
    ck_assert_int_eq(reply(&t, 0, 5, "0,0,5\n0,0,1,1,14\n"), WS_OK);
    resolve(&t, 1);
    ck_assert_int_eq(owner(&t, 1, 1), 0);
    ck_assert_int_eq(t.b.land[0], 2);
    ck_assert_int_eq(t.b.land[1], 1);
    turn_free(&t);
}
END_TEST

/* ---- §6: the order commands run in ------------------------------------------------------ */

START_TEST(s6_commands_by_id_then_as_written_then_shuffled)
{
    for (uint64_t seed = 0; seed < 20; seed++) {
        struct turn t;
        turn_init(&t, 10, 10, 3);
        wf_own(&t.b, 0, 0, 0, 20);
        wf_own(&t.b, 5, 5, 1, 20);
        wf_own(&t.b, 8, 8, 2, 20);
        reply(&t, 2, 5, "8,8,5\n8,8,7,7,1 8,8,7,8,2\n");
        reply(&t, 0, 5, "0,0,5\n0,0,1,1,3 0,0,1,0,4 0,0,0,1,5\n");
        reply(&t, 1, 5, "5,5,5\n5,5,4,4,6\n");
        resolve(&t, seed);
        const int64_t written[6][2] = {{0, 3}, {0, 4}, {0, 5}, {1, 6}, {2, 1}, {2, 2}};
        int order[6] = {0, 1, 2, 3, 4, 5};
        struct rng r = rng_stream(seed, "warlight/play/1");
        rng_shuffle_int(&r, order, 6);
        ck_assert_uint_eq(t.ran.n, 6);
        for (int i = 0; i < 6; i++) {
            ck_assert_int_eq(t.ran.v[i].id, written[order[i]][0]);
            ck_assert_int_eq(t.ran.v[i].cmd.a, written[order[i]][1]);
        }
        turn_free(&t);
    }
}
END_TEST

START_TEST(s6_deployments_all_land_before_any_command)
{
    struct turn t;
    turn_init(&t, 10, 10, 2);
    wf_own(&t.b, 0, 0, 0, 1);
    wf_own(&t.b, 0, 1, 1, 1);
    /* Player 1 deploys on (0,1); player 0 attacks it with 5: it must meet 6 defenders. */
    reply(&t, 0, 5, "0,0,5\n0,0,0,1,5\n");
    reply(&t, 1, 5, "0,1,5\n");
    resolve(&t, 1);
    ck_assert_int_eq(t.ran.v[0].outcome, WO_REPELLED);  /* kd 3 -> 3 left; ka 4 -> 1 back */
    ck_assert_int_eq(armies(&t, 0, 1), 3);
    ck_assert_int_eq(armies(&t, 0, 0), 2);
    turn_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("warlight_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, w1_eight_neighbours_wrap_around);
    tcase_add_test(tc, w1_every_territory_touches_every_other_on_3x3);
    tcase_add_test(tc, w1_non_square_board_wraps_each_way);
    tcase_add_test(tc, w6_income_is_base_plus_complete_bonuses);
    tcase_add_test(tc, w7_valid_deployment_adds_up_repeats_included);
    tcase_add_test(tc, w7_invalid_deployments_skip_the_turn);
    tcase_add_test(tc, w7_skipped_turn_runs_no_command);
    tcase_add_test(tc, w8_unparsable_line_two_keeps_the_deployment);
    tcase_add_test(tc, w8_each_bad_command_is_dropped_alone);
    tcase_add_test(tc, w8_checks_use_armies_after_every_deployment);
    tcase_add_test(tc, w9_later_commands_move_what_is_left);
    tcase_add_test(tc, w9_nothing_left_is_dropped_with_n_zero);
    tcase_add_test(tc, w9_a_source_lost_earlier_in_the_turn);
    tcase_add_test(tc, w10_kills_round_half_away_from_zero_in_integers);
    tcase_add_test(tc, w10_capture);
    tcase_add_test(tc, w10_stalemate_keeps_the_owner_with_one_army);
    tcase_add_test(tc, w10_repelled_survivors_go_back);
    tcase_add_test(tc, w10_percentages_are_parameters);
    tcase_add_test(tc, w10_capturing_a_players_territory_changes_its_land);
    tcase_add_test(tc, s6_commands_by_id_then_as_written_then_shuffled);
    tcase_add_test(tc, s6_deployments_all_land_before_any_command);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
