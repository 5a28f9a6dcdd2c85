/*
 * replay_writer.c - a gzip JSON Lines file written to a temporary name, then
 * renamed. Space for a typical replay is set aside when it is opened, so a
 * full disk stops a match before it starts rather than after it ended; a write
 * that fails later is remembered, the match goes on and the commit reports why
 * (the errno in words, naming the file).
 *
 * A replay bound for a regular file is kept in memory as it grows and deflated
 * whole at the commit, in one libdeflate call: no compression on the path of
 * a move, a third less CPU than zlib's stream at its level 4 for a smaller file
 * (make bench: bench_match), and one gzip member, which `judge results` reads
 * in one call too. One past RAW_MAX, and one written in place (a device, a
 * FIFO, standard output: its reader may be reading as the match goes), goes
 * through zlib's stream instead.
 */
#include <errno.h>
#include <libdeflate.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "common/atomic_file.h"
#include "replay/replay.h"

/* Replays of the examples are 3 to 30 KiB; a long match's rarely reach 1 MiB. */
#define REPLAY_RESERVE_BYTES (1 << 20)
#define RAW_MAX              (8u << 20) /* kept in memory up to this much, before deflating */
#define WHOLE_LEVEL          4          /* libdeflate's: about zlib 6's bytes for less CPU than zlib 4's */

struct replay_writer {
    struct atomic_file file; /* the temporary file, kept open for fsync */
    gzFile gz;               /* the stream, writing through a dup of file.fd; NULL while kept in memory */
    char *raw;               /* the replay so far, while kept in memory */
    size_t raw_len, raw_cap;
    char path[PATH_MAX];     /* as given to replay_writer_open */
    struct replay_error failed; /* the first write error, reported by the commit */
    int failed_errno;           /* its system error number, 0 for zlib's own */
};

/* The first write error, in words: with Z_ERRNO, what the system said. */
static void note_gzip_error(struct replay_writer *w, int saved_errno)
{
    int zerr;
    const char *why = gzerror(w->gz, &zerr);
    snprintf(w->failed.msg, sizeof w->failed.msg, "%.400s: write: %s", w->file.temp_path,
             zerr == Z_ERRNO ? strerror(saved_errno) : why);
    w->failed_errno = zerr == Z_ERRNO ? saved_errno : 0;
}

static void note_error(struct replay_writer *w, int errnum, const char *what)
{
    snprintf(w->failed.msg, sizeof w->failed.msg, "%.400s: %s: %s", w->file.temp_path, what,
             strerror(errnum));
    w->failed_errno = errnum;
}

/* -1, or REPLAY_STORAGE_FAILED when the disk is full, read-only or broken (not the judge's fault). */
static int failure(int errnum)
{
    return atomic_file_storage_errno(errnum) ? REPLAY_STORAGE_FAILED : -1;
}

/* Level 4: half the CPU of zlib's default (6) on replays, for about 10% more bytes;
 * deflating 64 KiB at a time costs less per line. */
static int open_stream(struct replay_writer *w)
{
    int gz_fd = dup(w->file.fd);
    w->gz = gz_fd >= 0 ? gzdopen(gz_fd, "wb4") : NULL;
    if (w->gz) {
        gzbuffer(w->gz, 1 << 16);
        return 0;
    }
    int saved = errno;
    if (gz_fd >= 0) close(gz_fd);
    errno = saved;
    return -1;
}

int replay_writer_open(const char *path, struct replay_writer **out, struct replay_error *err)
{
    struct replay_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    if (atomic_file_create(&w->file, path, 0644, err->msg, sizeof err->msg) < 0 ||
        atomic_file_reserve(&w->file, REPLAY_RESERVE_BYTES, err->msg, sizeof err->msg) < 0) {
        int saved = errno;
        atomic_file_abort(&w->file);
        free(w);
        return failure(saved);
    }
    if (w->file.in_place && open_stream(w) < 0) {
        snprintf(err->msg, sizeof err->msg, "%.400s: gzip: %s", w->file.temp_path, strerror(errno));
        atomic_file_abort(&w->file);
        free(w);
        return -1;
    }
    *out = w;
    return 0;
}

/* What was kept in memory goes to zlib's stream, and the rest after it. */
static void switch_to_stream(struct replay_writer *w)
{
    if (open_stream(w) < 0)
        note_error(w, errno, "gzip");
    else if (w->raw_len > 0 && gzwrite(w->gz, w->raw, (unsigned)w->raw_len) != (int)w->raw_len)
        note_gzip_error(w, errno);
    free(w->raw);
    w->raw = NULL;
    w->raw_len = w->raw_cap = 0;
}

