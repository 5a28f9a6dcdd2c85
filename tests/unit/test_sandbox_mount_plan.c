/*
 * test_sandbox_mount_plan.c - building the jail's filesystem plan from a
 * spec: bad directories and extra binds are refused with one-line errors
 * before anything is cloned; good ones add the expected steps; with a
 * template namespace only the per-jail part is planned, unless an extra bind
 * needs a mount point the template lacks.
 */
#include <fcntl.h>

#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

static int template_fd = -1; /* stands for a template namespace: plans only store it */
/* A small bot directory: each plan stages a copy of it (sandbox/jail_stage.c),
 * which for a directory like /etc is slow on a slow file system. */
static char bot_dir[] = "/tmp/mount-plan-bot-XXXXXX";

static int build(const char *bot, const char *rw, const char *const *extra, struct mount_plan **plan,
                 struct jail_error *err)
{
    struct mount_plan_input in = {"/run/judge-test-root", bot, rw, extra, 1 << 20, false, template_fd, NULL};
    return mount_plan_build(&in, plan, err);
}

static size_t steps_for(const char *bot, const char *rw, const char *const *extra)
{
    struct mount_plan *plan;
    struct jail_error err;
    ck_assert_msg(build(bot, rw, extra, &plan, &err) == 0, "%s", err.msg);
    size_t n = mount_plan_steps(plan);
    mount_plan_free(plan);
    return n;
}

static void refused(const char *bot, const char *rw, const char *const *extra, const char *msg)
{
    struct mount_plan *plan = NULL;
    struct jail_error err;
    ck_assert_int_eq(build(bot, rw, extra, &plan, &err), -1);
    ck_assert_str_eq(err.msg, msg);
    ck_assert_ptr_null(plan);
}

START_TEST(directories_must_exist)
{
    refused("/nonexistent", NULL, NULL, "jail: bot directory /nonexistent: No such file or directory");
    refused(NULL, "/etc/passwd", NULL, "jail: rw directory /etc/passwd: not a directory");
}
END_TEST

START_TEST(extra_binds_are_checked)
{
    const char *relative[] = {"usr/lib", NULL};
    refused(NULL, NULL, relative, "jail: extra bind usr/lib: not a clean absolute path");
    const char *dotdot[] = {"/opt/../etc", NULL};
    refused(NULL, NULL, dotdot, "jail: extra bind /opt/../etc: not a clean absolute path");
    const char *trailing[] = {"/opt/", NULL};
    refused(NULL, NULL, trailing, "jail: extra bind /opt/: not a clean absolute path");
    const char *root[] = {"/", NULL};
    refused(NULL, NULL, root, "jail: extra bind /: not a clean absolute path");
    const char *over_tmp[] = {"/tmp/x", NULL};
    refused(NULL, NULL, over_tmp, "jail: extra bind /tmp/x: overlaps the jail's /tmp");
    const char *over_bot[] = {"/bot", NULL};
    refused(NULL, NULL, over_bot, "jail: extra bind /bot: overlaps the jail's /bot");
    const char *missing[] = {"/opt/nonexistent-runtime", NULL};
    refused(NULL, NULL, missing, "jail: extra bind /opt/nonexistent-runtime: No such file or directory");
    const char *device[] = {"/dev/null", NULL};
    refused(NULL, NULL, device, "jail: extra bind /dev/null: overlaps the jail's /dev");
}
END_TEST

START_TEST(steps_follow_the_spec)
{
    size_t base = steps_for(NULL, NULL, NULL);
    ck_assert_uint_gt(base, 20);
    ck_assert_uint_eq(steps_for(bot_dir, NULL, NULL), base + 2);   /* mkdir /bot, bind */
    ck_assert_uint_eq(steps_for(bot_dir, "/var", NULL), base + 4); /* and /data */
    const char *visible[] = {"/usr/share", "/lib/x86_64-linux-gnu", NULL};
    ck_assert_uint_eq(steps_for(NULL, NULL, visible), base); /* already in the system binds */
    const char *file[] = {"/etc/debian_version", NULL};
    ck_assert_uint_eq(steps_for(NULL, NULL, file), base + 2); /* mount point file, bind */
    const char *twice[] = {"/etc/debian_version", "/etc/debian_version", NULL};
    ck_assert_uint_eq(steps_for(NULL, NULL, twice), base + 2);
    const char *own[] = {"/etc/passwd", "/etc/hostname", NULL};
    ck_assert_uint_eq(steps_for(NULL, NULL, own), base); /* the jail's own /etc files stay its own */
    const char *nested[] = {"/var/lib", NULL};
    ck_assert_uint_eq(steps_for(NULL, NULL, nested), base + 3); /* mkdir /var, /var/lib, bind */
}
END_TEST

static bool uses_template(const char *bot, const char *const *extra)
{
    struct mount_plan *plan;
    struct jail_error err;
    ck_assert_msg(build(bot, NULL, extra, &plan, &err) == 0, "%s", err.msg);
    bool used = mount_plan_uses_template(plan);
    mount_plan_free(plan);
    return used;
}

START_TEST(template_plans_only_the_jail_part)
{
    size_t classic = steps_for(bot_dir, "/var", NULL);
    ck_assert(!uses_template(bot_dir, NULL));
    template_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    ck_assert(uses_template(bot_dir, NULL));
    /* enter, /tmp, /proc, attach /bot and /data, chdir */
    ck_assert_uint_eq(steps_for(bot_dir, "/var", NULL), 6);
    ck_assert_uint_lt(steps_for(bot_dir, "/var", NULL), classic);
    const char *visible[] = {"/usr/share", NULL};
    ck_assert(uses_template(bot_dir, visible));
    const char *new_point[] = {"/var/lib", NULL};
    ck_assert(!uses_template(bot_dir, new_point));
    refused("/nonexistent", NULL, NULL, "jail: bot directory /nonexistent: No such file or directory");
    refused(NULL, "/etc/passwd", NULL, "jail: rw directory /etc/passwd: not a directory");
    close(template_fd);
    template_fd = -1;
}
END_TEST

START_TEST(host_device_nodes_must_be_character_devices)
{
    struct jail_error err;
    ck_assert_int_eq(mount_check_host_devices("/dev", &err), 0);
    char dir[] = "/tmp/judge-devcheck-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/null", dir);
    FILE *f = fopen(path, "w"); /* what a root `cmd > /dev/null` leaves when /dev/null was deleted */
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(mount_check_host_devices(dir, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "/null is not a character device"));
    ck_assert_ptr_nonnull(strstr(err.msg, "mknod"));
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(template_itself)
{
    struct mount_plan *plan;
    struct jail_error err;
    ck_assert_int_eq(mount_plan_build_template("/run/judge-test-root", false, &plan, &err), 0);
    ck_assert(!mount_plan_uses_template(plan));
    /* four empty mount points where a whole plan mounts /tmp and /proc on two */
    ck_assert_uint_eq(mount_plan_steps(plan), steps_for(NULL, NULL, NULL));
    mount_plan_free(plan);
}
END_TEST

int main(void)
{
    if (!mkdtemp(bot_dir)) return 1;
    TCase *tc = tcase_create("mount_plan");
    tcase_add_test(tc, directories_must_exist);
    tcase_add_test(tc, extra_binds_are_checked);
    tcase_add_test(tc, steps_follow_the_spec);
    tcase_add_test(tc, template_plans_only_the_jail_part);
    tcase_add_test(tc, template_itself);
    tcase_add_test(tc, host_device_nodes_must_be_character_devices);
    int rc = run_suite(single_case_suite("sandbox_mount_plan", tc));
    rmdir(bot_dir);
    return rc;
}
