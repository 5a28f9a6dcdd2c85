/* test_judge_container_detect.c - which docker/podman flag each missing layer
 * needs, from the facts and the doctor's rows; the parsers behind the facts. */
#include <check.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/container/container_detect.h"

static void add_row(struct doctor_result *d, const char *layer, enum doctor_status status)
{
    struct doctor_row *row = &d->rows[d->count++];
    memset(row, 0, sizeof *row);
    snprintf(row->layer, sizeof row->layer, "%s", layer);
    row->status = status;
}

/* Every row and jail layer on: what the documented flag set gives. */
static void all_on(struct doctor_result *d)
{
    static const char *const rows[] = {"user_ns",
                                       "pid_ns",
                                       "mount_ns",
                                       "net_ns",
                                       "ipc_ns",
                                       "uts_ns",
                                       "cgroup_ns",
                                       "pivot_root",
                                       "proc_mount",
                                       "seccomp",
                                       "seccomp_pidfd_getfd",
                                       "memory_limit"};
    memset(d, 0, sizeof *d);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) add_row(d, rows[i], DOCTOR_ON);
    for (int l = 0; l < LAYER_COUNT; l++) d->jail.state[l] = LAYER_ON;
}

static void set_row(struct doctor_result *d, const char *layer, enum doctor_status status)
{
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->rows[i].layer, layer)) d->rows[i].status = status;
}

static struct container_facts strict_set_facts(void)
{
    struct container_facts f;
    memset(&f, 0, sizeof f);
    f.engine = ENGINE_DOCKER;
    f.root = f.cap_sys_admin = f.cap_sys_ptrace = true;
    f.cgroup_mounted = true;
    f.max_user_namespaces = 15000;
    return f;
}

/* A default `docker run`: the runtime's seccomp profile, no CAP_SYS_ADMIN or
 * CAP_SYS_PTRACE, masked /proc, read-only cgroups; the jail has no user namespace. */
static void plain_docker(struct container_facts *f, struct doctor_result *d)
{
    *f = strict_set_facts();
    f->seccomp_filtered = f->proc_masked = f->cgroup_read_only = true;
    f->cap_sys_admin = f->cap_sys_ptrace = false;
    all_on(d);
    static const char *const off[] = {"user_ns",    "pid_ns",     "mount_ns",
                                      "pivot_root", "proc_mount", "seccomp_pidfd_getfd"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) set_row(d, off[i], DOCTOR_OFF);
    d->jail.state[LAYER_USER_NS] = LAYER_OFF;
    d->jail.state[LAYER_MEMORY_LIMIT] = d->jail.state[LAYER_FREEZER] = LAYER_DEGRADED;
}

static const struct container_hint *hint_for(const struct container_report *r, const char *flag)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->hints[i].flag, flag)) return &r->hints[i];
    return NULL;
}

START_TEST(no_container_no_hints)
{
    struct container_facts f;
    struct doctor_result d;
    struct container_report r;
    plain_docker(&f, &d);
    f.engine = ENGINE_NONE;
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 0);
}
END_TEST

START_TEST(strict_set_gives_no_hints)
{
    struct container_facts f = strict_set_facts();
    struct doctor_result d;
    struct container_report r;
    all_on(&d);
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 0);
}
END_TEST

START_TEST(plain_docker_names_each_missing_flag)
{
    struct container_facts f;
    struct doctor_result d;
    struct container_report r;
    plain_docker(&f, &d);
    container_hints(&f, &d, &r);
    ck_assert_ptr_nonnull(hint_for(&r, "--security-opt seccomp=unconfined"));
    ck_assert_ptr_nonnull(strstr(hint_for(&r, "--security-opt seccomp=unconfined")->why, "pivot_root"));
    ck_assert_ptr_nonnull(hint_for(&r, "--security-opt systempaths=unconfined"));
    ck_assert_ptr_nonnull(hint_for(&r, "--cap-add SYS_ADMIN"));
    ck_assert_ptr_nonnull(hint_for(&r, "--cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw"));
    ck_assert_ptr_nonnull(hint_for(&r, "--cap-add SYS_PTRACE")); /* needed once SYS_ADMIN is there */
    ck_assert_uint_eq(r.count, 5);
}
END_TEST

