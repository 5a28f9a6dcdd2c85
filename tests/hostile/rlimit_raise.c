/* rlimit_raise: raise hard limits (files, CPU, processes, file size) above
 * what the jail set: EPERM each time. Exit 0 iff all failed -> OK. */
#include <sys/resource.h>

#include "hostile.h"

int main(void)
{
    static const struct { int resource; const char *name; } limits[] = {
        {RLIMIT_NOFILE, "RLIMIT_NOFILE"}, {RLIMIT_CPU, "RLIMIT_CPU"},
        {RLIMIT_NPROC, "RLIMIT_NPROC"}, {RLIMIT_FSIZE, "RLIMIT_FSIZE"},
    };
    int tried = 0;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        struct rlimit r;
        if (getrlimit(limits[i].resource, &r) < 0 || r.rlim_max == RLIM_INFINITY)
            continue;
        r.rlim_max += 1;
        r.rlim_cur = r.rlim_max;
        must_fail(limits[i].name, setrlimit(limits[i].resource, &r));
        tried++;
    }
    if (tried == 0)
        escaped("no hard limit is set at all");
    return hostile_result();
}
