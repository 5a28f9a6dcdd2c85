/*
 * jail_prewarm.c - a jail begun now and launched later (jail_prewarm.h): the
 * two halves of jail_start (jail.c) with the caller's work in between.
 */
#include "sandbox/jail_internal.h"

#include <stdlib.h>

struct jail_prewarm {
    struct jail *j;
    struct spawn_pending sp;
};

int jail_prewarm_start(const struct jail_spec *spec, struct jail_prewarm **out, struct jail_error *err)
{
    struct jail_prewarm *pw = calloc(1, sizeof *pw);
    if (!pw) return jail_fail(err, "out of memory");
    if (jail_begin(spec, &pw->j, &pw->sp, err) < 0) {
        free(pw);
        return -1;
    }
    *out = pw;
    return 0;
}

int jail_prewarm_launch(struct jail_prewarm *pw, const char *args, size_t len, struct jail **out,
                        struct jail_error *err)
{
    struct jail *j = pw->j;
    int rc = jail_complete(j, &pw->sp, args, len, false, err);
    free(pw);
    if (rc < 0) return -1;
    *out = j;
    return 0;
}

const struct isolation_report *jail_prewarm_isolation(const struct jail_prewarm *pw)
{
    return jail_isolation(pw->j);
}

void jail_prewarm_discard(struct jail_prewarm *pw)
{
    if (!pw) return;
    jail_abandon(pw->j, &pw->sp);
    free(pw);
}
