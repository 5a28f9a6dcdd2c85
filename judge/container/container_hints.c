/* container_hints.c - from the container's facts and the doctor's rows, the
 * `docker run` / `podman run` flags that are missing, each with its reason.
 * The rules were found by taking flags away one at a time (docs/docker.md). */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "judge/container/container_detect.h"

static const struct doctor_row *find_row(const struct doctor_result *d, const char *layer)
{
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->rows[i].layer, layer)) return &d->rows[i];
    return NULL;
}

static bool row_off(const struct doctor_result *d, const char *layer)
{
    const struct doctor_row *row = find_row(d, layer);
    return row && row->status == DOCTOR_OFF;
}

__attribute__((format(printf, 3, 4))) static void add_hint(struct container_report *out, const char *flag,
                                                           const char *why_fmt, ...)
{
    if (out->count >= CONTAINER_MAX_HINTS) return;
    struct container_hint *h = &out->hints[out->count++];
    snprintf(h->flag, sizeof h->flag, "%s", flag);
    va_list ap;
    va_start(ap, why_fmt);
    vsnprintf(h->why, sizeof h->why, why_fmt, ap);
    va_end(ap);
}

/* The rows a seccomp profile can make fail, ", "-separated into out ("" if none
 * failed). A masked /proc alone explains proc_mount, so it counts only unmasked. */
static void filtered_rows_off(const struct container_facts *f, const struct doctor_result *d, char *out,
                              size_t size)
{
    static const char *const rows[] = {"user_ns",    "pid_ns",  "mount_ns",           "net_ns",
                                       "ipc_ns",     "uts_ns",  "cgroup_ns",          "pivot_root",
                                       "proc_mount", "seccomp", "seccomp_pidfd_getfd"};
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (row_off(d, rows[i]) && (strcmp(rows[i], "proc_mount") != 0 || !f->proc_masked) && len < size)
            len += (size_t)snprintf(out + len, size - len, "%s%s", len ? ", " : "", rows[i]);
}

static bool mounts_refused(const struct doctor_result *d)
{
    return row_off(d, "mount_ns") || row_off(d, "pivot_root") || row_off(d, "proc_mount");
}

static void seccomp_hints(const struct container_facts *f, const struct doctor_result *d,
                          struct container_report *out)
{
    char failed[200];
    filtered_rows_off(f, d, failed, sizeof failed);
    if (f->seccomp_filtered && failed[0])
        add_hint(out, "--security-opt seccomp=unconfined",
                 "the container's seccomp profile refuses calls jails need (off: %s): Docker's refuses "
                 "pivot_root always; both engines refuse mount and sethostname without CAP_SYS_ADMIN",
                 failed);
    else if (f->seccomp_filtered && d->jail.state[LAYER_SECCOMP] != LAYER_ON)
        add_hint(out, "--security-opt seccomp=unconfined",
                 "the container's seccomp profile answers the calls it refuses with an error before the "
                 "judge's filter can report them: forbidden calls would pass for runtime errors");
    if (f->proc_masked && !f->cap_sys_admin && row_off(d, "proc_mount"))
        add_hint(out,
                 f->engine == ENGINE_PODMAN ? "--security-opt unmask=ALL"
                                            : "--security-opt systempaths=unconfined",
                 "masked paths under /proc stop a jail in a user namespace from mounting its own /proc "
                 "(not needed with --cap-add SYS_ADMIN)");
}

static void capability_hints(const struct container_facts *f, const struct doctor_result *d,
                             struct container_report *out)
{
    if (f->root && !f->cap_sys_admin && d->jail.state[LAYER_USER_NS] != LAYER_ON)
        add_hint(out, "--cap-add SYS_ADMIN",
                 "without CAP_SYS_ADMIN root is an ordinary user to the jail, which then cannot give "
                 "each jail its own host uid (user_ns %s)",
                 layer_state_name(d->jail.state[LAYER_USER_NS]));
    bool root_mode = f->cap_sys_admin || d->jail.state[LAYER_USER_NS] != LAYER_ON; /* now or once added */
    if (f->root && root_mode && !f->cap_sys_ptrace)
        add_hint(out, "--cap-add SYS_PTRACE",
                 "with CAP_SYS_ADMIN jails run as other uids, and taking each one's seccomp listener "
                 "(pidfd_getfd) needs CAP_SYS_PTRACE: without it seccomp is off");
}

