/* replay_writer.c - a gzip JSON Lines file written to a temporary name, then renamed. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "judge/replay.h"

struct replay_writer {
    char *path, *temp;
    int fd;          /* the temporary file, kept open for fsync */
    gzFile gz;       /* writes through a dup of fd */
};

static void set_errno_error(struct replay_error *err, const char *what, const char *path)
{
    snprintf(err->msg, sizeof err->msg, "%s: %s: %s", path, what, strerror(errno));
}

/* Create "DIR/.NAME.tmp-PID-N" exclusively; tries a few names if one is taken. */
static int create_temp(struct replay_writer *w, struct replay_error *err)
{
    char *copy = strdup(w->path), *copy2 = strdup(w->path);
    if (!copy || !copy2) {
        free(copy);
        free(copy2);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", w->path);
        return -1;
    }
    const char *dir = dirname(copy), *base = basename(copy2);
    int rc = -1;
    for (int attempt = 0; attempt < 100 && rc < 0; attempt++) {
        free(w->temp);
        if (asprintf(&w->temp, "%s/.%s.tmp-%ld-%d", dir, base, (long)getpid(), attempt) < 0) {
            w->temp = NULL;
            break;
        }
        w->fd = open(w->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (w->fd >= 0)
            rc = 0;
        else if (errno != EEXIST)
            break;
    }
    if (rc < 0) {
        set_errno_error(err, "cannot create the replay", w->path);
    } else if (fchmod(w->fd, 0644) < 0) { /* exactly 0644, whatever the umask */
        set_errno_error(err, "chmod", w->temp);
        rc = -1;
    }
    free(copy);
    free(copy2);
    return rc;
}

static void writer_free(struct replay_writer *w)
{
    if (w->fd >= 0)
        close(w->fd);
    free(w->path);
    free(w->temp);
    free(w);
}

int replay_writer_open(const char *path, struct replay_writer **out, struct replay_error *err)
{
    struct replay_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    w->fd = -1;
    if (create_temp(w, err) < 0) {
        if (w->fd >= 0)
            unlink(w->temp);
        writer_free(w);
        return -1;
    }
    int gz_fd = dup(w->fd);
    w->gz = gz_fd >= 0 ? gzdopen(gz_fd, "wb6") : NULL;
    if (!w->gz) {
        if (gz_fd >= 0)
            close(gz_fd);
        set_errno_error(err, "gzip", w->temp);
        unlink(w->temp);
        writer_free(w);
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
        snprintf(err->msg, sizeof err->msg, "%s: write: %s", w->temp,
                 zerr == Z_ERRNO ? strerror(errno) : why);
        return -1;
    }
    return 0;
}

static int fsync_directory(const char *path, struct replay_error *err)
{
    char *copy = strdup(path);
    if (!copy)
        return -1;
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = fd >= 0 && fsync(fd) == 0 ? 0 : -1;
    if (rc < 0)
        set_errno_error(err, "fsync of its directory", path);
    if (fd >= 0)
        close(fd);
    free(copy);
    return rc;
}

int replay_writer_commit(struct replay_writer *w, struct replay_error *err)
{
    int zrc = gzclose(w->gz);
    w->gz = NULL;
    int rc = -1;
    if (zrc != Z_OK)
        snprintf(err->msg, sizeof err->msg, "%s: gzip close failed (%d)", w->temp, zrc);
    else if (fsync(w->fd) < 0)
        set_errno_error(err, "fsync", w->temp);
    else if (rename(w->temp, w->path) < 0)
        set_errno_error(err, "rename", w->path);
    else
        rc = fsync_directory(w->path, err);
    if (rc < 0)
        unlink(w->temp);
    writer_free(w);
    return rc;
}

void replay_writer_abort(struct replay_writer *w)
{
    if (w->gz)
        gzclose(w->gz);
    unlink(w->temp);
    writer_free(w);
}

const char *replay_writer_temp_path(const struct replay_writer *w)
{
    return w->temp;
}
