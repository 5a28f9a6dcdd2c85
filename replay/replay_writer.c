/*
 * replay_writer.c - a gzip JSON Lines file written as the match goes to a
 * temporary name, then renamed. Space for a typical replay is set aside when
 * it is opened, so a full disk stops a match before it starts rather than
 * after it ended; a write that fails later is remembered, the match goes on
 * and the commit reports why (the errno in words, naming the file).
 */
#include <errno.h>
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

struct replay_writer {
    struct atomic_file file; /* the temporary file, kept open for fsync */
    gzFile gz;               /* writes through a dup of file.fd */
    char path[PATH_MAX];     /* as given to replay_writer_open */
    struct replay_error failed; /* the first write error, reported by the commit */
    int failed_errno;           /* its system error number, 0 for zlib's own */
};

/* The first write error, in words: with Z_ERRNO, what the system said. */
static void note_write_error(struct replay_writer *w, int saved_errno)
{
    int zerr;
    const char *why = gzerror(w->gz, &zerr);
    snprintf(w->failed.msg, sizeof w->failed.msg, "%.400s: write: %s", w->file.temp_path,
             zerr == Z_ERRNO ? strerror(saved_errno) : why);
    w->failed_errno = zerr == Z_ERRNO ? saved_errno : 0;
}

/* -1, or REPLAY_STORAGE_FAILED when the disk is full, read-only or broken (not the judge's fault). */
static int failure(int errnum)
{
    return errnum == ENOSPC || errnum == EDQUOT || errnum == EROFS || errnum == EIO || errnum == EFBIG
               ? REPLAY_STORAGE_FAILED
               : -1;
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
    /* Level 4: half the CPU of zlib's default (6) on replays, for about 10% more
     * bytes (make bench: bench_match); deflating 64 KiB at a time costs less per line. */
    int gz_fd = dup(w->file.fd);
    w->gz = gz_fd >= 0 ? gzdopen(gz_fd, "wb4") : NULL;
    if (w->gz)
        gzbuffer(w->gz, 1 << 16);
    if (!w->gz) {
        if (gz_fd >= 0)
            close(gz_fd);
        snprintf(err->msg, sizeof err->msg, "%.400s: gzip: %s", w->file.temp_path, strerror(errno));
        atomic_file_abort(&w->file);
        free(w);
        return -1;
    }
    *out = w;
    return 0;
}

int replay_writer_put(struct replay_writer *w, const char *json, size_t len, struct replay_error *err)
{
    (void)err; /* a write error is the commit's to report: the match goes on */
    if (w->failed.msg[0])
        return 0;
    if ((len > 0 && gzwrite(w->gz, json, (unsigned)len) != (int)len) || gzputc(w->gz, '\n') != '\n')
        note_write_error(w, errno);
    return 0;
}

/* Ends the gzip stream; its last bytes are written here. */
static int finish_gzip(struct replay_writer *w, struct replay_error *err)
{
    if (!w->failed.msg[0] && gzflush(w->gz, Z_FINISH) != Z_OK)
        note_write_error(w, errno);
    int zrc = gzclose(w->gz);
    if (!w->failed.msg[0] && zrc != Z_OK) {
        w->failed_errno = zrc == Z_ERRNO ? errno : 0;
        snprintf(w->failed.msg, sizeof w->failed.msg, "%.400s: write: %s", w->file.temp_path,
                 zrc == Z_ERRNO ? strerror(w->failed_errno) : "gzip stream error");
    }
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
    gzclose(w->gz);
    atomic_file_abort(&w->file);
    free(w);
}

const char *replay_writer_temp_path(const struct replay_writer *w)
{
    return w->file.in_place ? "" : w->file.temp_path; /* a device is never removed */
}
