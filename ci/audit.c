/*
 * audit.c - audit.json and audit.md: every violation of every match counted,
 * and every failed compile, grouped by player. Entries are spooled per player
 * as replays are read (audit_add_*), then assembled in standings order.
 */
#include <inttypes.h>
#include <string.h>

#include "ci/audit_groups.h"
#include "ci/escape.h"
#include "ci/json_emit.h"
#include "ci/json_fields.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"
#include "ci/violation_text.h"

/* What the audit says about the match a violation happened in. */
struct audit_match {
    const struct match_record *m;
    struct strbuf rerun, verify;
};

static int match_commands(struct results *r, const struct match_record *m, struct audit_match *am,
                          struct ci_error *err)
{
    char hex[17];
    if (rerun_prepare(r, m, hex, err) < 0)
        return -1;
    if (rerun_command(&am->rerun, r, m, hex) < 0 || sb_puts(&am->verify, "judge replay verify ") < 0 ||
        esc_shell(&am->verify, m->path, strlen(m->path)) < 0)
        return ci_fail_oom(err);
    return 0;
}

/* "text" or null, from a writer of raw text (1 wrote, 0 nothing, -1 out of memory). */
static void jo_text(struct json_obj *o, const char *key,
                    int (*fn)(struct strbuf *, const struct mr_violation *), const struct mr_violation *v)
{
    struct strbuf text = STRBUF_INIT;
    int rc = fn(&text, v);
    if (rc < 0)
        o->bad = 1;
    jo_str(o, key, rc > 0 ? text.data : NULL, text.len);
    sb_free(&text);
}

static void jo_players(struct json_obj *o, const struct match_record *m)
{
    jo_key(o, "players");
    int bad = sb_putc(o->sb, '[') < 0;
    for (int i = 0; i < m->n; i++)
        bad = bad || (i && sb_putc(o->sb, ',') < 0) ||
              je_str(o->sb, NULL, m->seats[i].name, m->seats[i].name_len) < 0;
    if (bad || sb_putc(o->sb, ']') < 0)
        o->bad = 1;
}

static int json_entry(struct strbuf *sb, const struct audit_match *am, const struct mr_violation *v)
{
    const struct match_record *m = am->m;
    size_t reason_len, tail_len;
    const char *reason = vt_reason(v, &reason_len), *tail = vt_stderr_tail(v, &tail_len);
    struct strbuf map = STRBUF_INIT;
    if (mr_map_label(&map, m) < 0) {
        sb_free(&map);
        return -1;
    }
    struct json_obj o;
    jo_begin(&o, sb);
    jo_cstr(&o, "kind", v->kind);
    jo_cstr(&o, "verdict", v->verdict);
    jo_cstr(&o, "by", v->by);
    jo_cstr(&o, "replay", m->path);
    jo_cstr(&o, "game", m->game);
    jo_str(&o, "map", map.data, map.len);
    sb_free(&map);
    jo_cstr(&o, "map_source", m->map_source);
    jo_u64(&o, "seed", m->seed);
    jo_cstr(&o, "match_id", m->match_id);
    jo_players(&o, m);
    jo_i64(&o, "player_number", v->player);
    jo_i64(&o, "round", v->round);
    jo_i64(&o, "reply", v->reply);
    jo_text(&o, "sent", vt_sent, v);
    jo_str(&o, "reason", reason, reason_len);
    jo_text(&o, "limit", vt_limit, v);
    jo_text(&o, "figure", vt_figure, v);
    jo_value(&o, "evidence", v->evidence);
    jo_str(&o, "stderr_tail", tail, tail_len);
    jo_str(&o, "rerun", am->rerun.data, am->rerun.len);
    jo_str(&o, "verify", am->verify.data, am->verify.len);
    return jo_end(&o);
}

/* "- label: text\n" with the text as inline Markdown, from a raw text writer; nothing when it writes none. */
static int md_item(struct strbuf *sb, const char *label,
                   int (*fn)(struct strbuf *, const struct mr_violation *), const struct mr_violation *v,
                   bool code)
{
    struct strbuf text = STRBUF_INIT;
    int rc = fn(&text, v);
    if (rc == 1)
        rc = sb_printf(sb, "- %s: ", label) < 0 ||
                     (code ? esc_md_code(sb, text.data, text.len) : esc_md_inline(sb, text.data, text.len)) <
                         0 ||
                     sb_putc(sb, '\n') < 0
                 ? -1
                 : 1;
    sb_free(&text);
    return rc < 0 ? -1 : 0;
}

