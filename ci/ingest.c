/*
 * ingest.c - one input file, as read by replay_load.c, into the results: a
 * replay (header, violations, result) or a compile record. A damaged replay
 * is withdrawn whole (its audit records rolled back) and noted; a copy of a
 * match already counted is noted as a duplicate.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/isolation_note.h"
#include "ci/json_emit.h"
#include "ci/json_fields.h"
#include "ci/results_internal.h"

void results_note_skip(struct results *r, const char *path, const char *why, bool duplicate)
{
    struct strbuf sb = STRBUF_INIT;
    struct ci_error ignored;
    if (duplicate)
        r->rep->skipped_duplicate++;
    else
        r->rep->skipped_damaged++;
    /* The record is best effort: out of memory here loses one line of the list, never the run. */
    struct json_obj o;
    jo_begin(&o, &sb);
    jo_cstr(&o, "file", path);
    jo_cstr(&o, "reason", why);
    jo_bool(&o, "duplicate", duplicate);
    if (jo_end(&o) == 0)
        spool_append(r->misc, MISC_SKIPPED, sb.data, sb.len, &ignored);
    if (!duplicate)
        annotation_offer(r, SEV_SKIPPED, "damaged replay skipped", why, strlen(why));
    sb_reset(&sb);
    if (r->hooks && r->hooks->note && esc_visible(&sb, why, strlen(why)) == 0 &&
        sb_puts(&sb, duplicate ? " (skipped: counted once)" : " (skipped)") == 0)
        r->hooks->note(r->hooks->ctx, sb.data);
    sb_free(&sb);
}

/* "PATH: line N: msg" for what the results stage itself finds wrong in a replay. */
static void skip_at_line(struct results *r, const char *path, int line, const char *msg)
{
    char why[1024];
    snprintf(why, sizeof why, "%s: line %d: %s", path, line, msg);
    results_note_skip(r, path, why, false);
}

static int count_compile(struct results *r, const char *path, struct ci_compile *c, struct ci_error *err)
{
    uint64_t first;
    if (keyset_get(r->seen, c->identity, &first)) {
        if (keyset_get(r->seen, c->outcome, &first))
            return 0; /* each shard that plays a player compiles it: the same record again */
        char why[1024];
        snprintf(why, sizeof why, "%s: another %s record of the same player, saying something else, "
                 "was counted", path, c->smoke ? "smoke" : "compile");
        results_note_skip(r, path, why, true);
        return 0;
    }
    uint32_t player;
    uint64_t at = spool_next_offset(r->paths);
    if (standings_player(&r->st, c->player, c->player_len, &player, err) < 0 ||
        spool_append(r->paths, 0, path, strlen(path), err) < 0)
        return -1;
    if (keyset_add(r->seen, c->identity, at, NULL) < 0 || keyset_add(r->seen, c->outcome, at, NULL) < 0)
        return ci_fail_oom(err);
    if (c->smoke)
        standings_add_smoke(&r->st, player, c->verdict);
    else
        standings_add_compile(&r->st, player, c->verdict);
    r->rep->compile_records++;
    if (audit_add_compile(r, player, c, path, err) < 0 || junit_add_compile(r, player, c, path, err) < 0)
        return -1;
    if (!ci_compile_failed(c))
        return 0;
    struct strbuf msg = STRBUF_INIT;
    int rc = sb_append(&msg, c->player, c->player_len) < 0 || sb_printf(&msg, ": %s", c->verdict) < 0 ||
                     annotation_offer(r, SEV_COMPILE, c->smoke ? "smoke test failed" : "compile failed", msg.data,
                                      msg.len) < 0
                 ? ci_fail_oom(err)
                 : 0;
    sb_free(&msg);
    return rc;
}

/* 1 when a match of the same identity was counted (its path in *first_path), else 0. */
static int duplicate(struct results *r, const struct match_record *m, struct strbuf *first_path,
                     struct ci_error *err)
{
    uint64_t first;
    if (!keyset_get(r->seen, m->identity, &first))
        return 0;
    return spool_read(r->paths, first, first_path, err) < 0 ? -1 : 1;
}

static int note_duplicate(struct results *r, const struct match_record *m, const struct strbuf *first_path,
                          struct ci_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    if (sb_printf(&sb, "%s: the same match (its whole header but timing and host facts) as %s", m->path,
                  first_path->data) < 0) {
        sb_free(&sb);
        return ci_fail_oom(err);
    }
    results_note_skip(r, m->path, sb.data, true);
    sb_free(&sb);
    return 0;
}

static int assign_players(struct results *r, struct match_record *m, struct ci_error *err)
{
    for (int i = 0; i < m->n; i++)
        if (standings_player(&r->st, m->seats[i].name, m->seats[i].name_len, &m->seats[i].player, err) < 0)
            return -1;
    return 0;
}

