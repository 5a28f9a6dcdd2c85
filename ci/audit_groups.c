/* audit_groups.c - near-identical audit.md entries of one player shown once (audit_groups.h). */
#include "ci/audit_groups.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ci/out_file.h"
#include "ci/spool.h"

#define KEY_HEX 32

struct key128 audit_group_key(const char *kind, const char *verdict, const char *by, const char *reason,
                              size_t reason_len)
{
    struct key128 h = KEY128_INIT;
    const char *words[] = {kind ? kind : "", verdict ? verdict : "", by ? by : ""};
    for (size_t i = 0; i < 3; i++)
        key128_add(&h, words[i], strlen(words[i]) + 1);
    if (!reason)
        reason_len = 0;
    for (size_t i = 0; i < reason_len; i++) {
        bool digit = reason[i] >= '0' && reason[i] <= '9';
        if (digit && i > 0 && reason[i - 1] >= '0' && reason[i - 1] <= '9')
            continue;
        key128_add(&h, digit ? "#" : &reason[i], 1);
    }
    return key128_finish(h);
}

int audit_group_line(struct strbuf *sb, struct key128 key, const char *where, size_t where_len)
{
    if (sb_printf(sb, "%016" PRIx64 "%016" PRIx64 "\t", key.a, key.b) < 0)
        return -1;
    for (size_t i = 0; i < where_len; i++) /* one line */
        if (sb_putc(sb, where[i] == '\n' ? ' ' : where[i]) < 0)
            return -1;
    return sb_putc(sb, '\n');
}

/* A record split into its key, where it happened and its section. */
struct record {
    struct key128 key;
    const char *where, *section;
    size_t where_len, section_len;
};

static int hex64(const char *s, uint64_t *out)
{
    *out = 0;
    for (int i = 0; i < 16; i++) {
        char c = s[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0)
            return -1;
        *out = *out << 4 | (uint64_t)v;
    }
    return 0;
}

static int split(const char *data, size_t len, struct record *r, struct ci_error *err)
{
    const char *nl = memchr(data, '\n', len);
    if (!nl || len < KEY_HEX + 1 || data[KEY_HEX] != '\t' || hex64(data, &r->key.a) < 0 ||
        hex64(data + 16, &r->key.b) < 0)
        return ci_fail(err, "audit: a spooled record has no group line");
    r->where = data + KEY_HEX + 1;
    r->where_len = (size_t)(nl - r->where);
    r->section = nl + 1;
    r->section_len = len - (size_t)(r->section - data);
    return 0;
}

struct group {
    uint64_t count, seen;
    struct strbuf last_where;
};

struct groups {
    struct keyset *index; /* key -> position in g */
    struct group *g;
    size_t n, cap;
};

static struct group *find_or_add(struct groups *gs, struct key128 key)
{
    uint64_t at;
    if (keyset_get(gs->index, key, &at))
        return &gs->g[at];
    if (gs->n == gs->cap) {
        size_t cap = gs->cap ? gs->cap * 2 : 16;
        struct group *g = realloc(gs->g, cap * sizeof *g);
        if (!g)
            return NULL;
        gs->g = g;
        gs->cap = cap;
    }
    if (keyset_add(gs->index, key, gs->n, NULL) < 0)
        return NULL;
    gs->g[gs->n] = (struct group){0, 0, STRBUF_INIT};
    return &gs->g[gs->n++];
}

static int collect(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    struct groups *gs = ctx;
    struct record r;
    if (split(data, len, &r, err) < 0)
        return -1;
    struct group *g = find_or_add(gs, r.key);
    if (!g)
        return ci_fail_oom(err);
    g->count++;
    sb_reset(&g->last_where);
    return sb_append(&g->last_where, r.where, r.where_len) < 0 ? ci_fail_oom(err) : 0;
}

static void groups_free(struct groups *gs)
{
    for (size_t i = 0; i < gs->n; i++)
        sb_free(&gs->g[i].last_where);
    free(gs->g);
    keyset_free(gs->index);
}

static int groups_read(struct spool *md, uint32_t chain, struct groups *gs, struct ci_error *err)
{
    memset(gs, 0, sizeof *gs);
    if (!(gs->index = keyset_new()))
        return ci_fail_oom(err);
    return spool_each(md, chain, collect, gs, err);
}

int audit_groups_count(struct spool *md, uint32_t chain, uint64_t *groups, struct ci_error *err)
{
    struct groups gs;
    int rc = groups_read(md, chain, &gs, err);
    *groups = gs.n;
    groups_free(&gs);
    return rc;
}

struct writer {
    struct groups *gs;
    struct out_file *out;
    uint64_t number;
    struct strbuf text;
};

/* The section with its number, and for a group its count and where the first and last were. */
static int emit(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    struct writer *w = ctx;
    struct record r;
    if (split(data, len, &r, err) < 0)
        return -1;
    struct group *g = find_or_add(w->gs, r.key);
    if (!g)
        return ci_fail_oom(err);
    if (g->seen++)
        return 0;
    const char *heading_end = memchr(r.section, '\n', r.section_len);
    size_t heading = heading_end ? (size_t)(heading_end - r.section) + 1 : r.section_len;
    bool hashes = r.section_len >= 4 && !memcmp(r.section, "### ", 4);
    sb_reset(&w->text);
    int bad = sb_printf(&w->text, "### %" PRIu64 ". ", ++w->number) < 0 ||
              sb_append(&w->text, r.section + (hashes ? 4 : 0), heading - (hashes ? 4 : 0)) < 0;
    if (!bad && g->count > 1)
        bad = sb_printf(&w->text, "\n- **%" PRIu64 " times** in all (the same kind, verdict and reason, numbers "
                                  "aside); the first: ",
                        g->count) < 0 ||
              sb_append(&w->text, r.where, r.where_len) < 0 || sb_puts(&w->text, "; the last: ") < 0 ||
              sb_append(&w->text, g->last_where.data, g->last_where.len) < 0 ||
              sb_puts(&w->text, ". The first in full:\n") < 0;
    bad = bad || sb_append(&w->text, r.section + heading, r.section_len - heading) < 0;
    if (bad)
        return ci_fail_oom(err);
    return out_write(w->out, w->text.data, w->text.len, err);
}

int audit_groups_write(struct spool *md, uint32_t chain, struct out_file *out, uint64_t *shown,
                       struct ci_error *err)
{
    struct groups gs;
    struct writer w = {&gs, out, 0, STRBUF_INIT};
    int rc = groups_read(md, chain, &gs, err);
    if (rc == 0)
        rc = spool_each(md, chain, emit, &w, err);
    *shown = w.number;
    sb_free(&w.text);
    groups_free(&gs);
    return rc;
}
