/*
 * compile_run.c - a compiled BOT_DIR and its profile -> what a match runs:
 * argv (the profile's run command with its variables filled in), the
 * environment, the seccomp profile, the read-only mounts, and the memory and
 * pids limits with the runtime's allowance.
 */
#include "judge/compile/compile_internal.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The same environment match_setup.c gives every bot, plus the profile's. */
static const char *const base_env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "HOME=/tmp", NULL};

static char **dup_list(const char *const *a, const char *const *b, size_t n_b)
{
    size_t n_a = 0;
    while (a && a[n_a]) n_a++;
    char **out = calloc(n_a + n_b + 1, sizeof *out);
    for (size_t i = 0; out && i < n_a + n_b; i++)
        if (!(out[i] = strdup(i < n_a ? a[i] : b[i - n_a]))) {
            lp_words_free(out);
            return NULL;
        }
    return out;
}

/* Base entries the profile does not set, then the profile's. */
static char **run_env(const struct lp_command *run)
{
    const char *kept[8];
    size_t n = 0;
    for (size_t i = 0; base_env[i]; i++) {
        size_t name_len = (size_t)(strchr(base_env[i], '=') - base_env[i]) + 1;
        bool replaced = false;
        for (size_t j = 0; j < run->n_env; j++) replaced |= !strncmp(run->env[j], base_env[i], name_len);
        if (!replaced) kept[n++] = base_env[i];
    }
    kept[n] = NULL;
    return dup_list(kept, (const char *const *)run->env, run->n_env);
}

static char **run_argv(const struct language_profile *p, const char *entry, uint64_t memory_bytes,
                       struct compile_error *err)
{
    char entry_var[PATH_MAX + 8], main_var[PATH_MAX + 8], memory_var[64];
    const char *dot = strrchr(entry, '.');
    snprintf(entry_var, sizeof entry_var, "ENTRY=%s", entry);
    snprintf(main_var, sizeof main_var, "MAIN=%.*s",
             dot && dot != entry ? (int)(dot - entry) : (int)strlen(entry), entry);
    snprintf(memory_var, sizeof memory_var, "MEMORY_MB=%" PRIu64, memory_bytes >> 20);
    const char *vars[] = {"BOT=" JAIL_BOT_DIR, entry_var, main_var, memory_var, NULL};
    struct lp_error lerr;
    char **argv = lp_expand((const char *const *)p->run.words, vars, NULL, 0, &lerr);
    if (!argv) compile_fail(err, "profile %s: %s", p->name, lerr.msg);
    return argv;
}

static int check_manifest(const struct language_profile *p, const char *bot_dir, char *entry, size_t size,
                          struct compile_error *err)
{
    char built_with[LP_NAME_MAX + 1];
    if (compile_manifest_read(bot_dir, built_with, sizeof built_with, entry, size, err) < 0) return -1;
    if (strcmp(built_with, p->name))
        return compile_fail(err, "%s was compiled with profile %s, not %s", bot_dir, built_with, p->name);
    if (p->n_entry && !entry[0])
        return compile_fail(err, "%s/%s: no entry line (profile %s needs one)", bot_dir, COMPILE_MANIFEST,
                            p->name);
    return 0;
}

int compiled_bot_load(const struct language_profile *p, const char *bot_dir, uint64_t memory_bytes,
                      uint64_t pids, struct compiled_bot *out, struct compile_error *err)
{
    memset(out, 0, sizeof *out);
    char entry[PATH_MAX], seccomp[COMPILE_SECCOMP_NAME_MAX + 16];
    if (check_manifest(p, bot_dir, entry, sizeof entry, err) < 0 ||
        compile_seccomp_profile(p->name, "run", &p->run, seccomp, sizeof seccomp, err) < 0)
        return -1;
    out->memory_bytes = memory_bytes ? memory_bytes + p->run_limits.memory_extra_bytes : 0;
    out->pids = pids > p->run_limits.pids ? pids : p->run_limits.pids;
    out->argv = run_argv(p, entry, out->memory_bytes, err);
    if (!out->argv) return -1;
    out->env = run_env(&p->run);
    out->dir = strdup(bot_dir);
    out->seccomp = strdup(seccomp);
    out->mounts = dup_list(NULL, (const char *const *)p->mounts, p->n_mounts);
    if (!out->env || !out->dir || !out->seccomp || !out->mounts) {
        compiled_bot_free(out);
        return compile_fail(err, "out of memory");
    }
    return 0;
}

void compiled_bot_jail_spec(const struct compiled_bot *b, struct jail_spec *spec)
{
    spec->argv = (const char *const *)b->argv;
    spec->envp = (const char *const *)b->env;
    spec->dir = b->dir;
    spec->profile = b->seccomp;
    spec->extra_ro_binds = b->mounts[0] ? (const char *const *)b->mounts : NULL;
    spec->limits.memory_bytes = b->memory_bytes;
    spec->limits.pids = b->pids;
}

void compiled_bot_free(struct compiled_bot *b)
{
    lp_words_free(b->argv);
    lp_words_free(b->env);
    lp_words_free(b->mounts);
    free(b->dir);
    free(b->seccomp);
    memset(b, 0, sizeof *b);
}
