/* test_engine_bomberman_protocol.c - bomberman.md §4 (the worked example, byte for byte), §5
 * (the order stream), §6 (end and scoring), §7 (violations), §8 (the log) and the events. */
#include "engine/rng.h"
#include "tests/unit/bomberman_fixture.h"

#define CLASSIC_TERRAIN                                                                                      \
    "...+++++++++...\n.#.#+#+#+#+#.#.\n..+++++++++++..\n+#+#+#+#+#+#+#+\n+++++++++++++++\n"                  \
    "+#+#+#+#+#+#+#+\n+++++++.+++++++\n+#+#+#...#+#+#+\n+++++++.+++++++\n+#+#+#+#+#+#+#+\n"                  \
    "+++++++++++++++\n+#+#+#+#+#+#+#+\n..+++++++++++..\n.#.#+#+#+#+#.#.\n...+++++++++...\n"

static const char tick0_to_player1[] =
    "TICK 0\nYOU 1\nCONFIG 12\ngame_ticks_max 500\nbang_start_radius 2\nplayer_bombs_count_start 1\n"
    "lava_livetime 2\nbomb_live_time 5\nplayer_kill_points 20\nplayer_survive_points 20\n"
    "player_cell_destroy_points 1\nplayer_win_points 40\nplayer_bonus_find_points 4\nplayer_health_start 1\n"
    "lava_damage 1\nMAP\n" CLASSIC_TERRAIN
    "PLAYERS 4\n1 1 1 1 1 0 1 1 2\n2 1 15 1 1 0 1 1 2\n3 15 1 1 1 0 1 1 2\n4 15 15 1 1 0 1 1 2\n"
    "BOMBS 0\nBONUSES 0\nLAVA 0\nEND\n";

static const char tick7_to_player1[] =
    "TICK 7\nYOU 1\nMAP\n"
    "....++++++++...\n.#.#+#+#+#+#.#.\n...++++++++++..\n+#+#+#+#+#+#+#+\n+++++++++++++++\n"
    "+#+#+#+#+#+#+#+\n+++++++.+++++++\n+#+#+#...#+#+#+\n+++++++.+++++++\n+#+#+#+#+#+#+#+\n"
    "+++++++++++++++\n+#+#+#+#+#+#+#+\n..+++++++++++..\n.#.#+#+#+#+#.#.\n...+++++++++...\n"
    "PLAYERS 4\n1 1 2 1 1 2 1 1 2\n2 1 15 1 1 0 1 1 2\n3 15 1 1 1 0 1 1 2\n4 15 15 1 1 0 1 1 2\n"
    "BOMBS 0\nBONUSES 0\nLAVA 6\n1 1 1 2\n2 1 1 2\n3 1 1 2\n4 1 1 2\n3 2 1 2\n3 3 1 2\nEND\n";

static void play_player_1(struct bm_fixture *f, const char *cmd)
{
    const char *replies[5] = {NULL, cmd, NULL, NULL, NULL};
    bfx_tick(f, replies);
}

START_TEST(s4_worked_example_byte_for_byte)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_game(&f, CLASSIC_MAP, 4, 1);
    ck_assert_str_eq(bfx_prompt(&f, 1), tick0_to_player1);
    static const char *const moves[] = {"RIGHT", "RIGHT", "BOMB", "LEFT", "LEFT", "DOWN", "WAIT"};
    for (int t = 0; t < 7; t++) {
        if (t == 3) ck_assert_ptr_nonnull(strstr(bfx_prompt(&f, 1), "BOMBS 1\n3 1 1 2 4\nBONUSES"));
        play_player_1(&f, moves[t]);
    }
    ck_assert_str_eq(bfx_prompt(&f, 1), tick7_to_player1);
    play_player_1(&f, "WAIT");
    ck_assert_ptr_nonnull(
        strstr(bfx_prompt(&f, 1), "LAVA 6\n1 1 1 1\n2 1 1 1\n3 1 1 1\n4 1 1 1\n3 2 1 1\n3 3 1 1\nEND"));
    play_player_1(&f, "WAIT");
    ck_assert_ptr_nonnull(strstr(bfx_prompt(&f, 1), "LAVA 0\nEND\n"));
    ck_assert_ptr_nonnull(strstr(bfx_prompt(&f, 2), "TICK 9\nYOU 2\nMAP\n"));
    bfx_free(&f);
}
END_TEST

