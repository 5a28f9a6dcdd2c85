/*
 * compile_seccomp.c - the seccomp profile a language profile's step runs
 * under: its built-in base, plus the calls its `seccomp_allow` adds,
 * registered once per process under "LANG-STEP" through the sandbox's
 * registry of run-time profiles (sandbox/seccomp_policy.h, made for this).
 */
#include "judge/compile/compile_internal.h"

#include <stdio.h>
#include <string.h>

#include "sandbox/seccomp_policy.h"

int compile_seccomp_profile(const char *lang, const char *step, const struct lp_command *c, char *out,
                            size_t size, struct compile_error *err)
{
    if (!seccomp_profile_exists(c->seccomp))
        return compile_fail(err, "profile %s: %s: unknown seccomp profile '%s'", lang, step, c->seccomp);
    int n = c->n_allow ? snprintf(out, size, "%s-%s", lang, step) : snprintf(out, size, "%s", c->seccomp);
    if (n < 0 || (size_t)n >= size)
        return compile_fail(err, "profile %s: seccomp profile name too long", lang);
    if (c->n_allow == 0 || seccomp_profile_exists(out)) return 0;
    struct jail_error jerr;
    /* Another thread may have registered it in between: that one is as good. */
    if (seccomp_profile_register(out, c->seccomp, (const char *const *)c->seccomp_allow, &jerr) < 0 &&
        !seccomp_profile_exists(out))
        return compile_fail(err, "profile %s: %s", lang, jerr.msg);
    return 0;
}
