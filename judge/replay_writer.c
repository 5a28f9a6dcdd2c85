/* replay_writer.c - a gzip JSON Lines file written to a temporary name, then renamed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "judge/atomic_file.h"
#include "judge/replay.h"

struct replay_writer {
    struct atomic_file file; /* the temporary file, kept open for fsync */
    gzFile gz;               /* writes through a dup of file.fd */
};

int replay_writer_open(const char *path, struct replay_writer **out, struct replay_error *err)
{
    struct replay_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    if (atomic_file_create(&w->file, path, 0644, err->msg, sizeof err->msg) < 0) {
        free(w);
        return -1;
    }
    int gz_fd = dup(w->file.fd);
    w->gz = gz_fd >= 0 ? gzdopen(gz_fd, "wb6") : NULL;
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
    if ((len > 0 && gzwrite(w->gz, json, (unsigned)len) != (int)len) || gzputc(w->gz, '\n') != '\n') {
        int zerr;
        const char *why = gzerror(w->gz, &zerr);
        snprintf(err->msg, sizeof err->msg, "%.400s: write: %s", w->file.temp_path,
                 zerr == Z_ERRNO ? strerror(errno) : why);
        return -1;
    }
    return 0;
}

int replay_writer_commit(struct replay_writer *w, struct replay_error *err)
{
    int zrc = gzclose(w->gz);
    int rc = -1;
    if (zrc != Z_OK) {
        snprintf(err->msg, sizeof err->msg, "%.400s: gzip close failed (%d)", w->file.temp_path, zrc);
        atomic_file_abort(&w->file);
    } else {
        rc = atomic_file_commit(&w->file, err->msg, sizeof err->msg);
    }
    free(w);
    return rc;
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