static int offer_violations(struct results *r, const struct match_record *m)
{
    for (int i = 0; i < m->n; i++) {
        const struct mr_seat *s = &m->seats[i];
        if (!s->violation_total)
            continue;
        struct strbuf msg = STRBUF_INIT;
        int rc = sb_append(&msg, s->name, s->name_len) < 0 || sb_puts(&msg, ": ") < 0 ||
                 sb_append(&msg, s->first_violation.data, s->first_violation.len) < 0 ||
                 sb_printf(&msg, " in %s", m->path) < 0 ||
                 annotation_offer(r, SEV_VIOLATION + (int)ci_kind_of(s->first_kind), s->first_kind, msg.data,
                                  msg.len) < 0;
        sb_free(&msg);
        if (rc)
            return -1;
    }
    return 0;
}

/* A complete replay: count it. */
static int count_match(struct results *r, struct match_record *m, struct loaded_file *lf, struct ci_error *err)
{
    uint64_t at = spool_next_offset(r->paths);
    if (spool_append(r->paths, 0, m->path, strlen(m->path), err) < 0)
        return -1;
    if (keyset_add(r->seen, m->identity, at, NULL) < 0)
        return ci_fail_oom(err);
    if (standings_add_match(&r->st, m, err) < 0)
        return -1;
    for (int i = 0; i < m->n; i++) {
        struct ci_player *p = &r->st.players[m->seats[i].player];
        for (int k = 0; k < CI_KIND_COUNT; k++)
            p->violations[k] += m->seats[i].violations[k];
        p->violation_total += m->seats[i].violation_total;
        r->rep->violations += m->seats[i].violation_total;
    }
    r->rep->matches++;
    isolation_note_add(r->rep, m->header);
    if (junit_add_match(r, m, err) < 0 || html_add_match(r, m, lf, err) < 0)
        return -1;
    return offer_violations(r, m) < 0 ? ci_fail_oom(err) : 0;
}

/* The violations and the result, checked; counted into the audit unless `counting` is false (a copy).
 * 1: all good; 0: damaged (noted); -1: internal error. */
static int read_lines(struct results *r, const struct loaded_file *lf, struct match_record *m, bool counting,
                      struct ci_error *err)
{
    struct ci_error bad = {0};
    for (size_t i = 0; i < lf->n_violations; i++) {
        struct mr_violation v;
        if (mr_violation(m, lf->violations[i].obj, &v, &bad) < 0) {
            skip_at_line(r, m->path, lf->violations[i].line, bad.msg);
            return 0;
        }
        if (counting && (mr_note_violation(m, &v, err) < 0 || audit_add_violation(r, m, &v, err) < 0))
            return -1;
    }
    if (mr_result(m, lf->result.obj, &bad) < 0) {
        skip_at_line(r, m->path, lf->result.line, bad.msg);
        return 0;
    }
    return 1;
}

static int count_replay(struct results *r, struct loaded_file *lf, struct match_record *m,
                        struct ci_error *err)
{
    if (assign_players(r, m, err) < 0)
        return -1;
    spool_begin(r->audit_json);
    spool_begin(r->audit_md);
    int rc = read_lines(r, lf, m, true, err);
    if (rc == 1 && count_match(r, m, lf, err) < 0)
        rc = -1;
    if (rc == 1) {
        spool_commit(r->audit_json);
        spool_commit(r->audit_md);
        return 0;
    }
    if (spool_rollback(r->audit_json, err) < 0 || spool_rollback(r->audit_md, err) < 0)
        return -1;
    return rc;
}

static int ingest_replay(struct results *r, struct loaded_file *lf, struct ci_error *err)
{
    struct match_record m;
    struct ci_error bad = {0};
    int rc = 0;
    if (mr_header(&m, lf->header, lf->path, &bad) < 0) {
        skip_at_line(r, lf->path, 1, bad.msg);
    } else {
        struct strbuf first_path = STRBUF_INIT;
        rc = duplicate(r, &m, &first_path, err);
        if (rc == 0) {
            rc = count_replay(r, lf, &m, err);
        } else if (rc == 1) { /* a copy: a duplicate when it is complete, damaged otherwise */
            rc = read_lines(r, lf, &m, false, err);
            if (rc == 1)
                rc = note_duplicate(r, &m, &first_path, err);
        }
        sb_free(&first_path);
    }
    mr_free(&m);
    html_drop_page(r, lf); /* unless it was kept */
    return rc < 0 ? -1 : 0;
}

int ingest_file(struct results *r, struct loaded_file *lf, struct ci_error *err)
{
    r->rep->files++;
    switch (lf->kind) {
    case LOADED_REPLAY:
        return ingest_replay(r, lf, err);
    case LOADED_COMPILE:
        return count_compile(r, lf->path, &lf->compile, err);
    case LOADED_DAMAGED:
        results_note_skip(r, lf->path, lf->msg, false);
        return 0;
    case LOADED_FAILED:
        break;
    }
    return ci_fail(err, "%s", lf->msg);
}
