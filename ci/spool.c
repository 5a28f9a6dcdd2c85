/* spool.c - on-disk records chained per key (spool.h). */
#include "ci/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/strbuf.h"

#define NONE         UINT64_MAX
#define HEADER_BYTES 12u /* u64 offset of the chain's next record, u32 length */
#define FLUSH_BYTES  (64u << 10)

struct chain {
    uint64_t head, tail, count;
};
struct journal_entry {
    uint32_t chain;
    struct chain before;
};

struct spool {
    int fd;
    uint64_t flushed; /* bytes in the file; the buffer follows them */
    struct strbuf buf;
    struct chain *chains;
    uint32_t n_chains;
    bool in_txn;
    uint64_t txn_end; /* the end when the transaction began */
    struct journal_entry *journal;
    size_t n_journal, cap_journal;
};

static int open_temp(const char *dir, struct ci_error *err)
{
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    char path[4096];
    snprintf(path, sizeof path, "%s/.judge-results-spool-XXXXXX", dir);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0)
        return ci_fail(err, "%s: cannot create a temporary file: %s", dir, strerror(errno));
    unlink(path);
    return fd;
}

int spool_open(const char *dir, struct spool **out, struct ci_error *err)
{
    struct spool *s = calloc(1, sizeof *s);
    if (!s)
        return ci_fail_oom(err);
    s->fd = open_temp(dir, err);
    if (s->fd < 0) {
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void spool_close(struct spool *s)
{
    if (!s)
        return;
    close(s->fd);
    sb_free(&s->buf);
    free(s->chains);
    free(s->journal);
    free(s);
}

static uint64_t end_of(const struct spool *s)
{
    return s->flushed + s->buf.len;
}

static int write_at(int fd, const void *data, size_t len, uint64_t off, struct ci_error *err)
{
    const char *p = data;
    while (len) {
        ssize_t n = pwrite(fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return ci_fail(err, "spool: write: %s", n < 0 ? strerror(errno) : "no space");
        p += n;
        len -= (size_t)n;
        off += (uint64_t)n;
    }
    return 0;
}

static int flush(struct spool *s, struct ci_error *err)
{
    if (!s->buf.len)
        return 0;
    if (write_at(s->fd, s->buf.data, s->buf.len, s->flushed, err) < 0)
        return -1;
    s->flushed += s->buf.len;
    sb_reset(&s->buf);
    return 0;
}

/* Set the `next` field of the record at off, in the buffer or in the file. */
static int patch_next(struct spool *s, uint64_t off, uint64_t next, struct ci_error *err)
{
    if (off >= s->flushed) {
        memcpy(s->buf.data + (off - s->flushed), &next, sizeof next);
        return 0;
    }
    return write_at(s->fd, &next, sizeof next, off, err);
}

static int grow_chains(struct spool *s, uint32_t chain, struct ci_error *err)
{
    if (chain < s->n_chains)
        return 0;
    uint32_t n = s->n_chains ? s->n_chains : 16;
    while (n <= chain)
        n *= 2;
    struct chain *c = realloc(s->chains, n * sizeof *c);
    if (!c)
        return ci_fail_oom(err);
    for (uint32_t i = s->n_chains; i < n; i++)
        c[i] = (struct chain){NONE, NONE, 0};
    s->chains = c;
    s->n_chains = n;
    return 0;
}

/* Within a transaction, remember a chain's state before its first change. */
static int journal(struct spool *s, uint32_t chain, struct ci_error *err)
{
    if (!s->in_txn)
        return 0;
    for (size_t i = 0; i < s->n_journal; i++)
        if (s->journal[i].chain == chain)
            return 0;
    if (s->n_journal == s->cap_journal) {
        size_t cap = s->cap_journal ? s->cap_journal * 2 : 16;
        struct journal_entry *j = realloc(s->journal, cap * sizeof *j);
        if (!j)
            return ci_fail_oom(err);
        s->journal = j;
        s->cap_journal = cap;
    }
    s->journal[s->n_journal++] = (struct journal_entry){chain, s->chains[chain]};
    return 0;
}

int spool_append(struct spool *s, uint32_t chain, const void *data, size_t len, struct ci_error *err)
{
    if (len > UINT32_MAX)
        return ci_fail(err, "spool: record too large");
    if (grow_chains(s, chain, err) < 0 || journal(s, chain, err) < 0)
        return -1;
    uint64_t off = end_of(s), none = 0;
    uint32_t len32 = (uint32_t)len;
    if (sb_append(&s->buf, &none, sizeof none) < 0 || sb_append(&s->buf, &len32, sizeof len32) < 0 ||
        sb_append(&s->buf, data, len) < 0)
        return ci_fail_oom(err);
    struct chain *c = &s->chains[chain];
    if (c->tail != NONE && patch_next(s, c->tail, off, err) < 0)
        return -1;
    if (c->head == NONE)
        c->head = off;
    c->tail = off;
    c->count++;
    return s->buf.len >= FLUSH_BYTES ? flush(s, err) : 0;
}

uint64_t spool_count(const struct spool *s, uint32_t chain)
{
    return chain < s->n_chains ? s->chains[chain].count : 0;
}

void spool_begin(struct spool *s)
{
    s->in_txn = true;
    s->txn_end = end_of(s);
    s->n_journal = 0;
}

void spool_commit(struct spool *s)
{
    s->in_txn = false;
    s->n_journal = 0;
}

int spool_rollback(struct spool *s, struct ci_error *err)
{
    if (!s->in_txn)
        return 0;
    s->in_txn = false;
    if (s->txn_end >= s->flushed) {
        s->buf.len = (size_t)(s->txn_end - s->flushed);
    } else {
        if (ftruncate(s->fd, (off_t)s->txn_end) < 0)
            return ci_fail(err, "spool: truncate: %s", strerror(errno));
        s->flushed = s->txn_end;
        sb_reset(&s->buf);
    }
    for (size_t i = 0; i < s->n_journal; i++) {
        struct journal_entry *j = &s->journal[i];
        s->chains[j->chain] = j->before;
        if (j->before.tail != NONE && patch_next(s, j->before.tail, 0, err) < 0)
            return -1;
    }
    s->n_journal = 0;
    return 0;
}

static int read_at(int fd, void *data, size_t len, uint64_t off, struct ci_error *err)
{
    char *p = data;
    while (len) {
        ssize_t n = pread(fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return ci_fail(err, "spool: read: %s", n < 0 ? strerror(errno) : "unexpected end");
        p += n;
        len -= (size_t)n;
        off += (uint64_t)n;
    }
    return 0;
}

uint64_t spool_next_offset(const struct spool *s)
{
    return end_of(s);
}

/* The record at off: its link and its data in rec. */
static int read_record(struct spool *s, uint64_t off, uint64_t *next, struct strbuf *rec,
                       struct ci_error *err)
{
    char header[HEADER_BYTES];
    uint32_t len;
    if (read_at(s->fd, header, sizeof header, off, err) < 0)
        return -1;
    memcpy(next, header, sizeof *next);
    memcpy(&len, header + sizeof *next, sizeof len);
    sb_reset(rec);
    if (sb_reserve(rec, len) < 0)
        return ci_fail_oom(err);
    if (read_at(s->fd, rec->data, len, off + HEADER_BYTES, err) < 0)
        return -1;
    rec->len = len;
    rec->data[len] = '\0';
    return 0;
}

int spool_read(struct spool *s, uint64_t offset, struct strbuf *sb, struct ci_error *err)
{
    uint64_t next;
    if (offset >= end_of(s))
        return ci_fail(err, "spool: no record at %llu", (unsigned long long)offset);
    if (flush(s, err) < 0)
        return -1;
    return read_record(s, offset, &next, sb, err);
}

/* spool_each's reading: a window of the file, so that a chain's records, which lie in file order,
 * come a few hundred at a time rather than two reads each. */
struct window {
    char *data;
    uint64_t off;
    size_t len;
};

/* The record at off through the window: its link and its data in rec. */
static int window_record(struct spool *s, struct window *w, uint64_t off, uint64_t *next, struct strbuf *rec,
                         struct ci_error *err)
{
    uint64_t end = s->flushed;
    if (off < w->off || off + HEADER_BYTES > w->off + w->len) {
        size_t len = end - off < FLUSH_BYTES ? (size_t)(end - off) : FLUSH_BYTES;
        if (len < HEADER_BYTES || read_at(s->fd, w->data, len, off, err) < 0)
            return len < HEADER_BYTES ? ci_fail(err, "spool: read: unexpected end") : -1;
        w->off = off;
        w->len = len;
    }
    const char *at = w->data + (off - w->off);
    uint32_t len;
    memcpy(next, at, sizeof *next);
    memcpy(&len, at + sizeof *next, sizeof len);
    if (off + HEADER_BYTES + len > w->off + w->len)
        return read_record(s, off, next, rec, err); /* longer than what the window holds */
    sb_reset(rec);
    return sb_append(rec, at + HEADER_BYTES, len) < 0 ? ci_fail_oom(err) : 0;
}

int spool_each(struct spool *s, uint32_t chain, spool_fn fn, void *ctx, struct ci_error *err)
{
    if (chain >= s->n_chains || s->chains[chain].head == NONE)
        return 0;
    if (flush(s, err) < 0)
        return -1;
    struct window w = {malloc(FLUSH_BYTES), 0, 0};
    if (!w.data)
        return ci_fail_oom(err);
    struct strbuf rec = STRBUF_INIT;
    int rc = 0;
    uint64_t left = s->chains[chain].count, off = s->chains[chain].head, next;
    for (; rc == 0 && left > 0; left--, off = next) {
        rc = window_record(s, &w, off, &next, &rec, err);
        if (rc == 0)
            rc = fn(ctx, rec.data, rec.len, err);
    }
    sb_free(&rec);
    free(w.data);
    return rc;
}
