/* replay_load.c - read one input file whole, keeping what the results stage uses (replay_load.h). */
#include "ci/replay_load.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ci/json_fields.h"
#include "replay/replay.h"

static void failed(struct loaded_file *lf, const char *what)
{
    lf->kind = LOADED_FAILED;
    snprintf(lf->msg, sizeof lf->msg, "%s: %s", lf->path ? lf->path : "?", what);
}

static void damaged(struct loaded_file *lf, const char *msg)
{
    lf->kind = LOADED_DAMAGED;
    snprintf(lf->msg, sizeof lf->msg, "%s", msg);
}

/* The first line is not a replay header: it may be a compile record. */
static void try_compile(struct loaded_file *lf, struct replay_reader *rd, const struct replay_error *rerr)
{
    size_t len;
    const char *text = replay_reader_text(rd, &len);
    struct ci_error bad = {0};
    int rc = replay_reader_line_no(rd) == 1 ? ci_compile_parse(text, len, &lf->compile, &bad) : 0;
    if (rc == 1)
        lf->kind = LOADED_COMPILE;
    else if (rc < 0) {
        lf->kind = LOADED_DAMAGED;
        snprintf(lf->msg, sizeof lf->msg, "%s: line 1: %.300s", lf->path, bad.msg);
    } else
        damaged(lf, rerr->msg);
}

static int keep_violation(struct loaded_file *lf, struct json_object *obj, int line)
{
    if (lf->n_violations == lf->cap_violations) {
        size_t cap = lf->cap_violations ? lf->cap_violations * 2 : 4;
        struct loaded_line *v = realloc(lf->violations, cap * sizeof *v);
        if (!v)
            return -1;
        lf->violations = v;
        lf->cap_violations = cap;
    }
    lf->violations[lf->n_violations++] = (struct loaded_line){json_object_get(obj), line};
    return 0;
}

static void read_body(struct loaded_file *lf, struct replay_reader *rd)
{
    struct json_object *obj;
    struct replay_error rerr;
    int rc;
    while ((rc = replay_reader_next(rd, &obj, &rerr)) == 1) {
        if (!obj) /* a reply or an event: checked by the reader, not needed here */
            continue;
        const char *type = jf_string(obj, "type", NULL);
        int line = replay_reader_line_no(rd);
        if (!strcmp(type, "violation") && keep_violation(lf, obj, line) < 0)
            rc = -2;
        else if (!strcmp(type, "result"))
            lf->result = (struct loaded_line){json_object_get(obj), line};
        json_object_put(obj);
        if (rc == -2)
            return failed(lf, "out of memory");
    }
    if (rc < 0)
        damaged(lf, rerr.msg);
}

/* A regular file of at most LOADED_WHOLE_MAX bytes, read into lf->bytes; false otherwise, or on any
 * error (the reader then opens the file itself, and says what is wrong with it). */
static bool read_whole(struct loaded_file *lf)
{
    int fd = open(lf->path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return false;
    size_t cap = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= LOADED_WHOLE_MAX ? (size_t)st.st_size + 1 : 0;
    unsigned char *data = cap ? malloc(cap) : NULL;
    size_t len = 0;
    ssize_t n = 1;
    while (data && len < cap && (n = read(fd, data + len, cap - len)) != 0) {
        if (n < 0 && errno != EINTR)
            break;
        len += n > 0 ? (size_t)n : 0;
    }
    close(fd);
    if (!data || n != 0) { /* an error, or bigger than it was (it grew) */
        free(data);
        return false;
    }
    data[len] = '\0';
    lf->bytes = data;
    lf->bytes_len = len;
    return true;
}

void loaded_file_read(struct loaded_file *lf, const char *path)
{
    memset(lf, 0, sizeof *lf);
    if (!(lf->path = strdup(path)))
        return failed(lf, "out of memory");
    struct replay_reader *rd;
    struct replay_error rerr;
    int opened = read_whole(lf) ? replay_reader_open_bytes(lf->bytes, lf->bytes_len, path, &rd, &rerr)
                                : replay_reader_open(path, &rd, &rerr);
    if (opened < 0)
        return damaged(lf, rerr.msg);
    int rc = replay_reader_next(rd, &lf->header, &rerr);
    if (rc == 1) {
        lf->kind = LOADED_REPLAY;
        replay_reader_skip_moves(rd);
        read_body(lf, rd);
    } else {
        try_compile(lf, rd, &rerr);
    }
    replay_reader_close(rd);
}

void loaded_file_free(struct loaded_file *lf)
{
    json_object_put(lf->header);
    json_object_put(lf->result.obj);
    for (size_t i = 0; i < lf->n_violations; i++)
        json_object_put(lf->violations[i].obj);
    free(lf->violations);
    ci_compile_free(&lf->compile);
    free(lf->page_base64);
    free(lf->bytes);
    free(lf->path);
    memset(lf, 0, sizeof *lf);
}