START_TEST(each_flag_of_the_set_left_out)
{
    struct container_facts f;
    struct doctor_result d;
    struct container_report r;

    f = strict_set_facts(); /* no CAP_SYS_PTRACE: the jail turns seccomp off */
    f.cap_sys_ptrace = false;
    all_on(&d);
    d.jail.state[LAYER_SECCOMP] = LAYER_OFF;
    set_row(&d, "seccomp_pidfd_getfd", DOCTOR_OFF);
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 1);
    ck_assert_str_eq(r.hints[0].flag, "--cap-add SYS_PTRACE");

    f = strict_set_facts(); /* the default seccomp profile: pivot_root refused */
    f.seccomp_filtered = true;
    all_on(&d);
    set_row(&d, "pivot_root", DOCTOR_OFF);
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 1);
    ck_assert_str_eq(r.hints[0].flag, "--security-opt seccomp=unconfined");

    f = strict_set_facts(); /* read-only cgroups */
    f.cgroup_read_only = true;
    all_on(&d);
    d.jail.state[LAYER_PIDS_LIMIT] = LAYER_DEGRADED;
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 1);
    ck_assert_str_eq(r.hints[0].flag, "--cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw");

    f = strict_set_facts(); /* no CAP_SYS_ADMIN: one shared uid; masked /proc now matters */
    f.cap_sys_admin = false;
    f.proc_masked = true;
    all_on(&d);
    d.jail.state[LAYER_USER_NS] = LAYER_DEGRADED;
    set_row(&d, "proc_mount", DOCTOR_OFF);
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 2);
    ck_assert_ptr_nonnull(hint_for(&r, "--cap-add SYS_ADMIN"));
    ck_assert_ptr_nonnull(hint_for(&r, "--security-opt systempaths=unconfined"));
}
END_TEST

START_TEST(podman_and_security_modules)
{
    struct container_facts f;
    struct doctor_result d;
    struct container_report r;
    plain_docker(&f, &d);
    f.engine = ENGINE_PODMAN;
    snprintf(f.lsm, sizeof f.lsm, "system_u:system_r:container_t:s0:c1,c2");
    container_hints(&f, &d, &r);
    ck_assert_ptr_nonnull(hint_for(&r, "--security-opt unmask=ALL"));
    ck_assert_ptr_null(hint_for(&r, "--security-opt systempaths=unconfined"));
    ck_assert_ptr_nonnull(hint_for(&r, "--security-opt label=disable"));

    f = strict_set_facts();
    snprintf(f.lsm, sizeof f.lsm, "docker-default (enforce)");
    all_on(&d);
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 0); /* confined, but nothing it refuses is needed */
    set_row(&d, "pivot_root", DOCTOR_OFF);
    container_hints(&f, &d, &r);
    ck_assert_ptr_nonnull(hint_for(&r, "--security-opt apparmor=unconfined"));
    ck_assert_ptr_nonnull(strstr(hint_for(&r, "--security-opt apparmor=unconfined")->why, "docker-default"));
}
END_TEST

/* Podman's default profile lets jails start, but its errno answers come before
 * the judge's notification: forbidden calls would go unreported. */
START_TEST(a_stacked_profile_hides_violations)
{
    struct container_facts f = strict_set_facts();
    struct doctor_result d;
    struct container_report r;
    f.engine = ENGINE_PODMAN;
    f.seccomp_filtered = true;
    all_on(&d);
    d.jail.state[LAYER_SECCOMP] = LAYER_DEGRADED;
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 1);
    ck_assert_str_eq(r.hints[0].flag, "--security-opt seccomp=unconfined");
    ck_assert_ptr_nonnull(strstr(r.hints[0].why, "report"));

    /* no flags at all: only the masked /proc stops a jail, not the profile */
    f.cap_sys_admin = f.cap_sys_ptrace = false;
    f.proc_masked = f.cgroup_read_only = true;
    set_row(&d, "proc_mount", DOCTOR_OFF);
    d.jail.state[LAYER_USER_NS] = d.jail.state[LAYER_MEMORY_LIMIT] = LAYER_DEGRADED;
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 5);
    ck_assert_ptr_nonnull(strstr(hint_for(&r, "--security-opt seccomp=unconfined")->why, "report"));
    ck_assert_ptr_nonnull(hint_for(&r, "--cap-add SYS_PTRACE"));
    ck_assert_ptr_nonnull(hint_for(&r, "--security-opt unmask=ALL"));
    ck_assert_ptr_nonnull(hint_for(&r, "--cap-add SYS_ADMIN"));
    ck_assert_ptr_nonnull(hint_for(&r, "--cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw"));
}
END_TEST