static int md_match_line(struct strbuf *sb, const struct match_record *m, int player)
{
    struct strbuf map = STRBUF_INIT;
    int bad = mr_map_label(&map, m) < 0 || sb_puts(sb, "- match: ") < 0 ||
              esc_md_code(sb, m->path, strlen(m->path)) < 0 || sb_puts(sb, " (") < 0 ||
              esc_md_inline(sb, m->game, strlen(m->game)) < 0 || sb_puts(sb, " on ") < 0 ||
              esc_md_inline(sb, map.data ? map.data : "", map.len) < 0 ||
              sb_printf(sb, ", seed %" PRIu64, m->seed) < 0;
    sb_free(&map);
    if (bad)
        return -1;
    if (m->match_id &&
        (sb_puts(sb, ", match ") < 0 || esc_md_inline(sb, m->match_id, strlen(m->match_id)) < 0))
        return -1;
    if (sb_puts(sb, "); players: ") < 0)
        return -1;
    for (int i = 0; i < m->n; i++)
        if ((i && sb_puts(sb, ", ") < 0) || esc_md_inline(sb, m->seats[i].name, m->seats[i].name_len) < 0 ||
            (i + 1 == player && sb_puts(sb, " (this player)") < 0))
            return -1;
    return sb_putc(sb, '\n');
}

static int md_text_line(struct strbuf *sb, const char *label, const char *text, size_t len)
{
    if (!text)
        return 0;
    if (sb_printf(sb, "- %s: ", label) < 0 || esc_md_inline(sb, text, len) < 0)
        return -1;
    return sb_putc(sb, '\n');
}

static int md_stderr(struct strbuf *sb, const char *tail, size_t len)
{
    if (!len)
        return sb_puts(sb, "- stderr tail: (empty)\n");
    if (sb_puts(sb, "- stderr tail:\n\n") < 0 || esc_md_block(sb, tail, len) < 0)
        return -1;
    return sb_putc(sb, '\n');
}

static int md_commands(struct strbuf *sb, const struct audit_match *am)
{
    if (sb_puts(sb, "- re-run and verify: ") < 0 || esc_md_code(sb, am->rerun.data, am->rerun.len) < 0 ||
        sb_puts(sb, "\n- verify the recorded replay: ") < 0 ||
        esc_md_code(sb, am->verify.data, am->verify.len) < 0)
        return -1;
    return sb_puts(sb, "\n\n");
}

/* The record's group line: near-identical violations of the player are shown once (audit_groups.h). */
static int md_group_line(struct strbuf *sb, const struct audit_match *am, const struct mr_violation *v,
                         const char *reason, size_t reason_len)
{
    struct strbuf where = STRBUF_INIT;
    int rc = esc_md_code(&where, am->m->path, strlen(am->m->path)) < 0 ||
                     sb_printf(&where, " round %" PRId64 ", reply %" PRId64, v->round, v->reply) < 0 ||
                     audit_group_line(sb, audit_group_key(v->kind, v->verdict, v->by, reason, reason_len),
                                      where.data, where.len) < 0
                 ? -1
                 : 0;
    sb_free(&where);
    return rc;
}

static int md_entry(struct strbuf *sb, const struct audit_match *am, const struct mr_violation *v)
{
    size_t reason_len, tail_len;
    const char *reason = vt_reason(v, &reason_len), *tail = vt_stderr_tail(v, &tail_len);
    const char *sent = jf_member(v->evidence, "syscall") ? "called" : "sent";
    if (md_group_line(sb, am, v, reason, reason ? reason_len : 0) < 0 || sb_puts(sb, "### ") < 0 ||
        esc_md_inline(sb, v->kind, strlen(v->kind)) < 0 ||
        sb_puts(sb, " (") < 0 || esc_md_inline(sb, v->verdict, strlen(v->verdict)) < 0 ||
        sb_printf(sb, ") in round %" PRId64 ", reply %" PRId64 "\n\n", v->round, v->reply) < 0)
        return -1;
    if (md_match_line(sb, am->m, v->player) < 0 || md_item(sb, sent, vt_sent, v, true) < 0 ||
        md_text_line(sb, "reason", reason, reason_len) < 0 || md_item(sb, "limit", vt_limit, v, false) < 0 ||
        md_item(sb, "figure", vt_figure, v, false) < 0 || md_stderr(sb, tail, tail_len) < 0)
        return -1;
    return md_commands(sb, am);
}

int audit_add_violation(struct results *r, const struct match_record *m, const struct mr_violation *v,
                        struct ci_error *err)
{
    uint32_t chain = m->seats[v->player - 1].player;
    struct audit_match am = {m, STRBUF_INIT, STRBUF_INIT};
    struct strbuf sb = STRBUF_INIT;
    int rc = match_commands(r, m, &am, err);
    if (rc == 0 && json_entry(&sb, &am, v) < 0)
        rc = ci_fail_oom(err);
    if (rc == 0)
        rc = spool_append(r->audit_json, chain, sb.data, sb.len, err);
    sb_reset(&sb);
    if (rc == 0 && md_entry(&sb, &am, v) < 0)
        rc = ci_fail_oom(err);
    if (rc == 0)
        rc = spool_append(r->audit_md, chain, sb.data, sb.len, err);
    sb_free(&sb);
    sb_free(&am.rerun);
    sb_free(&am.verify);
    return rc;
}

