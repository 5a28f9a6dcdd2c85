/* test_engine_warlight_match.c - rounds and turns through game.h: W11, W12, §6's streams, §7
 * points, D18 places, §8/§9/D19 violations and persistent processes, D13 set-up checks. */
#include "tests/unit/warlight_fixture.h"

/* A 3 x 3 board (every territory touches every other) in `rounds` rounds of `turns` turns. */
static void small_game(struct wfix *f, int players, int rounds, int turns, bool persistent)
{
    wf_init(f);
    wf_set(f, "rows", 3);
    wf_set(f, "cols", 3);
    wf_set(f, "bonus_count", 3);
    wf_set(f, "bonus_size", 3);
    wf_set(f, "rounds", rounds);
    wf_set(f, "turn_limit", turns);
    wf_set(f, "persistent", persistent);
    wf_create(f, 9, players);
    warlight_rules.set_log(f->g, &f->log);
}

/* Player `from` deploys its 5 on its start and attacks player `to`'s start with everything. */
static void kill(struct wfix *f, int from, int to)
{
    const struct warlight_board *b = warlight_board_of(f->g);
    int s = b->start[from - 1], t = b->start[to - 1];
    char text[96];
    snprintf(text, sizeof text, "%d,%d,5\n%d,%d,%d,%d,%lld\n", s / 3, s % 3, s / 3, s % 3, t / 3,
             t % 3, (long long)b->armies[s] + 4);
    ck_assert_int_eq(wf_say(f, from, text), VIOLATION_NONE);
}

static void nothing(struct wfix *f, int p)
{
    ck_assert_int_eq(wf_out(f, p, "", 0), VIOLATION_INVALID_OUTPUT);
}

static int pending_list(struct wfix *f, char *out, size_t size)
{
    int pending[GAME_MAX_PLAYERS], n = wf_pending(f, pending);
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%d", i ? " " : "", pending[i]);
    return n;
}

