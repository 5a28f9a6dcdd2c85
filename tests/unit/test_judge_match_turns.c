/*
 * test_judge_match_turns.c - the per-turn process driver (judge/match/match_turns.c)
 * in real jails: output read until the process exits and capped, the wall
 * limit from the start, a signal, memory, the rest of the tree killed at the
 * exit, the data directory kept from turn to turn and as working directory,
 * empty stdin, several players at once, stderr and meters.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "judge/match/match_turns.h"

#define MS 1000000ull

struct fixture {
    struct match_setup s;
    struct match_datadirs dirs;
    struct match_turns *turns;
    const char *argv[GAME_MAX_PLAYERS][4];
    struct turn_reply replies[GAME_MAX_PLAYERS];
    int round;
};

static char name[] = "p", profile[] = "default";

/* Players running `/bin/sh -c SCRIPT` (the turn's arguments are $0, $1, ...). */
static void open_fixture(struct fixture *f, int players, const char *script, uint64_t wall_ms,
                         const char *const *params)
{
    struct isolation_report probe;
    struct jail_error err = {0};
    struct game_error gerr = {"", 0, 0};
    memset(f, 0, sizeof *f);
    ck_assert_msg(jail_global_init(ISOLATION_STRICT, &probe, &err) == 0, "%s", err.msg);
    f->s.rules = game_find("warlight");
    ck_assert_ptr_nonnull(f->s.rules);
    game_params_defaults(f->s.rules, f->s.params);
    for (; params && *params; params += 2)
        ck_assert_msg(game_param_set(f->s.rules, f->s.params, params[0], atoll(params[1]), &gerr) == 0, "%s",
                      gerr.msg);
    f->s.limits = (struct match_limits){.move_wall_ms = wall_ms, .max_line_bytes = 4096, .pids = 64,
                                        .stderr_limit_kb = 4, .tmp_mb = 4};
    f->s.limits.memory_limit_mb = (uint64_t)game_param(f->s.rules, f->s.params, "memory_limit_mb");
    f->s.n_players = players;
    for (int p = 0; p < players; p++) {
        f->argv[p][0] = "/bin/sh";
        f->argv[p][1] = "-c";
        f->argv[p][2] = script;
        f->s.players[p] = (struct match_player){.name = name, .argv = (char **)f->argv[p], .argc = 3, .profile = profile};
    }
    ck_assert_msg(datadirs_open(&f->dirs, &f->s, &err) == 0, "%s", err.msg);
    ck_assert_msg(turns_open(&f->turns, &f->s, &f->dirs, &err) == 0, "%s", err.msg);
}

static void close_fixture(struct fixture *f)
{
    turns_close(f->turns);
    datadirs_close(&f->dirs);
    for (int i = 0; i < GAME_MAX_PLAYERS; i++)
        turn_reply_free(&f->replies[i]);
}

/* One turn for players 1..n, player p getting the arguments "p<p>" and "<round>". */
static void play(struct fixture *f, int n)
{
    int players[GAME_MAX_PLAYERS] = {0}, reply_no[GAME_MAX_PLAYERS] = {0};
    struct strbuf args[GAME_MAX_PLAYERS] = {STRBUF_INIT};
    struct jail_error err = {0};
    f->round++;
    for (int i = 0; i < n; i++) {
        players[i] = i + 1;
        reply_no[i] = f->round;
        ck_assert_int_eq(sb_printf(&args[i], "p%d", i + 1), 0);
        ck_assert_int_eq(sb_putc(&args[i], '\0'), 0);
        ck_assert_int_eq(sb_printf(&args[i], "%d", f->round), 0);  /* the last NUL may be left off */
    }
    ck_assert_msg(turns_play(f->turns, n, players, args, f->round, reply_no, f->replies, &err) == 0, "%s",
                  err.msg);
    for (int i = 0; i < n; i++)
        sb_free(&args[i]);
}

static const char *output(const struct fixture *f, int i)
{
    ck_assert_msg(!f->replies[i].violated, "violation: %s", f->replies[i].violation.reason);
    return f->replies[i].output.data ? f->replies[i].output.data : "";
}

START_TEST(output_until_exit_status_ignored)
{
    struct fixture f;
    open_fixture(&f, 1, "printf 'line 1\\nline 2 %s %s' \"$0\" \"$1\"; exit 3", 5000, NULL);
    play(&f, 1);
    ck_assert_str_eq(output(&f, 0), "line 1\nline 2 p1 1");
    ck_assert_uint_gt(f.replies[0].wall_ns, 0);
    uint64_t cpu, peak;
    turns_meters(f.turns, 1, &cpu, &peak);
    ck_assert_uint_gt(cpu, 0);
    ck_assert_uint_gt(peak, 0);
    close_fixture(&f);
}
END_TEST