static int compile_json(struct strbuf *sb, const struct ci_compile *c, const char *path)
{
    struct json_obj o;
    jo_begin(&o, sb);
    jo_cstr(&o, "kind", "compile");
    jo_cstr(&o, "verdict", c->verdict);
    jo_cstr(&o, "file", path);
    jo_cstr(&o, "profile", c->profile);
    jo_cstr(&o, "source", c->source);
    if (c->has_exit_code)
        jo_i64(&o, "exit_code", c->exit_code);
    else
        jo_value(&o, "exit_code", NULL);
    jo_u64(&o, "cpu_ns", c->cpu_ns);
    jo_u64(&o, "wall_ns", c->wall_ns);
    jo_str(&o, "messages", c->messages, c->messages_len);
    return jo_end(&o);
}

/* A compile's or smoke test's record stands alone: its group is the player's record. */
static int record_group_line(struct strbuf *sb, const struct ci_compile *c, const char *path)
{
    struct strbuf where = STRBUF_INIT;
    int rc = esc_md_code(&where, path, strlen(path)) < 0 ||
                     audit_group_line(sb, c->identity, where.data, where.len) < 0
                 ? -1
                 : 0;
    sb_free(&where);
    return rc;
}

static int compile_md(struct strbuf *sb, const struct ci_compile *c, const char *path)
{
    if (record_group_line(sb, c, path) < 0 || sb_puts(sb, "### compile (") < 0 ||
        esc_md_inline(sb, c->verdict, strlen(c->verdict)) < 0 || sb_puts(sb, ")\n\n- record: ") < 0 ||
        esc_md_code(sb, path, strlen(path)) < 0 || sb_putc(sb, '\n') < 0 ||
        md_text_line(sb, "profile", c->profile, c->profile ? strlen(c->profile) : 0) < 0 ||
        md_text_line(sb, "source", c->source, c->source ? strlen(c->source) : 0) < 0)
        return -1;
    if (c->has_exit_code && sb_printf(sb, "- exit code: %" PRId64 "\n", c->exit_code) < 0)
        return -1;
    if (!c->messages_len)
        return sb_puts(sb, "- compiler output: (empty)\n\n");
    if (sb_puts(sb, "- compiler output:\n\n") < 0 || esc_md_block(sb, c->messages, c->messages_len) < 0)
        return -1;
    return sb_putc(sb, '\n');
}

static int smoke_json(struct strbuf *sb, const struct ci_compile *c, const char *path)
{
    struct json_obj o;
    jo_begin(&o, sb);
    jo_cstr(&o, "kind", "smoke_test");
    jo_cstr(&o, "verdict", c->verdict);
    jo_cstr(&o, "file", path);
    jo_cstr(&o, "reason", c->reason);
    jo_cstr(&o, "match_id", c->match_id);
    jo_str(&o, "stderr_tail", c->messages, c->messages_len);
    return jo_end(&o);
}

static int smoke_md(struct strbuf *sb, const struct ci_compile *c, const char *path)
{
    if (record_group_line(sb, c, path) < 0 || sb_puts(sb, "### smoke test (") < 0 ||
        esc_md_inline(sb, c->verdict, strlen(c->verdict)) < 0 ||
        sb_puts(sb, "): its first reply, before the tournament; no match played\n\n- record: ") < 0 ||
        esc_md_code(sb, path, strlen(path)) < 0 || sb_putc(sb, '\n') < 0 ||
        md_text_line(sb, "first state of match", c->match_id, c->match_id ? strlen(c->match_id) : 0) < 0 ||
        md_text_line(sb, "reason", c->reason, c->reason ? strlen(c->reason) : 0) < 0)
        return -1;
    if (!c->messages_len)
        return sb_puts(sb, "- stderr: (empty)\n\n");
    if (sb_puts(sb, "- stderr:\n\n") < 0 || esc_md_block(sb, c->messages, c->messages_len) < 0)
        return -1;
    return sb_putc(sb, '\n');
}

int audit_add_compile(struct results *r, uint32_t player, const struct ci_compile *c, const char *path,
                      struct ci_error *err)
{
    if (!ci_compile_failed(c))
        return 0;
    struct strbuf sb = STRBUF_INIT;
    int rc = (c->smoke ? smoke_json(&sb, c, path) : compile_json(&sb, c, path)) < 0 ? ci_fail_oom(err) : 0;
    if (rc == 0)
        rc = spool_append(r->audit_json, player, sb.data, sb.len, err);
    sb_reset(&sb);
    if (rc == 0 && (c->smoke ? smoke_md(&sb, c, path) : compile_md(&sb, c, path)) < 0)
        rc = ci_fail_oom(err);
    if (rc == 0)
        rc = spool_append(r->audit_md, player, sb.data, sb.len, err);
    sb_free(&sb);
    return rc;
}
