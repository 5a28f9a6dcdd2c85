/*
 * jail_verdict.c - one verdict from everything known about a finished jail.
 * The order puts the most specific cause first: an out-of-memory kill or a
 * forbidden call explains whatever death followed; then, without a cgroup, a
 * death that looks like a failed allocation under the memory rlimit; a fork
 * that failed at the pids limit explains a crash; then the reason the judge
 * killed it; CPU time past the limit, however it ended (the RLIMIT_CPU
 * backstop, or, without a cgroup, children whose CPU is known only once they
 * are reaped); any other non-zero exit or signal; else OK.
 */
#include "sandbox/jail_internal.h"

#include <signal.h>

/* What a small program maps beyond its heap (loader, libraries, stack): how
 * far below the limit the resident peak may stop when an allocation fails. */
#define RLIMIT_OVERHEAD_BYTES (16u << 20)

static bool ended_ok(const struct verdict_facts *f)
{
    return !f->killed && f->exit_code == 0 && f->signal == 0;
}

/* Under an rlimit an allocation fails rather than kills: malloc returns
 * NULL, and what follows is the program's own doing, an exit with an error,
 * abort() or a fault on the pointer. Never SIGKILL, which only the judge,
 * the seccomp listener or the program itself sends. */
static bool dies_like_failed_allocation(const struct verdict_facts *f)
{
    switch (f->signal) {
    case 0:
        return f->exit_code != 0;
    case SIGSEGV:
    case SIGABRT:
    case SIGBUS:
        return true;
    default:
        return false;
    }
}

bool verdict_memory_guess(const struct verdict_facts *f, uint64_t peak_bytes, uint64_t limit_bytes)
{
    return limit_bytes && !f->killed && !f->forbidden_syscall && !f->cpu_over_limit &&
           dies_like_failed_allocation(f) && peak_bytes + RLIMIT_OVERHEAD_BYTES >= limit_bytes;
}

enum jail_verdict verdict_decide(const struct verdict_facts *f)
{
    if (f->oom_killed) return VERDICT_MEMORY_LIMIT;
    if (f->forbidden_syscall) return VERDICT_FORBIDDEN_SYSCALL;
    if (f->memory_guess) return VERDICT_MEMORY_LIMIT;
    if (f->pids_limit_hit && !ended_ok(f)) return VERDICT_PROCESS_LIMIT;
    if (f->killed && f->kill_reason != VERDICT_OK) return f->kill_reason;
    if (f->cpu_over_limit) return VERDICT_CPU_LIMIT;
    if (f->killed) return f->kill_reason;
    if (f->exit_code != 0 || f->signal != 0) return VERDICT_RUNTIME_ERROR;
    return VERDICT_OK;
}
