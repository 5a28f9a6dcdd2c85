/*
 * test_judge_match_turns_raw.c - raw replies (judge/match/match_raw_reply.c), as warlight's
 * persistent mode reads them (§9, D19): bytes up to and including the n-th "\n", NULs
 * and "\r" kept as written, at most cap bytes kept, bytes after the reply left for the
 * next one, end of file before the last "\n". No jail: a pipe stands for the bot.
 */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/match/match_raw_reply.h"

struct pipe_bot {
    int fds[2];
    struct bot_channel ch;
    struct raw_reply r;
    struct strbuf text;
};

static void open_bot(struct pipe_bot *b, size_t cap, int lines)
{
    memset(b, 0, sizeof *b);
    ck_assert_int_eq(pipe2(b->fds, O_NONBLOCK | O_CLOEXEC), 0);
    ck_assert_int_eq(bot_channel_init(&b->ch, -1, b->fds[0], -1, 4096, 0), 0);
    raw_reply_begin(&b->r, cap, lines);
}

/* The bot writes, and the judge's wait sees its stdout readable. */
static void say(struct pipe_bot *b, const char *data, size_t len)
{
    ck_assert_int_eq(write(b->fds[1], data, len), (ssize_t)len);
    bot_channel_stdout_woken(&b->ch);
}

static void next_reply(struct pipe_bot *b, size_t cap, int lines)
{
    sb_reset(&b->text);
    raw_reply_begin(&b->r, cap, lines);
}

static void close_bot(struct pipe_bot *b)
{
    if (b->fds[1] >= 0)
        close(b->fds[1]);
    close(b->fds[0]);
    bot_channel_free(&b->ch);
    sb_free(&b->text);
}

START_TEST(two_lines_then_the_next_reply)
{
    struct pipe_bot b;
    open_bot(&b, 100, 2);
    say(&b, "1,2,5\n", 6);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_NONE);
    say(&b, "\n0,0,3\nnext", 11);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_COMPLETE);
    ck_assert_uint_eq(b.text.len, 7);
    ck_assert_str_eq(b.text.data, "1,2,5\n\n");
    next_reply(&b, 100, 2);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_NONE);
    ck_assert_str_eq(b.text.data, "0,0,3\nnext");
    say(&b, "\n", 1);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_COMPLETE);
    ck_assert_str_eq(b.text.data, "0,0,3\nnext\n");
    close_bot(&b);
}
END_TEST

START_TEST(bytes_kept_as_written)
{
    static const char reply[] = "a\0b\r\n\t\x80\n";
    struct pipe_bot b;
    open_bot(&b, 100, 2);
    say(&b, reply, sizeof reply - 1);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_COMPLETE);
    ck_assert_uint_eq(b.text.len, sizeof reply - 1);
    ck_assert_mem_eq(b.text.data, reply, sizeof reply - 1);
    close_bot(&b);
}
END_TEST

/* Past the cap the reply is read on to its last "\n" but not kept. */
START_TEST(capped_yet_read_to_its_end)
{
    struct pipe_bot b;
    char big[20000];
    memset(big, 'x', sizeof big);
    open_bot(&b, 11, 2);
    say(&b, "0123456789abcdef\n", 17);
    say(&b, big, sizeof big);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_NONE);
    say(&b, "\nnext\n\n", 7);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_COMPLETE);
    ck_assert_uint_eq(b.text.len, 11);
    ck_assert_str_eq(b.text.data, "0123456789a");
    next_reply(&b, 11, 2);
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_COMPLETE);
    ck_assert_str_eq(b.text.data, "next\n\n");
    close_bot(&b);
}
END_TEST

START_TEST(end_of_file_before_the_last_newline)
{
    struct pipe_bot b;
    open_bot(&b, 100, 2);
    say(&b, "1,1,5\nno newline", 16);
    close(b.fds[1]);
    b.fds[1] = -1;
    ck_assert_int_eq(raw_reply_read(&b.ch, &b.r, &b.text), RAW_REPLY_EOF);
    ck_assert_str_eq(b.text.data, "1,1,5\nno newline");
    close_bot(&b);
}
END_TEST

START_TEST(cap_follows_max_output_bytes)
{
    struct match_setup s = {.rules = game_find("warlight")};
    ck_assert_ptr_nonnull(s.rules);
    game_params_defaults(s.rules, s.params);
    ck_assert_uint_eq(raw_reply_cap(&s), 65537);
    s.rules = game_find("generals");
    s.limits.max_line_bytes = 4096;
    ck_assert_uint_eq(raw_reply_cap(&s), 4097);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("match_turns_raw");
    TCase *tc = tcase_create("raw");
    tcase_add_test(tc, two_lines_then_the_next_reply);
    tcase_add_test(tc, bytes_kept_as_written);
    tcase_add_test(tc, capped_yet_read_to_its_end);
    tcase_add_test(tc, end_of_file_before_the_last_newline);
    tcase_add_test(tc, cap_follows_max_output_bytes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
