/* test_sandbox_flat.c - jail_flat.c: a jail without namespaces reaches its
 * /bot and /data through the host directories, in argv, envp and cwd. */
#include <check.h>
#include <string.h>

#include "sandbox/jail_flat.h"
#include "tests/unit/jail_fixture.h"

START_TEST(paths_under_bot_and_data_are_rebased)
{
    const char *argv[] = {"/bot/run", "--out", "/data/x", "/botany", "rel", NULL};
    const char *envp[] = {"BOT=/bot", "OUT=/data", "HOME=/tmp", "EMPTY=", NULL};
    struct jail_spec spec = {.argv = argv, .envp = envp, .dir = "/h/bot", .rw_dir = "/h/data", .workdir = "/data/w"};
    struct flat_paths fp;
    struct jail_error err;
    ck_assert_int_eq(flat_paths_build(&spec, &fp, &err), 0);
    ck_assert_str_eq(fp.argv[0], "/h/bot/run");
    ck_assert_str_eq(fp.argv[2], "/h/data/x");
    ck_assert_str_eq(fp.argv[3], "/botany"); /* a prefix of a name is not the directory */
    ck_assert_str_eq(fp.argv[4], "rel");
    ck_assert_ptr_null(fp.argv[5]);
    ck_assert_str_eq(fp.envp[0], "BOT=/h/bot");
    ck_assert_str_eq(fp.envp[1], "OUT=/h/data");
    ck_assert_str_eq(fp.envp[2], "HOME=/tmp");
    ck_assert_str_eq(fp.envp[3], "EMPTY=");
    ck_assert_str_eq(fp.workdir, "/h/data/w");
    flat_paths_free(&fp);
}
END_TEST

START_TEST(workdir_defaults_to_the_bot_dir_and_unbound_paths_stay)
{
    const char *argv[] = {"/data/x", NULL};
    struct jail_spec spec = {.argv = argv, .dir = "/h/bot"};
    struct flat_paths fp;
    struct jail_error err;
    ck_assert_int_eq(flat_paths_build(&spec, &fp, &err), 0);
    ck_assert_str_eq(fp.argv[0], "/data/x"); /* no rw_dir: nothing bound there */
    ck_assert_ptr_null(fp.envp);
    ck_assert_str_eq(fp.workdir, "/h/bot");
    flat_paths_free(&fp);
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("flat");
    tcase_add_test(tc, paths_under_bot_and_data_are_rebased);
    tcase_add_test(tc, workdir_defaults_to_the_bot_dir_and_unbound_paths_stay);
    return run_suite(single_case_suite("sandbox_flat", tc));
}
