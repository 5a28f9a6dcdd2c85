/* test_judge_bot_channel.c - README C3 line reading, non-blocking writes, stderr tail. */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/match/bot_channel.h"

/* A channel over real non-blocking pipes; the test plays the bot's side. */
struct fixture {
    struct bot_channel ch;
    int bot_stdin;   /* the bot reads here */
    int bot_stdout;  /* the bot writes its replies here */
    int bot_stderr;
};

static void open_fixture(struct fixture *f, size_t max_line, size_t stderr_limit)
{
    int in[2], out[2], err[2];
    ck_assert_int_eq(pipe2(in, O_NONBLOCK | O_CLOEXEC), 0);
    ck_assert_int_eq(pipe2(out, O_NONBLOCK | O_CLOEXEC), 0);
    ck_assert_int_eq(pipe2(err, O_NONBLOCK | O_CLOEXEC), 0);
    f->bot_stdin = in[0];
    f->bot_stdout = out[1];
    f->bot_stderr = err[1];
    ck_assert_int_eq(bot_channel_init(&f->ch, in[1], out[0], err[0], max_line, stderr_limit), 0);
}

static void close_fixture(struct fixture *f)
{
    int fds[] = {f->ch.in_fd, f->ch.out_fd, f->ch.err_fd, f->bot_stdin, f->bot_stdout, f->bot_stderr};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    bot_channel_free(&f->ch);
}

/* The bot writes, and the judge's wait sees its stdout readable. */
static void bot_writes(struct fixture *f, const char *bytes, size_t n)
{
    ck_assert_int_eq(write(f->bot_stdout, bytes, n), (ssize_t)n);
    bot_channel_stdout_woken(&f->ch);
}

static void expect_line(struct fixture *f, enum bot_line_status status, const char *text, size_t len)
{
    struct bot_line ln;
    bot_channel_read_line(&f->ch, &ln);
    ck_assert_int_eq(ln.status, status);
    ck_assert_uint_eq(ln.len, len);
    ck_assert_mem_eq(ln.text, text, len);
    ck_assert_int_eq(ln.text[len], '\0');
}

START_TEST(reads_a_line_without_its_newline)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    expect_line(&f, BOT_LINE_NONE, "", 0);
    bot_writes(&f, "1 2 3 4 5\n", 10);
    expect_line(&f, BOT_LINE_OK, "1 2 3 4 5", 9);
    expect_line(&f, BOT_LINE_NONE, "", 0);
    close_fixture(&f);
}
END_TEST

START_TEST(an_empty_pipe_is_read_again_only_once_woken)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    expect_line(&f, BOT_LINE_NONE, "", 0);   /* reads: empty */
    ck_assert_int_eq(write(f.bot_stdout, "7\n", 2), 2);
    expect_line(&f, BOT_LINE_NONE, "", 0);   /* no read: nothing woke the channel */
    bot_channel_stdout_woken(&f.ch);
    expect_line(&f, BOT_LINE_OK, "7", 1);
    ck_assert_int_eq(write(f.bot_stdout, "8\n", 2), 2);
    bot_channel_stdout_await(&f.ch);         /* a prompt went out: wait to be woken */
    expect_line(&f, BOT_LINE_NONE, "", 0);
    bot_channel_stdout_woken(&f.ch);
    expect_line(&f, BOT_LINE_OK, "8", 1);
    close(f.bot_stdout);
    f.bot_stdout = -1;
    bot_channel_stdout_woken(&f.ch);
    expect_line(&f, BOT_LINE_EOF, "", 0);
    close_fixture(&f);
}
END_TEST

START_TEST(strips_one_carriage_return_before_the_newline)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    bot_writes(&f, "-1\r\n", 4);
    expect_line(&f, BOT_LINE_OK, "-1", 2);
    bot_writes(&f, "-1\r\r\nnext\n", 10);
    expect_line(&f, BOT_LINE_INVALID, "-1\r", 3);
    expect_line(&f, BOT_LINE_OK, "next", 4);
    close_fixture(&f);
}
END_TEST