START_TEST(s5_d19_order_is_shuffled_from_bomberman_order_every_step)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_game(&f, CLASSIC_MAP, 4, 42);
    struct rng r = rng_stream(42, "bomberman/order");
    bfx_events(&f);
    for (int t = 0; t < 5; t++) {
        int order[4] = {1, 2, 3, 4};
        rng_shuffle_int(&r, order, 4);
        char want[80];
        snprintf(want, sizeof want, "{\"t\":\"step\",\"round\":%d,\"order\":[%d,%d,%d,%d]}\n", t, order[0],
                 order[1], order[2], order[3]);
        bfx_tick(&f, NULL);
        ck_assert_ptr_nonnull(strstr(bfx_events(&f), want));
    }
    bfx_free(&f);
}
END_TEST

START_TEST(s4_pending_prompt_and_reply_wall)
{
    struct bm_fixture f;
    bfx_init(&f);
    f.params[BP_FIRST_TICK_WALL_MS] = 2500;
    f.params[BP_TICK_WALL_MS] = 700;
    bfx_game(&f, CLASSIC_MAP, 3, 1);
    int pending[GAME_MAX_PLAYERS];
    ck_assert_int_eq(bomberman_rules.pending(f.g, pending, GAME_MAX_PLAYERS), 3);
    struct game_reply_wall wall;
    bomberman_rules.reply_wall(f.g, 1, &wall);
    ck_assert_int_eq(wall.ms, 2500);
    ck_assert_str_eq(wall.param, "first_tick_wall_ms");
    ck_assert(!wall.from_start);
    const char *line = "UP";
    struct game_verdict v;
    ck_assert_int_eq(bomberman_rules.submit(f.g, 2, &line, 1, &v), 0);
    ck_assert_int_eq(bomberman_rules.pending(f.g, pending, GAME_MAX_PLAYERS), 2);
    ck_assert_int_eq(bomberman_rules.submit(f.g, 2, &line, 1, &v), -1); /* not pending any more */
    ck_assert_int_eq(bomberman_rules.round(f.g), 0);
    bfx_tick(&f, NULL);
    ck_assert_int_eq(bomberman_rules.round(f.g), 1);
    bomberman_rules.reply_wall(f.g, 1, &wall);
    ck_assert_int_eq(wall.ms, 700);
    ck_assert_str_eq(wall.param, "tick_wall_ms");
    ck_assert_ptr_nonnull(strstr(bfx_prompt(&f, 3), "PLAYERS 3\n")); /* start 4 is a free cell */
    ck_assert_ptr_null(strstr(f.text.data, "CONFIG"));               /* tick 0 only */
    bfx_free(&f);
}
END_TEST

static enum violation_kind submit_line(struct bm_fixture *f, int p, const char *line)
{
    struct game_verdict v = {0};
    ck_assert_int_eq(bomberman_rules.submit(f->g, p, &line, 1, &v), 0);
    return v.kind;
}

START_TEST(s7_d15_invalid_output_is_one_wait)
{
    static const char *const bad[] = {
        "up",     "JUMP", "",      "UP UP",
        "WAIT\t", "1",    "BOMBB", "WAIT                                                              x"};
    static const char *const good[] = {"UP", "  DOWN  ", "LEFT\r", "RIGHT", "BOMB", "WAIT"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct bm_fixture f;
        bfx_init(&f);
        bfx_game(&f, OPEN_MAP, 2, 1);
        ck_assert_int_eq(submit_line(&f, 1, bad[i]), VIOLATION_INVALID_OUTPUT);
        ck_assert_int_eq(submit_line(&f, 2, "WAIT"), VIOLATION_NONE);
        ck_assert_ptr_nonnull(
            strstr(bfx_events(&f), "\"player\":1,\"cmd\":\"INVALID\",\"effect\":\"none\",\"x\":1,\"y\":1"));
        ck_assert(!bomberman_rules.player_done(f.g, 1)); /* the bot keeps playing */
        ck_assert_int_eq(submit_line(&f, 1, "DOWN"), VIOLATION_NONE);
        bfx_free(&f);
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        struct bm_fixture f;
        bfx_init(&f);
        bfx_game(&f, OPEN_MAP, 2, 1);
        ck_assert_int_eq(submit_line(&f, 1, good[i]), VIOLATION_NONE);
        bfx_free(&f);
    }
}
END_TEST

