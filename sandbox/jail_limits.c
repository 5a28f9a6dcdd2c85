/* jail_limits.c - the defaults a zero field of struct jail_limits stands for. */
#include "sandbox/jail_internal.h"

#define DEFAULT_PIDS        64
#define DEFAULT_FSIZE_BYTES (64ull << 20)
#define DEFAULT_NOFILE      64
#define DEFAULT_STACK_BYTES (64ull << 20)
#define DEFAULT_TMP_BYTES   (16ull << 20)

static uint64_t or_default(uint64_t value, uint64_t fallback)
{
    return value ? value : fallback;
}

/* A file with data costs a page of the size cap already; empty files,
 * directories and links cost none but hold about 1 KiB of kernel memory each
 * (inode, dentry), charged to the bot's cgroup and kept while the tmpfs lives:
 * capped at one per page, they hold at most a quarter of the size cap. */
#define TMPFS_BYTES_PER_INODE 4096
#define TMPFS_MIN_INODES      64

uint64_t jail_tmpfs_inodes(uint64_t bytes)
{
    uint64_t n = bytes / TMPFS_BYTES_PER_INODE;
    return n > TMPFS_MIN_INODES ? n : TMPFS_MIN_INODES;
}

void jail_limits_resolve(const struct jail_limits *in, struct jail_limits *out)
{
    *out = *in;
    out->pids = or_default(in->pids, DEFAULT_PIDS);
    out->fsize_bytes = or_default(in->fsize_bytes, DEFAULT_FSIZE_BYTES);
    out->nofile = or_default(in->nofile, DEFAULT_NOFILE);
    out->stack_bytes = or_default(in->stack_bytes, DEFAULT_STACK_BYTES);
    out->tmp_bytes = or_default(in->tmp_bytes, DEFAULT_TMP_BYTES);
}