static bool keep_in_memory(struct replay_writer *w, const char *json, size_t len)
{
    size_t need = w->raw_len + len + 1;
    if (need > RAW_MAX) return false;
    if (need > w->raw_cap) {
        size_t cap = w->raw_cap ? w->raw_cap : 64u << 10;
        while (cap < need) cap *= 2;
        char *grown = realloc(w->raw, cap);
        if (!grown) return false;
        w->raw = grown;
        w->raw_cap = cap;
    }
    memcpy(w->raw + w->raw_len, json, len);
    w->raw[w->raw_len + len] = '\n';
    w->raw_len = need;
    return true;
}

int replay_writer_put(struct replay_writer *w, const char *json, size_t len, struct replay_error *err)
{
    (void)err; /* a write error is the commit's to report: the match goes on */
    if (w->failed.msg[0])
        return 0;
    if (!w->gz && keep_in_memory(w, json, len))
        return 0;
    if (!w->gz)
        switch_to_stream(w);
    if (w->failed.msg[0])
        return 0;
    if ((len > 0 && gzwrite(w->gz, json, (unsigned)len) != (int)len) || gzputc(w->gz, '\n') != '\n')
        note_gzip_error(w, errno);
    return 0;
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The whole replay, deflated in one call and written as one gzip member. */
static void write_whole(struct replay_writer *w)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(WHOLE_LEVEL);
    size_t bound = c ? libdeflate_gzip_compress_bound(c, w->raw_len) : 0;
    char *out = c ? malloc(bound) : NULL;
    size_t n = out ? libdeflate_gzip_compress(c, w->raw ? w->raw : "", w->raw_len, out, bound) : 0;
    if (n == 0)
        note_error(w, ENOMEM, "gzip");
    else if (write_all(w->file.fd, out, n) < 0)
        note_error(w, errno, "write");
    free(out);
    libdeflate_free_compressor(c);
}

/* Ends the gzip stream; its last bytes are written here. */
static void finish_stream(struct replay_writer *w)
{
    if (!w->failed.msg[0] && gzflush(w->gz, Z_FINISH) != Z_OK)
        note_gzip_error(w, errno);
    int zrc = gzclose(w->gz);
    w->gz = NULL;
    if (!w->failed.msg[0] && zrc != Z_OK) {
        w->failed_errno = zrc == Z_ERRNO ? errno : 0;
        snprintf(w->failed.msg, sizeof w->failed.msg, "%.400s: write: %s", w->file.temp_path,
                 zrc == Z_ERRNO ? strerror(w->failed_errno) : "gzip stream error");
    }
}

static int finish_gzip(struct replay_writer *w, struct replay_error *err)
{
    if (w->gz)
        finish_stream(w);
    else if (!w->failed.msg[0])
        write_whole(w);
    free(w->raw);
    w->raw = NULL;
    if (!w->failed.msg[0])
        return 0;
    *err = w->failed;
    return failure(w->failed_errno);
}

int replay_writer_commit_as(struct replay_writer *w, enum replay_commit_mode mode, struct replay_committed *done,
                            struct replay_error *err)
{
    int rc = finish_gzip(w, err);
    if (rc < 0)
        atomic_file_abort(&w->file);
    else if ((mode == REPLAY_KEEP_EXISTING ? atomic_file_commit_new : atomic_file_commit)(&w->file, err->msg,
                                                                                         sizeof err->msg) < 0)
        rc = failure(errno); /* the commit's: its clean-up calls succeed and leave errno alone */
    if (rc == 0 && done) {
        const char *slash = strrchr(w->path, '/');
        int dir_len = slash ? (int)(slash - w->path) + 1 : 0;
        snprintf(done->path, sizeof done->path, "%.*s%s", dir_len, w->path, w->file.name);
        done->replaced = w->file.replaced;
    }
    free(w);
    return rc;
}

int replay_writer_commit(struct replay_writer *w, struct replay_error *err)
{
    return replay_writer_commit_as(w, REPLAY_REPLACE, NULL, err);
}

bool replay_writer_failed(const struct replay_writer *w)
{
    return w->failed.msg[0] != '\0';
}

void replay_writer_abort(struct replay_writer *w)
{
    if (w->gz) gzclose(w->gz);
    free(w->raw);
    atomic_file_abort(&w->file);
    free(w);
}

const char *replay_writer_temp_path(const struct replay_writer *w)
{
    return w->file.in_place ? "" : w->file.temp_path; /* a device is never removed */
}
