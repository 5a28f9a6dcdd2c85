/*
 * test_sandbox_identity.c - uid slots: distinct within a process and across
 * processes (flock), freed when released or when their holder dies, and each
 * with its own user namespace mapping uid 1000 to the slot's host uid.
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

static struct jail_identity *acquire(void)
{
    struct jail_identity *id;
    struct jail_error err;
    ck_assert_msg(jail_identity_acquire(&id, &err) == 0, "%s", err.msg);
    return id;
}

/* A script run with this identity, which must end OK. */
static void run_as(struct jail_identity *id, const char *script, struct outcome *o)
{
    struct command c;
    shell_command(&c, script);
    c.spec.identity = id;
    run_ok(&c, o);
}

START_TEST(identities_in_one_process_differ)
{
    fixture_init();
    enum { N = 20 };
    struct jail_identity *ids[N];
    for (int i = 0; i < N; i++) {
        ids[i] = acquire();
        ck_assert_int_ge(ids[i]->slot, 0);
        ck_assert_uint_eq(ids[i]->host_uid, JAIL_UID_BASE + (unsigned)ids[i]->slot);
        ck_assert_uint_eq(ids[i]->host_gid, ids[i]->host_uid);
        for (int k = 0; k < i; k++) ck_assert_int_ne(ids[i]->slot, ids[k]->slot);
    }
    for (int i = 0; i < N; i++) jail_identity_release(ids[i]);
}
END_TEST

/* A child process takes a slot and holds it until told to go. */
static pid_t hold_in_child(int *slot, int *release_fd)
{
    int report[2], release[2];
    ck_assert_int_eq(pipe(report), 0);
    ck_assert_int_eq(pipe(release), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        close(release[1]);
        struct jail_identity *id;
        struct jail_error err;
        int s = jail_identity_acquire(&id, &err) == 0 ? id->slot : -1;
        if (write(report[1], &s, sizeof s) != sizeof s) _exit(1);
        char byte;
        if (read(release[0], &byte, 1) < 0) _exit(1);
        _exit(0); /* dies holding it: the lock goes with the process */
    }
    close(report[1]);
    close(release[0]);
    ck_assert_int_eq(read(report[0], slot, sizeof *slot), (ssize_t)sizeof *slot);
    close(report[0]);
    *release_fd = release[1];
    return pid;
}

START_TEST(identities_across_processes_differ)
{
    fixture_init();
    int child_slot, release_fd;
    pid_t pid = hold_in_child(&child_slot, &release_fd);
    ck_assert_int_ge(child_slot, 0);
    struct jail_identity *mine[8];
    for (int i = 0; i < 8; i++) {
        mine[i] = acquire();
        ck_assert_int_ne(mine[i]->slot, child_slot);
    }
    close(release_fd);
    waitpid(pid, NULL, 0);
    for (int i = 0; i < 8; i++) jail_identity_release(mine[i]);
}
END_TEST

START_TEST(released_slots_are_reused)
{
    fixture_init();
    int fd; /* a cached user namespace makes its slot the first choice */
    struct jail_identity *b = acquire();
    struct jail_error err;
    ck_assert_int_eq(jail_identity_userns(b, &fd, &err), 0);
    int slot_b = b->slot;
    jail_identity_release(b);
    struct jail_identity *c = acquire();
    ck_assert_int_eq(c->slot, slot_b);
    jail_identity_release(c);
}
END_TEST

START_TEST(user_namespace_maps_the_slot)
{
    fixture_init();
    struct jail_identity *id = acquire();
    int fd, again;
    struct jail_error err;
    ck_assert_int_eq(jail_identity_userns(id, &fd, &err), 0);
    ck_assert_int_eq(jail_identity_userns(id, &again, &err), 0);
    ck_assert_int_eq(fd, again); /* made once, cached */
    ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
    struct outcome o;
    run_as(id, "cat /proc/self/uid_map /proc/self/gid_map", &o);
    char expected[128];
    snprintf(expected, sizeof expected, "%10u %10u %10u\n%10u %10u %10u\n", 1000u, (unsigned)id->host_uid, 1u,
             1000u, (unsigned)id->host_gid, 1u);
    ck_assert_str_eq(o.out, expected);
    jail_identity_release(id);
}
END_TEST

/* The probe's user namespace is the one of the slot the process tries first: its first
 * jail's identity gets it without making another (one process fewer per judge run). */
START_TEST(the_probes_namespace_serves_the_first_slot)
{
    fixture_init();
    int first = jail_identity_first_slot();
    bool open_before[1024] = {false};
    for (int fd = 0; fd < 1024; fd++)
        open_before[fd] = fcntl(fd, F_GETFD) >= 0;
    struct jail_identity *id = acquire();
    int fd;
    struct jail_error err;
    ck_assert_int_eq(jail_identity_userns(id, &fd, &err), 0);
    if (id->slot == first) /* else another process holds that slot: nothing to check */
        ck_assert_msg(fd < 1024 && open_before[fd], "slot %d: a namespace made again (fd %d)", first, fd);
    struct outcome o;
    run_as(id, "cat /proc/self/uid_map", &o);
    char expected[64];
    snprintf(expected, sizeof expected, "%10u %10u %10u\n", 1000u, (unsigned)id->host_uid, 1u);
    ck_assert_str_eq(o.out, expected);
    jail_identity_release(id);
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("identity");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, identities_in_one_process_differ);
    tcase_add_test(tc, identities_across_processes_differ);
    tcase_add_test(tc, released_slots_are_reused);
    tcase_add_test(tc, user_namespace_maps_the_slot);
    tcase_add_test(tc, the_probes_namespace_serves_the_first_slot);
    return run_suite(single_case_suite("sandbox_identity", tc));
}
