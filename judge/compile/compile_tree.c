/*
 * compile_tree.c - what the compiler left in its scratch directory, copied into
 * BOT_DIR, and the manifest that says how BOT_DIR was built. The scratch
 * directory was written by the jailed compiler: it is read only through
 * sandbox/fs_safe.h (no link followed), with bounded depth and entry count.
 * Sizes count as files claim them (st_size, holes included), not by the blocks
 * they hold: a sparse file is within the cap only if its whole length is, and
 * it is copied with its holes kept. Every file and directory copied is fsynced before
 * the manifest, itself written atomically, marks BOT_DIR complete.
 */
#include "judge/compile/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "sandbox/fs_safe.h"

#define MAX_DEPTH   16
#define MAX_ENTRIES 10000
#define COPY_CHUNK  65536

struct copy {
    size_t entries, skipped;
    uint64_t claimed, cap; /* apparent bytes so far, and the limit on them */
    struct compile_error *err;
};

static int from_jail(struct copy *c, const struct jail_error *jerr)
{
    return compile_fail(c->err, "copying the compiled bot: %s", jerr->msg);
}

/* A write into the bot's directory failed: for the disk (err->storage) or otherwise. */
static int storage_fail(struct compile_error *err, int errnum, const char *what, const char *name)
{
    compile_fail(err, "copying the compiled bot: %s %s: %s", what, name, strerror(errnum));
    err->storage = atomic_file_storage_errno(errnum);
    return -1;
}

/* Bytes [from, to) of in at the same offsets of out. */
static int copy_range(struct copy *c, int in, int out, off_t from, off_t to, const char *name)
{
    char buf[COPY_CHUNK];
    while (from < to) {
        size_t want = (uint64_t)(to - from) < sizeof buf ? (size_t)(to - from) : sizeof buf;
        ssize_t n = pread(in, buf, want, from);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            return compile_fail(c->err, "copying the compiled bot: reading %s: %s", name, strerror(errno));
        if (n == 0) return 0; /* shorter than it was: the rest stays a hole */
        for (ssize_t done = 0; done < n;) {
            ssize_t w = pwrite(out, buf + done, (size_t)(n - done), from + done);
            if (w < 0 && errno != EINTR)
                return storage_fail(c->err, errno, "writing", name);
            done += w > 0 ? w : 0;
        }
        from += n;
    }
    return 0;
}

/* The data segments (SEEK_DATA/SEEK_HOLE), then the length: holes stay holes. */
static int copy_bytes(struct copy *c, int in, int out, off_t size, const char *name)
{
    for (off_t at = 0; at < size;) {
        off_t data = lseek(in, at, SEEK_DATA);
        if (data < 0 && errno == ENXIO) break; /* only a hole is left */
        off_t hole = data < 0 ? size : lseek(in, data, SEEK_HOLE);
        if (data < 0) data = at;             /* no SEEK_DATA here: copy it all */
        if (hole < 0 || hole > size) hole = size;
        if (copy_range(c, in, out, data, hole, name) < 0) return -1;
        at = hole;
    }
    if (ftruncate(out, size) < 0)
        return compile_fail(c->err, "copying the compiled bot: sizing %s: %s", name, strerror(errno));
    return 0;
}

/* 1 (err->msg says why) when this file takes the claimed total past the cap. */
static int claim(struct copy *c, const char *name, const struct stat *st)
{
    uint64_t size = st->st_size > 0 ? (uint64_t)st->st_size : 0;
    if (size <= c->cap - c->claimed) { /* claimed <= cap always */
        c->claimed += size;
        return 0;
    }
    if (size > c->cap)
        snprintf(c->err->msg, sizeof c->err->msg, "%.200s claims %" PRIu64 " bytes", name, size);
    else
        snprintf(c->err->msg, sizeof c->err->msg, "its files claim %" PRIu64 " bytes or more", c->claimed + size);
    return 1;
}

static int copy_file(struct copy *c, int from_fd, int to_fd, const char *name, mode_t mode)
{
    struct jail_error jerr;
    struct stat st; /* the file as opened: its length then is what counts */
    int in = fs_safe_openat(from_fd, name, O_RDONLY | O_CLOEXEC, 0, &jerr);
    if (in < 0) return from_jail(c, &jerr);
    int rc = fstat(in, &st) < 0 ? compile_fail(c->err, "copying the compiled bot: %s: %s", name, strerror(errno))
                                : claim(c, name, &st);
    if (rc != 0) {
        close(in);
        return rc;
    }
    mode_t out_mode = (mode & 0111) ? 0755 : 0644;
    int out = fs_safe_openat(to_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, out_mode, &jerr);
    rc = out < 0 ? from_jail(c, &jerr) : copy_bytes(c, in, out, st.st_size, name);
    if (rc == 0 && fchmod(out, out_mode) < 0) /* the judge's umask must not take the bits away */
        rc = compile_fail(c->err, "copying the compiled bot: chmod %s: %s", name, strerror(errno));
    if (rc == 0 && fsync(out) < 0) /* on disk before the manifest says the bot is complete */
        rc = storage_fail(c->err, errno, "fsync", name);
    if (out >= 0 && close(out) < 0 && rc == 0)
        rc = compile_fail(c->err, "copying the compiled bot: closing %s: %s", name, strerror(errno));
    close(in);
    return rc;
}

