/* test_judge_make_dirs.c - output directories made as mkdir -p makes them (common/make_dirs.h). */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/make_dirs.h"

static char tmpdir[64];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/judge-make-dirs.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    umask(022);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static mode_t dir_mode(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    return st.st_mode & 07777;
}

START_TEST(missing_parents_are_made)
{
    char path[256], err[512] = "";
    snprintf(path, sizeof path, "%s/a/b/c", tmpdir);
    ck_assert_msg(make_dirs(path, 0755, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(dir_mode(path), 0755);
    snprintf(path, sizeof path, "%s/a", tmpdir);
    ck_assert_int_eq(dir_mode(path), 0755);
    snprintf(path, sizeof path, "%s/a/b/c/", tmpdir); /* made already, and a trailing slash */
    ck_assert_msg(make_dirs(path, 0755, err, sizeof err) == 0, "%s", err);
}
END_TEST

START_TEST(a_file_in_the_way_is_named)
{
    char file[128], path[256], want[256], err[512] = "";
    snprintf(file, sizeof file, "%s/plain", tmpdir);
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(want, sizeof want, "%s: not a directory", file);
    ck_assert_int_eq(make_dirs(file, 0755, err, sizeof err), -1);
    ck_assert_str_eq(err, want);
    snprintf(path, sizeof path, "%s/sub", file);
    ck_assert_int_eq(make_dirs(path, 0755, err, sizeof err), -1);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(make_dirs("", 0755, err, sizeof err), -1);
    ck_assert_str_eq(err, ": No such file or directory");
}
END_TEST

START_TEST(a_file_path_gets_its_directories)
{
    char path[256], dir[256], err[512] = "";
    snprintf(path, sizeof path, "%s/x/y/record.jsonl.gz", tmpdir);
    ck_assert_msg(make_parent_dirs(path, 0755, err, sizeof err) == 0, "%s", err);
    snprintf(dir, sizeof dir, "%s/x/y", tmpdir);
    ck_assert_int_eq(dir_mode(dir), 0755);
    ck_assert_int_eq(access(path, F_OK), -1); /* the file itself is not made */
    ck_assert_int_eq(make_parent_dirs("record.jsonl.gz", 0755, err, sizeof err), 0);
    ck_assert_int_eq(make_parent_dirs("/record.jsonl.gz", 0755, err, sizeof err), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("make_dirs");
    TCase *t = tcase_create("make_dirs");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, missing_parents_are_made);
    tcase_add_test(t, a_file_in_the_way_is_named);
    tcase_add_test(t, a_file_path_gets_its_directories);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
