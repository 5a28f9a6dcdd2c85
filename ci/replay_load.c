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

/* One read per call straight into out, sized by fstat: no stdio buffer to copy through. */
int loaded_read_bounded(const char *path, size_t max, struct strbuf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    int rc = regular && (uint64_t)st.st_size > max ? 0 : 1;
    if (rc == 1 && regular && sb_reserve(out, (size_t)st.st_size + 1) < 0)
        rc = -1;
    while (rc == 1) {
        if (out->cap - out->len <= 1 && sb_reserve(out, 65536) < 0) {
            rc = -1;
            break;
        }
        ssize_t n = read(fd, out->data + out->len, out->cap - out->len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -1 : 1;
            break;
        }
        out->len += (size_t)n;
        out->data[out->len] = '\0';
        if (out->len > max)
            rc = 0;
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

void loaded_file_read(struct loaded_file *lf, const char *path)
{
    memset(lf, 0, sizeof *lf);
    if (!(lf->path = strdup(path)))
        return failed(lf, "out of memory");
    struct replay_reader *rd;
    struct replay_error rerr;
    /* Any failure to read it whole leaves the reader to open the file and say what is wrong. */
    bool whole = loaded_read_bounded(path, LOADED_WHOLE_MAX, &lf->bytes) == 1;
    if (!whole)
        sb_free(&lf->bytes);
    int opened = whole ? replay_reader_open_bytes(lf->bytes.data ? lf->bytes.data : "", lf->bytes.len, path, &rd, &rerr)
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
    sb_free(&lf->bytes);
    free(lf->path);
    memset(lf, 0, sizeof *lf);
}