START_TEST(a_carriage_return_inside_a_line_is_invalid)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    bot_writes(&f, "a\rb\nok\n", 7);
    struct bot_line ln;
    bot_channel_read_line(&f.ch, &ln);
    ck_assert_int_eq(ln.status, BOT_LINE_INVALID);
    ck_assert_str_eq(ln.reason, "control byte 0x0d");
    expect_line(&f, BOT_LINE_OK, "ok", 2);
    close_fixture(&f);
}
END_TEST

START_TEST(a_line_of_exactly_max_bytes_is_accepted)
{
    struct fixture f;
    open_fixture(&f, 8, 0);
    bot_writes(&f, "12345678\n1234567\r\n", 18);
    expect_line(&f, BOT_LINE_OK, "12345678", 8);
    expect_line(&f, BOT_LINE_OK, "1234567", 7);   /* the \r counts: 8 bytes */
    close_fixture(&f);
}
END_TEST

START_TEST(an_overlong_line_is_invalid_then_skipped_to_its_newline)
{
    struct fixture f;
    open_fixture(&f, 8, 0);
    bot_writes(&f, "123456789abc\nnext\n", 18);
    struct bot_line ln;
    bot_channel_read_line(&f.ch, &ln);
    ck_assert_int_eq(ln.status, BOT_LINE_INVALID);
    ck_assert_str_eq(ln.reason, "line longer than 8 bytes");
    ck_assert_str_eq(ln.text, "123456789");
    expect_line(&f, BOT_LINE_OK, "next", 4);
    close_fixture(&f);
}
END_TEST

START_TEST(a_carriage_return_past_the_limit_makes_the_line_too_long)
{
    struct fixture f;
    open_fixture(&f, 8, 0);
    bot_writes(&f, "12345678\r\nok\n", 13);
    struct bot_line ln;
    bot_channel_read_line(&f.ch, &ln);
    ck_assert_int_eq(ln.status, BOT_LINE_INVALID);
    ck_assert_str_eq(ln.reason, "line longer than 8 bytes");
    expect_line(&f, BOT_LINE_OK, "ok", 2);
    close_fixture(&f);
}
END_TEST

START_TEST(an_overlong_line_is_invalid_before_its_newline_arrives)
{
    struct fixture f;
    open_fixture(&f, 8, 0);
    bot_writes(&f, "123456789", 9);
    struct bot_line ln;
    bot_channel_read_line(&f.ch, &ln);
    ck_assert_int_eq(ln.status, BOT_LINE_INVALID);
    expect_line(&f, BOT_LINE_NONE, "", 0);       /* still skipping: no \n yet */
    bot_writes(&f, "more more more", 14);
    expect_line(&f, BOT_LINE_NONE, "", 0);
    bot_writes(&f, "\n-1\n", 4);
    expect_line(&f, BOT_LINE_OK, "-1", 2);
    close_fixture(&f);
}
END_TEST

static void expect_invalid_byte(unsigned char bad, const char *reason)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    char line[] = {'1', ' ', (char)bad, ' ', '2', '\n', 'o', 'k', '\n'};
    bot_writes(&f, line, sizeof line);
    struct bot_line ln;
    bot_channel_read_line(&f.ch, &ln);
    ck_assert_int_eq(ln.status, BOT_LINE_INVALID);
    ck_assert_str_eq(ln.reason, reason);
    ck_assert_uint_eq(ln.len, 3);
    ck_assert_int_eq((unsigned char)ln.text[2], bad);
    expect_line(&f, BOT_LINE_OK, "ok", 2);
    close_fixture(&f);
}

START_TEST(nul_tab_delete_and_non_ascii_bytes_are_invalid)
{
    expect_invalid_byte(0x00, "control byte 0x00");
    expect_invalid_byte('\t', "control byte 0x09");
    expect_invalid_byte(0x1b, "control byte 0x1b");
    expect_invalid_byte(0x7f, "control byte 0x7f");
    expect_invalid_byte(0x80, "non-ASCII byte 0x80");
    expect_invalid_byte(0xc3, "non-ASCII byte 0xc3");
}
END_TEST