START_TEST(s7_violation_through_the_runner_invalid_output_is_a_wait)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_game(&f, OPEN_MAP, 2, 1);
    ck_assert_int_eq(bomberman_rules.violation(f.g, 1, VIOLATION_INVALID_OUTPUT), 0);
    ck_assert_int_eq(submit_line(&f, 2, "WAIT"), VIOLATION_NONE);
    ck_assert_ptr_nonnull(strstr(bfx_events(&f), "\"cmd\":\"INVALID\""));
    int pending[GAME_MAX_PLAYERS];
    ck_assert_int_eq(bomberman_rules.pending(f.g, pending, GAME_MAX_PLAYERS), 2);
    bfx_free(&f);
}
END_TEST

START_TEST(s7_b12_a_crashed_player_stands_still_and_can_still_die_or_survive)
{
    static const enum violation_kind crashes[] = {VIOLATION_TIME, VIOLATION_CRASH, VIOLATION_MEMORY,
                                                  VIOLATION_SYSCALL};
    for (size_t i = 0; i < 4; i++) {
        struct bm_fixture f;
        bfx_init(&f);
        f.params[BP_GAME_TICKS_MAX] = 3;
        bfx_game(&f, OPEN_MAP, 3, 1);
        ck_assert_int_eq(bomberman_rules.violation(f.g, 2, crashes[i]), 0);
        ck_assert(bomberman_rules.player_done(f.g, 2)); /* its bot is ended... */
        const char *ev = bfx_events(&f);
        char want[96];
        snprintf(want, sizeof want, "{\"t\":\"crashed\",\"round\":0,\"player\":2,\"violation\":\"%s\"}",
                 violation_name(crashes[i]));
        ck_assert_ptr_nonnull(strstr(ev, want));
        bfx_tick(&f, NULL);
        ck_assert_ptr_nonnull(
            strstr(bfx_events(&f), "\"player\":2,\"cmd\":\"CRASHED\",\"effect\":\"none\",\"x\":1,\"y\":15"));
        int pending[GAME_MAX_PLAYERS];
        int n = bomberman_rules.pending(f.g, pending, GAME_MAX_PLAYERS);
        ck_assert_int_eq(n, 2); /* ...and never asked again */
        ck_assert(pending[0] == 1 && pending[1] == 3);
        bfx_tick(&f, NULL);
        bfx_tick(&f, NULL);
        ck_assert(bomberman_rules.over(f.g));
        struct game_result r;
        bomberman_rules.result(f.g, &r);
        ck_assert(r.p[2].alive); /* still standing: survival points */
        ck_assert_int_eq(r.p[2].points, 20);
        ck_assert_int_eq(r.p[2].violation, crashes[i]);
        ck_assert_int_eq(r.p[1].violation, VIOLATION_NONE);
        struct strbuf out = STRBUF_INIT;
        bomberman_rules.outbox(f.g, 2, &out);
        ck_assert_uint_eq(out.len, 0); /* no OVER to a crashed bot */
        bomberman_rules.outbox(f.g, 1, &out);
        ck_assert_str_eq(out.data, "OVER\n");
        sb_free(&out);
        bfx_free(&f);
    }
}
END_TEST

START_TEST(b12_a_crashed_player_can_still_be_killed)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_game(&f, OPEN_MAP, 3, 1);
    ck_assert_int_eq(bomberman_rules.violation(f.g, 2, VIOLATION_MEMORY), 0);
    bfx_tick(&f, NULL);
    struct bm_board *b = (struct bm_board *)bomberman_board_of(f.g);
    b->lava[b->p[2].cell][3] = 2;
    bfx_tick(&f, NULL);
    ck_assert(!b->p[2].alive);
    ck_assert_int_eq(b->p[3].points, 20);
    ck_assert_ptr_nonnull(strstr(
        bfx_events(&f), "{\"t\":\"death\",\"round\":1,\"player\":2,\"x\":1,\"y\":15,\"killers\":[3]}"));
    struct strbuf out = STRBUF_INIT;
    bomberman_rules.outbox(f.g, 2, &out);
    ck_assert_uint_eq(out.len, 0); /* dead, but no OVER: it crashed */
    sb_free(&out);
    bfx_free(&f);
}
END_TEST

