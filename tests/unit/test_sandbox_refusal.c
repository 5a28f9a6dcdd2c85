/*
 * test_sandbox_refusal.c - strict mode's refusal, from a made-up probe: one message that
 * names every layer not on (the first with its state and what stands in for it) and
 * `judge doctor` for the fixes, whole even when every layer is off with the longest
 * description; best-effort and a probe with every layer on are not refused.
 */
#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

static struct jail_global all_on(void)
{
    struct jail_global g;
    memset(&g, 0, sizeof g);
    for (int l = 0; l < LAYER_COUNT; l++) g.probe.state[l] = LAYER_ON;
    return g;
}

static void set(struct jail_global *g, enum jail_layer l, enum layer_state s, const char *how)
{
    g->probe.state[l] = s;
    snprintf(g->probe.how[l], sizeof g->probe.how[l], "%s", how);
}

static bool ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

START_TEST(every_layer_on_is_not_refused)
{
    struct jail_global g = all_on();
    struct jail_error err = {0};
    ck_assert_int_eq(jail_global_check_mode(&g, ISOLATION_STRICT, &err), 0);
    set(&g, LAYER_USER_NS, LAYER_DEGRADED, "own uid only (not root)");
    ck_assert_int_eq(jail_global_check_mode(&g, ISOLATION_BEST_EFFORT, &err), 0);
}
END_TEST

START_TEST(names_every_layer_not_on)
{
    struct jail_global g = all_on();
    set(&g, LAYER_USER_NS, LAYER_DEGRADED, "own uid only (not root)");
    set(&g, LAYER_MEMORY_LIMIT, LAYER_DEGRADED, "rlimit RLIMIT_AS");
    set(&g, LAYER_FREEZER, LAYER_DEGRADED, "SIGSTOP/SIGCONT of pid 1 only");
    snprintf(g.fix[LAYER_MEMORY_LIMIT], sizeof g.fix[0], "%s", "a fix that is doctor's to print");
    struct jail_error err = {0};
    ck_assert_int_eq(jail_global_check_mode(&g, ISOLATION_STRICT, &err), -1);
    ck_assert_str_eq(err.msg, "jail: strict isolation refused: user_ns is degraded (own uid only (not root)); "
                              "also not fully on: memory_limit, freezer; `judge doctor` says how to get them");
}
END_TEST

START_TEST(one_layer_says_it)
{
    struct jail_global g = all_on();
    set(&g, LAYER_MEMORY_LIMIT, LAYER_DEGRADED, "rlimit RLIMIT_AS");
    struct jail_error err = {0};
    ck_assert_int_eq(jail_global_check_mode(&g, ISOLATION_STRICT, &err), -1);
    ck_assert_str_eq(err.msg, "jail: strict isolation refused: memory_limit is degraded (rlimit RLIMIT_AS); "
                              "`judge doctor` says how to get it");
}
END_TEST

/* Every layer off, each with a description of the longest kind: the list ends with how many
 * it leaves out, never in the middle of a name, and the message keeps its end. */
START_TEST(never_cut)
{
    struct jail_global g;
    memset(&g, 0, sizeof g);
    char how[sizeof g.probe.how[0]];
    memset(how, 'x', sizeof how - 1);
    how[sizeof how - 1] = '\0';
    for (int l = 0; l < LAYER_COUNT; l++) set(&g, (enum jail_layer)l, LAYER_OFF, how);
    struct jail_error err = {0};
    ck_assert_int_eq(jail_global_check_mode(&g, ISOLATION_STRICT, &err), -1);
    ck_assert_msg(ends_with(err.msg, " more; `judge doctor` says how to get them"), "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "also not fully on: pid_ns, mount_ns, ") != NULL, "%s", err.msg);
    ck_assert_uint_lt(strlen(err.msg), sizeof err.msg - 1);
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("refusal");
    tcase_add_test(tc, every_layer_on_is_not_refused);
    tcase_add_test(tc, names_every_layer_not_on);
    tcase_add_test(tc, one_layer_says_it);
    tcase_add_test(tc, never_cut);
    return run_suite(single_case_suite("sandbox_refusal", tc));
}