static bool has(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

static int count(const char *text, const char *part)
{
    int n = 0;
    for (const char *p = strstr(text, part); p; p = strstr(p + 1, part))
        n++;
    return n;
}

START_TEST(w11_w12_a_sole_survivor_ends_the_round_with_all_points)
{
    struct wfix f;
    small_game(&f, 2, 2, 3, false);
    kill(&f, 1, 2);
    nothing(&f, 2);
    const char *ev = wf_events(&f);
    ck_assert_msg(has(ev, "\"out\":[1]}\n{\"t\":\"endround\",\"round\":1,\"points\":[100,0]}\n"
                          "{\"t\":\"round\",\"round\":2,"), "%s", ev);
    ck_assert(has(f.log.data, "out 1\nendround 1 100 0\nround 2\n"));
    ck_assert_int_eq(warlight_rules.round(f.g), 2);
    char list[64];
    ck_assert_int_eq(pending_list(&f, list, sizeof list), 2);  /* everyone is back */
    for (int turn = 1; turn <= 3; turn++) {
        nothing(&f, 1);
        nothing(&f, 2);
    }
    ck_assert(warlight_rules.over(f.g));
    ck_assert(has(f.log.data, "endround 2 50 50\ntotal 150 50\n"));
    ck_assert_int_eq(wf_pending(&f, (int[GAME_MAX_PLAYERS]){0}), 0);
    struct game_result r;
    ck_assert_int_eq(warlight_rules.result(f.g, &r), 0);
    ck_assert_int_eq(r.players, 2);
    ck_assert_int_eq(r.rounds, 2);
    ck_assert_int_eq(r.winner, 1);
    ck_assert(!r.draw);
    ck_assert_int_eq(r.p[1].points, 150);
    ck_assert_int_eq(r.p[1].place, 1);
    ck_assert_int_eq(r.p[2].points, 50);
    ck_assert_int_eq(r.p[2].place, 2);
    ck_assert_int_eq(r.p[1].stats[0], 1);  /* rounds won alone */
    ck_assert_int_eq(r.p[2].stats[1], 1);  /* rounds survived */
    ck_assert_int_eq(r.p[2].stats[2], 4);  /* turns skipped */
    ck_assert(warlight_rules.player_done(f.g, 1));
    wf_free(&f);
}
END_TEST

START_TEST(s7_points_are_shared_with_integer_division)
{
    struct wfix f;
    small_game(&f, 3, 1, 2, false);
    for (int turn = 1; turn <= 2; turn++)
        for (int p = 1; p <= 3; p++)
            ck_assert_int_eq(warlight_rules.violation(f.g, p, VIOLATION_TIME), 0);
    ck_assert(warlight_rules.over(f.g));
    ck_assert(has(f.log.data, "player 2 5 skip-time\n"));
    ck_assert(has(f.log.data, "endround 1 33 33 33\ntotal 33 33 33\n"));
    struct game_result r;
    warlight_rules.result(f.g, &r);
    ck_assert(r.draw);
    ck_assert_int_eq(r.winner, 0);
    for (int p = 1; p <= 3; p++)
        ck_assert_int_eq(r.p[p].place, 1);
    wf_free(&f);
}
END_TEST

START_TEST(d18_equal_totals_share_a_place)
{
    struct wfix f;
    small_game(&f, 3, 1, 2, false);
    kill(&f, 1, 3);
    nothing(&f, 2);
    nothing(&f, 3);
    char list[64];
    ck_assert_int_eq(pending_list(&f, list, sizeof list), 2);  /* W11: 3 is out */
    ck_assert_str_eq(list, "1 2");
    ck_assert(has(f.log.data, "out 2\n"));
    nothing(&f, 1);
    nothing(&f, 2);
    ck_assert(has(f.log.data, "turn 2\nplayer 0 5 skip-nooutput\nplayer 1 5 skip-nooutput\nrow"));
    ck_assert(has(f.log.data, "endround 1 50 50 0\n"));
    struct game_result r;
    warlight_rules.result(f.g, &r);
    ck_assert_int_eq(r.p[1].place, 1);
    ck_assert_int_eq(r.p[2].place, 1);
    ck_assert_int_eq(r.p[3].place, 3);
    ck_assert(r.draw);
    wf_free(&f);
}
END_TEST

START_TEST(w12_turn_limit_ends_the_round)
{
    struct wfix f;
    small_game(&f, 2, 3, 4, false);
    for (int turn = 1; turn <= 4; turn++) {
        ck_assert_int_eq(warlight_rules.round(f.g), 1);
        nothing(&f, 1);
        nothing(&f, 2);
    }
    ck_assert_int_eq(warlight_rules.round(f.g), 2);
    ck_assert_int_eq(count(f.log.data, "\nturn "), 4);
    ck_assert(has(f.log.data, "turn 4\n"));
    ck_assert(!has(f.log.data, "turn 5\n"));
    wf_free(&f);
}
END_TEST

/* ---- persistent processes (§9, D19) --------------------------------------------------------- */

START_TEST(d19_a_killed_process_skips_the_rest_of_its_round)
{
    struct wfix f;
    small_game(&f, 3, 2, 3, true);
    nothing(&f, 1);
    ck_assert_int_eq(warlight_rules.violation(f.g, 2, VIOLATION_TIME), 0);
    ck_assert(warlight_rules.player_done(f.g, 2));
    ck_assert(!warlight_rules.player_done(f.g, 1));
    nothing(&f, 3);
    char list[64];
    pending_list(&f, list, sizeof list);
    ck_assert_str_eq(list, "1 3");
    nothing(&f, 1);
    nothing(&f, 3);
    nothing(&f, 1);
    nothing(&f, 3);
    ck_assert_int_eq(count(f.log.data, "player 1 5 skip-time\n"), 3);
    sb_reset(&f.text);
    warlight_rules.outbox(f.g, 2, &f.text);
    ck_assert_uint_eq(f.text.len, 0);  /* no END for a killed process */
    warlight_rules.outbox(f.g, 1, &f.text);
    ck_assert_str_eq(f.text.data, "END\n");
    ck_assert_int_eq(warlight_rules.process_serial(f.g, 2), 2);
    ck_assert(!warlight_rules.player_done(f.g, 2));
    pending_list(&f, list, sizeof list);
    ck_assert_str_eq(list, "1 2 3");
    wf_free(&f);
}
END_TEST

START_TEST(d19_end_after_an_eliminated_players_last_turn_only_once)
{
    struct wfix f;
    small_game(&f, 3, 1, 2, true);
    kill(&f, 1, 3);
    nothing(&f, 2);
    nothing(&f, 3);
    ck_assert(warlight_rules.player_done(f.g, 3));
    sb_reset(&f.text);
    warlight_rules.outbox(f.g, 3, &f.text);
    ck_assert_str_eq(f.text.data, "END\n");
    nothing(&f, 1);
    nothing(&f, 2);
    ck_assert(warlight_rules.over(f.g));
    sb_reset(&f.text);
    for (int p = 1; p <= 3; p++)
        warlight_rules.outbox(f.g, p, &f.text);
    ck_assert_str_eq(f.text.data, "END\nEND\n");
    wf_free(&f);
}
END_TEST

START_TEST(d19_when_no_process_is_left_the_round_plays_itself_out)
{
    struct wfix f;
    small_game(&f, 2, 2, 5, true);
    ck_assert_int_eq(warlight_rules.violation(f.g, 1, VIOLATION_CRASH), 0);
    ck_assert_int_eq(warlight_rules.violation(f.g, 2, VIOLATION_MEMORY), 0);
    ck_assert_int_eq(warlight_rules.round(f.g), 2);
    ck_assert_int_eq(count(f.log.data, "player 0 5 skip-crash\nplayer 1 5 skip-memory\n"), 5);
    ck_assert(has(f.log.data, "endround 1 50 50\nround 2\n"));
    wf_free(&f);
}
END_TEST

START_TEST(d19_other_violations_keep_the_process)
{
    struct wfix f;
    small_game(&f, 2, 1, 3, true);
    ck_assert_int_eq(warlight_rules.violation(f.g, 1, VIOLATION_INVALID_OUTPUT), 0);
    ck_assert_int_eq(warlight_rules.violation(f.g, 2, VIOLATION_SYSCALL), 0);
    ck_assert(has(f.log.data, "player 0 5 skip-output\nplayer 1 5 skip-syscall\n"));
    ck_assert(!warlight_rules.player_done(f.g, 1));
    char list[64];
    pending_list(&f, list, sizeof list);
    ck_assert_str_eq(list, "1");
    wf_free(&f);
}
END_TEST

START_TEST(per_turn_violations_never_stop_a_player)
{
    struct wfix f;
    small_game(&f, 2, 1, 3, false);
    ck_assert_int_eq(warlight_rules.violation(f.g, 1, VIOLATION_SYSCALL), 0);
    ck_assert_int_eq(warlight_rules.violation(f.g, 2, VIOLATION_CRASH), 0);
    char list[64];
    pending_list(&f, list, sizeof list);
    ck_assert_str_eq(list, "1 2");
    ck_assert(!warlight_rules.player_done(f.g, 1));
    sb_reset(&f.text);
    warlight_rules.outbox(f.g, 1, &f.text);
    ck_assert_uint_eq(f.text.len, 0);
    wf_free(&f);
}
END_TEST

/* ---- D11: one play stream per round, drawn turn after turn ------------------------------------ */

/* The destinations of player 0's move lines in one turn's log, in the order they ran. */
static void moves_of_turn(const char *log, int turn, int64_t *dest, int n)
{
    char head[32];
    snprintf(head, sizeof head, "\nturn %d\n", turn);
    const char *p = strstr(log, head);
    ck_assert_ptr_nonnull(p);
    for (int i = 0; i < n; i++) {
        p = strstr(p, "\nmove 0 ");
        ck_assert_ptr_nonnull(p);
        int sr, sc, dr, dc;
        ck_assert_int_eq(sscanf(p, "\nmove 0 %d,%d,%d,%d", &sr, &sc, &dr, &dc), 4);
        dest[i] = dr * 10 + dc;
        p++;
    }
}

START_TEST(d11_the_play_stream_goes_on_from_turn_to_turn)
{
    struct wfix f;
    wf_init(&f);
    wf_set(&f, "rounds", 1);
    wf_set(&f, "turn_limit", 2);
    wf_create(&f, 77, 2);
    warlight_rules.set_log(f.g, &f.log);
    const struct warlight_board *b = warlight_board_of(f.g);
    int s = b->start[0], targets[3];
    for (int i = 0; i < 3; i++)
        targets[i] = wl_board_neighbour(b, s, i);
    char text[128];
    snprintf(text, sizeof text, "%d,%d,5\n%d,%d,%d,%d,1 %d,%d,%d,%d,1 %d,%d,%d,%d,1\n", s / 10,
             s % 10, s / 10, s % 10, targets[0] / 10, targets[0] % 10, s / 10, s % 10,
             targets[1] / 10, targets[1] % 10, s / 10, s % 10, targets[2] / 10, targets[2] % 10);
    struct rng play = rng_stream(77, "warlight/play/1");
    for (int turn = 1; turn <= 2; turn++) {
        ck_assert_int_eq(wf_say(&f, 1, text), VIOLATION_NONE);
        nothing(&f, 2);
        int order[3] = {0, 1, 2};
        rng_shuffle_int(&play, order, 3);
        int64_t dest[3];
        moves_of_turn(f.log.data, turn, dest, 3);
        for (int i = 0; i < 3; i++)
            ck_assert_int_eq(dest[i], targets[order[i]]);
    }
    wf_free(&f);
}
END_TEST

/* ---- D13 ---------------------------------------------------------------------------------------- */

static void expect_refused(struct wfix *f, int players, const char *part)
{
    struct game_setup s = {.params = f->params, .seed = 1, .players = players};
    struct game_error err = {0};
    struct game *g = NULL;
    ck_assert_int_eq(warlight_rules.create(&s, &g, &err), -1);
    ck_assert_ptr_null(g);
    ck_assert_msg(has(err.msg, part), "%s", err.msg);
}

START_TEST(d13_set_up_constraints)
{
    struct wfix f;
    struct game_error err;
    wf_init(&f);
    expect_refused(&f, 1, "2 to 16 players");
    expect_refused(&f, 17, "2 to 16 players");
    ck_assert_int_eq(game_param_set(&warlight_rules, f.params, "rows", 2, &err), -1);
    ck_assert_int_eq(game_param_set(&warlight_rules, f.params, "cols", 51, &err), -1);
    ck_assert_int_eq(game_param_set(&warlight_rules, f.params, "persistent", 2, &err), -1);
    ck_assert_int_eq(game_param_set(&warlight_rules, f.params, "base_income", 0, &err), -1);
    ck_assert_int_eq(game_param_set(&warlight_rules, f.params, "neutral_armies", -1, &err), -1);
    ck_assert_int_eq(game_param_set(&warlight_rules, f.params, "round_points",
                                    1000000000000000000LL, &err), -1);
    ck_assert_int_eq(game_param_set(&warlight_rules, f.params, "nonsense", 1, &err), -1);
    wf_set(&f, "bonus_size", 9);
    expect_refused(&f, 2, "bonus_count * bonus_size");
    wf_set(&f, "bonus_size", 10);
    wf_set(&f, "bonus_value_min", 11);
    expect_refused(&f, 2, "bonus_value_min");
    wf_init(&f);
    wf_set(&f, "rows", 3);
    wf_set(&f, "cols", 3);
    wf_set(&f, "bonus_count", 1);
    wf_set(&f, "bonus_size", 9);
    expect_refused(&f, 10, "2 to 9 players");
    wf_create(&f, 1, 9);
    wf_free(&f);
}
END_TEST

START_TEST(d13_huge_values_saturate_instead_of_overflowing)
{
    struct wfix f;
    wf_init(&f);
    wf_set(&f, "rows", 3);
    wf_set(&f, "cols", 3);
    wf_set(&f, "bonus_count", 1);
    wf_set(&f, "bonus_size", 9);
    wf_set(&f, "base_income", WARLIGHT_MAX_VALUE);
    wf_set(&f, "bonus_value_min", WARLIGHT_MAX_VALUE);
    wf_set(&f, "bonus_value_max", WARLIGHT_MAX_VALUE);
    wf_set(&f, "start_armies", WARLIGHT_MAX_VALUE);
    wf_set(&f, "attack_kill_pct", WARLIGHT_MAX_VALUE);
    wf_set(&f, "turn_limit", 12);
    wf_set(&f, "rounds", 1);
    wf_create(&f, 3, 2);
    const struct warlight_board *b = warlight_board_of(f.g);
    char text[128];
    for (int turn = 1; turn <= 12 && !warlight_rules.over(f.g); turn++) {
        int s = b->start[0];
        snprintf(text, sizeof text, "%d,%d,%lld\n", s / 3, s % 3, (long long)WARLIGHT_MAX_VALUE);
        wf_say(&f, 1, text);
        nothing(&f, 2);
    }
    ck_assert_int_eq(b->armies[b->start[0]], INT64_MAX);
    wf_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("warlight_match");
    TCase *tc = tcase_create("match");
    tcase_add_test(tc, w11_w12_a_sole_survivor_ends_the_round_with_all_points);
    tcase_add_test(tc, s7_points_are_shared_with_integer_division);
    tcase_add_test(tc, d18_equal_totals_share_a_place);
    tcase_add_test(tc, w12_turn_limit_ends_the_round);
    tcase_add_test(tc, d19_a_killed_process_skips_the_rest_of_its_round);
    tcase_add_test(tc, d19_end_after_an_eliminated_players_last_turn_only_once);
    tcase_add_test(tc, d19_when_no_process_is_left_the_round_plays_itself_out);
    tcase_add_test(tc, d19_other_violations_keep_the_process);
    tcase_add_test(tc, per_turn_violations_never_stop_a_player);
    tcase_add_test(tc, d11_the_play_stream_goes_on_from_turn_to_turn);
    tcase_add_test(tc, d13_set_up_constraints);
    tcase_add_test(tc, d13_huge_values_saturate_instead_of_overflowing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
