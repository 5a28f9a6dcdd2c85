/* test_judge_tournament.c - tournament files (every key, every error with its
 * position, no crash), the plan of each format (counts, seats, seeded samples,
 * ids, shards), the fingerprint, and the progress and journal line texts. */
#include <check.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/tournament/tournament.h"

static char tmpdir[64];
static char path[128];

static void write_file(const char *file, const char *text, size_t len)
{
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
}

static void write_in_tmp(const char *name, const char *text)
{
    char file[256];
    snprintf(file, sizeof file, "%s/%s", tmpdir, name);
    write_file(file, text, strlen(text));
}

/* A generated map of k players, in the game's own format. */
static void write_generated_map(const char *name, int k)
{
    const struct game_rules *r = game_find("generals");
    struct game_option opts[] = {{"rows", 6}, {"cols", 6}, {"players", k}};
    struct game_map *map;
    struct strbuf notes = STRBUF_INIT, text = STRBUF_INIT;
    struct game_error gerr;
    ck_assert_int_eq(r->map_generate(opts, 3, 1, &map, &notes, &gerr), 0);
    ck_assert_int_eq(r->map_write(map, &text), 0);
    write_in_tmp(name, text.data);
    r->map_free(map);
    sb_free(&notes);
    sb_free(&text);
}

static void make_fixture(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_tournament.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    char dir[256];
    snprintf(dir, sizeof dir, "%s/bots", tmpdir);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    write_in_tmp("tiny.map", "2 3 2\n3\n1\n2 40\n4\n1\n3\n");
    write_generated_map("three.map", 3);
    snprintf(path, sizeof path, "%s/t.yaml", tmpdir);
}

static void remove_fixture(void)
{
    static const char *const made[] = {"t.yaml", "tiny.map", "three.map"};
    char file[256];
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        snprintf(file, sizeof file, "%s/%s", tmpdir, made[i]);
        unlink(file);
    }
    snprintf(file, sizeof file, "%s/bots", tmpdir);
    ck_assert_int_eq(rmdir(file), 0);
    ck_assert_int_eq(rmdir(tmpdir), 0);
}

static int load_text(const char *yaml, struct tournament_config *cfg, struct tournament_error *err)
{
    write_file(path, yaml, strlen(yaml));
    return tournament_config_load(path, cfg, err);
}

static void load_ok(const char *yaml, struct tournament_config *cfg)
{
    struct tournament_error err = {0};
    ck_assert_msg(load_text(yaml, cfg, &err) == 0, "%s", err.msg);
}

