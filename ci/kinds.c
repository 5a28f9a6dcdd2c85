/* kinds.c - the names of violation kinds (kinds.h). */
#include "ci/kinds.h"

#include <string.h>

static const char *const kind_names[CI_KIND_COUNT] = {
    "forbidden_syscall", "memory_limit", "time", "crash", "invalid_output", "invalid_move", "other",
};

const char *ci_kind_name(enum ci_kind k)
{
    return k < CI_KIND_COUNT ? kind_names[k] : "other";
}

enum ci_kind ci_kind_of(const char *name)
{
    for (int k = 0; k < CI_KIND_OTHER; k++)
        if (!strcmp(name, kind_names[k]))
            return (enum ci_kind)k;
    return CI_KIND_OTHER;
}