START_TEST(d21_all_bots_crashed_the_match_runs_on)
{
    struct bm_fixture f;
    bfx_init(&f);
    f.params[BP_GAME_TICKS_MAX] = 40;
    bfx_game(&f, OPEN_MAP, 2, 1);
    ck_assert_int_eq(bomberman_rules.violation(f.g, 1, VIOLATION_TIME), 0);
    ck_assert(!bomberman_rules.over(f.g));
    ck_assert_int_eq(bomberman_rules.violation(f.g, 2, VIOLATION_CRASH), 0);
    ck_assert(bomberman_rules.over(f.g));
    ck_assert_int_eq(bomberman_rules.round(f.g), 40);
    const char *ev = bfx_events(&f);
    ck_assert_ptr_nonnull(strstr(ev, "{\"t\":\"step\",\"round\":39,"));
    ck_assert_ptr_nonnull(
        strstr(ev, "{\"t\":\"end\",\"round\":40,\"reason\":\"tick_limit\",\"award\":[[1,20],[2,20]]"));
    bfx_free(&f);
}
END_TEST

static void kill_player(struct bm_fixture *f, int p, int killer)
{
    struct bm_board *b = (struct bm_board *)bomberman_board_of(f->g);
    b->lava[b->p[p].cell][killer] = 2;
}

START_TEST(s6_the_only_survivor_wins)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_game(&f, OPEN_MAP, 3, 1);
    kill_player(&f, 2, 1);
    kill_player(&f, 3, 3);
    bfx_tick(&f, NULL);
    ck_assert(bomberman_rules.over(f.g));
    struct strbuf out = STRBUF_INIT;
    bomberman_rules.outbox(f.g, 2, &out);
    ck_assert_str_eq(out.data, "OVER\n");
    sb_free(&out);
    struct game_result r;
    bomberman_rules.result(f.g, &r);
    ck_assert_int_eq(r.p[1].points, 20 + 40);
    ck_assert_int_eq(r.p[1].place, 1);
    ck_assert_int_eq(r.p[2].points, 0);
    ck_assert_int_eq(r.p[3].points, 0);
    ck_assert_int_eq(r.p[2].place, 2); /* equal points share a place */
    ck_assert_int_eq(r.p[3].place, 2);
    ck_assert_int_eq(r.p[2].eliminated_at, 1); /* D21: a death at tick t+1 */
    ck_assert_int_eq(r.winner, 1);
    ck_assert(!r.draw);
    ck_assert_int_eq(r.rounds, 1);
    ck_assert_int_eq(r.p[1].stats[0], 1); /* kills */
    ck_assert_ptr_nonnull(strstr(
        bfx_events(&f), "{\"t\":\"death\",\"round\":0,\"player\":3,\"x\":15,\"y\":1,\"killers\":[3]}"));
    bfx_free(&f);
}
END_TEST

START_TEST(s6_nobody_left_and_the_tick_limit)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_game(&f, OPEN_MAP, 2, 1);
    kill_player(&f, 1, 2);
    kill_player(&f, 2, 1);
    bfx_tick(&f, NULL);
    struct game_result r;
    bomberman_rules.result(f.g, &r);
    ck_assert_int_eq(r.p[1].points, 20); /* each killed the other */
    ck_assert_int_eq(r.p[2].points, 20);
    ck_assert(r.draw);
    ck_assert_ptr_nonnull(strstr(bfx_events(&f), "\"reason\":\"no_player\",\"award\":[]"));
    bfx_free(&f);
    bfx_init(&f);
    f.params[BP_GAME_TICKS_MAX] = 0; /* over before tick 0 is asked */
    bfx_game(&f, OPEN_MAP, 2, 1);
    ck_assert(bomberman_rules.over(f.g));
    int pending[GAME_MAX_PLAYERS];
    ck_assert_int_eq(bomberman_rules.pending(f.g, pending, GAME_MAX_PLAYERS), 0);
    bomberman_rules.result(f.g, &r);
    ck_assert_int_eq(r.p[1].points, 20);
    ck_assert_int_eq(r.p[1].place, 1);
    ck_assert_int_eq(r.p[2].place, 1);
    bfx_free(&f);
}
END_TEST

