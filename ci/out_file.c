/* out_file.c - buffered output files through atomic_file (out_file.h). */
#include "ci/out_file.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define FLUSH_BYTES (256u << 10)

static int join(char *path, size_t cap, const char *dir, const char *name, struct ci_error *err)
{
    int n = snprintf(path, cap, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= cap)
        return ci_fail(err, "%s/%s: path too long", dir, name);
    return 0;
}

int out_open(struct out_file *o, const char *dir, const char *name, struct ci_error *err)
{
    memset(o, 0, sizeof *o);
    char path[PATH_MAX];
    if (join(path, sizeof path, dir, name, err) < 0)
        return -1;
    if (atomic_file_create(&o->af, path, 0644, err->msg, sizeof err->msg) < 0) {
        err->status = CI_STATUS_INTERNAL;
        return -1;
    }
    o->open = 1;
    return 0;
}

static int flush(struct out_file *o, struct ci_error *err)
{
    if (atomic_file_write(&o->af, o->buf.data, o->buf.len, err->msg, sizeof err->msg) < 0) {
        err->status = CI_STATUS_INTERNAL;
        return -1;
    }
    sb_reset(&o->buf);
    return 0;
}

int out_take(struct out_file *o, struct strbuf *sb, struct ci_error *err)
{
    int rc = out_write(o, sb->data, sb->len, err);
    sb_reset(sb);
    return rc;
}

int out_write(struct out_file *o, const void *data, size_t len, struct ci_error *err)
{
    if (sb_append(&o->buf, data, len) < 0)
        return ci_fail_oom(err);
    return o->buf.len >= FLUSH_BYTES ? flush(o, err) : 0;
}

int out_puts(struct out_file *o, const char *s, struct ci_error *err)
{
    return out_write(o, s, strlen(s), err);
}

int out_record(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    struct out_records *c = ctx;
    if (c->written++ && c->separator && out_puts(c->out, c->separator, err) < 0)
        return -1;
    return out_write(c->out, data, len, err);
}

int out_commit(struct out_file *o, struct ci_error *err)
{
    if (o->buf.len && flush(o, err) < 0) {
        out_abort(o);
        return -1;
    }
    int rc = 0;
    if (atomic_file_commit(&o->af, err->msg, sizeof err->msg) < 0) { /* it removes the temporary file */
        err->status = CI_STATUS_INTERNAL;
        rc = -1;
    }
    o->open = 0;
    sb_free(&o->buf);
    return rc;
}

void out_abort(struct out_file *o)
{
    if (o->open)
        atomic_file_abort(&o->af);
    o->open = 0;
    sb_free(&o->buf);
}

int out_whole(const char *dir, const char *name, const char *data, size_t len, struct ci_error *err)
{
    char path[PATH_MAX];
    if (join(path, sizeof path, dir, name, err) < 0)
        return -1;
    if (atomic_file_write_whole(path, data, len, err->msg, sizeof err->msg) < 0) {
        err->status = CI_STATUS_INTERNAL;
        return -1;
    }
    return 0;
}
