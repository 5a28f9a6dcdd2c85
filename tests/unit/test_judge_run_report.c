/* test_judge_run_report.c - the JSON form of a jail_report, and its atomic write. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "judge/match/run_report.h"

static struct jail_report sample_report(void)
{
    struct jail_report r;
    memset(&r, 0, sizeof r);
    r.verdict = VERDICT_FORBIDDEN_SYSCALL;
    r.exit_code = -1;
    r.signal = 31;
    r.cpu_ns = 1234567890123ull;
    r.wall_ns = 18446744073709551615ull;
    r.memory_peak_bytes = 104857600;
    r.has_syscall = true;
    r.syscall.nr = 41;
    snprintf(r.syscall.name, sizeof r.syscall.name, "socket");
    snprintf(r.syscall.arch, sizeof r.syscall.arch, "x86_64");
    r.syscall.args[0] = 2;
    r.syscall.args[1] = 1;
    r.syscall.args[5] = 0xffffffffffffffffull;
    for (int l = 0; l < LAYER_COUNT; l++)
        r.isolation.state[l] = LAYER_ON;
    r.isolation.state[LAYER_MEMORY_LIMIT] = LAYER_DEGRADED;
    snprintf(r.isolation.how[LAYER_MEMORY_LIMIT], sizeof r.isolation.how[0], "rlimit RLIMIT_DATA");
    r.isolation.state[LAYER_FREEZER] = LAYER_OFF;
    snprintf(r.isolation.how[LAYER_FREEZER], sizeof r.isolation.how[0], "SIGSTOP");
    snprintf(r.isolation.cgroup_backend, sizeof r.isolation.cgroup_backend, "v1");
    r.isolation.privileged = true;
    r.isolation.degraded = true;
    snprintf(r.note, sizeof r.note, "said \"hi\"\n\tand left \\ /");
    return r;
}

static struct json_object *parse_line(const char *text)
{
    struct json_object *o = json_tokener_parse(text);
    ck_assert_ptr_nonnull(o);
    return o;
}

START_TEST(keys_are_exactly_the_documented_ones_in_order)
{
    struct jail_report r = sample_report();
    struct json_object *o = run_report_to_json(&r);
    ck_assert_ptr_nonnull(o);
    static const char *const keys[] = {"verdict", "exit_code", "signal", "cpu_ns", "wall_ns",
                                       "memory_peak_bytes", "rss_peak_bytes", "syscall", "isolation", "note"};
    size_t i = 0;
    json_object_object_foreach(o, key, val) {
        (void)val;
        ck_assert_uint_lt(i, sizeof keys / sizeof keys[0]);
        ck_assert_str_eq(key, keys[i]);
        i++;
    }
    ck_assert_uint_eq(i, sizeof keys / sizeof keys[0]);
    json_object_put(o);
}
END_TEST

START_TEST(values_are_written_as_numbers_and_names)
{
    struct jail_report r = sample_report();
    char *text = run_report_format(&r);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "\"verdict\":\"FORBIDDEN_SYSCALL\""));
    ck_assert_ptr_nonnull(strstr(text, "\"exit_code\":-1,\"signal\":31"));
    ck_assert_ptr_nonnull(strstr(text, "\"cpu_ns\":1234567890123"));
    ck_assert_ptr_nonnull(strstr(text, "\"wall_ns\":18446744073709551615"));
    ck_assert_ptr_nonnull(strstr(text, "\"syscall\":{\"name\":\"socket\",\"arch\":\"x86_64\",\"nr\":41,"
                                       "\"args\":[2,1,0,0,0,18446744073709551615]}"));
    ck_assert_ptr_nonnull(strstr(text, "\"cgroup\":\"v1\",\"privileged\":true,\"degraded\":true"));
    ck_assert_ptr_nonnull(strstr(text, "\"how\":{\"memory_limit\":\"rlimit RLIMIT_DATA\",\"freezer\":\"SIGSTOP\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"memory_limit\":\"degraded\""));
    ck_assert_ptr_nonnull(strstr(text, "\"user_ns\":\"on\""));
    /* one line: the note's newline and tab are escaped */
    ck_assert_ptr_eq(strchr(text, '\n'), text + strlen(text) - 1);
    ck_assert_ptr_null(strchr(text, '\t'));
    free(text);
}
END_TEST