/* The file must be rejected with exactly "FILE:" + where_and_what. */
static void expect_error(const char *yaml, const char *where_and_what)
{
    struct tournament_config cfg;
    struct tournament_error err;
    ck_assert_int_eq(load_text(yaml, &cfg, &err), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:%s", path, where_and_what);
    ck_assert_str_eq(err.msg, want);
}

#define P(name) "  - {name: " name ", command: ./" name "}\n"
#define HEAD    "game: generals\nmaps: [tiny.map]\nseeds: [1]\n"
#define FOUR    "players:\n" P("a") P("b") P("c") P("d")

static const char full_file[] = "# every key of a tournament file\n"
                                "game: generals\n"
                                "format: gauntlet\n"
                                "players_per_match: 3\n"
                                "maps: [three.map]\n"
                                "generate:\n"
                                "  - {rows: 6, cols: 7}\n"
                                "  - {rows: 5, cols: 5, players: 3, symmetric: false}\n"
                                "seeds: [7, 18446744073709551615]\n"
                                "params: {turn_limit: 50}\n"
                                "limits: {pids: 32, move_wall_ms: 9000}\n"
                                "players:\n"
                                "  - {name: s1, command: [./bot, -x], dir: bots}\n"
                                "  - {name: s2, command: ./bot, profile: interpreter}\n"
                                "references:\n"
                                "  - {name: r1, command: ./ref}\n"
                                "  - {name: r2, command: ./ref}\n"
                                "output: out/here\n"
                                "isolation: best-effort\n"
                                "freeze: false\n";

START_TEST(full_file_sets_every_field)
{
    struct tournament_config cfg;
    load_ok(full_file, &cfg);
    ck_assert_str_eq(cfg.path, path);
    ck_assert_str_eq(cfg.game, "generals");
    ck_assert_ptr_eq(cfg.rules, game_find("generals"));
    ck_assert_int_eq(cfg.format, TOURNAMENT_GAUNTLET);
    ck_assert_int_eq(cfg.per_match, 3);
    ck_assert_uint_eq(cfg.n_arenas, 3);
    char want[256];
    snprintf(want, sizeof want, "%s/three.map", tmpdir);
    ck_assert_str_eq(cfg.arenas[0].map_path, want);
    ck_assert_int_eq(cfg.arenas[0].line, 5);
    ck_assert_int_eq(cfg.arenas[0].col, 8);
    ck_assert_ptr_null(cfg.arenas[1].map_path);
    ck_assert_uint_eq(cfg.arenas[1].n_generate, 3); /* rows, cols and the players added */
    ck_assert_str_eq(cfg.arenas[1].generate[2].name, "players");
    ck_assert_int_eq(cfg.arenas[1].generate[2].value, 3);
    ck_assert_uint_eq(cfg.arenas[2].n_generate, 4);
    ck_assert_uint_eq(cfg.n_seeds, 2);
    ck_assert_uint_eq(cfg.seeds[1], UINT64_MAX);
    ck_assert_uint_eq(cfg.n_params, 1);
    ck_assert_uint_eq(cfg.n_limits, 2);
    ck_assert_uint_eq(cfg.n_players, 4);
    ck_assert_uint_eq(cfg.n_submissions, 2);
    ck_assert_str_eq(cfg.players[0].argv[1], "-x");
    ck_assert_ptr_nonnull(cfg.players[0].dir);
    ck_assert_str_eq(cfg.players[1].profile, "interpreter");
    ck_assert_str_eq(cfg.players[3].name, "r2");
    ck_assert_str_eq(cfg.out_dir, "out/here");
    ck_assert_int_eq(cfg.isolation, ISOLATION_BEST_EFFORT);
    ck_assert(cfg.no_freeze);
    tournament_config_free(&cfg);
}
END_TEST

START_TEST(defaults)
{
    struct tournament_config cfg;
    load_ok("game: generals\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\n" FOUR, &cfg);
    ck_assert_int_eq(cfg.format, TOURNAMENT_ROUND_ROBIN);
    ck_assert_int_eq(cfg.per_match, 2);
    ck_assert_uint_eq(cfg.sample, 0);
    ck_assert_ptr_null(cfg.out_dir);
    ck_assert_int_eq(cfg.isolation, ISOLATION_STRICT);
    ck_assert(!cfg.no_freeze);
    ck_assert_uint_eq(cfg.n_arenas, 1);
    ck_assert_str_eq(cfg.arenas[0].generate[2].name, "players");
    ck_assert_int_eq(cfg.arenas[0].generate[2].value, 2);
    ck_assert_uint_eq(cfg.n_submissions, 4);
    tournament_config_free(&cfg);
}
END_TEST

/* Sea battle and warlight have no map to name: one arena, as if `generate: {}` were written. */
START_TEST(games_without_a_map_need_no_generate)
{
    static const char *const games[] = {"seabattle", "warlight"};
    for (size_t i = 0; i < 2; i++) {
        struct tournament_config cfg;
        char text[256];
        snprintf(text, sizeof text, "game: %s\nseeds: [1]\nplayers:\n" P("a") P("b"), games[i]);
        load_ok(text, &cfg);
        ck_assert_uint_eq(cfg.n_arenas, 1);
        ck_assert_ptr_null(cfg.arenas[0].map_path);
        ck_assert_uint_eq(cfg.arenas[0].n_generate, 1);
        ck_assert_str_eq(cfg.arenas[0].generate[0].name, "players");
        ck_assert_int_eq(cfg.arenas[0].generate[0].value, 2);
        tournament_config_free(&cfg);
    }
}
END_TEST

START_TEST(missing_and_unknown_keys)
{
    expect_error("maps: [tiny.map]\nseeds: [1]\n" FOUR, "1:1: missing key 'game'");
    expect_error("game: generals\nmaps: [tiny.map]\n" FOUR, "1:1: missing key 'seeds'");
    expect_error(HEAD, "1:1: missing key 'players'");
    expect_error("game: generals\nseeds: [1]\n" FOUR, "1:1: missing key 'maps' or 'generate'");
    expect_error(HEAD FOUR "rounds: 3\n", "9:1: unknown key 'rounds'");
    expect_error(HEAD FOUR "format: gauntlet\n", "1:1: missing key 'references' (format 'gauntlet')");
    expect_error("", "1:1: missing key 'game'");
    expect_error("- game\n", "1:1: expected a mapping for the tournament file, got a sequence");
}
END_TEST

START_TEST(format_errors)
{
    expect_error(HEAD FOUR "format: swiss\n",
                 "9:9: format must be 'round-robin', 'free-for-all' or 'gauntlet', got 'swiss'");
    expect_error(HEAD FOUR "players_per_match: 3\n",
                 "9:20: round-robin plays pairs: players_per_match must be 2");
    expect_error(HEAD FOUR "players_per_match: 1\n", "9:20: generals is played by 2 to 16 players, not 1");
    expect_error(HEAD FOUR "references: [{name: r, command: ./r}]\n",
                 "9:1: 'references' is for format 'gauntlet' only");
    expect_error(HEAD FOUR "sample: 2\n", "9:1: 'sample' is for format 'free-for-all' only");
    expect_error(HEAD FOUR "format: free-for-all\nsample: 0\n", "10:9: sample must be between 1 and 1000000");
    expect_error("game: generals\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\nformat: free-for-all\n"
                 "players_per_match: 5\n" FOUR,
                 "5:20: 5 players per match need at least 5 players, got 4");
    expect_error("game: generals\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\nformat: gauntlet\n"
                 "players_per_match: 3\n" FOUR "references: [{name: r, command: ./r}]\n",
                 "5:20: a gauntlet of 3 players per match needs at least 2 references");
}
END_TEST

START_TEST(list_errors)
{
    expect_error("game: generals\nmaps: [tiny.map]\nseeds: []\n" FOUR, "3:8: seeds must not be empty");
    expect_error("game: generals\nmaps: [tiny.map]\nseeds: [1, 2, 1]\n" FOUR, "3:15: duplicate seed 1");
    expect_error("game: generals\nmaps: [tiny.map]\nseeds: [-1]\n" FOUR,
                 "3:9: expected an unsigned 64-bit integer, got \"-1\"");
    expect_error("game: generals\nmaps: tiny.map\nseeds: [1]\n" FOUR,
                 "2:7: expected a sequence for maps, got \"tiny.map\"");
    expect_error(HEAD "players:\n" P("a") "references: []\n", "6:13: references must not be empty");
    expect_error(HEAD "players:\n" P("a") P("a"), "6:12: duplicate player name 'a'");
    expect_error(HEAD "format: gauntlet\nplayers:\n" P("a") "references:\n" P("a"),
                 "8:12: duplicate player name 'a'");
}
END_TEST

START_TEST(arena_seats)
{
    expect_error("game: generals\nmaps: [tiny.map, three.map]\nseeds: [1]\n" FOUR,
                 "2:18: the map is for 3 players but round-robin seats 2 per match");
    expect_error("game: generals\ngenerate: [{rows: 6, cols: 6, players: 3}]\nseeds: [1]\n" FOUR,
                 "2:31: generate: players is 3 but round-robin seats 2 per match");
    char want[300];
    snprintf(want, sizeof want, "2:8: map '%s/none.map': No such file or directory", tmpdir);
    expect_error("game: generals\nmaps: [none.map]\nseeds: [1]\n" FOUR, want);
}
END_TEST

/* The sections a match file has too give the match file's messages. */
START_TEST(shared_readers_give_match_file_errors)
{
    expect_error(HEAD FOUR "params: {turn_limt: 5}\n",
                 "9:10: unknown parameter 'turn_limt' for game 'generals'");
    expect_error(HEAD FOUR "isolation: loose\n",
                 "9:12: isolation must be 'strict' or 'best-effort', got 'loose'");
    expect_error("game: generals\ngenerate: {rows: 5, colls: 5}\nseeds: [1]\n" FOUR,
                 "2:21: unknown generator option 'colls'");
    expect_error(HEAD "players:\n  - {name: a, comand: ./a}\n", "5:15: unknown key 'comand' (did you mean 'command'?)");
    expect_error("game: chess\nmaps: [tiny.map]\nseeds: [1]\n" FOUR, "1:7: unknown game 'chess' (games: generals, warlight, seabattle, bomberman)");
}
END_TEST

/* A rejected file gives one line "FILE:..."; an accepted one frees cleanly. */
static void load_must_not_crash(const char *text, size_t len)
{
    struct tournament_config cfg;
    struct tournament_error err;
    write_file(path, text, len);
    if (tournament_config_load(path, &cfg, &err) == 0) {
        tournament_config_free(&cfg);
        return;
    }
    ck_assert_msg(!strncmp(err.msg, path, strlen(path)), "%s", err.msg);
    ck_assert_msg(!strchr(err.msg, '\n'), "%s", err.msg);
}

START_TEST(truncation_fuzz)
{
    size_t len = strlen(full_file);
    for (size_t cut = 0; cut <= len; cut++) load_must_not_crash(full_file, cut);
}
END_TEST

START_TEST(byte_mutation_fuzz)
{
    static const char replacements[] = {'\0', ':', '[', '"', '\n', '9'};
    size_t len = strlen(full_file);
    char copy[sizeof full_file];
    for (size_t at = 0; at < len; at++)
        for (size_t r = 0; r < sizeof replacements; r++) {
            memcpy(copy, full_file, len + 1);
            copy[at] = replacements[r];
            load_must_not_crash(copy, len);
        }
}
END_TEST

/* ---- the plan ---------------------------------------------------------------------- */

static void plan_of(const char *yaml, struct tournament_config *cfg, struct tournament_plan *plan)
{
    struct tournament_error err = {0};
    load_ok(yaml, cfg);
    ck_assert_msg(tournament_plan_build(cfg, plan, &err) == 0, "%s", err.msg);
}

static void free_both(struct tournament_config *cfg, struct tournament_plan *plan)
{
    tournament_plan_free(plan);
    tournament_config_free(cfg);
}

START_TEST(round_robin_plan)
{
    struct tournament_config cfg;
    struct tournament_plan plan;
    plan_of("game: generals\nmaps: [tiny.map]\ngenerate: {rows: 6, cols: 6}\nseeds: [4, 5, 6]\n" FOUR, &cfg,
            &plan);
    ck_assert_uint_eq(plan.n, 12 * 2 * 3);
    int met[4][4] = {{0}};
    for (size_t i = 0; i < plan.n; i++) {
        const struct tournament_match *m = &plan.matches[i];
        ck_assert_uint_eq(m->index, i);
        ck_assert_uint_eq(m->seed, 4 + i / 24);  /* seed by seed */
        ck_assert_uint_eq(m->arena, i / 12 % 2); /* then arena by arena */
        ck_assert_int_eq(m->n_seats, 2);
        ck_assert_uint_ne(m->seats[0], m->seats[1]);
        met[m->seats[0]][m->seats[1]]++;
    }
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            ck_assert_int_eq(met[a][b], a == b ? 0 : 6); /* every ordered pair once per arena and seed */
    ck_assert_uint_eq(plan.matches[0].seats[0], 0);
    ck_assert_uint_eq(plan.matches[0].seats[1], 1);
    ck_assert_uint_eq(plan.matches[1].seats[0], 1);
    ck_assert_uint_eq(plan.matches[1].seats[1], 0);
    free_both(&cfg, &plan);
}
END_TEST

START_TEST(gauntlet_plan)
{
    struct tournament_config cfg;
    struct tournament_plan plan;
    plan_of(
        "game: generals\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\nformat: gauntlet\nplayers_per_match: 3\n"
        "players:\n" P("s1") P("s2") "references:\n" P("r1") P("r2") P("r3"),
        &cfg, &plan);
    ck_assert_uint_eq(plan.n, 2 * 3 * 3); /* submissions x C(3,2) reference pairs x 3 seats */
    int seat_of_s1[3] = {0};
    for (size_t i = 0; i < plan.n; i++) {
        const struct tournament_match *m = &plan.matches[i];
        int subs = 0;
        for (int s = 0; s < 3; s++) {
            subs += m->seats[s] < 2;
            if (m->seats[s] == 0) seat_of_s1[s]++;
        }
        ck_assert_int_eq(subs, 1); /* submissions never meet */
    }
    for (int s = 0; s < 3; s++)
        ck_assert_int_eq(seat_of_s1[s], 3); /* each seat once per pair of references */
    free_both(&cfg, &plan);
}
END_TEST

static unsigned seat_mask(const struct tournament_match *m)
{
    unsigned mask = 0;
    for (int s = 0; s < m->n_seats; s++) mask |= 1u << m->seats[s];
    return mask;
}

#define FFA                                                                                                  \
    "game: generals\ngenerate: {rows: 8, cols: 8}\nseeds: [1, 2]\nformat: free-for-all\nplayers_per_match: " \
    "3\n"                                                                                                    \
    "players:\n" P("a") P("b") P("c") P("d") P("e")

START_TEST(free_for_all_every_combination)
{
    struct tournament_config cfg;
    struct tournament_plan plan, again;
    plan_of(FFA, &cfg, &plan);
    ck_assert_uint_eq(plan.n, 2 * 10);
    bool seen[2][32] = {{false}};
    int listed_order = 0;
    for (size_t i = 0; i < plan.n; i++) {
        const struct tournament_match *m = &plan.matches[i];
        unsigned mask = seat_mask(m);
        ck_assert_int_eq(__builtin_popcount(mask), 3);
        ck_assert(!seen[i / 10][mask]);
        seen[i / 10][mask] = true;
        listed_order += m->seats[0] < m->seats[1] && m->seats[1] < m->seats[2];
    }
    ck_assert_int_lt(listed_order, 20); /* seats are shuffled */
    struct tournament_error err;
    ck_assert_int_eq(tournament_plan_build(&cfg, &again, &err), 0);
    ck_assert_int_eq(memcmp(plan.matches, again.matches, plan.n * sizeof *plan.matches), 0);
    tournament_plan_free(&again);
    free_both(&cfg, &plan);
}
END_TEST

START_TEST(free_for_all_sample)
{
    struct tournament_config cfg;
    struct tournament_plan plan;
    plan_of(FFA "sample: 4\n", &cfg, &plan);
    ck_assert_uint_eq(plan.n, 2 * 4);
    unsigned first[4];
    bool same = true;
    for (size_t i = 0; i < plan.n; i++) {
        unsigned mask = seat_mask(&plan.matches[i]);
        for (size_t j = i / 4 * 4; j < i; j++)
            ck_assert_uint_ne(seat_mask(&plan.matches[j]), mask); /* distinct within a seed */
        if (i < 4)
            first[i] = mask;
        else
            same &= first[i - 4] == mask;
    }
    ck_assert(!same); /* each seed draws its own sample */
    free_both(&cfg, &plan);
    plan_of(FFA "sample: 50\n", &cfg, &plan);
    ck_assert_uint_eq(plan.n, 2 * 10); /* more than there are: every combination */
    free_both(&cfg, &plan);
}
END_TEST

START_TEST(too_many_matches)
{
    struct strbuf yaml = STRBUF_INIT;
    sb_puts(&yaml,
            "game: generals\ngenerate: {rows: 6, cols: 6}\nformat: free-for-all\nplayers_per_match: 8\n"
            "seeds: [1]\nplayers:\n");
    for (int i = 0; i < 60; i++) sb_printf(&yaml, "  - {name: p%d, command: ./p}\n", i);
    struct tournament_config cfg;
    struct tournament_plan plan;
    struct tournament_error err;
    load_ok(yaml.data, &cfg);
    ck_assert_int_eq(tournament_plan_build(&cfg, &plan, &err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s:1:1: the tournament has more than 1000000 matches; set 'sample'", path);
    ck_assert_str_eq(err.msg, want);
    tournament_config_free(&cfg);
    sb_free(&yaml);
}
END_TEST

START_TEST(match_ids)
{
    struct tournament_config cfg;
    struct tournament_plan plan;
    plan_of("game: generals\nmaps: [tiny.map]\ngenerate: {rows: 6, cols: 7}\nseeds: [42]\nplayers:\n"
            "  - {name: \"al ice/..\", command: ./a}\n"
            "  - {name: Bob-2, command: ./b}\n"
            "  - {name: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, command: ./c}\n"
            "  - {name: yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy, command: ./c}\n",
            &cfg, &plan);
    char id[TOURNAMENT_ID_MAX];
    tournament_match_id(&cfg, &plan, &plan.matches[0], id);
    ck_assert_str_eq(id, "0000-tiny-s42-al_ice_..-vs-Bob-2");
    tournament_match_id(&cfg, &plan, &plan.matches[13], id);
    ck_assert_str_eq(id, "0013-gen6x7-s42-Bob-2-vs-al_ice_..");
    tournament_match_id(&cfg, &plan, &plan.matches[10], id);
    ck_assert_int_eq(strncmp(id, "0010-tiny-s42-xxxx", 18), 0);
    ck_assert_int_le(strlen(id), 180);
    ck_assert_int_eq(tournament_id_index(id), 10);
    ck_assert_int_eq(tournament_id_index("0013-x"), 13);
    ck_assert_int_eq(tournament_id_index("x0013-x"), -1);
    ck_assert_int_eq(tournament_id_index("0013"), -1);
    ck_assert_int_eq(tournament_id_index("123456789-x"), -1);
    free_both(&cfg, &plan);
}
END_TEST

START_TEST(shards)
{
    struct tournament_shard s;
    ck_assert_int_eq(tournament_shard_parse("2/3", &s), 0);
    ck_assert_uint_eq(s.index, 2);
    ck_assert_uint_eq(s.count, 3);
    static const char *const bad[] = {"0/3", "4/3", "1/0", "a/b",  "1/3x",     "1/",
                                      "/3",  "",    "1",   "-1/3", "1/1000001"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(tournament_shard_parse(bad[i], &s) < 0, "%s", bad[i]);
    struct tournament_config cfg;
    struct tournament_plan plan;
    plan_of("game: generals\nmaps: [tiny.map]\nseeds: [1, 2]\n" FOUR, &cfg, &plan);
    size_t per[4] = {0};
    for (size_t i = 0; i < plan.n; i++) {
        int owners = 0;
        for (unsigned k = 1; k <= 3; k++)
            if (tournament_in_shard(&plan.matches[i], (struct tournament_shard){k, 3})) {
                owners++;
                per[k]++;
            }
        ck_assert_int_eq(owners, 1);
    }
    ck_assert_uint_eq(per[1], 8);
    ck_assert_uint_eq(per[3], 8);
    free_both(&cfg, &plan);
}
END_TEST

START_TEST(match_config_of_a_match)
{
    struct tournament_config cfg;
    struct tournament_plan plan;
    plan_of("game: generals\nmaps: [tiny.map]\ngenerate: {rows: 6, cols: 6}\nseeds: [9]\n"
            "params: {turn_limit: 7}\n" FOUR "isolation: best-effort\n",
            &cfg, &plan);
    struct match_config mc;
    tournament_match_config(&cfg, &plan.matches[13], &mc); /* generated arena, b vs a */
    ck_assert_str_eq(mc.path, path);
    ck_assert(mc.has_seed);
    ck_assert_uint_eq(mc.seed, 9);
    ck_assert_ptr_null(mc.map_path);
    ck_assert(mc.has_generate);
    ck_assert_uint_eq(mc.n_generate, 3);
    ck_assert_int_eq(mc.n_players, 2);
    ck_assert_str_eq(mc.players[0].name, "b");
    ck_assert_str_eq(mc.players[1].name, "a");
    ck_assert_uint_eq(mc.n_params, 1);
    ck_assert_int_eq(mc.isolation, ISOLATION_BEST_EFFORT);
    tournament_match_config(&cfg, &plan.matches[0], &mc);
    ck_assert_str_eq(mc.map_path, cfg.arenas[0].map_path);
    ck_assert(!mc.has_generate);
    free_both(&cfg, &plan);
}
END_TEST

/* ---- fingerprint ------------------------------------------------------------------- */

static void fingerprint_of(const char *yaml, char out[17])
{
    struct tournament_config cfg;
    struct tournament_error err = {0};
    load_ok(yaml, &cfg);
    ck_assert_msg(tournament_fingerprint(&cfg, out, &err) == 0, "%s", err.msg);
    tournament_config_free(&cfg);
}

START_TEST(fingerprint)
{
    char a[17], b[17];
    fingerprint_of(HEAD FOUR, a);
    ck_assert_int_eq(strlen(a), 16);
    fingerprint_of("# a comment\nseeds: [1]\ngame: generals\nmaps: [tiny.map]\n" FOUR "output: elsewhere\n",
                   b);
    ck_assert_str_eq(a, b); /* comments, key order and the output directory do not count */
    static const char *const changed[] = {
        HEAD FOUR "params: {turn_limit: 9}\n",
        "game: generals\nmaps: [tiny.map]\nseeds: [2]\n" FOUR,
        HEAD "players:\n" P("a") P("b") P("c") "  - {name: d, command: ./other}\n",
        HEAD "players:\n" P("b") P("a") P("c") P("d"),
        HEAD FOUR "isolation: best-effort\n",
        HEAD FOUR "freeze: false\n",
    };
    for (size_t i = 0; i < sizeof changed / sizeof changed[0]; i++) {
        fingerprint_of(changed[i], b);
        ck_assert_msg(strcmp(a, b), "%s", changed[i]);
    }
    write_in_tmp("tiny.map", "2 3 2\n3\n1\n2 41\n4\n1\n3\n");
    fingerprint_of(HEAD FOUR, b);
    ck_assert_str_ne(a, b); /* map files count by content */
}
END_TEST

/* ---- progress and journal lines ------------------------------------------------------ */

START_TEST(progress_bar)
{
    struct tournament_progress p = {.total = 40, .done = 10, .done_now = 5, .started_ns = 1000000000};
    char bar[256];
    tournament_progress_bar(&p, 3500000000u, 60, bar, sizeof bar); /* 5 in 2.5 s: 2/s, 30 left: 15 s */
    ck_assert_str_eq(bar, "[######....................] 10/40  2.0 matches/s  0:15 left");
    p.failed = 1;
    p.done_now = 0;
    tournament_progress_bar(&p, 3500000000u, 200, bar, sizeof bar);
    ck_assert_str_eq(bar,
                     "[##########..............................] 10/40  0.0 matches/s  --:-- left  1 failed");
    p = (struct tournament_progress){.total = 10000, .done = 1, .done_now = 1, .started_ns = 0};
    tournament_progress_bar(&p, 2000000000u, 10, bar, sizeof bar);
    ck_assert_str_eq(bar, "[..........] 1/10000  0.5 matches/s  5:33:18 left");
}
END_TEST

static const char result_json[] =
    "{\"type\":\"result\",\"winner\":2,\"draw\":false,\"rounds\":40,\"replies\":80,\"players\":["
    "{\"player\":1,\"name\":\"a "
    "\\\"q\\\"\",\"place\":2,\"points\":0,\"verdict\":\"RUNTIME_ERROR\",\"violation\":\"crash\"},"
    "{\"player\":2,\"name\":\"b\",\"place\":1,\"points\":1,\"verdict\":\"OK\",\"violation\":null}],"
    "\"timing\":{\"wall_ns\":5}}";

START_TEST(journal_and_progress_lines)
{
    json_object *result = json_tokener_parse(result_json);
    struct strbuf line = STRBUF_INIT, text = STRBUF_INIT;
    ck_assert_int_eq(tournament_result_line("0001-x", result, &line), 0);
    ck_assert_str_eq(
        line.data,
        "{\"id\":\"0001-x\",\"replay\":\"replays/0001-x.jsonl.gz\",\"winner\":\"b\",\"draw\":false,"
        "\"rounds\":40,\"players\":[{\"name\":\"a \\\"q\\\"\",\"place\":2,\"points\":0,"
        "\"verdict\":\"RUNTIME_ERROR\"},{\"name\":\"b\",\"place\":1,\"points\":1,\"verdict\":\"OK\"}]}");
    json_object *parsed = json_tokener_parse(line.data);
    struct tournament_progress p = {.total = 9, .done = 3};
    tournament_progress_line(&p, "0001-x", parsed, &text);
    ck_assert_str_eq(text.data, "3/9 0001-x: b wins after 40 rounds (a \"q\" 2 RUNTIME_ERROR, b 1 OK)");
    sb_reset(&text);
    p.game = "seabattle"; /* its rounds are shots */
    tournament_progress_line(&p, "0001-x", parsed, &text);
    ck_assert_str_eq(text.data, "3/9 0001-x: b wins after 40 shots (a \"q\" 2 RUNTIME_ERROR, b 1 OK)");
    json_object_put(parsed);
    json_object_object_add(result, "winner", json_object_new_int(0));
    json_object_object_add(result, "draw", json_object_new_boolean(1));
    sb_reset(&line);
    ck_assert_int_eq(tournament_result_line("0001-x", result, &line), 0);
    ck_assert_ptr_nonnull(strstr(line.data, "\"winner\":null,\"draw\":true"));
    json_object_object_add(result, "type", json_object_new_string("header"));
    ck_assert_int_eq(tournament_result_line("0001-x", result, &line), -1);
    json_object_put(result);
    sb_free(&line);
    sb_free(&text);
}
END_TEST

static Suite *tournament_suite(void)
{
    Suite *s = suite_create("tournament");
    TCase *tc = tcase_create("config");
    tcase_add_checked_fixture(tc, make_fixture, remove_fixture);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, full_file_sets_every_field);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, missing_and_unknown_keys);
    tcase_add_test(tc, games_without_a_map_need_no_generate);
    tcase_add_test(tc, format_errors);
    tcase_add_test(tc, list_errors);
    tcase_add_test(tc, arena_seats);
    tcase_add_test(tc, shared_readers_give_match_file_errors);
    tcase_add_test(tc, truncation_fuzz);
    tcase_add_test(tc, byte_mutation_fuzz);
    suite_add_tcase(s, tc);
    TCase *plan = tcase_create("plan");
    tcase_add_checked_fixture(plan, make_fixture, remove_fixture);
    tcase_add_test(plan, round_robin_plan);
    tcase_add_test(plan, gauntlet_plan);
    tcase_add_test(plan, free_for_all_every_combination);
    tcase_add_test(plan, free_for_all_sample);
    tcase_add_test(plan, too_many_matches);
    tcase_add_test(plan, match_ids);
    tcase_add_test(plan, shards);
    tcase_add_test(plan, match_config_of_a_match);
    tcase_add_test(plan, fingerprint);
    tcase_add_test(plan, progress_bar);
    tcase_add_test(plan, journal_and_progress_lines);
    suite_add_tcase(s, plan);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(tournament_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