static int copy_dir(struct copy *c, int from_fd, int to_fd, int depth);

static int copy_subdir(struct copy *c, int from_fd, int to_fd, const char *name, int depth)
{
    struct jail_error jerr;
    if (fs_safe_mkdirat(to_fd, name, 0755, &jerr) < 0) return from_jail(c, &jerr);
    int sub_from = fs_safe_openat(from_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, &jerr);
    int sub_to =
        sub_from < 0 ? -1 : fs_safe_openat(to_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, &jerr);
    int rc = sub_to < 0 ? from_jail(c, &jerr) : copy_dir(c, sub_from, sub_to, depth + 1);
    if (rc == 0 && fsync(sub_to) < 0) /* its entries too; BOT_DIR's own are the manifest's fsync */
        rc = compile_fail(c->err, "copying the compiled bot: fsync %s: %s", name, strerror(errno));
    if (sub_from >= 0) close(sub_from);
    if (sub_to >= 0) close(sub_to);
    return rc;
}

static int copy_entry(struct copy *c, int from_fd, int to_fd, const char *name, int depth)
{
    struct stat st;
    if (!strcmp(name, ".") || !strcmp(name, "..")) return 0;
    if (++c->entries > MAX_ENTRIES)
        return compile_fail(c->err, "copying the compiled bot: more than %d files", MAX_ENTRIES);
    if (fstatat(from_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return compile_fail(c->err, "copying the compiled bot: %s: %s", name, strerror(errno));
    if (S_ISREG(st.st_mode)) return copy_file(c, from_fd, to_fd, name, st.st_mode);
    if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) return copy_subdir(c, from_fd, to_fd, name, depth);
    c->skipped++;
    return 0;
}

static int copy_dir(struct copy *c, int from_fd, int to_fd, int depth)
{
    int fd = dup(from_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return compile_fail(c->err, "copying the compiled bot: %s", strerror(errno));
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) rc = copy_entry(c, from_fd, to_fd, e->d_name, depth);
    closedir(d);
    return rc;
}

int compile_tree_copy(const char *from, int to_fd, uint64_t cap, size_t *skipped, struct compile_error *err)
{
    struct jail_error jerr;
    struct copy c = {.cap = cap, .err = err};
    int from_fd = fs_safe_open_dir(from, &jerr);
    if (from_fd < 0) return compile_fail(err, "copying the compiled bot: %s", jerr.msg);
    int rc = copy_dir(&c, from_fd, to_fd, 0);
    close(from_fd);
    *skipped = c.skipped;
    return rc;
}

/* ---- the manifest ------------------------------------------------------------------- */

int compile_manifest_write(int bot_fd, const char *profile, const char *entry, struct compile_error *err)
{
    char text[512];
    int n = entry ? snprintf(text, sizeof text, "profile %s\nentry %s\n", profile, entry)
                  : snprintf(text, sizeof text, "profile %s\n", profile);
    if (n < 0 || (size_t)n >= sizeof text) return compile_fail(err, "manifest: entry name too long");
    struct jail_error jerr;
    if (fs_safe_write_file(bot_fd, COMPILE_MANIFEST, text, (size_t)n, 0644, &jerr) < 0)
        return compile_fail(err, "writing the manifest: %s", jerr.msg);
    return 0;
}

/* "KEY value\n" at the start of text (or after a newline); copies value into out. */
static bool manifest_value(const char *text, const char *key, char *out, size_t size)
{
    size_t len = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, key, len) || line[len] != ' ') continue;
        size_t vlen = strcspn(line + len + 1, "\n");
        if (vlen == 0 || vlen >= size) return false;
        memcpy(out, line + len + 1, vlen);
        out[vlen] = '\0';
        return true;
    }
    return false;
}

int compile_manifest_read(const char *bot_dir, char *profile, size_t profile_size, char *entry,
                          size_t entry_size, struct compile_error *err)
{
    struct jail_error jerr;
    char text[1024];
    size_t len = 0;
    int fd = fs_safe_open_dir(bot_dir, &jerr);
    if (fd < 0) return compile_fail(err, "%s", jerr.msg);
    int rc = fs_safe_read_file(fd, COMPILE_MANIFEST, text, sizeof text - 1, &len, &jerr);
    close(fd);
    if (rc < 0)
        return compile_fail(err, "%s is not a compiled bot (no readable %s: %s)", bot_dir, COMPILE_MANIFEST,
                            jerr.msg);
    text[len] = '\0';
    if (!manifest_value(text, "profile", profile, profile_size))
        return compile_fail(err, "%s/%s: no profile line", bot_dir, COMPILE_MANIFEST);
    if (!manifest_value(text, "entry", entry, entry_size)) entry[0] = '\0';
    return 0;
}
