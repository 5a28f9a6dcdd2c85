/* test_judge_serve_game.c - the network server's game layer without a network: boards
 * checked as the judge checks a bot's, games driven through the engine, their replays
 * (verified by replay_verify, exported equal to the game's log), aborted records, the ids
 * that go on after a restart, and the small limit checks. */
#include <check.h>
#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/verify/replay_verify.h"
#include "judge/serve/serve_internal.h"

static const char *const BOARD_A[SEA_SIDE] = {"####______", "__________", "###_###___", "__________", "##_##_##__",
                                              "__________", "#_#_#_#___", "__________", "__________", "__________"};
static const char *const BOARD_B[SEA_SIDE] = {"#________#", "___#______", "___#______", "#__#___#__", "#______#__",
                                              "#_#______#", "#_#______#", "_____##__#", "__________", "#________#"};
static char dir[64];
static struct serve_config cfg;

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_judge_serve.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    serve_config_defaults(&cfg);
    cfg.replays_dir = dir;
}

static void teardown(void)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
    rmdir(dir);
}

static int check(const char *const *lines, int n, struct sea_board *b, char *why)
{
    size_t lens[16];
    for (int i = 0; i < n; i++)
        lens[i] = strlen(lines[i]);
    return net_board_check(cfg.params, lines, lens, n, b, why, 256);
}

static struct net_game *new_game(void)
{
    struct sea_board a, b;
    char why[256], err[256];
    ck_assert_int_eq(check(BOARD_A, SEA_SIDE, &a, why), 0);
    ck_assert_int_eq(check(BOARD_B, SEA_SIDE, &b, why), 0);
    struct net_game *g = net_game_new(cfg.params, 1, "alice", &a, err, sizeof err);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(g->status, NET_WAITING);
    ck_assert_int_eq(net_game_shooter(g), 0);
    ck_assert_int_eq(net_game_join(g, "bob", &b), 0);
    ck_assert_int_eq(g->status, NET_PLAYING);
    return g;
}

static struct net_shot shot_at(int x, int y)
{
    struct net_shot shot;
    snprintf(shot.line, sizeof shot.line, "%d %d", x, y);
    return shot;
}

static void shoot(struct net_game *g, int p, int x, int y, const char *want)
{
    struct net_shot shot = shot_at(x, y);
    const char *result = NULL;
    ck_assert_int_eq(net_game_shoot(g, p, &shot, 0, &result), 0);
    ck_assert_str_eq(result, want);
}

/* The replay verifies and its seabattle-log export is the game's log. */
static void check_replay(struct net_game *g)
{
    char path[4096], err[512];
    struct replay_error rerr;
    struct strbuf log = STRBUF_INIT;
    ck_assert_int_eq(record_game(&cfg, g, NULL, path, sizeof path, err, sizeof err), 0);
    ck_assert_msg(replay_verify(path, &log, NULL, &rerr) == 0, "%s", rerr.msg);
    ck_assert_uint_eq(log.len, g->log.len);
    ck_assert(log.len == 0 || memcmp(log.data, g->log.data, log.len) == 0);
    sb_free(&log);
}

START_TEST(boards_checked_with_their_rule)
{
    struct sea_board b;
    char why[256];
    const char *lines[SEA_SIDE];
    memcpy(lines, BOARD_A, sizeof lines);
    ck_assert_int_eq(check(lines, SEA_SIDE - 1, &b, why), -1);
    ck_assert_msg(!strncmp(why, "S2: ", 4), "%s", why);
    lines[1] = "_#________";
    lines[0] = "#_________";
    ck_assert_int_eq(check(lines, SEA_SIDE, &b, why), -1);
    ck_assert_msg(!strncmp(why, "S3a: ", 5), "%s", why);
    memcpy(lines, BOARD_A, sizeof lines);
    lines[0] = "__________";
    ck_assert_int_eq(check(lines, SEA_SIDE, &b, why), -1);
    ck_assert_msg(!strncmp(why, "S3c: ", 5), "%s", why);
    lines[0] = "  ####______ \r";   /* README C3 */
    ck_assert_int_eq(check(lines, SEA_SIDE, &b, why), 0);
    ck_assert_str_eq(b.line[0], "####______");
}
END_TEST

