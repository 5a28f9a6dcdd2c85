/*
 * test_engine_warlight_golden.c - the §10 log byte for byte on recorded games.
 *
 * tests/unit/warlight_golden/NAME.rec is a recording (every reply, as raw bytes in hex, or
 * every violation the runner found, in the order handed in) and NAME.log the log that
 * reference.py, a separate Python reading of the spec, wrote for it: for seeded random bots
 * with every kind of fault, or (judged) for a match `judge run` played with the example bots. The engine must accept
 * every recorded reply when the recording says it is due and write the same log.
 */
#include "tests/unit/warlight_fixture.h"

#define GOLDEN_DIR "tests/unit/warlight_golden/"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s (run from the repository root)", path);
    struct strbuf sb = STRBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        ck_assert_int_eq(sb_append(&sb, buf, n), 0);
    fclose(f);
    *len = sb.len;
    return sb_steal(&sb);
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c - 'a' + 10;
}

/* "seed S players K name=value ...": the parameters and the game. */
static void create_from_header(struct wfix *f, char *line)
{
    unsigned long long seed;
    int players, used;
    ck_assert_int_eq(sscanf(line, "seed %llu players %d%n", &seed, &players, &used), 2);
    for (char *save, *kv = strtok_r(line + used, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        ck_assert_ptr_nonnull(eq);
        *eq = '\0';
        wf_set(f, kv, strtoll(eq + 1, NULL, 10));
    }
    wf_create(f, seed, players);
    warlight_rules.set_log(f->g, &f->log);
}

/* "R T P out HEX|-" or "R T P VIOLATION". */
static void feed(struct wfix *f, char *line, int line_no)
{
    int round, turn, p, used;
    char kind[32];
    ck_assert_int_eq(sscanf(line, "%d %d %d %31s%n", &round, &turn, &p, kind, &used), 4);
    ck_assert_msg(warlight_rules.round(f->g) == round, "record line %d: the engine is at round %d",
                  line_no, warlight_rules.round(f->g));
    int pending[GAME_MAX_PLAYERS], n = wf_pending(f, pending);
    ck_assert_msg(n > 0 && pending[0] == p, "record line %d: player %d is not the next one due",
                  line_no, p);
    if (strcmp(kind, "out") != 0) {
        enum violation_kind v;
        ck_assert_int_eq(violation_parse(kind, &v), 0);
        ck_assert_int_eq(warlight_rules.violation(f->g, p, v), 0);
        return;
    }
    const char *hex = line + used + 1;
    size_t len = strcmp(hex, "-") ? strlen(hex) / 2 : 0;
    char *bytes = malloc(len + 1);
    for (size_t i = 0; i < len; i++)
        bytes[i] = (char)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
    wf_out(f, p, bytes, len);
    free(bytes);
}

static void play_recording(const char *name)
{
    char path[256];
    size_t rec_len, log_len;
    snprintf(path, sizeof path, GOLDEN_DIR "%s.rec", name);
    char *rec = slurp(path, &rec_len);
    snprintf(path, sizeof path, GOLDEN_DIR "%s.log", name);
    char *golden = slurp(path, &log_len);
    struct wfix f;
    wf_init(&f);
    int line_no = 1;
    char *save, *line = strtok_r(rec, "\n", &save);
    create_from_header(&f, line);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL)
        feed(&f, line, ++line_no);
    ck_assert_msg(warlight_rules.over(f.g), "%s: the recording ends before the match", name);
    size_t at = 0;
    while (at < log_len && at < f.log.len && golden[at] == f.log.data[at])
        at++;
    ck_assert_msg(at == log_len && at == f.log.len, "%s: the log differs from byte %zu: '%.60s'",
                  name, at, f.log.data ? f.log.data + at : "");
    wf_free(&f);
    free(rec);
    free(golden);
}

START_TEST(small_board_three_players) { play_recording("small"); }
END_TEST

START_TEST(tiny_board_with_eliminations) { play_recording("tiny"); }
END_TEST

START_TEST(default_board) { play_recording("default"); }
END_TEST

START_TEST(persistent_mode_with_seed_above_2_63) { play_recording("persistent"); }
END_TEST

/* Recorded by `judge run` with the three example bots (reference.py from-replay). */
START_TEST(example_bots_in_the_judge) { play_recording("judged"); }
END_TEST

int main(void)
{
    Suite *s = suite_create("warlight_golden");
    TCase *tc = tcase_create("logs");
    tcase_add_test(tc, small_board_three_players);
    tcase_add_test(tc, tiny_board_with_eliminations);
    tcase_add_test(tc, default_board);
    tcase_add_test(tc, persistent_mode_with_seed_above_2_63);
    tcase_add_test(tc, example_bots_in_the_judge);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
