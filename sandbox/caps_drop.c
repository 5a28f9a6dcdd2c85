/*
 * caps_drop.c - leave the child with no capability at all: bounding and
 * ambient sets emptied first (that needs CAP_SETPCAP, which capset then
 * removes), then effective, permitted and inheritable. A jail without a
 * user namespace (jail_flat.h) takes the halves apart: the bounding set
 * while still root, the rest after setresuid. Raw prctl/capset
 * rather than libcap, which allocates: this runs in the child before execve.
 */
#include "sandbox/jail_flat.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int drop_bounding_set(void)
{
    for (unsigned long cap = 0;; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
            return errno == EINVAL ? 0 : -errno; /* EINVAL: past the last capability */
}

static int clear_process_sets(void)
{
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {{0, 0, 0}};
    return syscall(SYS_capset, &header, data) < 0 ? -errno : 0;
}

int caps_drop_bounding(const char **step)
{
    int rc;
    if ((rc = drop_bounding_set()) < 0) {
        *step = "prctl(PR_CAPBSET_DROP)";
        return rc;
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0) {
        *step = "prctl(PR_CAP_AMBIENT_CLEAR_ALL)";
        return -errno;
    }
    return 0;
}

int caps_drop_process_sets(const char **step)
{
    int rc = clear_process_sets();
    if (rc < 0) *step = "capset";
    return rc;
}

int caps_drop_all(const char **step)
{
    int rc = caps_drop_bounding(step);
    return rc < 0 ? rc : caps_drop_process_sets(step);
}
