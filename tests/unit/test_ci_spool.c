/* test_ci_spool.c - records on disk, read back per chain in order (through a read window);
 * transactions withdrawn whole. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci/spool.h"

static int collect(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    (void)err;
    struct strbuf *sb = ctx;
    sb_append(sb, data, len);
    return sb_putc(sb, '|');
}

/* Every record of chain, joined by '|'; the caller frees. */
static char *chain_text(struct spool *s, uint32_t chain)
{
    struct strbuf sb = STRBUF_INIT;
    struct ci_error err;
    ck_assert_int_eq(spool_each(s, chain, collect, &sb, &err), 0);
    sb_putc(&sb, '\0');
    return sb_steal(&sb);
}

static struct spool *open_spool(void)
{
    struct spool *s;
    struct ci_error err;
    ck_assert_int_eq(spool_open("/tmp", &s, &err), 0);
    return s;
}

static void put(struct spool *s, uint32_t chain, const char *text)
{
    struct ci_error err;
    ck_assert_int_eq(spool_append(s, chain, text, strlen(text), &err), 0);
}

START_TEST(chains_come_back_in_order)
{
    struct spool *s = open_spool();
    put(s, 2, "a1");
    put(s, 0, "b1");
    put(s, 2, "a2");
    put(s, 70, "c1"); /* chains grow on demand */
    put(s, 2, "a3");
    char *a = chain_text(s, 2), *b = chain_text(s, 0), *c = chain_text(s, 70), *none = chain_text(s, 5);
    ck_assert_str_eq(a, "a1|a2|a3|");
    ck_assert_str_eq(b, "b1|");
    ck_assert_str_eq(c, "c1|");
    ck_assert_str_eq(none, "");
    ck_assert_uint_eq(spool_count(s, 2), 3);
    ck_assert_uint_eq(spool_count(s, 1000), 0);
    free(a), free(b), free(c), free(none);
    spool_close(s);
}
END_TEST

START_TEST(rollback_withdraws_the_transaction)
{
    struct spool *s = open_spool();
    struct ci_error err;
    put(s, 1, "kept");
    spool_begin(s);
    put(s, 1, "gone");
    put(s, 3, "gone too");
    ck_assert_int_eq(spool_rollback(s, &err), 0);
    put(s, 1, "after");
    spool_begin(s);
    put(s, 3, "committed");
    spool_commit(s);
    char *one = chain_text(s, 1), *three = chain_text(s, 3);
    ck_assert_str_eq(one, "kept|after|");
    ck_assert_str_eq(three, "committed|");
    ck_assert_uint_eq(spool_count(s, 3), 1);
    free(one), free(three);
    spool_close(s);
}
END_TEST

/* Records larger than the buffer: the transaction's start is already on disk when it is withdrawn. */
START_TEST(rollback_after_a_flush)
{
    struct spool *s = open_spool();
    struct ci_error err;
    size_t big = (3u << 20) / 2;
    char *blob = malloc(big + 1);
    memset(blob, 'x', big);
    blob[big] = '\0';
    put(s, 0, "first");
    spool_begin(s);
    put(s, 0, blob);
    put(s, 0, blob);
    ck_assert_int_eq(spool_rollback(s, &err), 0);
    put(s, 0, "second");
    char *text = chain_text(s, 0);
    ck_assert_str_eq(text, "first|second|");
    free(text);
    free(blob);
    spool_close(s);
}
END_TEST

START_TEST(read_by_offset)
{
    struct spool *s = open_spool();
    struct ci_error err;
    uint64_t at = spool_next_offset(s);
    put(s, 0, "path/one.jsonl.gz");
    uint64_t at2 = spool_next_offset(s);
    put(s, 0, "two");
    struct strbuf sb = STRBUF_INIT;
    ck_assert_int_eq(spool_read(s, at2, &sb, &err), 0);
    ck_assert_str_eq(sb.data, "two");
    ck_assert_int_eq(spool_read(s, at, &sb, &err), 0);
    ck_assert_str_eq(sb.data, "path/one.jsonl.gz");
    ck_assert_int_eq(spool_read(s, 1u << 30, &sb, &err), -1);
    sb_free(&sb);
    spool_close(s);
}
END_TEST

/* Thousands of records over many of spool_each's 64 KiB windows, records across a window's
 * end, and records bigger than a window: every one comes back whole and in order. */
START_TEST(records_across_and_beyond_the_read_window)
{
    struct spool *s = open_spool();
    struct strbuf want0 = STRBUF_INIT, want1 = STRBUF_INIT, big = STRBUF_INIT;
    for (int i = 0; i < 200000; i++)
        sb_putc(&big, (char)('a' + i % 26));
    for (int i = 0; i < 5000; i++) {
        char rec[160];
        int n = snprintf(rec, sizeof rec, "record %d %.*s", i, i % 97, big.data);
        uint32_t chain = (uint32_t)(i % 3 == 0);
        const char *data = i % 1000 == 500 ? big.data : rec;
        size_t len = i % 1000 == 500 ? big.len - (size_t)i : (size_t)n;
        struct ci_error err;
        ck_assert_int_eq(spool_append(s, chain, data, len, &err), 0);
        struct strbuf *want = chain ? &want1 : &want0;
        sb_append(want, data, len);
        sb_putc(want, '|');
    }
    char *got0 = chain_text(s, 0), *got1 = chain_text(s, 1);
    ck_assert_uint_eq(strlen(got0), want0.len);
    ck_assert_uint_eq(strlen(got1), want1.len);
    ck_assert_int_eq(memcmp(got0, want0.data, want0.len), 0);
    ck_assert_int_eq(memcmp(got1, want1.data, want1.len), 0);
    free(got0), free(got1);
    sb_free(&want0), sb_free(&want1), sb_free(&big);
    spool_close(s);
}
END_TEST

static Suite *spool_suite(void)
{
    Suite *s = suite_create("spool");
    TCase *t = tcase_create("spool");
    tcase_add_test(t, chains_come_back_in_order);
    tcase_add_test(t, rollback_withdraws_the_transaction);
    tcase_add_test(t, rollback_after_a_flush);
    tcase_add_test(t, read_by_offset);
    tcase_add_test(t, records_across_and_beyond_the_read_window);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(spool_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
