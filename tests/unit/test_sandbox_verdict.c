/*
 * test_sandbox_verdict.c - the pure parts of the jail: verdict and layer
 * names, the verdict order, the memory guess without a cgroup, limit defaults
 * and the rlimit plan.
 */
#include <signal.h>
#include <sys/resource.h>

#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

START_TEST(verdict_names_round_trip)
{
    for (int v = 0; v < VERDICT_COUNT; v++) {
        enum jail_verdict back;
        ck_assert_int_eq(jail_verdict_parse(jail_verdict_name(v), &back), 0);
        ck_assert_int_eq(back, v);
    }
    ck_assert_str_eq(jail_verdict_name(VERDICT_CPU_LIMIT), "CPU_LIMIT");
    ck_assert_str_eq(jail_verdict_name(VERDICT_FORBIDDEN_SYSCALL), "FORBIDDEN_SYSCALL");
    ck_assert_str_eq(jail_verdict_name(VERDICT_COUNT), "UNKNOWN");
    enum jail_verdict v;
    ck_assert_int_eq(jail_verdict_parse("cpu_limit", &v), -1);
    ck_assert_int_eq(jail_verdict_parse("", &v), -1);
    ck_assert_int_eq(jail_verdict_parse(NULL, &v), -1);
}
END_TEST

START_TEST(layer_and_state_names)
{
    ck_assert_str_eq(jail_layer_name(LAYER_USER_NS), "user_ns");
    ck_assert_str_eq(jail_layer_name(LAYER_MEMORY_LIMIT), "memory_limit");
    ck_assert_str_eq(jail_layer_name(LAYER_RLIMITS), "rlimits");
    ck_assert_str_eq(jail_layer_name(LAYER_COUNT), "unknown");
    for (int l = 0; l < LAYER_COUNT; l++)
        for (int k = 0; k < l; k++) ck_assert_str_ne(jail_layer_name(l), jail_layer_name(k));
    ck_assert_str_eq(layer_state_name(LAYER_ON), "on");
    ck_assert_str_eq(layer_state_name(LAYER_DEGRADED), "degraded");
    ck_assert_str_eq(layer_state_name(LAYER_OFF), "off");
    ck_assert_str_eq(layer_state_name((enum layer_state)7), "unknown");
}
END_TEST

static struct verdict_facts exited(int code)
{
    struct verdict_facts f = {0};
    f.exit_code = code;
    return f;
}

static struct verdict_facts signalled(int sig)
{
    struct verdict_facts f = {0};
    f.exit_code = -1;
    f.signal = sig;
    return f;
}

START_TEST(verdict_order)
{
    struct verdict_facts f = exited(0);
    ck_assert_int_eq(verdict_decide(&f), VERDICT_OK);
    f = exited(1);
    ck_assert_int_eq(verdict_decide(&f), VERDICT_RUNTIME_ERROR);
    f = signalled(SIGXFSZ);
    ck_assert_int_eq(verdict_decide(&f), VERDICT_RUNTIME_ERROR);
    f = signalled(SIGKILL);
    f.cpu_over_limit = true; /* the RLIMIT_CPU backstop */
    ck_assert_int_eq(verdict_decide(&f), VERDICT_CPU_LIMIT);
    f = exited(0);
    f.cpu_over_limit = true; /* finished on its own past the limit: its children's CPU, counted once reaped */
    ck_assert_int_eq(verdict_decide(&f), VERDICT_CPU_LIMIT);
    f = exited(3);
    f.cpu_over_limit = true;
    ck_assert_int_eq(verdict_decide(&f), VERDICT_CPU_LIMIT);
    f = signalled(SIGKILL);
    f.cpu_over_limit = true;
    f.killed = true;
    f.kill_reason = VERDICT_OK; /* still running at the finish, past the limit */
    ck_assert_int_eq(verdict_decide(&f), VERDICT_CPU_LIMIT);
    f.cpu_over_limit = false;
    ck_assert_int_eq(verdict_decide(&f), VERDICT_OK);
    f = signalled(SIGKILL);
    f.killed = true;
    f.kill_reason = VERDICT_WALL_LIMIT;
    ck_assert_int_eq(verdict_decide(&f), VERDICT_WALL_LIMIT);
    f.pids_limit_hit = true;
    ck_assert_int_eq(verdict_decide(&f), VERDICT_PROCESS_LIMIT);
    f.forbidden_syscall = true;
    ck_assert_int_eq(verdict_decide(&f), VERDICT_FORBIDDEN_SYSCALL);
    f.oom_killed = true;
    ck_assert_int_eq(verdict_decide(&f), VERDICT_MEMORY_LIMIT);
    f = exited(0);
    f.pids_limit_hit = true; /* a failed fork the program recovered from */
    ck_assert_int_eq(verdict_decide(&f), VERDICT_OK);
    f = signalled(SIGSEGV);
    f.memory_guess = true;
    ck_assert_int_eq(verdict_decide(&f), VERDICT_MEMORY_LIMIT);
    f = signalled(SIGKILL);
    f.memory_guess = true;
    f.forbidden_syscall = true; /* the seccomp listener's kill, whatever the guess */
    ck_assert_int_eq(verdict_decide(&f), VERDICT_FORBIDDEN_SYSCALL);
}
END_TEST

