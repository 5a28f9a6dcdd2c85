/*
 * jail_flat.c - the parent-side half of a jail without namespaces
 * (jail_flat.h): the command's paths, which name the jail's /bot and /data,
 * turned into the host directories (there is no mount namespace to bind them
 * there), and the isolation report's account of every layer lost, each with
 * the `docker run` flag that brings it back.
 */
#include "sandbox/jail_flat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX_NAMESPACES "docker run --cap-add SYS_ADMIN --security-opt seccomp=unconfined (docs/docker.md)"
#define FIX_SETID      "give the judge CAP_SETUID and CAP_SETGID (docker run without --cap-drop SETUID/SETGID)"

/* "/bot/x" -> HOST/x when prefix is "/bot" and host is set; else a plain copy. */
static char *rebase(const char *s, const char *prefix, const char *host)
{
    size_t n = strlen(prefix);
    if (host && strncmp(s, prefix, n) == 0 && (s[n] == '\0' || s[n] == '/')) {
        char *out;
        return asprintf(&out, "%s%s", host, s + n) < 0 ? NULL : out;
    }
    return NULL;
}

static char *translate(const struct jail_spec *spec, const char *s)
{
    char *out = rebase(s, JAIL_BOT_DIR, spec->dir);
    if (!out) out = rebase(s, JAIL_RW_DIR, spec->rw_dir);
    return out ? out : strdup(s);
}

/* An environment entry: only the value is a path. */
static char *translate_env(const struct jail_spec *spec, const char *e)
{
    const char *eq = strchr(e, '=');
    if (!eq) return strdup(e);
    char *value = translate(spec, eq + 1), *out = NULL;
    if (value && asprintf(&out, "%.*s=%s", (int)(eq - e), e, value) < 0) out = NULL;
    free(value);
    return out;
}

static char **translate_list(const struct jail_spec *spec, const char *const *list, bool env)
{
    size_t n = 0;
    while (list && list[n]) n++;
    char **out = calloc(n + 1, sizeof *out);
    for (size_t i = 0; out && i < n; i++)
        if (!(out[i] = env ? translate_env(spec, list[i]) : translate(spec, list[i]))) {
            for (size_t k = 0; k < i; k++) free(out[k]);
            free(out);
            return NULL;
        }
    return out;
}

static void free_list(char **list)
{
    for (size_t i = 0; list && list[i]; i++) free(list[i]);
    free(list);
}

int flat_paths_build(const struct jail_spec *spec, struct flat_paths *out, struct jail_error *err)
{
    memset(out, 0, sizeof *out);
    const char *wd = spec->workdir ? spec->workdir : spec->dir ? JAIL_BOT_DIR : "/";
    out->argv = translate_list(spec, spec->argv, false);
    out->envp = spec->envp ? translate_list(spec, spec->envp, true) : NULL;
    out->workdir = translate(spec, wd);
    if (!out->argv || (spec->envp && !out->envp) || !out->workdir) {
        flat_paths_free(out);
        return jail_fail(err, "out of memory");
    }
    return 0;
}

void flat_paths_free(struct flat_paths *fp)
{
    free_list(fp->argv);
    free_list(fp->envp);
    free(fp->workdir);
    memset(fp, 0, sizeof *fp);
}

static void layer(struct isolation_report *probe, char fix[][128], enum jail_layer l, enum layer_state s,
                  const char *how, const char *fix_text)
{
    probe->state[l] = s;
    snprintf(probe->how[l], sizeof probe->how[l], "%.63s", how);
    snprintf(fix[l], 128, "%.127s", fix_text);
}

void flat_describe_layers(struct isolation_report *probe, char fix[][128], bool setid)
{
    static const enum jail_layer ns[] = {LAYER_PID_NS, LAYER_MOUNT_NS, LAYER_NET_NS,
                                         LAYER_IPC_NS, LAYER_UTS_NS,   LAYER_CGROUP_NS};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        layer(probe, fix, ns[i], LAYER_OFF, "none: jail without namespaces", FIX_NAMESPACES);
    layer(probe, fix, LAYER_PID_NS, LAYER_DEGRADED, "subreaper init, ended by killing its uid", FIX_NAMESPACES);
    layer(probe, fix, LAYER_PIVOT_ROOT, LAYER_OFF, "bot sees the container's files, cwd its dir", FIX_NAMESPACES);
    if (setid && probe->state[LAYER_PIDS_LIMIT] != LAYER_ON) /* jail_finish.c counts the slot uid's tasks */
        snprintf(probe->how[LAYER_PIDS_LIMIT], sizeof probe->how[0], "%s",
                 "rlimit RLIMIT_NPROC; PROCESS_LIMIT from its uid's tasks");
    if (setid)
        layer(probe, fix, LAYER_USER_NS, LAYER_DEGRADED, "unique host uid per jail, no user namespace",
              FIX_NAMESPACES);
    else
        layer(probe, fix, LAYER_USER_NS, LAYER_OFF, "the judge's own uid: bots can signal it", FIX_SETID);
}
