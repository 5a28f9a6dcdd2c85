/*
 * rlimits.c - the resource limits set in the child just before execve.
 * Always: file size, open files, stack, no core dumps. A CPU-time backstop one
 * second past the CPU limit (jail_wait_any stops the jail long before; this
 * catches a caller that never waits). Where a cgroup controller is missing,
 * RLIMIT_NPROC stands in for the pids limit (counted per uid in the jail's
 * own user namespace) and RLIMIT_DATA for the memory limit, per process.
 *
 * RLIMIT_DATA, not RLIMIT_AS: it counts the private writable mappings (heap,
 * anonymous maps, thread stacks), which is what a process can fill, and not
 * the address space a runtime only reserves (PROT_NONE) and may never touch:
 * a JVM reserves a gigabyte of class space at start-up, glibc 64 MiB per
 * malloc arena, and neither starts under an RLIMIT_AS of a bot's limit.
 * Shared mappings, which RLIMIT_DATA leaves out, stay bounded by RLIMIT_AS
 * set AS_BACKSTOP_BYTES above the limit: room for those reservations.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <sys/resource.h>

#define AS_BACKSTOP_BYTES (4ull << 30)

static void add(struct rlimit_plan *p, int resource, rlim_t value)
{
    p->item[p->n].resource = resource;
    p->item[p->n].value = value;
    p->n++;
}

/* Whole seconds, rounded up, plus one: the kernel checks RLIMIT_CPU once a tick. */
static rlim_t cpu_backstop_seconds(uint64_t cpu_ns)
{
    return (rlim_t)((cpu_ns + 999999999u) / 1000000000u) + 1;
}

void rlimits_plan_build(const struct jail_limits *lim, bool rlimit_for_memory, bool nproc_for_pids,
                        struct rlimit_plan *out)
{
    out->n = 0;
    add(out, RLIMIT_FSIZE, (rlim_t)lim->fsize_bytes);
    add(out, RLIMIT_NOFILE, (rlim_t)lim->nofile);
    add(out, RLIMIT_STACK, (rlim_t)lim->stack_bytes);
    add(out, RLIMIT_CORE, 0);
    if (lim->cpu_ns) add(out, RLIMIT_CPU, cpu_backstop_seconds(lim->cpu_ns));
    if (rlimit_for_memory && lim->memory_bytes) {
        add(out, RLIMIT_DATA, (rlim_t)lim->memory_bytes);
        add(out, RLIMIT_AS, (rlim_t)(lim->memory_bytes + AS_BACKSTOP_BYTES));
    }
    if (nproc_for_pids && lim->pids) add(out, RLIMIT_NPROC, (rlim_t)lim->pids);
}

static const char *setrlimit_step(int resource)
{
    switch (resource) {
    case RLIMIT_FSIZE:
        return "setrlimit(RLIMIT_FSIZE)";
    case RLIMIT_NOFILE:
        return "setrlimit(RLIMIT_NOFILE)";
    case RLIMIT_STACK:
        return "setrlimit(RLIMIT_STACK)";
    case RLIMIT_CORE:
        return "setrlimit(RLIMIT_CORE)";
    case RLIMIT_CPU:
        return "setrlimit(RLIMIT_CPU)";
    case RLIMIT_DATA:
        return "setrlimit(RLIMIT_DATA)";
    case RLIMIT_AS:
        return "setrlimit(RLIMIT_AS)";
    case RLIMIT_NPROC:
        return "setrlimit(RLIMIT_NPROC)";
    default:
        return "setrlimit";
    }
}

int rlimits_apply(const struct rlimit_plan *plan, const char **step)
{
    for (int i = 0; i < plan->n; i++) {
        struct rlimit rl = {plan->item[i].value, plan->item[i].value};
        if (setrlimit((__rlimit_resource_t)plan->item[i].resource, &rl) < 0) {
            *step = setrlimit_step(plan->item[i].resource);
            return -errno;
        }
    }
    return 0;
}