static void lsm_hints(const struct container_facts *f, const struct doctor_result *d,
                      struct container_report *out)
{
    if (!f->lsm[0] || !mounts_refused(d)) return;
    if (strchr(f->lsm, ':')) /* user:role:type:level */
        add_hint(out, "--security-opt label=disable",
                 "SELinux context %.80s refuses the jail's mounts (mount namespace, /proc, pivot_root)",
                 f->lsm);
    else
        add_hint(out, "--security-opt apparmor=unconfined",
                 "AppArmor profile %.80s refuses the jail's mounts (mount namespace, /proc, pivot_root)",
                 f->lsm);
}

static bool cgroup_layers_on(const struct isolation_report *jail)
{
    return jail->state[LAYER_MEMORY_LIMIT] == LAYER_ON && jail->state[LAYER_PIDS_LIMIT] == LAYER_ON &&
           jail->state[LAYER_CPU_METER] == LAYER_ON && jail->state[LAYER_FREEZER] == LAYER_ON;
}

static void cgroup_hints(const struct container_facts *f, const struct doctor_result *d,
                         struct container_report *out)
{
    if (!f->root || cgroup_layers_on(&d->jail))
        return; /* an ordinary user needs a delegated cgroup, which the doctor's rows explain */
    if (!f->cgroup_mounted || f->cgroup_read_only)
        add_hint(out, "--cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw",
                 "/sys/fs/cgroup is %s here, so no jail gets a cgroup: memory, pids, CPU meter and "
                 "freezer fall back to rlimits and signals (cgroup v2: a delegated subtree also does)",
                 f->cgroup_mounted ? "read-only" : "not mounted");
    else
        add_hint(out, "", "/sys/fs/cgroup is writable but gives no usable cgroup: see the cgroup rows");
}

static void userns_hints(const struct container_facts *f, const struct doctor_result *d,
                         struct container_report *out)
{
    if (row_off(d, "user_ns") && !f->seccomp_filtered && f->max_user_namespaces == 0)
        add_hint(out, "",
                 "the host sets user.max_user_namespaces=0, which no container flag overrides: "
                 "raise it on the host (sysctl user.max_user_namespaces=15000)");
    if (f->userns_mapped && d->jail.state[LAYER_USER_NS] != LAYER_ON)
        add_hint(out, f->engine == ENGINE_DOCKER ? "--userns=host" : "",
                 "the container runs in a user namespace (rootless engine or userns-remap), so jails "
                 "cannot get their own host uids%s",
                 f->engine == ENGINE_DOCKER ? "" : ": run it with a rootful engine");
}

void container_hints(const struct container_facts *facts, const struct doctor_result *doctor,
                     struct container_report *out)
{
    memset(out, 0, sizeof *out);
    out->facts = *facts;
    if (facts->engine == ENGINE_NONE) return;
    seccomp_hints(facts, doctor, out);
    capability_hints(facts, doctor, out);
    lsm_hints(facts, doctor, out);
    cgroup_hints(facts, doctor, out);
    userns_hints(facts, doctor, out);
}

static bool put(struct json_object *o, const char *key, struct json_object *value)
{
    return value && json_object_object_add(o, key, value) == 0;
}

struct json_object *container_report_to_json(const struct container_report *r)
{
    struct json_object *o = json_object_new_object();
    struct json_object *hints = json_object_new_array();
    bool ok = o && hints;
    for (size_t i = 0; i < r->count && ok; i++) {
        struct json_object *h = json_object_new_object();
        ok = h && put(h, "flag", json_object_new_string(r->hints[i].flag)) &&
             put(h, "why", json_object_new_string(r->hints[i].why)) && json_object_array_add(hints, h) == 0;
        if (!ok) json_object_put(h);
    }
    ok = ok && put(o, "engine", json_object_new_string(container_engine_name(r->facts.engine)));
    if (ok && put(o, "hints", hints)) return o;
    json_object_put(hints);
    json_object_put(o);
    return NULL;
}
