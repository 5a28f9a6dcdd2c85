/*
 * jail_fixture.h - helpers shared by the jail unit tests: run a shell script
 * (or any command) in a strict jail and capture its output and report.
 * These tests run real jails and need root (as `make test` does on CI).
 */
#ifndef TESTS_UNIT_JAIL_FIXTURE_H
#define TESTS_UNIT_JAIL_FIXTURE_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sandbox/jail.h"

#define MS             1000000ull
#define SAFETY_WALL_NS (20000ull * MS) /* no test jail may hang the suite */

static const char *const fixture_env[] = {"PATH=/usr/bin:/bin", NULL};

struct command {
    const char *argv[8];
    struct jail_spec spec;
};

struct outcome {
    int rc;
    struct jail_report rep;
    struct jail_error err;
    char out[1 << 16];
    char errout[1 << 12];
};

static inline void fixture_init(void)
{
    struct jail_error err = {0};
    struct isolation_report iso;
    ck_assert_msg(jail_global_init(ISOLATION_STRICT, &iso, &err) == 0, "%s", err.msg);
}

/* /bin/sh -c script, strict, PATH set, a generous wall limit. */
static inline void shell_command(struct command *c, const char *script)
{
    memset(c, 0, sizeof *c);
    c->argv[0] = "/bin/sh";
    c->argv[1] = "-c";
    c->argv[2] = script;
    c->spec.argv = c->argv;
    c->spec.envp = fixture_env;
    c->spec.mode = ISOLATION_STRICT;
    c->spec.limits.wall_ns = SAFETY_WALL_NS;
}

/* python3 -c code with the interpreter profile. */
static inline void python_command(struct command *c, const char *code)
{
    shell_command(c, code);
    c->argv[0] = "/usr/bin/python3";
    c->spec.profile = "interpreter";
}

static inline int memfd_with(const char *name, const char *data)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    if (data) {
        size_t len = strlen(data);
        ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
        ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
    }
    return fd;
}

static inline void slurp(int fd, char *buf, size_t cap)
{
    ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
    ssize_t n = read(fd, buf, cap - 1);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
}

/* jail_run with stdin from `input` (NULL: closed at once), outputs captured. */
static inline void run_with_input(const struct command *c, const char *input, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    int in = input ? memfd_with("in", input) : -1;
    int out = memfd_with("out", NULL), err = memfd_with("err", NULL);
    struct jail_io io = {in, out, err, 0, 0, NULL, NULL};
    o->rc = jail_run(&c->spec, &io, &o->rep, &o->err);
    if (in >= 0) close(in);
    slurp(out, o->out, sizeof o->out);
    slurp(err, o->errout, sizeof o->errout);
}

static inline void run(const struct command *c, struct outcome *o)
{
    run_with_input(c, NULL, o);
}

/* Runs and requires success with verdict OK. */
static inline void run_ok(const struct command *c, struct outcome *o)
{
    run(c, o);
    ck_assert_msg(o->rc == 0, "jail_run: %s", o->err.msg);
    ck_assert_msg(o->rep.verdict == VERDICT_OK, "verdict %s (%s), stderr: %s",
                  jail_verdict_name(o->rep.verdict), o->rep.note, o->errout);
}

static inline int count_open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory stream's own fd */
}

/* The value after "Key:" in /proc/PID/status (first field only). */
static inline long status_field(pid_t pid, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "re");
    ck_assert_ptr_nonnull(f);
    long value = -1;
    size_t len = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ':') {
            value = strtol(line + len + 1, NULL, 10);
            break;
        }
    fclose(f);
    return value;
}

static inline Suite *single_case_suite(const char *name, TCase *tc)
{
    Suite *s = suite_create(name);
    suite_add_tcase(s, tc);
    return s;
}

static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
