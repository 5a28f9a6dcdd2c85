/* sysinfo.h - what a replay header says about the machine and the judge. */
#ifndef JUDGE_SYSINFO_H
#define JUDGE_SYSINFO_H

struct host_info {
    char kernel[256];     /* "Linux 6.1.0 #1 SMP ..." (uname sysname, release, version) */
    char cpu_model[160];  /* /proc/cpuinfo "model name", or "unknown" */
    const char *judge_version;
};

void host_info_read(struct host_info *out);

#endif
