/*
 * jail_verdict.c - one verdict from everything known about a finished jail.
 * The order puts the most specific cause first: an out-of-memory kill or a
 * forbidden call explains whatever death followed; a fork that failed at the
 * pids limit explains a crash; then the reason the judge killed it; a CPU
 * backstop; any other non-zero exit or signal; else OK.
 */
#include "sandbox/jail_internal.h"

static bool ended_ok(const struct verdict_facts *f)
{
    return !f->killed && f->exit_code == 0 && f->signal == 0;
}

enum jail_verdict verdict_decide(const struct verdict_facts *f)
{
    if (f->oom_killed || f->memory_guess) return VERDICT_MEMORY_LIMIT;
    if (f->forbidden_syscall) return VERDICT_FORBIDDEN_SYSCALL;
    if (f->pids_limit_hit && !ended_ok(f)) return VERDICT_PROCESS_LIMIT;
    if (f->killed) return f->kill_reason;
    if (f->cpu_over_limit && f->signal != 0) return VERDICT_CPU_LIMIT;
    if (f->exit_code != 0 || f->signal != 0) return VERDICT_RUNTIME_ERROR;
    return VERDICT_OK;
}