START_TEST(s8_the_log_of_a_match)
{
    struct bm_fixture f;
    struct strbuf log = STRBUF_INIT;
    bfx_init(&f);
    f.params[BP_GAME_TICKS_MAX] = 2;
    bfx_game(&f, CLASSIC_MAP, 2, 5);
    bomberman_rules.set_log(f.g, &log);
    const char *replies[] = {NULL, "BOMB", "up"};
    bfx_tick(&f, replies);
    bomberman_rules.violation(f.g, 2, VIOLATION_TIME);
    const char *r1[] = {NULL, "RIGHT", NULL};
    bfx_tick(&f, r1);
    bomberman_rules.set_log(f.g, NULL);
    const char *s = log.data;
    ck_assert(!strncmp(s, "TICK 0\nYOU 0\nCONFIG 12\n", 23));
    ck_assert_ptr_nonnull(strstr(s, "PLAYERS 2\n1 1 1 1 1 0 1 1 2\n2 1 15 1 1 0 1 1 2\nBOMBS 0\n"));
    struct rng r = rng_stream(5, "bomberman/order");
    int o1[2] = {1, 2}, o2[2] = {1, 2};
    rng_shuffle_int(&r, o1, 2);
    rng_shuffle_int(&r, o2, 2);
    char step1[160], step2[160];
    snprintf(step1, sizeof step1, "END\nORDER %d %d\n%s%sTICK 1\nYOU 0\nMAP\n", o1[0], o1[1],
             o1[0] == 1 ? "CMD 1 BOMB placed\n" : "CMD 2 INVALID none\n",
             o1[0] == 1 ? "CMD 2 INVALID none\n" : "CMD 1 BOMB placed\n");
    snprintf(step2, sizeof step2, "END\nORDER %d %d\n%s%sTICK 2\nYOU 0\nMAP\n", o2[0], o2[1],
             o2[0] == 1 ? "CMD 1 RIGHT moved\n" : "CMD 2 CRASHED none\n",
             o2[0] == 1 ? "CMD 2 CRASHED none\n" : "CMD 1 RIGHT moved\n");
    ck_assert_ptr_nonnull(strstr(s, step1));
    ck_assert_ptr_nonnull(strstr(s, step2));
    ck_assert_ptr_nonnull(strstr(s, "BOMBS 1\n1 1 1 2 3\n"));
    /* D14: the final state shows points before the award; RESULT includes it */
    ck_assert_ptr_nonnull(strstr(s, "PLAYERS 2\n1 2 1 1 1 0 1 0 2\n2 1 15 1 1 0 1 1 2\n"));
    ck_assert_ptr_nonnull(strstr(s, "LAVA 0\nEND\nRESULT 1 20 1\nRESULT 2 20 1\n"));
    const char *tail = "END\nRESULT 1 20 1\nRESULT 2 20 1\n";
    ck_assert_str_eq(s + strlen(s) - strlen(tail), tail);
    sb_free(&log);
    bfx_free(&f);
}
END_TEST

