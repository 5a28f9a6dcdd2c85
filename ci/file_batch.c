/*
 * file_batch.c - many files written to temporary names, put on disk and renamed at once (file_batch.h).
 * The temporaries are spread over a few subdirectories (shards, by file number), so that threads
 * writing at once seldom wait for the same directory's lock: creating a file holds its directory's.
 */
#include "ci/file_batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ci/spool.h"

#define SHARDS 8

struct file_batch {
    int dir_fd;
    char dir[4096];
    char token[17];     /* this run's mark in the temporary names */
    struct spool *kept; /* chain 0: u64 seq, then the file's name */
    uint64_t next_seq;  /* file_batch_put's numbering */
    bool chmod_needed;  /* the umask takes bits off 0644 */
    atomic_bool shard_made[SHARDS];
};

static void shard_name(const struct file_batch *b, unsigned shard, char *out, size_t size)
{
    snprintf(out, size, ".batch-%s-d%u", b->token, shard);
}

/* The temporary's path from dir_fd: in shard seq % SHARDS. */
static void temp_name(const struct file_batch *b, uint64_t seq, char *out, size_t size)
{
    char shard[64];
    shard_name(b, (unsigned)(seq % SHARDS), shard, sizeof shard);
    snprintf(out, size, "%s/%" PRIu64 ".tmp", shard, seq);
}

/* The umask, from /proc/self/status (umask(2) cannot read it without setting it); 077 when unknown. */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[128];
    unsigned mask = 077;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1) break;
    if (f) fclose(f);
    return (mode_t)mask;
}

static int make_shard(struct file_batch *b, uint64_t seq, struct ci_error *err)
{
    unsigned k = (unsigned)(seq % SHARDS);
    char name[64];
    if (atomic_load(&b->shard_made[k])) return 0;
    shard_name(b, k, name, sizeof name);
    if (mkdirat(b->dir_fd, name, 0700) < 0 && errno != EEXIST)
        return ci_fail(err, "%s/%s: cannot create it: %s", b->dir, name, strerror(errno));
    atomic_store(&b->shard_made[k], true);
    return 0;
}

int file_batch_open(struct file_batch **out, const char *dir, const char *spool_dir, struct ci_error *err)
{
    struct file_batch *b = calloc(1, sizeof *b);
    if (!b) return ci_fail_oom(err);
    snprintf(b->dir, sizeof b->dir, "%s", dir);
    uint64_t rnd;
    if (getrandom(&rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        free(b);
        return ci_fail(err, "getrandom: %s", strerror(errno));
    }
    snprintf(b->token, sizeof b->token, "%016" PRIx64, rnd);
    b->chmod_needed = (current_umask() & 0644) != 0;
    b->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (b->dir_fd < 0) {
        free(b);
        return ci_fail(err, "%s: %s", dir, strerror(errno));
    }
    if (spool_open(spool_dir, &b->kept, err) < 0) {
        close(b->dir_fd);
        free(b);
        return -1;
    }
    *out = b;
    return 0;
}

int file_batch_write(struct file_batch *b, uint64_t seq, const void *data, size_t len, struct ci_error *err)
{
    char name[96];
    if (make_shard(b, seq, err) < 0) return -1;
    temp_name(b, seq, name, sizeof name);
    int fd = openat(b->dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return ci_fail(err, "%s/%s: cannot create it: %s", b->dir, name, strerror(errno));
    const char *p = data;
    int rc = b->chmod_needed ? fchmod(fd, 0644) : 0; /* exactly 0644, whatever the umask, like every output */
    while (rc == 0 && len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO; /* a write that takes nothing */
            rc = -1;
        } else {
            p += n;
            len -= (size_t)n;
        }
    }
    if (close(fd) < 0 && errno != EINTR) rc = -1;
    if (rc < 0) {
        int e = errno;
        unlinkat(b->dir_fd, name, 0);
        return ci_fail(err, "%s/%s: write: %s", b->dir, name, strerror(e));
    }
    return 0;
}

int file_batch_keep(struct file_batch *b, uint64_t seq, const char *name, struct ci_error *err)
{
    char record[8 + 256];
    size_t len = strlen(name);
    if (len >= 256) return ci_fail(err, "%s: page name too long", name);
    memcpy(record, &seq, 8);
    memcpy(record + 8, name, len);
    return spool_append(b->kept, 0, record, 8 + len, err);
}

void file_batch_drop(struct file_batch *b, uint64_t seq)
{
    char name[96];
    temp_name(b, seq, name, sizeof name);
    unlinkat(b->dir_fd, name, 0);
}

int file_batch_put(struct file_batch *b, const char *name, const void *data, size_t len, struct ci_error *err)
{
    uint64_t seq = (UINT64_C(1) << 63) + b->next_seq++; /* apart from the callers' own numbers */
    return file_batch_write(b, seq, data, len, err) < 0 ? -1 : file_batch_keep(b, seq, name, err);
}

static int rename_file(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    struct file_batch *b = ctx;
    uint64_t seq;
    char temp[96], name[256];
    memcpy(&seq, data, 8);
    snprintf(name, sizeof name, "%.*s", (int)(len - 8), data + 8);
    temp_name(b, seq, temp, sizeof temp);
    if (renameat(b->dir_fd, temp, b->dir_fd, name) < 0)
        return ci_fail(err, "%s/%s: rename: %s", b->dir, name, strerror(errno));
    return 0;
}

/* Each shard made, now empty or not (the caller's choice): removed with what is left in it. */
static void remove_shards(struct file_batch *b)
{
    for (unsigned k = 0; k < SHARDS; k++) {
        char name[64];
        if (!atomic_load(&b->shard_made[k])) continue;
        shard_name(b, k, name, sizeof name);
        int fd = openat(b->dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (e->d_name[0] != '.') unlinkat(fd, e->d_name, 0);
        if (d)
            closedir(d);
        else if (fd >= 0)
            close(fd);
        unlinkat(b->dir_fd, name, AT_REMOVEDIR);
        atomic_store(&b->shard_made[k], false);
    }
}

int file_batch_commit(struct file_batch *b, struct ci_error *err)
{
    if (syncfs(b->dir_fd) < 0) return ci_fail(err, "%s: syncfs: %s", b->dir, strerror(errno));
    if (spool_each(b->kept, 0, rename_file, b, err) != 0) return err->msg[0] ? -1 : ci_fail_oom(err);
    remove_shards(b); /* what is left in them was never kept */
    if (fsync(b->dir_fd) < 0) return ci_fail(err, "%s: fsync: %s", b->dir, strerror(errno));
    return 0;
}

struct each_kept {
    file_batch_name_fn fn;
    void *ctx;
};

static int pass_name(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    const struct each_kept *e = ctx;
    return e->fn(e->ctx, data + 8, len - 8, err);
}

int file_batch_each_kept(struct file_batch *b, file_batch_name_fn fn, void *ctx, struct ci_error *err)
{
    struct each_kept e = {fn, ctx};
    return spool_each(b->kept, 0, pass_name, &e, err);
}

void file_batch_close(struct file_batch *b)
{
    if (!b) return;
    remove_shards(b); /* a run not committed leaves nothing */
    spool_close(b->kept);
    close(b->dir_fd);
    free(b);
}