START_TEST(a_whole_game_is_a_verified_replay)
{
    struct net_game *g = new_game();
    ck_assert_int_eq(net_game_shooter(g), 1);
    shoot(g, 1, 2, 1, "miss");                 /* BOARD_B (2,1) is water */
    ck_assert_int_eq(net_game_shooter(g), 2);
    shoot(g, 2, 1, 1, "hit");
    ck_assert_int_eq(net_game_shooter(g), 2);  /* a hit shoots again */
    shoot(g, 2, 5, 2, "miss");
    const char *results[20];
    int n = 0;
    for (int y = 1; y <= SEA_SIDE; y++)
        for (int x = 1; x <= SEA_SIDE; x++)
            if (BOARD_B[y - 1][x - 1] == '#') {
                struct net_shot shot = shot_at(x, y);
                ck_assert_int_eq(net_game_shoot(g, 1, &shot, 0, &results[n++]), 0);
            }
    ck_assert_str_eq(results[n - 1], "sunk");
    ck_assert_int_eq(g->status, NET_OVER);
    ck_assert_str_eq(g->result, "player1-win");
    ck_assert_int_eq(net_game_shooter(g), 0);
    check_replay(g);
    net_game_free(g);
}
END_TEST

/* The shot is a reply the engine refuses, as it refuses a bot's line: recorded, then its verdict. */
START_TEST(an_invalid_shot_is_a_refused_reply)
{
    static const struct { const char *line; enum match_verdict verdict; } shots[] = {
        {"11 5", MATCH_INVALID_MOVE}, {"true 3", MATCH_INVALID_OUTPUT}, {"\"3\" 3", MATCH_INVALID_OUTPUT}};
    for (size_t i = 0; i < sizeof shots / sizeof shots[0]; i++) {
        struct net_game *g = new_game();
        struct net_shot bad;
        const char *result = NULL;
        snprintf(bad.line, sizeof bad.line, "%s", shots[i].line);
        ck_assert_int_eq(net_game_shoot(g, 1, &bad, 0, &result), 0);
        ck_assert_str_eq(result, "game-over");
        ck_assert_str_eq(g->result, "player2-win");
        ck_assert_int_eq(g->seat[1].verdict, shots[i].verdict);
        ck_assert_msg(strstr(g->lines.data, "\"type\":\"reply\",\"n\":3,\"player\":1,\"round\":1"), "%s",
                      g->lines.data);
        ck_assert_msg(strstr(g->why, shots[i].line), "%s", g->why);
        check_replay(g);
        net_game_free(g);
    }
}
END_TEST

START_TEST(time_and_a_closed_session_are_judge_violations)
{
    struct net_game *g = new_game();
    ck_assert_int_eq(net_game_violation(g, 2, VIOLATION_TIME, MATCH_WALL_LIMIT, "late", 1, 2), -1); /* not its turn */
    shoot(g, 1, 2, 1, "miss");
    ck_assert_int_eq(net_game_violation(g, 2, VIOLATION_TIME, MATCH_WALL_LIMIT, "late", 60000000000ull,
                                        60001000000ull), 0);
    ck_assert_str_eq(g->result, "player1-win");
    check_replay(g);
    net_game_free(g);
    g = new_game();
    ck_assert_int_eq(net_game_violation(g, 1, VIOLATION_CRASH, MATCH_RUNTIME_ERROR, "left", 0, 0), 0);
    ck_assert_str_eq(g->result, "player2-win");
    check_replay(g);
    net_game_free(g);
}
END_TEST

START_TEST(the_shot_limit_ends_by_cells_hit)
{
    cfg.params[SP_SHOT_LIMIT] = 3;
    struct net_game *g = new_game();
    shoot(g, 1, 1, 1, "sunk");
    shoot(g, 1, 2, 1, "miss");
    shoot(g, 2, 2, 1, "hit");
    ck_assert_int_eq(g->status, NET_OVER);
    ck_assert_str_eq(g->result, "draw");
    check_replay(g);
    net_game_free(g);
}
END_TEST

