/* replay_export.c - a replay in the game's original log format (engine set_log). */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/replay.h"

/* The game named in the replay header. */
static int header_game(const char *path, char *game, size_t size, struct replay_error *err)
{
    struct replay_reader *rd;
    struct json_object *header, *name;
    if (replay_reader_open(path, &rd, err) < 0)
        return -1;
    int rc = replay_reader_next(rd, &header, err);
    replay_reader_close(rd);
    if (rc < 0)
        return -1;
    rc = json_object_object_get_ex(header, "game", &name) && json_object_is_type(name, json_type_string);
    if (rc)
        snprintf(game, size, "%s", json_object_get_string(name));
    else
        snprintf(err->msg, sizeof err->msg, "%s: line 1: no \"game\"", path);
    json_object_put(header);
    return rc ? 0 : -1;
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = fd >= 0 && fsync(fd) == 0 ? 0 : -1;
    if (fd >= 0)
        close(fd);
    return rc;
}

/* Write to a temporary name in the same directory, fsync, rename, fsync the directory. */
static int write_file_atomic(const char *path, const struct strbuf *data, struct replay_error *err)
{
    char *dir_copy = strdup(path), *base_copy = strdup(path), *temp = NULL;
    const char *dir = dir_copy ? dirname(dir_copy) : NULL;   /* may point elsewhere: "." */
    if (!dir || !base_copy || asprintf(&temp, "%s/.%s.tmp-%ld", dir, basename(base_copy), (long)getpid()) < 0) {
        free(dir_copy);
        free(base_copy);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    int rc = fd >= 0 && write_all(fd, data->data ? data->data : "", data->len) == 0 && fsync(fd) == 0 ? 0 : -1;
    if (fd >= 0 && close(fd) < 0)
        rc = -1;
    if (rc == 0 && rename(temp, path) < 0)
        rc = -1;
    if (rc == 0 && fsync_dir(dir) < 0)
        rc = -1;
    if (rc < 0) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            unlink(temp);
    }
    free(temp);
    free(dir_copy);
    free(base_copy);
    return rc;
}

int replay_export(const char *path, const char *format, const char *out_path,
                  struct strbuf *to_stdout, struct replay_error *err)
{
    char game[64], wanted[80];
    if (header_game(path, game, sizeof game, err) < 0)
        return -1;
    snprintf(wanted, sizeof wanted, "%s-log", game);
    if (strcmp(format, wanted) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: a %s replay exports as --format %s, not %s", path, game,
                 wanted, format);
        return -1;
    }
    struct strbuf log = STRBUF_INIT;
    int rc = replay_verify(path, &log, NULL, err);
    if (rc == 0 && out_path)
        rc = write_file_atomic(out_path, &log, err);
    else if (rc == 0 && sb_append(to_stdout, log.data ? log.data : "", log.len) < 0)
        rc = -1;
    sb_free(&log);
    return rc;
}