START_TEST(an_empty_line_is_a_line)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    bot_writes(&f, "\n", 1);
    expect_line(&f, BOT_LINE_OK, "", 0);
    close_fixture(&f);
}
END_TEST

START_TEST(a_line_split_over_many_reads_is_put_together)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    const char *reply = "2 10 10 10 11\n";
    for (size_t i = 0; reply[i] != '\n'; i++) {
        bot_writes(&f, reply + i, 1);
        expect_line(&f, BOT_LINE_NONE, "", 0);
    }
    bot_writes(&f, "\n", 1);
    expect_line(&f, BOT_LINE_OK, "2 10 10 10 11", 13);
    close_fixture(&f);
}
END_TEST

START_TEST(lines_written_early_are_the_next_replies)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    bot_writes(&f, "-1\n1 1 1 1 2\n-", 14);
    expect_line(&f, BOT_LINE_OK, "-1", 2);
    expect_line(&f, BOT_LINE_OK, "1 1 1 1 2", 9);
    expect_line(&f, BOT_LINE_NONE, "", 0);
    bot_writes(&f, "1\n", 2);
    expect_line(&f, BOT_LINE_OK, "-1", 2);
    close_fixture(&f);
}
END_TEST

START_TEST(eof_before_the_newline_is_reported_with_the_partial_line)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    bot_writes(&f, "ok\npartial", 10);
    close(f.bot_stdout);
    f.bot_stdout = -1;
    expect_line(&f, BOT_LINE_OK, "ok", 2);
    expect_line(&f, BOT_LINE_EOF, "partial", 7);
    expect_line(&f, BOT_LINE_EOF, "", 0);
    ck_assert_int_eq(f.ch.out_fd, -1);
    close_fixture(&f);
}
END_TEST

/* The line begun, as a wall limit's evidence: its bytes so far, a pending "\r" left out. */
START_TEST(the_line_begun_is_there_before_its_newline)
{
    struct fixture f;
    const char *begun;
    open_fixture(&f, 256, 0);
    ck_assert_uint_eq(bot_channel_partial_line(&f.ch, &begun), 0);
    bot_writes(&f, "ok\n-1\r", 6);
    expect_line(&f, BOT_LINE_OK, "ok", 2);
    expect_line(&f, BOT_LINE_NONE, "", 0);
    ck_assert_uint_eq(bot_channel_partial_line(&f.ch, &begun), 2);
    ck_assert_mem_eq(begun, "-1", 2);
    close_fixture(&f);
}
END_TEST

START_TEST(a_full_pipe_keeps_the_unsent_bytes_in_order)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    size_t total = 300000;
    char *prompt = malloc(total), *got = malloc(total);
    for (size_t i = 0; i < total; i++)
        prompt[i] = (char)('a' + i % 26);
    ck_assert_int_eq(bot_channel_send(&f.ch, prompt, total), 0);   /* more than a pipe holds */
    ck_assert(bot_channel_has_unsent(&f.ch));
    size_t have = 0;
    while (have < total) {
        ssize_t n = read(f.bot_stdin, got + have, total - have);
        if (n > 0)
            have += (size_t)n;
        int rc = bot_channel_flush(&f.ch);
        ck_assert_int_ge(rc, 0);
    }
    ck_assert(!bot_channel_has_unsent(&f.ch));
    ck_assert_mem_eq(got, prompt, total);
    free(prompt);
    free(got);
    close_fixture(&f);
}
END_TEST

START_TEST(writing_to_a_bot_that_closed_stdin_is_not_an_error)
{
    struct fixture f;
    open_fixture(&f, 256, 0);
    close(f.bot_stdin);
    f.bot_stdin = -1;
    ck_assert_int_eq(bot_channel_send(&f.ch, "0\n", 2), 1);
    ck_assert(f.ch.stdin_gone);
    ck_assert(!bot_channel_has_unsent(&f.ch));
    ck_assert_int_eq(bot_channel_send(&f.ch, "1\n", 2), 1);
    close_fixture(&f);
}
END_TEST