#define LIMIT (256ull << 20)
#define NEAR  (250ull << 20) /* a resident peak within the libraries' share of LIMIT */
#define FAR   (2ull << 20)

/* Without a cgroup, MEMORY_LIMIT is a guess: only a death a failed allocation
 * leads to (an error exit, abort, a fault), near the limit, and never a kill. */
START_TEST(memory_guess_is_narrow)
{
    struct verdict_facts f = exited(2);
    ck_assert(verdict_memory_guess(&f, NEAR, LIMIT));
    ck_assert(!verdict_memory_guess(&f, FAR, LIMIT));
    ck_assert(!verdict_memory_guess(&f, NEAR, 0));
    f = exited(0);
    ck_assert(!verdict_memory_guess(&f, NEAR, LIMIT));
    int allocation_deaths[] = {SIGSEGV, SIGABRT, SIGBUS};
    for (size_t i = 0; i < sizeof allocation_deaths / sizeof allocation_deaths[0]; i++) {
        f = signalled(allocation_deaths[i]);
        ck_assert(verdict_memory_guess(&f, NEAR, LIMIT));
        ck_assert(!verdict_memory_guess(&f, FAR, LIMIT)); /* a plain crash */
    }
    int other_deaths[] = {SIGKILL, SIGTERM, SIGXFSZ, SIGXCPU, SIGSYS};
    for (size_t i = 0; i < sizeof other_deaths / sizeof other_deaths[0]; i++) {
        f = signalled(other_deaths[i]);
        ck_assert_msg(!verdict_memory_guess(&f, NEAR, LIMIT), "signal %d", other_deaths[i]);
    }
    f = signalled(SIGSEGV);
    f.forbidden_syscall = true;
    ck_assert(!verdict_memory_guess(&f, NEAR, LIMIT));
    f = signalled(SIGSEGV);
    f.killed = true;
    f.kill_reason = VERDICT_WALL_LIMIT;
    ck_assert(!verdict_memory_guess(&f, NEAR, LIMIT));
    f = signalled(SIGSEGV);
    f.cpu_over_limit = true;
    ck_assert(!verdict_memory_guess(&f, NEAR, LIMIT));
}
END_TEST

START_TEST(limit_defaults)
{
    struct jail_limits in = {0}, out;
    jail_limits_resolve(&in, &out);
    ck_assert_uint_eq(out.pids, 64);
    ck_assert_uint_eq(out.fsize_bytes, 64ull << 20);
    ck_assert_uint_eq(out.nofile, 64);
    ck_assert_uint_eq(out.stack_bytes, 64ull << 20);
    ck_assert_uint_eq(out.tmp_bytes, 16ull << 20);
    ck_assert_uint_eq(out.cpu_ns, 0);
    ck_assert_uint_eq(out.memory_bytes, 0);
    in.pids = 3;
    in.cpu_ns = 5;
    jail_limits_resolve(&in, &out);
    ck_assert_uint_eq(out.pids, 3);
    ck_assert_uint_eq(out.cpu_ns, 5);
}
END_TEST

static rlim_t planned(const struct rlimit_plan *p, int resource)
{
    for (int i = 0; i < p->n; i++)
        if (p->item[i].resource == resource) return p->item[i].value;
    return (rlim_t)-2;
}

START_TEST(rlimit_plan)
{
    struct jail_limits lim = {0};
    jail_limits_resolve(&lim, &lim);
    struct rlimit_plan p;
    rlimits_plan_build(&lim, false, false, &p);
    ck_assert_int_eq(p.n, 4);
    ck_assert_uint_eq(planned(&p, RLIMIT_FSIZE), 64u << 20);
    ck_assert_uint_eq(planned(&p, RLIMIT_NOFILE), 64);
    ck_assert_uint_eq(planned(&p, RLIMIT_STACK), 64u << 20);
    ck_assert_uint_eq(planned(&p, RLIMIT_CORE), 0);
    lim.cpu_ns = 1500 * MS;
    lim.memory_bytes = 256u << 20;
    rlimits_plan_build(&lim, true, true, &p);
    ck_assert_int_eq(p.n, 8);
    ck_assert_uint_eq(planned(&p, RLIMIT_CPU), 3); /* ceil(1.5 s) + 1 */
    /* private writable memory at the limit; address space only as a backstop, 4 GiB above it */
    ck_assert_uint_eq(planned(&p, RLIMIT_DATA), 256u << 20);
    ck_assert_uint_eq(planned(&p, RLIMIT_AS), (256ull << 20) + (4ull << 30));
    ck_assert_uint_eq(planned(&p, RLIMIT_NPROC), 64);
    lim.cpu_ns = 2000 * MS;
    rlimits_plan_build(&lim, false, false, &p);
    ck_assert_uint_eq(planned(&p, RLIMIT_CPU), 3);
    ck_assert_uint_eq(planned(&p, RLIMIT_DATA), (rlim_t)-2);
    ck_assert_uint_eq(planned(&p, RLIMIT_AS), (rlim_t)-2);
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("verdict");
    tcase_add_test(tc, verdict_names_round_trip);
    tcase_add_test(tc, layer_and_state_names);
    tcase_add_test(tc, verdict_order);
    tcase_add_test(tc, memory_guess_is_narrow);
    tcase_add_test(tc, limit_defaults);
    tcase_add_test(tc, rlimit_plan);
    return run_suite(single_case_suite("sandbox_verdict", tc));
}
