/* test_judge_match_config.c - match files: every field, every error with its position, no crash. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/game.h"
#include "judge/match/match_config.h"

static char tmpdir[64];
static char match_path[128];

static void write_file(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
}

static void make_fixture(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_match_config.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    char path[256];
    snprintf(path, sizeof path, "%s/bots", tmpdir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/tiny.map", tmpdir);
    write_file(path, "2 3 2\n3\n1\n2 40\n4\n1\n3\n", 22);
    snprintf(match_path, sizeof match_path, "%s/match.yaml", tmpdir);
}

static void remove_fixture(void)
{
    static const char *const made[] = {"match.yaml", "tiny.map"};
    char path[256];
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, made[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/bots", tmpdir);
    ck_assert_int_eq(rmdir(path), 0);
    ck_assert_int_eq(rmdir(tmpdir), 0);
}

static int load_text(const char *yaml, struct match_config *cfg, struct config_error *err)
{
    write_file(match_path, yaml, strlen(yaml));
    return match_config_load(match_path, cfg, err);
}

/* The file must be rejected with exactly "MATCH:" + where_and_what. */
static void expect_error(const char *yaml, const char *where_and_what)
{
    struct match_config cfg;
    struct config_error err;
    ck_assert_int_eq(load_text(yaml, &cfg, &err), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:%s", match_path, where_and_what);
    ck_assert_str_eq(err.msg, want);
}

#define HEAD "game: generals\nmap: tiny.map\n"
#define ONE_PLAYER "players:\n  - name: a\n    command: ./a\n"

static const char full_file[] =
    "# every key of a match file\n"
    "game: generals\n"
    "map: tiny.map\n"
    "seed: 18446744073709551615\n"
    "params:\n"
    "  turn_limit: 50\n"
    "  vision_radius: 2\n"
    "limits:\n"
    "  pids: 32\n"
    "  grace_ms: -1\n"
    "players:\n"
    "  - name: alice\n"
    "    command: [./greedy, --fast]\n"
    "    dir: bots\n"
    "    profile: interpreter\n"
    "  - {name: bob, command: \"./random  -v \"}\n"
    "replay: out/replay.json\n"
    "isolation: best-effort\n"
    "freeze: false\n";

static void assert_named(const struct named_value *v, const char *name, int64_t value, int line, int col)
{
    ck_assert_str_eq(v->name, name);
    ck_assert_int_eq(v->value, value);
    ck_assert_int_eq(v->line, line);
    ck_assert_int_eq(v->col, col);
}

START_TEST(full_file_sets_every_field)
{
    struct match_config cfg;
    struct config_error err = {{0}};
    ck_assert_msg(load_text(full_file, &cfg, &err) == 0, "%s", err.msg);
    char want[256];
    ck_assert_str_eq(cfg.path, match_path);
    ck_assert_str_eq(cfg.game, "generals");
    snprintf(want, sizeof want, "%s/tiny.map", tmpdir);
    ck_assert_str_eq(cfg.map_path, want);
    ck_assert(!cfg.has_generate);
    ck_assert(cfg.has_seed);
    ck_assert_uint_eq(cfg.seed, UINT64_MAX);
    ck_assert_uint_eq(cfg.n_params, 2);
    assert_named(&cfg.params[0], "turn_limit", 50, 6, 3);
    assert_named(&cfg.params[1], "vision_radius", 2, 7, 3);
    ck_assert_uint_eq(cfg.n_limits, 2);
    assert_named(&cfg.limits[0], "pids", 32, 9, 3);
    assert_named(&cfg.limits[1], "grace_ms", -1, 10, 3);
    ck_assert_int_eq(cfg.n_players, 2);

    const struct player_config *a = &cfg.players[0], *b = &cfg.players[1];
    ck_assert_str_eq(a->name, "alice");
    ck_assert_int_eq(a->argc, 2);
    ck_assert_str_eq(a->argv[0], "./greedy");
    ck_assert_str_eq(a->argv[1], "--fast");
    ck_assert_ptr_null(a->argv[2]);
    char *here = realpath(tmpdir, NULL);
    snprintf(want, sizeof want, "%s/bots", here);
    ck_assert_str_eq(a->dir, want);
    ck_assert_str_eq(a->profile, "interpreter");
    ck_assert_int_eq(a->line, 12);
    ck_assert_int_eq(a->col, 5);

    ck_assert_str_eq(b->name, "bob");
    ck_assert_int_eq(b->argc, 2);
    ck_assert_str_eq(b->argv[0], "./random");
    ck_assert_str_eq(b->argv[1], "-v");
    ck_assert_ptr_null(b->argv[2]);
    ck_assert_str_eq(b->dir, here); /* no dir: the match file's directory */
    free(here);
    ck_assert_ptr_null(b->profile);
    ck_assert_int_eq(b->line, 16);
    ck_assert_int_eq(b->col, 5);

    ck_assert_str_eq(cfg.replay_path, "out/replay.json");
    ck_assert_int_eq(cfg.isolation, ISOLATION_BEST_EFFORT);
    ck_assert(cfg.no_freeze);
    match_config_free(&cfg);
}
END_TEST

START_TEST(defaults_when_keys_are_left_out)
{
    struct match_config cfg;
    struct config_error err = {{0}};
    ck_assert_msg(load_text(HEAD ONE_PLAYER, &cfg, &err) == 0, "%s", err.msg);
    ck_assert(!cfg.has_seed);
    ck_assert_uint_eq(cfg.n_params, 0);
    ck_assert_uint_eq(cfg.n_limits, 0);
    ck_assert_ptr_null(cfg.replay_path);
    ck_assert_int_eq(cfg.isolation, ISOLATION_STRICT);
    ck_assert(!cfg.no_freeze);
    match_config_free(&cfg);
}
END_TEST

START_TEST(generate_section_defaults_players)
{
    struct match_config cfg;
    struct config_error err = {{0}};
    const char *yaml = "game: generals\n"
                       "generate:\n"
                       "  rows: 10\n"
                       "  cols: 12\n"
                       "  symmetric: true\n"
                       "  mountains: 0\n"
                       "players:\n"
                       "  - {name: a, command: ./a}\n"
                       "  - {name: b, command: ./b}\n";
    ck_assert_msg(load_text(yaml, &cfg, &err) == 0, "%s", err.msg);
    ck_assert_ptr_null(cfg.map_path);
    ck_assert(cfg.has_generate);
    ck_assert_uint_eq(cfg.n_generate, 5);
    assert_named(&cfg.generate[0], "rows", 10, 3, 3);
    assert_named(&cfg.generate[1], "cols", 12, 4, 3);
    assert_named(&cfg.generate[2], "symmetric", 1, 5, 3);
    assert_named(&cfg.generate[3], "mountains", 0, 6, 3);
    assert_named(&cfg.generate[4], "players", 2, 3, 3);
    match_config_free(&cfg);
}
END_TEST

START_TEST(generate_keeps_explicit_players_and_01_booleans)
{
    struct match_config cfg;
    struct config_error err = {{0}};
    const char *yaml = "game: generals\n"
                       "generate: {rows: 5, cols: 5, players: 3, symmetric: 0}\n" ONE_PLAYER;
    ck_assert_msg(load_text(yaml, &cfg, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(cfg.n_generate, 4);
    assert_named(&cfg.generate[2], "players", 3, 2, 30);
    assert_named(&cfg.generate[3], "symmetric", 0, 2, 42);
    match_config_free(&cfg);
}
END_TEST

START_TEST(unknown_key)
{
    expect_error(HEAD "playrs: []\n", "3:1: unknown key 'playrs' (did you mean 'players'?)");
    expect_error(HEAD "players:\n  - name: a\n    comand: ./a\n", "5:5: unknown key 'comand' (did you mean 'command'?)");
    expect_error("game: generals\ngenerate: {rows: 5, colls: 5}\n" ONE_PLAYER,
                 "2:21: unknown generator option 'colls'");
}
END_TEST

START_TEST(bad_seed)
{
    expect_error(HEAD ONE_PLAYER "seed: -5\n", "6:7: expected an unsigned 64-bit integer, got \"-5\"");
    expect_error(HEAD ONE_PLAYER "seed: 18446744073709551616\n",
                 "6:7: expected an unsigned 64-bit integer, got \"18446744073709551616\"");
    expect_error(HEAD ONE_PLAYER "seed: 0x10\n", "6:7: expected an unsigned 64-bit integer, got \"0x10\"");
    expect_error(HEAD ONE_PLAYER "seed:\n", "6:6: expected an unsigned 64-bit integer, got nothing");
}
END_TEST

START_TEST(string_for_number)
{
    expect_error(HEAD ONE_PLAYER "params:\n  turn_limit: ten\n", "7:15: expected an integer, got \"ten\"");
    expect_error(HEAD ONE_PLAYER "params:\n  turn_limit: \"10\"\n",
                 "7:15: expected an integer, got a quoted string \"10\"");
    expect_error(HEAD ONE_PLAYER "limits: {pids: [1]}\n", "6:16: expected an integer, got a sequence");
    expect_error(HEAD ONE_PLAYER "limits: {pids: 9223372036854775808}\n",
                 "6:16: integer out of range: 9223372036854775808");
    expect_error(HEAD ONE_PLAYER "seed: \"7\"\n",
                 "6:7: expected an unsigned 64-bit integer, got a quoted string \"7\"");
}
END_TEST

START_TEST(unknown_param)
{
    expect_error(HEAD ONE_PLAYER "params:\n  turn_limt: 5\n",
                 "7:3: unknown parameter 'turn_limt' for game 'generals'");
}
END_TEST

START_TEST(out_of_range_param)
{
    const struct game_rules *r = game_find("generals");
    ck_assert_ptr_nonnull(r);
    const struct game_param *p = &r->params[game_param_index(r, "turn_limit")];
    char yaml[256], want[256];
    snprintf(yaml, sizeof yaml, HEAD ONE_PLAYER "params:\n  vision_radius: 1\n  turn_limit: %lld\n",
             (long long)p->min - 1);
    snprintf(want, sizeof want, "8:3: parameter 'turn_limit' must be between %lld and %lld, got %lld",
             (long long)p->min, (long long)p->max, (long long)p->min - 1);
    expect_error(yaml, want);
}
END_TEST

START_TEST(duplicate_key)
{
    expect_error(HEAD ONE_PLAYER "seed: 1\nseed: 2\n", "7:1: duplicate key 'seed'");
    expect_error(HEAD ONE_PLAYER "params: {turn_limit: 5, turn_limit: 6}\n", "6:25: duplicate key 'turn_limit'");
    expect_error(HEAD "players:\n  - {name: a, command: ./a, name: b}\n", "4:29: duplicate key 'name'");
}
END_TEST

START_TEST(missing_required_keys)
{
    expect_error("# a comment first\n" HEAD, "2:1: missing key 'players'");
    expect_error("map: tiny.map\n" ONE_PLAYER, "1:1: missing key 'game'");
    expect_error("game: generals\n" ONE_PLAYER, "1:1: missing key 'map' or 'generate'");
    expect_error(HEAD "players:\n  - command: ./a\n", "4:5: missing key 'name'");
    expect_error(HEAD "players:\n  - name: a\n", "4:5: missing key 'command' (or 'source' with 'language')");
    expect_error("", "1:1: missing key 'game'");
}
END_TEST

/* `profile` is a command player's seccomp profile, `language` a source player's language. */
START_TEST(profile_and_language_are_apart)
{
    expect_error(HEAD ONE_PLAYER "    profile: python\n",
                 "6:14: unknown run profile 'python' (valid: default, interpreter, compiler, jvm); a program's "
                 "language is not needed here: java gets jvm by itself, and a 'source' player names its "
                 "language with 'language'");
    expect_error(HEAD ONE_PLAYER "    language: c\n",
                 "6:5: 'language' belongs to a 'source' player, compiled by the judge; a 'command' player runs "
                 "its command as written");
    expect_error(HEAD "players:\n  - {name: a, source: bots, language: c, profile: c}\n",
                 "4:42: a 'source' player names its language with 'language' alone ('profile' is the old "
                 "spelling of it)");
    expect_error(HEAD "players:\n  - {name: a, source: bots}\n",
                 "4:15: a 'source' player needs 'language' (c, cpp, python3, java, ...)");
}
END_TEST

/* Sea battle's map is empty and warlight has none: neither needs `map` or `generate`. */
START_TEST(games_without_a_map_need_no_generate)
{
    struct match_config cfg;
    struct config_error err = {{0}};
    ck_assert_msg(load_text("game: seabattle\nplayers:\n  - {name: a, command: ./a}\n  - {name: b, command: ./b}\n",
                            &cfg, &err) == 0, "%s", err.msg);
    ck_assert(cfg.has_generate);
    ck_assert_uint_eq(cfg.n_generate, 1);
    assert_named(&cfg.generate[0], "players", 2, 1, 1);
    match_config_free(&cfg);
    ck_assert_msg(load_text("game: warlight\nplayers:\n  - {name: a, command: ./a}\n  - {name: b, command: ./b}\n",
                            &cfg, &err) == 0, "%s", err.msg);
    ck_assert(!cfg.has_generate);
    match_config_free(&cfg);
}
END_TEST

/* ... and a `map:` for either is refused where the match file names it, not in the map file. */
START_TEST(games_without_a_map_refuse_one)
{
    expect_error("game: seabattle\nmap: tiny.map\nplayers:\n  - {name: a, command: ./a}\n",
                 "2:6: sea battle takes no map: remove map:");
    expect_error("game: warlight\nmap: tiny.map\nplayers:\n  - {name: a, command: ./a}\n",
                 "2:6: warlight takes no map: remove map:");
}
END_TEST

START_TEST(map_and_generate_together)
{
    expect_error(HEAD "generate: {rows: 5, cols: 5}\n" ONE_PLAYER,
                 "1:1: keys 'map' and 'generate' exclude each other");
}
END_TEST

START_TEST(missing_player_dir)
{
    char want[256];
    snprintf(want, sizeof want, "6:10: player dir '%s/nope': No such file or directory", tmpdir);
    expect_error(HEAD ONE_PLAYER "    dir: nope\n", want);
    snprintf(want, sizeof want, "6:10: player dir '%s/tiny.map': not a directory", tmpdir);
    expect_error(HEAD ONE_PLAYER "    dir: tiny.map\n", want);
}
END_TEST

START_TEST(missing_map_file)
{
    char want[256];
    snprintf(want, sizeof want, "2:6: map '%s/none.map': No such file or directory", tmpdir);
    expect_error("game: generals\nmap: none.map\n" ONE_PLAYER, want);
}
END_TEST

START_TEST(unknown_game)
{
    expect_error("game: chess\nmap: tiny.map\n" ONE_PLAYER, "1:7: unknown game 'chess' (games: generals, warlight, seabattle, bomberman)");
}
END_TEST

START_TEST(yaml_syntax_error)
{
    expect_error(HEAD "players: [a, b\n",
                 "4:1: did not find expected ',' or ']' (while parsing a flow sequence at line 3)");
    expect_error(HEAD "  bad: 1\n", "3:6: mapping values are not allowed in this context");
    expect_error(HEAD "seed: \"\x01\"\n", "3:8: control characters are not allowed (byte 0x1)");
    expect_error(HEAD ONE_PLAYER "---\ngame: generals\n", "6:1: only one YAML document is allowed");
}
END_TEST

START_TEST(bad_players)
{
    expect_error(HEAD "players: []\n", "3:10: players must list at least one player");
    expect_error(HEAD "players: {a: 1}\n", "3:10: expected a sequence for players, got a mapping");
    expect_error(HEAD "players:\n  - {name: a, command: ./a}\n  - {name: a, command: ./b}\n",
                 "5:12: duplicate player name 'a'");
    expect_error(HEAD "players:\n  - {name: \"a\\tb\", command: ./a}\n",
                 "4:12: a player name must be 1 to 64 printable ASCII characters");
    expect_error(HEAD "players:\n  - {name: a, command: []}\n", "4:24: command must not be empty");
    expect_error(HEAD "players:\n  - {name: a, command: \"  \"}\n", "4:24: command must not be empty");
    expect_error(HEAD "players:\n  - {name: a, command: [./a, {x: 1}]}\n",
                 "4:30: expected a string, got a mapping");
    expect_error(HEAD "players:\n  - {name: a, command: \"./a\\0b\"}\n",
                 "4:24: a string must not contain a NUL byte");
    expect_error(HEAD "players:\n  - ./a\n", "4:5: expected a mapping for a player, got \"./a\"");
}
END_TEST

START_TEST(too_many_players)
{
    char yaml[2048];
    int n = snprintf(yaml, sizeof yaml, HEAD "players:\n");
    for (int i = 0; i <= GAME_MAX_PLAYERS; i++)
        n += snprintf(yaml + n, sizeof yaml - (size_t)n, "  - {name: p%d, command: ./a}\n", i);
    char want[128];
    snprintf(want, sizeof want, "%d:5: too many players (at most %d)", 4 + GAME_MAX_PLAYERS,
             GAME_MAX_PLAYERS);
    expect_error(yaml, want);
}
END_TEST

START_TEST(bad_scalars)
{
    expect_error(HEAD ONE_PLAYER "isolation: loose\n",
                 "6:12: isolation must be 'strict' or 'best-effort', got 'loose'");
    expect_error(HEAD ONE_PLAYER "freeze: maybe\n", "6:9: expected true or false, got \"maybe\"");
    expect_error("- game\n", "1:1: expected a mapping for the match file, got a sequence");
    expect_error("game: [generals]\nmap: tiny.map\n" ONE_PLAYER, "1:7: expected a string, got a sequence");
    expect_error(HEAD ONE_PLAYER "? [a]\n: 1\n", "6:3: expected a string key, got a sequence");
}
END_TEST

START_TEST(deep_nesting)
{
    char yaml[128] = "game: ";
    memset(yaml + 6, '[', 40);
    memset(yaml + 46, ']', 40);
    /* The root mapping is level 1, so the 32nd '[' (column 6 + 32) is level 33. */
    expect_error(yaml, "1:38: nesting deeper than 32 levels");
}
END_TEST

START_TEST(unreadable_file)
{
    struct match_config cfg;
    struct config_error err;
    char path[256], want[300];
    snprintf(path, sizeof path, "%s/absent.yaml", tmpdir);
    ck_assert_int_eq(match_config_load(path, &cfg, &err), -1);
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(match_config_load(tmpdir, &cfg, &err), -1);
    snprintf(want, sizeof want, "%s: not a regular file", tmpdir);
    ck_assert_str_eq(err.msg, want);
}
END_TEST

/* A rejected file gives one line "MATCH:..."; an accepted one frees cleanly. */
static void load_must_not_crash(const char *text, size_t len)
{
    struct match_config cfg;
    struct config_error err;
    write_file(match_path, text, len);
    if (match_config_load(match_path, &cfg, &err) == 0) {
        ck_assert_str_eq(cfg.game, "generals");
        match_config_free(&cfg);
        return;
    }
    ck_assert_msg(!strncmp(err.msg, match_path, strlen(match_path)), "%s", err.msg);
    ck_assert_msg(!strchr(err.msg, '\n'), "%s", err.msg);
}

START_TEST(truncation_fuzz)
{
    size_t len = strlen(full_file);
    for (size_t cut = 0; cut <= len; cut++)
        load_must_not_crash(full_file, cut);
}
END_TEST

START_TEST(byte_mutation_fuzz)
{
    static const char replacements[] = {'\0', ':', '-', '[', '{', '"', '\'', '&', '*', '\t', '\n', '\xff', ' '};
    size_t len = strlen(full_file);
    char copy[sizeof full_file];
    for (size_t at = 0; at < len; at++) {
        for (size_t r = 0; r < sizeof replacements; r++) {
            memcpy(copy, full_file, len + 1);
            copy[at] = replacements[r];
            load_must_not_crash(copy, len);
        }
    }
}
END_TEST

static Suite *match_config_suite(void)
{
    Suite *s = suite_create("match_config");
    TCase *tc = tcase_create("load");
    tcase_add_checked_fixture(tc, make_fixture, remove_fixture);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, full_file_sets_every_field);
    tcase_add_test(tc, defaults_when_keys_are_left_out);
    tcase_add_test(tc, generate_section_defaults_players);
    tcase_add_test(tc, generate_keeps_explicit_players_and_01_booleans);
    tcase_add_test(tc, unknown_key);
    tcase_add_test(tc, bad_seed);
    tcase_add_test(tc, string_for_number);
    tcase_add_test(tc, unknown_param);
    tcase_add_test(tc, out_of_range_param);
    tcase_add_test(tc, duplicate_key);
    tcase_add_test(tc, missing_required_keys);
    tcase_add_test(tc, map_and_generate_together);
    tcase_add_test(tc, profile_and_language_are_apart);
    tcase_add_test(tc, games_without_a_map_need_no_generate);
    tcase_add_test(tc, games_without_a_map_refuse_one);
    tcase_add_test(tc, missing_player_dir);
    tcase_add_test(tc, missing_map_file);
    tcase_add_test(tc, unknown_game);
    tcase_add_test(tc, yaml_syntax_error);
    tcase_add_test(tc, bad_players);
    tcase_add_test(tc, too_many_players);
    tcase_add_test(tc, bad_scalars);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, unreadable_file);
    tcase_add_test(tc, truncation_fuzz);
    tcase_add_test(tc, byte_mutation_fuzz);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(match_config_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
