/* sysinfo.c - kernel, CPU model and judge version, for replay headers. */
#include "common/sysinfo.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#ifndef JUDGE_VERSION
#define JUDGE_VERSION "unknown"
#endif

static void read_cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *colon = strchr(line, ':');
        if (!colon)
            continue;
        const char *v = colon + 1 + strspn(colon + 1, " \t");
        snprintf(out, size, "%.*s", (int)strcspn(v, "\n"), v);
        break;
    }
    fclose(f);
}

void host_info_read(struct host_info *out)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(out->kernel, sizeof out->kernel, "%s %s %s", u.sysname, u.release, u.version);
    else
        snprintf(out->kernel, sizeof out->kernel, "unknown");
    read_cpu_model(out->cpu_model, sizeof out->cpu_model);
    out->judge_version = JUDGE_VERSION;
}