START_TEST(no_syscall_is_null_and_every_layer_on_has_no_how)
{
    struct jail_report r = sample_report();
    r.has_syscall = false;
    r.verdict = VERDICT_OK;
    for (int l = 0; l < LAYER_COUNT; l++)
        r.isolation.state[l] = LAYER_ON;
    char *text = run_report_format(&r);
    ck_assert_ptr_nonnull(strstr(text, "\"syscall\":null"));
    ck_assert_ptr_nonnull(strstr(text, "\"how\":{}"));
    struct json_object *o = parse_line(text);
    struct json_object *iso;
    ck_assert(json_object_object_get_ex(o, "isolation", &iso));
    /* every layer, plus cgroup, privileged, degraded and how */
    ck_assert_int_eq(json_object_object_length(iso), LAYER_COUNT + 4);
    json_object_put(o);
    free(text);
}
END_TEST

START_TEST(a_report_reads_back_identical)
{
    struct jail_report r = sample_report(), back;
    struct jail_error err;
    char *text = run_report_format(&r);
    struct json_object *o = parse_line(text);
    ck_assert_int_eq(run_report_from_json(o, &back, &err), 0);
    ck_assert_int_eq(back.verdict, r.verdict);
    ck_assert_int_eq(back.exit_code, r.exit_code);
    ck_assert_int_eq(back.signal, r.signal);
    ck_assert_uint_eq(back.cpu_ns, r.cpu_ns);
    ck_assert_uint_eq(back.wall_ns, r.wall_ns);
    ck_assert_uint_eq(back.memory_peak_bytes, r.memory_peak_bytes);
    ck_assert(back.has_syscall);
    ck_assert_int_eq(memcmp(&back.syscall, &r.syscall, sizeof r.syscall), 0);
    ck_assert_int_eq(memcmp(&back.isolation, &r.isolation, sizeof r.isolation), 0);
    ck_assert_str_eq(back.note, r.note);
    json_object_put(o);
    free(text);
}
END_TEST

/* Replace one top-level key's value and expect reading to fail naming it. */
static void expect_rejected(const char *key, struct json_object *value, const char *message_part)
{
    struct jail_report r = sample_report(), back;
    struct jail_error err = {0};
    struct json_object *o = run_report_to_json(&r);
    if (value)
        json_object_object_add(o, key, value);
    else
        json_object_object_del(o, key);
    ck_assert_int_eq(run_report_from_json(o, &back, &err), -1);
    ck_assert_msg(strstr(err.msg, message_part), "message '%s' lacks '%s'", err.msg, message_part);
    json_object_put(o);
}

START_TEST(bad_reports_are_refused_with_the_key_named)
{
    expect_rejected("verdict", NULL, "missing key \"verdict\"");
    expect_rejected("verdict", json_object_new_string("WON"), "unknown verdict \"WON\"");
    expect_rejected("cpu_ns", json_object_new_string("12"), "\"cpu_ns\" has the wrong type");
    expect_rejected("cpu_ns", json_object_new_int(-5), "\"cpu_ns\" is negative");
    expect_rejected("exit_code", json_object_new_int64(1ll << 40), "\"exit_code\" is out of range");
    expect_rejected("syscall", json_object_new_int(3), "\"syscall\" must be null or an object");
    expect_rejected("note", NULL, "missing key \"note\"");
    expect_rejected("isolation", json_object_new_array(), "\"isolation\" has the wrong type");
}
END_TEST

START_TEST(bad_syscall_and_isolation_parts_are_refused)
{
    struct jail_report r = sample_report(), back;
    struct jail_error err = {0};
    struct json_object *o = run_report_to_json(&r), *sc, *args, *iso;
    ck_assert(json_object_object_get_ex(o, "syscall", &sc));
    ck_assert(json_object_object_get_ex(sc, "args", &args));
    json_object_array_del_idx(args, 0, 1);
    ck_assert_int_eq(run_report_from_json(o, &back, &err), -1);
    ck_assert_str_eq(err.msg, "report: \"args\" must hold 6 numbers");
    json_object_object_add(o, "syscall", NULL);
    ck_assert(json_object_object_get_ex(o, "isolation", &iso));
    json_object_object_add(iso, "pid_ns", json_object_new_string("maybe"));
    ck_assert_int_eq(run_report_from_json(o, &back, &err), -1);
    ck_assert_str_eq(err.msg, "report: layer \"pid_ns\" is not on, degraded or off");
    json_object_object_add(iso, "pid_ns", json_object_new_string("on"));
    ck_assert_int_eq(run_report_from_json(o, &back, &err), 0);
    ck_assert(!back.has_syscall);
    json_object_put(o);
}
END_TEST

