/*
 * test_ci_file_batch.c - output files written to temporary names and renamed at
 * once (ci/file_batch.h): only the files kept appear, under their names, with
 * their bytes and mode 0644 (whatever the umask); a dropped file, a file never
 * kept, and every file of a run that is not committed leave nothing behind.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ci/file_batch.h"

static char root[64], pages[96];

static void setup(void)
{
    strcpy(root, "/tmp/test_ci_file_batch.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(pages, sizeof pages, "%s/matches", root);
    ck_assert_int_eq(mkdir(pages, 0755), 0);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

/* The names in the pages directory, sorted, joined by spaces (hidden ones too). */
static void listing(char *out, size_t cap)
{
    struct dirent **names;
    int n = scandir(pages, &names, NULL, alphasort);
    ck_assert_int_ge(n, 0);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
            snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? " " : "", names[i]->d_name);
        free(names[i]);
    }
    free(names);
}

static void expect_file(const char *name, const char *text)
{
    char path[160], buf[64] = {0};
    snprintf(path, sizeof path, "%s/%s", pages, name);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    ck_assert_uint_eq(n, strlen(text));
    ck_assert_str_eq(buf, text);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0644);
}

START_TEST(kept_pages_appear_at_commit_and_nothing_else)
{
    struct file_batch *b;
    struct ci_error err = {0};
    umask(077);
    ck_assert_int_eq(file_batch_open(&b, pages, root, &err), 0);
    ck_assert_int_eq(file_batch_write(b, 0, "zero", 4, &err), 0);
    ck_assert_int_eq(file_batch_write(b, 1, "one", 3, &err), 0);
    ck_assert_int_eq(file_batch_write(b, 2, "two", 3, &err), 0);
    ck_assert_int_eq(file_batch_keep(b, 0, "1-a.html", &err), 0);
    file_batch_drop(b, 1);
    ck_assert_int_eq(file_batch_keep(b, 2, "2-c.html", &err), 0);
    ck_assert_int_eq(file_batch_put(b, "x.yaml", "put", 3, &err), 0);
    char names[512];
    listing(names, sizeof names);
    ck_assert_ptr_null(strstr(names, "1-a.html")); /* nothing under its name before the commit */
    ck_assert_int_eq(file_batch_commit(b, &err), 0);
    file_batch_close(b);
    listing(names, sizeof names);
    ck_assert_str_eq(names, "1-a.html 2-c.html x.yaml");
    expect_file("x.yaml", "put");
    expect_file("1-a.html", "zero");
    expect_file("2-c.html", "two");
    umask(022);
}
END_TEST

START_TEST(a_run_not_committed_leaves_nothing)
{
    struct file_batch *b;
    struct ci_error err = {0};
    ck_assert_int_eq(file_batch_open(&b, pages, root, &err), 0);
    ck_assert_int_eq(file_batch_write(b, 0, "zero", 4, &err), 0);
    ck_assert_int_eq(file_batch_write(b, 1, "one", 3, &err), 0); /* written, never kept nor dropped */
    ck_assert_int_eq(file_batch_keep(b, 0, "1-a.html", &err), 0);
    char names[512];
    listing(names, sizeof names);
    ck_assert_ptr_nonnull(strstr(names, ".batch-")); /* the temporaries exist until then */
    file_batch_close(b);
    listing(names, sizeof names);
    ck_assert_str_eq(names, "");
}
END_TEST

START_TEST(a_commit_leaves_only_the_kept_files)
{
    struct file_batch *b;
    struct ci_error err = {0};
    umask(022);
    ck_assert_int_eq(file_batch_open(&b, pages, root, &err), 0);
    for (uint64_t seq = 0; seq < 20; seq++) /* every shard, some twice */
        ck_assert_int_eq(file_batch_write(b, seq, "page", 4, &err), 0);
    ck_assert_int_eq(file_batch_keep(b, 9, "9.html", &err), 0);
    ck_assert_int_eq(file_batch_keep(b, 10, "10.html", &err), 0);
    file_batch_drop(b, 11);
    ck_assert_int_eq(file_batch_commit(b, &err), 0);
    file_batch_close(b);
    char names[512];
    listing(names, sizeof names);
    ck_assert_str_eq(names, "10.html 9.html");
    expect_file("9.html", "page");
    expect_file("10.html", "page");
}
END_TEST

START_TEST(an_unwritable_directory_is_an_error_naming_it)
{
    struct file_batch *b;
    struct ci_error err = {0};
    ck_assert_int_eq(file_batch_open(&b, pages, root, &err), 0);
    ck_assert_int_eq(rmdir(pages), 0);
    ck_assert_int_eq(file_batch_write(b, 0, "zero", 4, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, pages));
    file_batch_close(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("file_batch");
    TCase *t = tcase_create("file_batch");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, kept_pages_appear_at_commit_and_nothing_else);
    tcase_add_test(t, a_run_not_committed_leaves_nothing);
    tcase_add_test(t, a_commit_leaves_only_the_kept_files);
    tcase_add_test(t, an_unwritable_directory_is_an_error_naming_it);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