START_TEST(s8_boom_block_and_death_lines)
{
    struct bm_fixture f;
    struct strbuf log = STRBUF_INIT;
    bfx_init(&f);
    f.params[BP_BOMB_LIVE_TIME] = 1;
    f.params[BP_BANG_START_RADIUS] = 3;
    bfx_game(&f, CLASSIC_MAP, 4, 3);
    bomberman_rules.set_log(f.g, &log);
    const char *replies[] = {NULL, "BOMB", "BOMB", NULL, NULL};
    bfx_tick(&f, replies); /* both go off at once: players 1 and 2 die on their own lava */
    ck_assert_ptr_nonnull(
        strstr(log.data, "BOOM 1 1 1\nBOOM 1 15 2\nBLOCK 4 1 1\nBLOCK 1 4 1\nBLOCK 1 12 2\nBLOCK 4 15 2\n"
                         "DEATH 1 1\nDEATH 2 2\nTICK 1\n"));
    const char *ev = bfx_events(&f);
    ck_assert_ptr_nonnull(strstr(ev, "{\"t\":\"boom\",\"round\":0,\"x\":1,\"y\":1,\"owner\":1,\"radius\":3,"
                                     "\"cells\":[[1,1],[1,2],[1,3],[1,4],[2,1],[3,1],[4,1]]}\n"));
    ck_assert_ptr_nonnull(
        strstr(ev, "{\"t\":\"block\",\"round\":0,\"x\":1,\"y\":4,\"owners\":[1],\"bonus\":null}\n"));
    ck_assert_ptr_nonnull(
        strstr(ev, "{\"t\":\"damage\",\"round\":0,\"player\":1,\"health\":0}\n"
                   "{\"t\":\"death\",\"round\":0,\"player\":1,\"x\":1,\"y\":1,\"killers\":[1]}\n"));
    ck_assert_ptr_nonnull(
        strstr(ev, "{\"t\":\"status\",\"round\":0,\"players\":[[1,1,0,0,2,1,1,3],[1,15,0,0,2,1,1,3],"
                   "[15,1,1,1,0,1,1,3],[15,15,1,1,0,1,1,3]]}\n"));
    sb_free(&log);
    bfx_free(&f);
}
END_TEST

START_TEST(events_start_and_placed_bomb)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_game(&f, CLASSIC_MAP, 2, 1);
    ck_assert_str_eq(
        bfx_events(&f),
        "{\"t\":\"start\",\"round\":0,\"players\":[{\"player\":1,\"x\":1,\"y\":1,\"health\":1,\"bombs_max\":"
        "1,"
        "\"bombs_left\":1,\"radius\":2},{\"player\":2,\"x\":1,\"y\":15,\"health\":1,\"bombs_max\":1,"
        "\"bombs_left\":1,\"radius\":2}]}\n");
    const char *replies[] = {NULL, "BOMB", "UP"};
    bfx_tick(&f, replies);
    const char *ev = bfx_events(&f);
    ck_assert_ptr_nonnull(
        strstr(ev, "{\"t\":\"cmd\",\"round\":0,\"player\":1,\"cmd\":\"BOMB\",\"effect\":\"placed\",\"x\":1,"
                   "\"y\":1,\"bomb\":{\"radius\":2,\"timer\":5}}\n"));
    ck_assert_ptr_nonnull(strstr(
        ev,
        "{\"t\":\"cmd\",\"round\":0,\"player\":2,\"cmd\":\"UP\",\"effect\":\"moved\",\"x\":1,\"y\":14}\n"));
    bfx_free(&f);
}
END_TEST

START_TEST(d17_parameters_and_player_counts)
{
    const struct game_param *p = bomberman_rules.params;
    ck_assert_int_eq(bomberman_rules.n_params, 16);
    ck_assert_str_eq(p[0].name, "game_ticks_max");
    ck_assert_str_eq(p[11].name, "lava_damage");
    ck_assert_str_eq(p[15].name, "max_line_bytes");
    ck_assert_int_eq(game_param(&bomberman_rules, NULL, "memory_limit_mb"), 64);
    ck_assert_int_eq(game_param(&bomberman_rules, NULL, "max_line_bytes"), 64);
    int64_t v[BP_COUNT];
    game_params_defaults(&bomberman_rules, v);
    struct game_error err;
    ck_assert_int_eq(game_param_set(&bomberman_rules, v, "lava_livetime", 0, &err), -1);
    ck_assert_int_eq(game_param_set(&bomberman_rules, v, "tick_wall_ms", 0, &err), -1);
    ck_assert_int_eq(game_param_set(&bomberman_rules, v, "game_ticks_max", 1000000001, &err), -1);
    ck_assert_int_eq(game_param_set(&bomberman_rules, v, "lava_damage", 0, &err), 0);
    ck_assert_int_eq(game_param_set(&bomberman_rules, v, "speed", 1, &err), -1);
    struct bm_fixture f;
    bfx_init(&f);
    bfx_map(&f, CLASSIC_MAP);
    struct game *g = NULL;
    for (int players = 0; players <= 6; players++) {
        struct game_setup setup = {f.map, f.params, 1, players};
        int rc = bomberman_rules.create(&setup, &g, &err);
        ck_assert_int_eq(rc, players >= 2 && players <= 4 ? 0 : -1);
        if (rc == 0)
            bomberman_rules.destroy(g);
        else
            ck_assert_ptr_nonnull(strstr(err.msg, "2 to 4 players"));
    }
    bfx_free(&f);
}
END_TEST

