/* jail_names.c - the names verdicts and isolation layers have in reports and on the command line. */
#include "sandbox/jail.h"
#include "sandbox/seccomp_policy.h"

#include <string.h>

static const char *const verdict_names[VERDICT_COUNT] = {
    [VERDICT_OK] = "OK",
    [VERDICT_RUNTIME_ERROR] = "RUNTIME_ERROR",
    [VERDICT_CPU_LIMIT] = "CPU_LIMIT",
    [VERDICT_WALL_LIMIT] = "WALL_LIMIT",
    [VERDICT_MEMORY_LIMIT] = "MEMORY_LIMIT",
    [VERDICT_PROCESS_LIMIT] = "PROCESS_LIMIT",
    [VERDICT_OUTPUT_LIMIT] = "OUTPUT_LIMIT",
    [VERDICT_FORBIDDEN_SYSCALL] = "FORBIDDEN_SYSCALL",
    [VERDICT_INTERNAL_ERROR] = "INTERNAL_ERROR",
};

static const char *const layer_names[LAYER_COUNT] = {
    [LAYER_USER_NS] = "user_ns",
    [LAYER_PID_NS] = "pid_ns",
    [LAYER_MOUNT_NS] = "mount_ns",
    [LAYER_NET_NS] = "net_ns",
    [LAYER_IPC_NS] = "ipc_ns",
    [LAYER_UTS_NS] = "uts_ns",
    [LAYER_CGROUP_NS] = "cgroup_ns",
    [LAYER_PIVOT_ROOT] = "pivot_root",
    [LAYER_SECCOMP] = "seccomp",
    [LAYER_CAPABILITIES] = "capabilities",
    [LAYER_NO_NEW_PRIVS] = "no_new_privs",
    [LAYER_MEMORY_LIMIT] = "memory_limit",
    [LAYER_PIDS_LIMIT] = "pids_limit",
    [LAYER_CPU_METER] = "cpu_meter",
    [LAYER_FREEZER] = "freezer",
    [LAYER_RLIMITS] = "rlimits",
};

static const char *const state_names[] = {
    [LAYER_ON] = "on", [LAYER_DEGRADED] = "degraded", [LAYER_OFF] = "off"};

const char *jail_verdict_name(enum jail_verdict v)
{
    return (unsigned)v < VERDICT_COUNT ? verdict_names[v] : "UNKNOWN";
}

int jail_verdict_parse(const char *name, enum jail_verdict *out)
{
    for (int v = 0; name && v < VERDICT_COUNT; v++)
        if (strcmp(name, verdict_names[v]) == 0) {
            *out = (enum jail_verdict)v;
            return 0;
        }
    return -1;
}

const char *jail_layer_name(enum jail_layer l)
{
    return (unsigned)l < LAYER_COUNT ? layer_names[l] : "unknown";
}

const char *layer_state_name(enum layer_state s)
{
    return (unsigned)s <= LAYER_OFF ? state_names[s] : "unknown";
}

bool jail_profile_known(const char *name)
{
    return seccomp_profile_exists(name) != 0;
}