/* max_output_bytes + 1 bytes are kept; the rest is read (the bot never blocks) and dropped. */
START_TEST(output_is_capped)
{
    static const char *const params[] = {"max_output_bytes", "10", NULL};
    struct fixture f;
    open_fixture(&f, 1, "head -c 300000 /dev/zero | tr '\\0' a; echo end >&2", 5000, params);
    play(&f, 1);
    ck_assert_uint_eq(f.replies[0].output.len, 11);
    ck_assert_str_eq(output(&f, 0), "aaaaaaaaaaa");
    struct strbuf tail = STRBUF_INIT;
    ck_assert_int_eq(turns_stderr_tail(f.turns, 1, 100, &tail), 0);
    ck_assert_str_eq(tail.data, "end\n");
    sb_free(&tail);
    close_fixture(&f);
}
END_TEST

START_TEST(still_running_at_the_wall_limit)
{
    struct fixture f;
    open_fixture(&f, 1, "echo early; exec sleep 100", 300, NULL);
    uint64_t t0 = monotonic_ns();
    play(&f, 1);
    uint64_t took = monotonic_ns() - t0;
    const struct match_violation *v = &f.replies[0].violation;
    ck_assert(f.replies[0].violated);
    ck_assert_int_eq(v->kind, VIOLATION_TIME);
    ck_assert_int_eq(v->verdict, MATCH_WALL_LIMIT);
    ck_assert_uint_eq(v->limit_ns, 300 * MS);
    ck_assert_uint_ge(v->figure_ns, 300 * MS);
    ck_assert_uint_lt(took, 100000 * MS); /* stopped, not waited for: the sleep takes 100 s */
    ck_assert_int_eq(v->round, 1);
    ck_assert_int_eq(v->reply, 1);
    ck_assert_str_eq(v->line, "early\n");
    close_fixture(&f);
}
END_TEST

/* D8: a signal skips the turn even after complete output. */
START_TEST(ended_by_a_signal)
{
    struct fixture f;
    open_fixture(&f, 1, "echo 1,1,5; echo; kill -SEGV $$", 5000, NULL);
    play(&f, 1);
    ck_assert(f.replies[0].violated);
    ck_assert_int_eq(f.replies[0].violation.kind, VIOLATION_CRASH);
    ck_assert_str_eq(f.replies[0].violation.reason, "killed by signal 11 (SEGV)");
    close_fixture(&f);
}
END_TEST

START_TEST(over_the_memory_limit)
{
    static const char *const params[] = {"memory_limit_mb", "16", NULL};
    struct fixture f;
    open_fixture(&f, 1, "x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo survived", 20000, params);
    play(&f, 1);
    ck_assert(f.replies[0].violated);
    ck_assert_int_eq(f.replies[0].violation.kind, VIOLATION_MEMORY);
    ck_assert_uint_eq(f.replies[0].violation.limit_bytes, 16u << 20);
    close_fixture(&f);
}
END_TEST

/* D16: once the command exits, what it left running is killed; its output is what it wrote. */
START_TEST(the_rest_of_the_tree_dies_with_it)
{
    struct fixture f;
    open_fixture(&f, 1, "(sleep 100; echo late) & echo done", 5000, NULL);
    uint64_t t0 = monotonic_ns();
    play(&f, 1);
    ck_assert_uint_lt(monotonic_ns() - t0, 100000 * MS); /* killed, not waited for */
    ck_assert_str_eq(output(&f, 0), "done\n");
    close_fixture(&f);
}
END_TEST

START_TEST(stdin_is_empty)
{
    struct fixture f;
    open_fixture(&f, 1, "cat; echo end", 5000, NULL);
    play(&f, 1);
    ck_assert_str_eq(output(&f, 0), "end\n");
    close_fixture(&f);
}
END_TEST

/* Two players at once, each in its own data directory, kept from turn to turn. */
START_TEST(data_directories_kept_and_apart)
{
    static const char *const params[] = {"data_quota_kb", "64", NULL};
    struct fixture f;
    open_fixture(&f, 2,
                 "n=$(cat count 2>/dev/null || echo 0); echo $((n + 1)) >count; echo \"$(pwd) $0 $((n + 1))\"; "
                 "head -c 200000 /dev/zero >big 2>/dev/null; ls -s big | cut -d' ' -f1",
                 5000, params);
    for (int turn = 1; turn <= 3; turn++) {
        play(&f, 2);
        for (int i = 0; i < 2; i++) {
            char want[64];
            snprintf(want, sizeof want, "/data p%d %d\n", i + 1, turn);
            const char *got = output(&f, i);
            ck_assert_msg(!strncmp(got, want, strlen(want)), "player %d turn %d: %s", i + 1, turn, got);
            ck_assert_int_le(atoi(got + strlen(want)), 64);   /* KiB of the capped file */
        }
    }
    close_fixture(&f);
    ck_assert_int_eq(f.dirs.active, false);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("match_turns");
    TCase *tc = tcase_create("turns");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, output_until_exit_status_ignored);
    tcase_add_test(tc, output_is_capped);
    tcase_add_test(tc, still_running_at_the_wall_limit);
    tcase_add_test(tc, ended_by_a_signal);
    tcase_add_test(tc, over_the_memory_limit);
    tcase_add_test(tc, the_rest_of_the_tree_dies_with_it);
    tcase_add_test(tc, stdin_is_empty);
    tcase_add_test(tc, data_directories_kept_and_apart);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