START_TEST(no_flag_helps)
{
    struct container_facts f = strict_set_facts();
    struct doctor_result d;
    struct container_report r;
    f.max_user_namespaces = 0;
    all_on(&d);
    set_row(&d, "user_ns", DOCTOR_OFF);
    d.jail.state[LAYER_USER_NS] = LAYER_OFF;
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 1);
    ck_assert_str_eq(r.hints[0].flag, "");
    ck_assert_ptr_nonnull(strstr(r.hints[0].why, "max_user_namespaces=0"));

    f = strict_set_facts(); /* rootless podman: the container is a user namespace */
    f.engine = ENGINE_PODMAN;
    f.userns_mapped = true;
    all_on(&d);
    d.jail.state[LAYER_USER_NS] = LAYER_DEGRADED;
    container_hints(&f, &d, &r);
    ck_assert_uint_eq(r.count, 1);
    ck_assert_ptr_nonnull(strstr(r.hints[0].why, "rootful"));
}
END_TEST

static char *write_temp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test-container-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

START_TEST(mountinfo_of_a_default_container)
{
    char *path =
        write_temp("600 500 0:50 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/a\n"
                   "601 600 0:52 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
                   "610 601 0:52 /bus /proc/bus ro,nosuid,nodev,noexec,relatime - proc proc rw\n"
                   "620 600 0:53 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=755\n"
                   "621 620 0:28 /docker/abc /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime - cgroup "
                   "cgroup rw,memory\n");
    struct container_facts f;
    memset(&f, 0, sizeof f);
    container_facts_from_mountinfo(path, &f);
    unlink(path);
    ck_assert(f.proc_masked);
    ck_assert(f.cgroup_mounted);
    ck_assert(f.cgroup_read_only);
}
END_TEST

START_TEST(mountinfo_of_a_host)
{
    char *path = write_temp(
        "22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
        "23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
        "24 23 0:30 / /proc/sys/fs/binfmt_misc rw,relatime - binfmt_misc binfmt_misc rw\n"
        "30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate\n");
    struct container_facts f;
    memset(&f, 0, sizeof f);
    container_facts_from_mountinfo(path, &f);
    unlink(path);
    ck_assert(!f.proc_masked);
    ck_assert(f.cgroup_mounted);
    ck_assert(!f.cgroup_read_only);
}
END_TEST

START_TEST(seccomp_status)
{
    char *path = write_temp("Name:\tjudge\nNoNewPrivs:\t0\nSeccomp:\t2\nSeccomp_filters:\t1\n");
    ck_assert(container_status_seccomp_filtered(path));
    unlink(path);
    path = write_temp("Name:\tjudge\nSeccomp:\t0\nSeccomp_filters:\t0\n");
    ck_assert(!container_status_seccomp_filtered(path));
    unlink(path);
    ck_assert(!container_status_seccomp_filtered("/nonexistent/status"));
}
END_TEST

START_TEST(report_as_json)
{
    struct container_facts f;
    struct doctor_result d;
    struct container_report r;
    plain_docker(&f, &d);
    container_hints(&f, &d, &r);
    struct json_object *o = container_report_to_json(&r), *engine, *hints;
    ck_assert_ptr_nonnull(o);
    ck_assert(json_object_object_get_ex(o, "engine", &engine));
    ck_assert_str_eq(json_object_get_string(engine), "docker");
    ck_assert(json_object_object_get_ex(o, "hints", &hints));
    ck_assert_uint_eq(json_object_array_length(hints), r.count);
    struct json_object *first = json_object_array_get_idx(hints, 0), *flag;
    ck_assert(json_object_object_get_ex(first, "flag", &flag));
    ck_assert_str_eq(json_object_get_string(flag), r.hints[0].flag);
    json_object_put(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("container_detect");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, no_container_no_hints);
    tcase_add_test(tc, strict_set_gives_no_hints);
    tcase_add_test(tc, plain_docker_names_each_missing_flag);
    tcase_add_test(tc, each_flag_of_the_set_left_out);
    tcase_add_test(tc, podman_and_security_modules);
    tcase_add_test(tc, a_stacked_profile_hides_violations);
    tcase_add_test(tc, no_flag_helps);
    tcase_add_test(tc, mountinfo_of_a_default_container);
    tcase_add_test(tc, mountinfo_of_a_host);
    tcase_add_test(tc, seccomp_status);
    tcase_add_test(tc, report_as_json);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