START_TEST(aborted_records_and_ids_after_a_restart)
{
    char path[4096], err[512];
    ck_assert_int_eq(record_last_id(dir), 0);
    struct net_game *g = new_game();
    g->id = 7;
    shoot(g, 1, 2, 1, "miss");
    ck_assert_int_eq(record_aborted(&cfg, g, "the server stopped", path, sizeof path, err, sizeof err), 0);
    struct json_object *o = json_object_from_file(path);
    ck_assert_ptr_nonnull(o);
    struct json_object *v;
    ck_assert(json_object_object_get_ex(o, "status", &v));
    ck_assert_str_eq(json_object_get_string(v), "aborted");
    ck_assert(json_object_object_get_ex(o, "shots", &v));
    ck_assert_int_eq(json_object_get_int(v), 1);
    json_object_put(o);
    ck_assert_int_eq(record_last_id(dir), 7);
    net_game_free(g);
}
END_TEST

START_TEST(parameters_the_engine_refuses_are_found_before_any_game)
{
    char err[256] = "";
    ck_assert_int_eq(net_params_check(cfg.params, err, sizeof err), 0);
    for (int x = SP_SHIPS_1; x <= SP_SHIPS_4; x++)
        cfg.params[x] = 0;
    ck_assert_int_eq(net_params_check(cfg.params, err, sizeof err), -1);
    ck_assert_str_eq(err, "the fleet has no ship: ships_1..ships_4 are all 0 (D14)");
}
END_TEST

START_TEST(values_are_told_as_the_client_wrote_them)
{
    static const char list[] = " [ 7, \"a,]b\\\"\" , [1,[2]],{\"k\":[3]}, 100000000000000000000 ,'q'] ";
    static const char *const want[] = {"7",         "\"a,]b\\\"\"",           "[1,[2]]",
                                       "{\"k\":[3]}", "100000000000000000000", "'q'"};
    const char *at;
    size_t n;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ck_assert(json_text_item(list, strlen(list), i, &at, &n));
        ck_assert_int_eq(n, strlen(want[i]));
        ck_assert(!memcmp(at, want[i], n));
    }
    ck_assert(!json_text_item(list, strlen(list), 6, &at, &n));
    ck_assert(!json_text_item("[]", 2, 0, &at, &n));
    ck_assert(!json_text_item("[1 /* a comment */, 2]", 22, 1, &at, &n));
    char out[12];
    json_text_shown(NULL, "[1,\n2]", 6, out, sizeof out);
    ck_assert_str_eq(out, "[1, 2]");                       /* one line */
    json_text_shown(NULL, "\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\"", 10, out, sizeof out);
    ck_assert_str_eq(out, "\"\xc3\xa9\xc3\xa9\xc3\xa9...");  /* cut, not inside a character */
    struct json_object *v = json_object_new_int(3);
    json_text_shown(v, NULL, 0, out, sizeof out);
    ck_assert_str_eq(out, "3");
    json_object_put(v);
}
END_TEST

START_TEST(calls_per_second_and_player_ids)
{
    struct rate r = {0};
    int allowed = 0;
    for (int i = 0; i < 100; i++)
        allowed += rate_allow(&r, 10, 1000);
    ck_assert_int_eq(allowed, 20);                 /* a burst of twice the rate */
    ck_assert(!rate_allow(&r, 10, 1050));
    ck_assert(rate_allow(&r, 10, 1200));           /* two tokens back after 200 ms */
    ck_assert(rate_allow(&r, 0, 1200));            /* 0: no limit */
    ck_assert(limits_player_id_ok("a", 1));
    ck_assert(!limits_player_id_ok("", 0));
    ck_assert(!limits_player_id_ok("a\nb", 3));
    ck_assert(!limits_player_id_ok("\xc3\xa9", 2));
    char long_id[66];
    memset(long_id, 'x', 65);
    long_id[65] = '\0';
    ck_assert(!limits_player_id_ok(long_id, 65));
    ck_assert(limits_player_id_ok(long_id, 64));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("judge_serve_game");
    TCase *tc = tcase_create("game");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, boards_checked_with_their_rule);
    tcase_add_test(tc, a_whole_game_is_a_verified_replay);
    tcase_add_test(tc, an_invalid_shot_is_a_refused_reply);
    tcase_add_test(tc, time_and_a_closed_session_are_judge_violations);
    tcase_add_test(tc, the_shot_limit_ends_by_cells_hit);
    tcase_add_test(tc, aborted_records_and_ids_after_a_restart);
    tcase_add_test(tc, parameters_the_engine_refuses_are_found_before_any_game);
    tcase_add_test(tc, values_are_told_as_the_client_wrote_them);
    tcase_add_test(tc, calls_per_second_and_player_ids);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