START_TEST(stderr_keeps_only_its_tail)
{
    struct fixture f;
    open_fixture(&f, 256, 16);
    const char *text = "line1\nline2\nline3\n";   /* 18 bytes: the first 2 fall out */
    ck_assert_int_eq(write(f.bot_stderr, text, strlen(text)), (ssize_t)strlen(text));
    ck_assert_int_eq(bot_channel_drain_stderr(&f.ch), 0);
    ck_assert_uint_eq(f.ch.stderr_bytes, 18);
    ck_assert_uint_eq(f.ch.tail_len, 16);
    struct strbuf tail = STRBUF_INIT;
    ck_assert_int_eq(bot_channel_stderr_tail(&f.ch, 4096, &tail), 0);
    ck_assert_str_eq(tail.data, "line2\nline3\n");    /* starts at a line boundary */
    sb_reset(&tail);
    ck_assert_int_eq(bot_channel_stderr_tail(&f.ch, 8, &tail), 0);
    ck_assert_str_eq(tail.data, "line3\n");
    sb_free(&tail);
    close(f.bot_stderr);
    f.bot_stderr = -1;
    ck_assert_int_eq(bot_channel_drain_stderr(&f.ch), 1);
    close_fixture(&f);
}
END_TEST

START_TEST(stderr_tail_wraps_around_its_ring)
{
    struct fixture f;
    open_fixture(&f, 256, 10);
    for (int i = 0; i < 7; i++) {
        char chunk[8];
        int n = snprintf(chunk, sizeof chunk, "e%d\n", i);
        ck_assert_int_eq(write(f.bot_stderr, chunk, (size_t)n), n);
        bot_channel_drain_stderr(&f.ch);
    }
    struct strbuf tail = STRBUF_INIT;
    ck_assert_int_eq(bot_channel_stderr_tail(&f.ch, 100, &tail), 0);
    ck_assert_str_eq(tail.data, "e4\ne5\ne6\n");
    sb_free(&tail);
    close_fixture(&f);
}
END_TEST

static Suite *bot_channel_suite(void)
{
    Suite *s = suite_create("bot_channel");
    TCase *lines = tcase_create("lines");
    tcase_add_test(lines, reads_a_line_without_its_newline);
    tcase_add_test(lines, an_empty_pipe_is_read_again_only_once_woken);
    tcase_add_test(lines, strips_one_carriage_return_before_the_newline);
    tcase_add_test(lines, a_carriage_return_inside_a_line_is_invalid);
    tcase_add_test(lines, a_line_of_exactly_max_bytes_is_accepted);
    tcase_add_test(lines, an_overlong_line_is_invalid_then_skipped_to_its_newline);
    tcase_add_test(lines, a_carriage_return_past_the_limit_makes_the_line_too_long);
    tcase_add_test(lines, an_overlong_line_is_invalid_before_its_newline_arrives);
    tcase_add_test(lines, nul_tab_delete_and_non_ascii_bytes_are_invalid);
    tcase_add_test(lines, an_empty_line_is_a_line);
    tcase_add_test(lines, a_line_split_over_many_reads_is_put_together);
    tcase_add_test(lines, lines_written_early_are_the_next_replies);
    tcase_add_test(lines, eof_before_the_newline_is_reported_with_the_partial_line);
    tcase_add_test(lines, the_line_begun_is_there_before_its_newline);
    suite_add_tcase(s, lines);
    TCase *writes = tcase_create("writes");
    tcase_add_test(writes, a_full_pipe_keeps_the_unsent_bytes_in_order);
    tcase_add_test(writes, writing_to_a_bot_that_closed_stdin_is_not_an_error);
    suite_add_tcase(s, writes);
    TCase *err = tcase_create("stderr");
    tcase_add_test(err, stderr_keeps_only_its_tail);
    tcase_add_test(err, stderr_tail_wraps_around_its_ring);
    suite_add_tcase(s, err);
    return s;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    SRunner *sr = srunner_create(bot_channel_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