/* ---- report_target -------------------------------------------------------------- */

static char scratch[PATH_MAX];

static void make_scratch(void)
{
    snprintf(scratch, sizeof scratch, "%s/run_report.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void remove_scratch(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    ck_assert_int_eq(system(cmd), 0);
}

static char *read_file(const char *path)
{
    static char buf[4096];
    int fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    ck_assert_int_ge(n, 0);
    buf[n] = '\0';
    close(fd);
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

START_TEST(target_write_leaves_exactly_the_file)
{
    make_scratch();
    char path[PATH_MAX + 32], err[320];
    snprintf(path, sizeof path, "%s/report.json", scratch);
    ck_assert_int_eq(atomic_file_write_whole(path, "{\"a\":1}\n", 8, err, sizeof err), 0);
    ck_assert_int_eq(atomic_file_write_whole(path, "{\"a\":2}\n", 8, err, sizeof err), 0);
    ck_assert_str_eq(read_file(path), "{\"a\":2}\n");
    ck_assert_int_eq(count_entries(scratch), 1);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    remove_scratch();
}
END_TEST

START_TEST(a_device_is_written_in_place_not_replaced)
{
    char err[320];
    ck_assert_int_eq(atomic_file_write_whole("/dev/null", "{}\n", 3, err, sizeof err), 0);
    struct stat st;
    ck_assert_int_eq(lstat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    struct atomic_file f;
    ck_assert_int_eq(atomic_file_create(&f, "/dev/null", 0644, err, sizeof err), 0);
    atomic_file_abort(&f); /* an abandoned write leaves the device too */
    ck_assert_int_eq(lstat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

START_TEST(a_planted_symlink_is_replaced_not_followed)
{
    make_scratch();
    char path[PATH_MAX + 32], victim[PATH_MAX + 32], err[320];
    snprintf(path, sizeof path, "%s/report.json", scratch);
    snprintf(victim, sizeof victim, "%s/victim", scratch);
    write_file(victim, "precious\n");
    struct atomic_file f;
    ck_assert_int_eq(atomic_file_create(&f, path, 0644, err, sizeof err), 0);
    ck_assert_int_eq(symlink(victim, path), 0);
    ck_assert_int_eq(atomic_file_write(&f, "{}\n", 3, err, sizeof err), 0);
    ck_assert_int_eq(atomic_file_commit(&f, err, sizeof err), 0);
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_str_eq(read_file(victim), "precious\n");
    ck_assert_str_eq(read_file(path), "{}\n");
    remove_scratch();
}
END_TEST

START_TEST(a_directory_swapped_after_open_does_not_redirect_the_write)
{
    make_scratch();
    char sub[PATH_MAX + 32], moved[PATH_MAX + 32], elsewhere[PATH_MAX + 32], path[PATH_MAX + 64], err[320];
    snprintf(sub, sizeof sub, "%s/sub", scratch);
    snprintf(moved, sizeof moved, "%s/moved", scratch);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", scratch);
    snprintf(path, sizeof path, "%s/report.json", sub);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    ck_assert_int_eq(mkdir(elsewhere, 0755), 0);
    struct atomic_file f;
    ck_assert_int_eq(atomic_file_create(&f, path, 0644, err, sizeof err), 0);
    ck_assert_int_eq(rename(sub, moved), 0);
    ck_assert_int_eq(symlink(elsewhere, sub), 0);
    ck_assert_int_eq(atomic_file_write(&f, "{}\n", 3, err, sizeof err), 0);
    ck_assert_int_eq(atomic_file_commit(&f, err, sizeof err), 0);
    ck_assert_int_eq(count_entries(elsewhere), 0);
    ck_assert_int_eq(count_entries(moved), 1);
    remove_scratch();
}
END_TEST

START_TEST(an_aborted_file_leaves_nothing)
{
    make_scratch();
    char path[PATH_MAX + 32], err[320];
    snprintf(path, sizeof path, "%s/report.json", scratch);
    struct atomic_file f;
    ck_assert_int_eq(atomic_file_create(&f, path, 0644, err, sizeof err), 0);
    ck_assert_int_eq(atomic_file_write(&f, "half", 4, err, sizeof err), 0);
    ck_assert_int_eq(count_entries(scratch), 1); /* the temporary file */
    atomic_file_abort(&f);
    ck_assert_int_eq(count_entries(scratch), 0);
    atomic_file_abort(&f); /* twice is harmless */
    remove_scratch();
}
END_TEST

START_TEST(bad_target_paths_are_refused)
{
    struct atomic_file f;
    char err[320];
    ck_assert_int_eq(atomic_file_create(&f, "/nonexistent-dir-judge/report.json", 0644, err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent-dir-judge/report.json: cannot open its directory: No such file or directory");
    ck_assert_int_eq(atomic_file_create(&f, "/tmp/", 0644, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "does not name a file"));
    ck_assert_int_eq(atomic_file_create(&f, "..", 0644, err, sizeof err), -1);
    ck_assert_int_eq(f.dir_fd, -1);
    ck_assert_int_eq(f.fd, -1);
}
END_TEST

/* /dev/null, a FIFO: opened and written, never replaced by a regular file. */
START_TEST(devices_and_fifos_are_written_in_place)
{
    char err[320];
    struct stat st;
    ck_assert_msg(atomic_file_write_whole("/dev/null", "{}\n", 3, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));

    make_scratch();
    char fifo[PATH_MAX + 32], got[8] = {0};
    snprintf(fifo, sizeof fifo, "%s/fifo", scratch);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    int reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    ck_assert_int_ge(reader, 0);
    ck_assert_msg(atomic_file_write_whole(fifo, "{}\n", 3, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(read(reader, got, sizeof got), 3);
    ck_assert_str_eq(got, "{}\n");
    close(reader);
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_int_eq(count_entries(scratch), 1);

    char sub[PATH_MAX + 32];
    snprintf(sub, sizeof sub, "%s/sub", scratch);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    ck_assert_int_eq(atomic_file_write_whole(sub, "{}\n", 3, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "neither a regular file, a character device nor a FIFO"));
    remove_scratch();
}
END_TEST

/* Another user's link to a device (a bot's, in its data directory) is replaced, not followed. */
START_TEST(another_users_link_to_a_device_is_replaced)
{
    if (geteuid() != 0) {
        printf("skip another_users_link_to_a_device_is_replaced: lchown needs root\n");
        return;
    }
    make_scratch();
    char path[PATH_MAX + 32], err[320];
    snprintf(path, sizeof path, "%s/report.json", scratch);
    ck_assert_int_eq(symlink("/dev/null", path), 0);
    ck_assert_int_eq(lchown(path, 1900000001, 1900000001), 0);
    ck_assert_int_eq(atomic_file_write_whole(path, "{}\n", 3, err, sizeof err), 0);
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_str_eq(read_file(path), "{}\n");
    remove_scratch();
}
END_TEST

static Suite *run_report_suite(void)
{
    Suite *s = suite_create("run_report");
    TCase *json = tcase_create("json");
    tcase_add_test(json, keys_are_exactly_the_documented_ones_in_order);
    tcase_add_test(json, values_are_written_as_numbers_and_names);
    tcase_add_test(json, no_syscall_is_null_and_every_layer_on_has_no_how);
    tcase_add_test(json, a_report_reads_back_identical);
    tcase_add_test(json, bad_reports_are_refused_with_the_key_named);
    tcase_add_test(json, bad_syscall_and_isolation_parts_are_refused);
    suite_add_tcase(s, json);
    TCase *target = tcase_create("target");
    tcase_add_test(target, target_write_leaves_exactly_the_file);
    tcase_add_test(target, a_device_is_written_in_place_not_replaced);
    tcase_add_test(target, a_planted_symlink_is_replaced_not_followed);
    tcase_add_test(target, a_directory_swapped_after_open_does_not_redirect_the_write);
    tcase_add_test(target, an_aborted_file_leaves_nothing);
    tcase_add_test(target, bad_target_paths_are_refused);
    tcase_add_test(target, devices_and_fifos_are_written_in_place);
    tcase_add_test(target, another_users_link_to_a_device_is_replaced);
    suite_add_tcase(s, target);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(run_report_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
