/* container_detect.c - the facts about our container that decide which
 * `docker run` / `podman run` flag a missing isolation layer needs. */
#include "judge/container/container_detect.h"

#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *container_engine_name(enum container_engine e)
{
    static const char *const names[] = {"none", "docker", "podman", "other"};
    return e <= ENGINE_OTHER ? names[e] : "?";
}

static bool exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* The first line of a small file, without its newline ("" when unreadable). */
static void read_line(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "re");
    if (!f) return;
    if (!fgets(out, (int)size, f)) out[0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

static bool file_mentions(const char *path, const char *const *needles)
{
    FILE *f = fopen(path, "re");
    if (!f) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        for (const char *const *n = needles; *n && !found; n++) found = strstr(line, *n) != NULL;
    fclose(f);
    return found;
}

static enum container_engine detect_engine(void)
{
    static const char *const runtimes[] = {"docker", "kubepods", "containerd", "libpod", "lxc", NULL};
    const char *env = getenv("container");
    if (exists("/run/.containerenv") || (env && !strcmp(env, "podman"))) return ENGINE_PODMAN;
    if (exists("/.dockerenv")) return ENGINE_DOCKER;
    if ((env && *env) || file_mentions("/proc/1/cgroup", runtimes)) return ENGINE_OTHER;
    return ENGINE_NONE;
}

bool container_status_seccomp_filtered(const char *status_path)
{
    static const char *const filter_mode[] = {"Seccomp:\t2", NULL};
    return file_mentions(status_path, filter_mode);
}

static bool has_cap(int cap)
{
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, data) < 0) return false;
    return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

static bool has_option(const char *options, const char *want)
{
    char copy[256], *save = NULL;
    snprintf(copy, sizeof copy, "%s", options);
    for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save))
        if (!strcmp(o, want)) return true;
    return false;
}

/* One mountinfo line: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPER". */
static void account_mount(const char *line, struct container_facts *out)
{
    char mountpoint[512], options[256], fstype[64];
    const char *sep = strstr(line, " - ");
    if (!sep || sscanf(line, "%*s %*s %*s %*s %511s %255s", mountpoint, options) != 2 ||
        sscanf(sep + 3, "%63s", fstype) != 1)
        return;
    /* binfmt_misc covers an empty directory, which the kernel does not count as masking. */
    if (!strncmp(mountpoint, "/proc/", 6) && strcmp(mountpoint, "/proc/sys/fs/binfmt_misc") != 0)
        out->proc_masked = true;
    bool cgroup = !strcmp(fstype, "cgroup") || !strcmp(fstype, "cgroup2");
    if (cgroup && !strncmp(mountpoint, "/sys/fs/cgroup", 14)) {
        out->cgroup_mounted = true;
        out->cgroup_read_only |= has_option(options, "ro");
    }
}

void container_facts_from_mountinfo(const char *path, struct container_facts *out)
{
    out->proc_masked = out->cgroup_mounted = out->cgroup_read_only = false;
    FILE *f = fopen(path, "re");
    if (!f) return;
    char line[2048];
    while (fgets(line, sizeof line, f)) account_mount(line, out);
    fclose(f);
}

/* AppArmor's profile or SELinux's context, "" when unconfined or neither is on. */
static void read_lsm(char *out, size_t size)
{
    read_line("/proc/self/attr/apparmor/current", out, size);
    if (!out[0]) read_line("/proc/self/attr/current", out, size);
    if (!strncmp(out, "unconfined", 10)) out[0] = '\0';
}

static bool uid_map_is_identity(void)
{
    char line[128];
    unsigned long inner, outer, count;
    read_line("/proc/self/uid_map", line, sizeof line);
    return sscanf(line, "%lu %lu %lu", &inner, &outer, &count) != 3 ||
           (inner == 0 && outer == 0 && count == 4294967295ul);
}

void container_facts_read(struct container_facts *out)
{
    memset(out, 0, sizeof *out);
    out->engine = detect_engine();
    out->root = geteuid() == 0;
    out->seccomp_filtered = container_status_seccomp_filtered("/proc/self/status");
    out->cap_sys_admin = has_cap(CAP_SYS_ADMIN);
    out->cap_sys_ptrace = has_cap(CAP_SYS_PTRACE);
    container_facts_from_mountinfo("/proc/self/mountinfo", out);
    read_lsm(out->lsm, sizeof out->lsm);
    out->userns_mapped = !uid_map_is_identity();
    char line[32];
    read_line("/proc/sys/user/max_user_namespaces", line, sizeof line);
    out->max_user_namespaces = line[0] ? strtol(line, NULL, 10) : -1;
}

void container_detect(const struct doctor_result *doctor, struct container_report *out)
{
    struct container_facts facts;
    container_facts_read(&facts);
    container_hints(&facts, doctor, out);
}