/* Random commands (and now and then a crash) in many games: the board stays consistent. */
static void check_invariants(const struct bm_board *b)
{
    int on_field[BM_MAX_PLAYERS + 1] = {0};
    for (int c = 0; c < BM_CELLS; c++) {
        if (b->bomb[c].owner) {
            on_field[b->bomb[c].owner]++;
            ck_assert_int_eq(b->terrain[c], BM_FREE);
        }
        if (b->occupant[c]) {
            ck_assert_int_eq(b->terrain[c], BM_FREE);
            ck_assert_int_eq(b->p[b->occupant[c]].cell, c);
            ck_assert(b->p[b->occupant[c]].alive);
        }
        if (b->bonus[c]) ck_assert_int_eq(b->terrain[c], BM_FREE);
    }
    for (int p = 1; p <= b->players; p++) {
        ck_assert_int_eq(b->p[p].bombs_left + on_field[p], b->p[p].bombs_max);
        if (b->p[p].alive) ck_assert_int_eq(b->occupant[b->p[p].cell], p);
    }
}

START_TEST(random_games_keep_the_board_consistent)
{
    static const char *const words[] = {"WAIT", "UP", "DOWN", "LEFT", "RIGHT", "BOMB", "bomb"};
    struct rng r = rng_stream(7, "test/random-games");
    for (int game = 0; game < 60; game++) {
        struct bm_fixture f;
        bfx_init(&f);
        f.params[BP_GAME_TICKS_MAX] = 150;
        f.params[BP_HEALTH_START] = 1 + (int64_t)rng_uniform(&r, 3);
        f.params[BP_BOMB_LIVE_TIME] = 1 + (int64_t)rng_uniform(&r, 6);
        bfx_game(&f, game % 2 ? CLASSIC_MAP : OPEN_MAP, 2 + game % 3, (uint64_t)game);
        while (!bomberman_rules.over(f.g)) {
            int pending[GAME_MAX_PLAYERS];
            int n = bomberman_rules.pending(f.g, pending, GAME_MAX_PLAYERS);
            ck_assert_int_gt(n, 0);
            for (int i = 0; i < n; i++) {
                if (rng_uniform(&r, 400) == 0) {
                    ck_assert_int_eq(bomberman_rules.violation(f.g, pending[i], VIOLATION_CRASH), 0);
                    continue;
                }
                const char *line = words[rng_uniform(&r, 7)];
                struct game_verdict v;
                ck_assert_int_eq(bomberman_rules.submit(f.g, pending[i], &line, 1, &v), 0);
            }
            check_invariants(bomberman_board_of(f.g));
            bfx_events(&f);
        }
        bfx_free(&f);
    }
}
END_TEST

static Suite *protocol_suite(void)
{
    Suite *s = suite_create("bomberman_protocol");
    TCase *tc = tcase_create("protocol");
    tcase_add_test(tc, s4_worked_example_byte_for_byte);
    tcase_add_test(tc, s5_d19_order_is_shuffled_from_bomberman_order_every_step);
    tcase_add_test(tc, s4_pending_prompt_and_reply_wall);
    tcase_add_test(tc, s7_d15_invalid_output_is_one_wait);
    tcase_add_test(tc, s7_violation_through_the_runner_invalid_output_is_a_wait);
    tcase_add_test(tc, s7_b12_a_crashed_player_stands_still_and_can_still_die_or_survive);
    tcase_add_test(tc, b12_a_crashed_player_can_still_be_killed);
    tcase_add_test(tc, d21_all_bots_crashed_the_match_runs_on);
    tcase_add_test(tc, s6_the_only_survivor_wins);
    tcase_add_test(tc, s6_nobody_left_and_the_tick_limit);
    tcase_add_test(tc, s8_the_log_of_a_match);
    tcase_add_test(tc, s8_boom_block_and_death_lines);
    tcase_add_test(tc, events_start_and_placed_bomb);
    tcase_add_test(tc, d17_parameters_and_player_counts);
    tcase_add_test(tc, random_games_keep_the_board_consistent);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(protocol_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
