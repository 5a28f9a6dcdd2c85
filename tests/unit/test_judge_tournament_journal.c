/* test_judge_tournament_journal.c - the output directory (lock, state file,
 * stale temporary files) and the journal a resumed run reads: which matches
 * count as finished, lines rebuilt from replays, torn and stray lines dropped. */
#include <check.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"
#include "judge/tournament/tournament.h"

static char tmpdir[64];
static char out_dir[128];
static struct tournament_config cfg;
static struct tournament_plan plan;
static const struct tournament_shard whole = {1, 1};

static void write_file(const char *file, const void *data, size_t len)
{
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
}

static void make_fixture(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_tournament_journal.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    char file[256];
    snprintf(file, sizeof file, "%s/tiny.map", tmpdir);
    write_file(file, "2 3 2\n3\n1\n2 40\n4\n1\n3\n", 22);
    static const char yaml[] = "game: generals\nmaps: [tiny.map]\nseeds: [1]\nplayers:\n"
                               "  - {name: a, command: ./a}\n  - {name: b, command: ./b}\n"
                               "  - {name: c, command: ./c}\n  - {name: d, command: ./d}\n";
    snprintf(file, sizeof file, "%s/t.yaml", tmpdir);
    write_file(file, yaml, strlen(yaml));
    struct tournament_error err = {0};
    ck_assert_msg(tournament_config_load(file, &cfg, &err) == 0, "%s", err.msg);
    ck_assert_msg(tournament_plan_build(&cfg, &plan, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(plan.n, 12);
    snprintf(out_dir, sizeof out_dir, "%s/out/shard", tmpdir);
}

static void remove_fixture(void)
{
    tournament_plan_free(&plan);
    tournament_config_free(&cfg);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static void id_of(size_t i, char id[TOURNAMENT_ID_MAX])
{
    tournament_match_id(&cfg, &plan, &plan.matches[i], id);
}

static void open_out(struct tournament_outdir *od)
{
    struct tournament_error err = {0};
    ck_assert_msg(tournament_outdir_open(out_dir, "00000000000000aa", whole, 12, 12, od, &err) == 0, "%s",
                  err.msg);
}

static void open_journal(const struct tournament_outdir *od, struct tournament_journal *j)
{
    struct tournament_error err = {0};
    ck_assert_msg(tournament_journal_open(od, &cfg, &plan, whole, j, &err) == 0, "%s", err.msg);
}

static const char *result_of(size_t i)
{
    static char text[512];
    const struct tournament_match *m = &plan.matches[i];
    snprintf(text, sizeof text,
             "{\"type\":\"result\",\"winner\":1,\"draw\":false,\"rounds\":%zu,\"replies\":2,\"players\":["
             "{\"player\":1,\"name\":\"%s\",\"place\":1,\"points\":1,\"verdict\":\"OK\"},"
             "{\"player\":2,\"name\":\"%s\",\"place\":2,\"points\":0,\"verdict\":\"OK\"}]}",
             i + 10, cfg.players[m->seats[0]].name, cfg.players[m->seats[1]].name);
    return text;
}

/* A complete replay at match i's path: a header naming match `of` and its result. */
static void write_replay_of(const struct tournament_outdir *od, size_t i, size_t of)
{
    char id[TOURNAMENT_ID_MAX], file[PATH_MAX], header[TOURNAMENT_ID_MAX + 64];
    id_of(i, id);
    ck_assert_int_eq(tournament_replay_path(od, id, file, sizeof file), 0);
    id_of(of, id);
    snprintf(header, sizeof header, "{\"type\":\"header\",\"match_id\":\"%s\"}", id);
    struct replay_writer *w;
    struct replay_error rerr;
    ck_assert_int_eq(replay_writer_open(file, &w, &rerr), 0);
    const char *result = result_of(of);
    ck_assert_int_eq(replay_writer_put(w, header, strlen(header), &rerr), 0);
    ck_assert_int_eq(replay_writer_put(w, result, strlen(result), &rerr), 0);
    ck_assert_int_eq(replay_writer_commit(w, &rerr), 0);
}

static void write_replay(const struct tournament_outdir *od, size_t i)
{
    write_replay_of(od, i, i);
}

static void line_of(size_t i, struct strbuf *out)
{
    char id[TOURNAMENT_ID_MAX];
    id_of(i, id);
    json_object *result = json_tokener_parse(result_of(i));
    ck_assert_int_eq(tournament_result_line(id, result, out), 0);
    json_object_put(result);
}

static void read_journal(struct strbuf *out)
{
    char file[PATH_MAX], buf[4096];
    snprintf(file, sizeof file, "%s/journal.jsonl", out_dir);
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_append(out, buf, n);
    fclose(f);
}

START_TEST(a_new_directory)
{
    struct tournament_outdir od;
    struct tournament_journal j;
    open_out(&od);
    open_journal(&od, &j);
    ck_assert_uint_eq(j.n_done, 0);
    struct strbuf text = STRBUF_INIT;
    read_journal(&text);
    ck_assert_uint_eq(text.len, 0);
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/tournament.json", out_dir);
    json_object *state = json_object_from_file(file), *v;
    ck_assert_ptr_nonnull(state);
    ck_assert(json_object_object_get_ex(state, "fingerprint", &v));
    ck_assert_str_eq(json_object_get_string(v), "00000000000000aa");
    json_object_put(state);
    line_of(4, &text);
    struct tournament_error err;
    ck_assert_int_eq(tournament_journal_append(&j, text.data, &err), 0);
    tournament_journal_close(&j);
    sb_reset(&text);
    read_journal(&text);
    struct strbuf want = STRBUF_INIT;
    line_of(4, &want);
    sb_putc(&want, '\n');
    ck_assert_str_eq(text.data, want.data);
    write_replay(&od, 4);
    open_journal(&od, &j);
    ck_assert_uint_eq(j.n_done, 1);
    ck_assert(j.done[4]);
    tournament_journal_close(&j);
    tournament_outdir_close(&od);
    sb_free(&text);
    sb_free(&want);
}
END_TEST

static void assert_ignored(const struct tournament_ignored_line *l, size_t line, const char *why,
                           const char *text)
{
    ck_assert_uint_eq(l->line, line);
    ck_assert_str_eq(l->why, why);
    ck_assert_uint_eq(l->text_len, strlen(text));
    ck_assert_int_eq(memcmp(l->text, text, l->text_len), 0);
    ck_assert(!l->cut);
}

START_TEST(resuming_counts_what_is_finished)
{
    struct tournament_outdir od;
    struct tournament_journal j;
    open_out(&od);
    for (size_t i = 0; i < 6; i++)
        if (i != 2 && i != 4) write_replay(&od, i);
    char id[TOURNAMENT_ID_MAX], file[PATH_MAX];
    id_of(4, id); /* a damaged replay without a line: not finished */
    tournament_replay_path(&od, id, file, sizeof file);
    write_file(file, "\x1f\x8b\x08garbage", 11);
    struct strbuf journal = STRBUF_INIT, line = STRBUF_INIT;
    line_of(0, &journal); /* finished */
    sb_puts(&journal, "\n");
    line_of(2, &journal); /* its replay is missing */
    sb_puts(&journal, "\n");
    line_of(3, &journal); /* finished, and written twice */
    sb_puts(&journal, "\n");
    line_of(3, &journal);
    sb_puts(&journal, "\n{\"id\":\"9999-elsewhere\"}\nnot json\n");
    line_of(5, &line); /* torn by a kill: its replay gets it back */
    sb_append(&journal, line.data, line.len / 2);
    snprintf(file, sizeof file, "%s/journal.jsonl", out_dir);
    write_file(file, journal.data, journal.len);
    tournament_outdir_close(&od);

    open_out(&od);
    open_journal(&od, &j);
    for (size_t i = 0; i < plan.n; i++)
        ck_assert_msg(j.done[i] == (i == 0 || i == 1 || i == 3 || i == 5), "match %zu", i);
    ck_assert_uint_eq(j.n_done, 4);
    ck_assert_uint_eq(j.n_recovered, 2);
    ck_assert_uint_eq(j.n_dropped, 5); /* missing replay, duplicate, stray id, not json, torn */
    /* lines 4 to 6; the missing replay is a note, the torn line dropped as before */
    ck_assert_uint_eq(j.n_ignored, 3);
    char id3[TOURNAMENT_ID_MAX];
    id_of(3, id3);
    assert_ignored(&j.ignored[0], 4, "a second line for its match", id3);
    assert_ignored(&j.ignored[1], 5, "no match of this tournament", "9999-elsewhere");
    assert_ignored(&j.ignored[2], 6, "not a journal line", "not json");
    tournament_replay_path(&od, id, file, sizeof file);
    ck_assert_int_eq(access(file, F_OK), -1); /* the damaged replay is set aside, its name free */
    strcat(file, ".damaged");
    ck_assert_int_eq(access(file, F_OK), 0);
    tournament_journal_close(&j);

    struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
    read_journal(&text);
    line_of(0, &want);
    sb_putc(&want, '\n');
    line_of(3, &want);
    sb_putc(&want, '\n');
    ck_assert_int_eq(strncmp(text.data, want.data, want.len), 0); /* kept lines first, unchanged */
    sb_reset(&line);
    line_of(1, &line);
    ck_assert_ptr_nonnull(strstr(text.data + want.len, line.data));
    sb_reset(&line);
    line_of(5, &line);
    ck_assert_ptr_nonnull(strstr(text.data + want.len, line.data));
    ck_assert_uint_eq(text.len, want.len + 2 * (line.len + 1));

    open_journal(&od, &j); /* a second resume changes nothing */
    ck_assert_uint_eq(j.n_done, 4);
    ck_assert_uint_eq(j.n_recovered + j.n_dropped + j.n_ignored, 0); /* each line reported once */
    tournament_journal_close(&j);
    tournament_outdir_close(&od);
    sb_free(&journal);
    sb_free(&line);
    sb_free(&text);
    sb_free(&want);
}
END_TEST

START_TEST(stale_temporary_files_are_removed)
{
    struct tournament_outdir od;
    open_out(&od);
    tournament_outdir_close(&od);
    char temp1[PATH_MAX], temp2[PATH_MAX], kept[PATH_MAX];
    snprintf(temp1, sizeof temp1, "%s/replays/.0001-x.jsonl.gz.tmp-0123abcd", out_dir);
    snprintf(temp2, sizeof temp2, "%s/.journal.jsonl.tmp-0123abcd", out_dir);
    snprintf(kept, sizeof kept, "%s/replays/notes.txt", out_dir);
    write_file(temp1, "x", 1);
    write_file(temp2, "x", 1);
    write_file(kept, "x", 1);
    open_out(&od);
    ck_assert_int_eq(access(temp1, F_OK), -1);
    ck_assert_int_eq(access(temp2, F_OK), -1);
    ck_assert_int_eq(access(kept, F_OK), 0);
    tournament_outdir_close(&od);
}
END_TEST

START_TEST(another_definition_shard_or_judge_is_refused)
{
    struct tournament_outdir od, second;
    struct tournament_error err;
    char want[1024];
    open_out(&od);
    ck_assert_int_eq(tournament_outdir_open(out_dir, "00000000000000aa", whole, 12, 12, &second, &err), -1);
    snprintf(want, sizeof want, "%s: another judge tournament is using this directory", out_dir);
    ck_assert_str_eq(err.msg, want);
    tournament_outdir_close(&od);
    ck_assert_int_eq(tournament_outdir_open(out_dir, "00000000000000bb", whole, 12, 12, &second, &err), -1);
    snprintf(
        want, sizeof want,
        "%s/tournament.json: this directory holds another tournament (fingerprint 00000000000000aa, the file "
        "gives 00000000000000bb): the file (or --isolation) changed since; use another output directory",
        out_dir);
    ck_assert_str_eq(err.msg, want);
    struct tournament_shard two = {2, 3};
    ck_assert_int_eq(tournament_outdir_open(out_dir, "00000000000000aa", two, 12, 4, &second, &err), -1);
    snprintf(want, sizeof want, "%s/tournament.json: this directory holds shard 1/1, not 2/3", out_dir);
    ck_assert_str_eq(err.msg, want);
    char file[256];
    snprintf(file, sizeof file, "%s/out/plain-file", tmpdir);
    write_file(file, "x", 1);
    ck_assert_int_eq(tournament_outdir_open(file, "00000000000000aa", whole, 12, 12, &second, &err), -1);
    snprintf(want, sizeof want, "%s: not a directory", file);
    ck_assert_str_eq(err.msg, want);
}
END_TEST

/* A journal in a directory without tournament.json is not this judge's: refused, and kept as it is. */
START_TEST(a_stray_journal_is_refused)
{
    struct tournament_outdir od;
    struct tournament_error err;
    char parent[PATH_MAX], journal[PATH_MAX], state[PATH_MAX], want[PATH_MAX + 200];
    snprintf(parent, sizeof parent, "%s/out", tmpdir);
    ck_assert_int_eq(mkdir(parent, 0755), 0);
    ck_assert_int_eq(mkdir(out_dir, 0755), 0);
    snprintf(journal, sizeof journal, "%s/journal.jsonl", out_dir);
    snprintf(state, sizeof state, "%s/tournament.json", out_dir);
    write_file(journal, "someone's notes\n", 16);
    ck_assert_int_eq(tournament_outdir_open(out_dir, "00000000000000aa", whole, 12, 12, &od, &err), -1);
    snprintf(want, sizeof want,
             "%s: a journal without tournament.json beside it, so not a judge tournament's: left as it is; "
             "use another output directory",
             journal);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(access(state, F_OK), -1);
    struct strbuf text = STRBUF_INIT;
    read_journal(&text);
    ck_assert_str_eq(text.data, "someone's notes\n");
    sb_free(&text);
}
END_TEST

static void replace_once(struct strbuf *sb, const char *from, const char *to)
{
    char *at = strstr(sb->data, from);
    ck_assert_ptr_nonnull(at);
    struct strbuf out = STRBUF_INIT;
    sb_append(&out, sb->data, (size_t)(at - sb->data));
    sb_puts(&out, to);
    sb_puts(&out, at + strlen(from));
    sb_reset(sb);
    sb_append(sb, out.data, out.len);
    sb_free(&out);
}

/* Lines that are no journal's or name no match of the shard: dropped, the first few kept to be
 * shown with their numbers (a long one cut), the others counted; the matches named right still count. */
START_TEST(stray_lines_are_kept_to_be_shown)
{
    struct tournament_outdir od;
    struct tournament_journal j;
    struct tournament_error err;
    struct tournament_shard first_half = {1, 2};
    open_out(&od);
    write_replay(&od, 0);
    struct strbuf journal = STRBUF_INIT;
    char id1[TOURNAMENT_ID_MAX];
    id_of(1, id1); /* index 1: shard 2/2's */
    sb_printf(&journal, "{\"id\":\"%s\"}\n", id1);
    for (int i = 0; i < 200; i++) sb_putc(&journal, 'x');
    sb_putc(&journal, '\n');
    line_of(0, &journal);
    sb_putc(&journal, '\n');
    for (int i = 0; i < TOURNAMENT_IGNORED_MAX + 3; i++) sb_puts(&journal, "[1,2]\n");
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/journal.jsonl", out_dir);
    write_file(file, journal.data, journal.len);
    tournament_outdir_close(&od);

    ck_assert_int_eq(tournament_outdir_open(out_dir, "00000000000000aa", whole, 12, 12, &od, &err), 0);
    ck_assert_msg(tournament_journal_open(&od, &cfg, &plan, first_half, &j, &err) == 0, "%s", err.msg);
    ck_assert(j.done[0]);
    ck_assert_uint_eq(j.n_done, 1);
    ck_assert_uint_eq(j.n_ignored, TOURNAMENT_IGNORED_MAX + 5);
    ck_assert_uint_eq(j.n_dropped, TOURNAMENT_IGNORED_MAX + 5);
    assert_ignored(&j.ignored[0], 1, "a match of another shard", id1);
    ck_assert_uint_eq(j.ignored[1].line, 2);
    ck_assert_str_eq(j.ignored[1].why, "not a journal line");
    ck_assert_uint_eq(j.ignored[1].text_len, TOURNAMENT_IGNORED_TEXT);
    ck_assert(j.ignored[1].cut);
    assert_ignored(&j.ignored[2], 4, "not a journal line", "[1,2]");
    assert_ignored(&j.ignored[TOURNAMENT_IGNORED_MAX - 1], TOURNAMENT_IGNORED_MAX + 1, "not a journal line",
                   "[1,2]");
    tournament_journal_close(&j);
    sb_reset(&journal);
    read_journal(&journal);
    struct strbuf want = STRBUF_INIT;
    line_of(0, &want);
    sb_putc(&want, '\n');
    ck_assert_str_eq(journal.data, want.data);
    tournament_outdir_close(&od);
    sb_free(&journal);
    sb_free(&want);
}
END_TEST

/* Lines that name a finished match but disagree with its replay: a wrong
 * winner is rebuilt from the replay, a replay of another match is not a finish. */
START_TEST(lines_must_agree_with_their_replays)
{
    struct tournament_outdir od;
    struct tournament_journal j;
    open_out(&od);
    write_replay(&od, 0);
    write_replay(&od, 1);
    write_replay_of(&od, 2, 3); /* match 3's replay under match 2's name */
    struct strbuf journal = STRBUF_INIT, line = STRBUF_INIT, want = STRBUF_INIT;
    line_of(0, &line);
    replace_once(&line, "\"winner\":\"", "\"winner\":null,\"was\":\""); /* no winner */
    sb_append(&journal, line.data, line.len);
    sb_putc(&journal, '\n');
    sb_reset(&line);
    line_of(1, &line);
    replace_once(&line, "\"draw\":false", "\"draw\":\"no\""); /* a bad type */
    sb_append(&journal, line.data, line.len);
    sb_putc(&journal, '\n');
    sb_reset(&line);
    line_of(3, &line);
    char id2[TOURNAMENT_ID_MAX], id3[TOURNAMENT_ID_MAX];
    id_of(2, id2);
    id_of(3, id3);
    sb_printf(&journal, "{\"id\":\"%s\"%s\n", id2, line.data + strlen(id3) + 8);
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/journal.jsonl", out_dir);
    write_file(file, journal.data, journal.len);
    tournament_outdir_close(&od);

    open_out(&od);
    open_journal(&od, &j);
    ck_assert(j.done[0] && j.done[1] && !j.done[2]);
    ck_assert_uint_eq(j.n_done, 2);
    ck_assert_uint_eq(j.n_fixed, 2);
    ck_assert_uint_eq(j.n_dropped, 1);
    ck_assert_ptr_nonnull(j.notes.data);
    ck_assert_ptr_nonnull(strstr(j.notes.data, "rebuilt from the replay"));
    ck_assert_ptr_nonnull(strstr(j.notes.data, id2));
    tournament_journal_close(&j);
    sb_reset(&journal);
    read_journal(&journal);
    line_of(0, &want);
    sb_putc(&want, '\n');
    line_of(1, &want);
    sb_putc(&want, '\n');
    ck_assert_str_eq(journal.data, want.data);
    tournament_outdir_close(&od);
    sb_free(&journal);
    sb_free(&line);
    sb_free(&want);
}
END_TEST

/* A write cut short (here by RLIMIT_FSIZE, as a full disk would) leaves no part of the line. */
START_TEST(a_failed_append_leaves_no_torn_line)
{
    struct tournament_outdir od;
    struct tournament_journal j;
    open_out(&od);
    open_journal(&od, &j);
    struct strbuf line = STRBUF_INIT, text = STRBUF_INIT;
    line_of(0, &line);
    struct tournament_error err;
    ck_assert_int_eq(tournament_journal_append(&j, line.data, &err), 0);
    struct rlimit old, small = {line.len + line.len / 2, line.len + line.len / 2};
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, SIG_IGN);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = tournament_journal_append(&j, line.data, &err);
    setrlimit(RLIMIT_FSIZE, &old); /* only lowered: an unprivileged process may not raise it back */
    ck_assert_int_eq(rc, -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "journal.jsonl: File too large"));
    read_journal(&text);
    ck_assert_uint_eq(text.len, line.len + 1);
    tournament_journal_close(&j);
    tournament_outdir_close(&od);
    sb_free(&line);
    sb_free(&text);
}
END_TEST

/* Lines written one by one and fsynced together; one written but lost before its
 * fsync (the crash the runner allows) comes back from its committed replay. */
START_TEST(lines_synced_together_and_one_lost_before_its_sync)
{
    struct tournament_outdir od;
    struct tournament_journal j;
    struct tournament_error err;
    struct strbuf line = STRBUF_INIT, text = STRBUF_INIT, want = STRBUF_INIT;
    open_out(&od);
    open_journal(&od, &j);
    for (int m = 0; m < 3; m++) {
        write_replay(&od, m); /* committed before its line, as the worker does */
        sb_reset(&line);
        line_of(m, &line);
        ck_assert_int_eq(tournament_journal_write(&j, line.data, &err), 0);
        sb_puts(&want, line.data);
        sb_putc(&want, '\n');
        if (m == 1) ck_assert_int_eq(tournament_journal_sync(&j, &err), 0);
    }
    size_t synced = want.len - line.len - 1;
    read_journal(&text);
    ck_assert_str_eq(text.data, want.data);
    ck_assert_int_eq(ftruncate(j.fd, (off_t)synced), 0); /* the unsynced line lost */
    tournament_journal_close(&j);
    open_journal(&od, &j);
    ck_assert_uint_eq(j.n_done, 3);
    ck_assert_uint_eq(j.n_recovered, 1);
    ck_assert(j.done[0] && j.done[1] && j.done[2]);
    tournament_journal_close(&j);
    tournament_outdir_close(&od);
    sb_free(&line);
    sb_free(&text);
    sb_free(&want);
}
END_TEST

static Suite *journal_suite(void)
{
    Suite *s = suite_create("tournament_journal");
    TCase *tc = tcase_create("journal");
    tcase_add_checked_fixture(tc, make_fixture, remove_fixture);
    tcase_add_test(tc, a_new_directory);
    tcase_add_test(tc, resuming_counts_what_is_finished);
    tcase_add_test(tc, stale_temporary_files_are_removed);
    tcase_add_test(tc, another_definition_shard_or_judge_is_refused);
    tcase_add_test(tc, a_stray_journal_is_refused);
    tcase_add_test(tc, stray_lines_are_kept_to_be_shown);
    tcase_add_test(tc, lines_must_agree_with_their_replays);
    tcase_add_test(tc, a_failed_append_leaves_no_torn_line);
    tcase_add_test(tc, lines_synced_together_and_one_lost_before_its_sync);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(journal_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
