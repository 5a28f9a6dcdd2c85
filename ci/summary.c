/*
 * summary.c - summary.md, for a CI step summary ($GITHUB_STEP_SUMMARY):
 * counts, standings, grades, violations per player and the skipped files,
 * line by line until the size cap, then a note of what was left out.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/json_fields.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"

#define NOTE_RESERVE 512u /* room kept for the truncation note */

struct bounded {
    struct strbuf sb;
    size_t limit;
    uint64_t omitted; /* lines left out */
};

/* Adds text line by line while it fits. -1 only when out of memory. */
static int add(struct bounded *b, const char *text, size_t len)
{
    while (len) {
        const char *nl = memchr(text, '\n', len);
        size_t line = nl ? (size_t)(nl - text) + 1 : len;
        if (b->omitted || b->sb.len + line + NOTE_RESERVE > b->limit)
            b->omitted++;
        else if (sb_append(&b->sb, text, line) < 0)
            return -1;
        text += line;
        len -= line;
    }
    return 0;
}

/* Adds what tmp holds and empties it. */
static int add_sb(struct bounded *b, struct strbuf *tmp)
{
    int rc = add(b, tmp->data ? tmp->data : "", tmp->len);
    sb_reset(tmp);
    return rc;
}

/* The tournament's shards missing, given twice or of another tournament: before the table they change. */
static int shard_notes(struct strbuf *tmp, const struct results *r)
{
    if (!r->rep->shard_problems)
        return 0;
    if (sb_puts(tmp, "**Shards:** these standings are not one whole tournament's:\n\n") < 0)
        return -1;
    const char *p = r->shard_notes.data;
    for (const char *nl; p && (nl = strchr(p, '\n')); p = nl + 1)
        if (sb_puts(tmp, "- ") < 0 || esc_md_inline(tmp, p, (size_t)(nl - p)) < 0 || sb_putc(tmp, '\n') < 0)
            return -1;
    return sb_putc(tmp, '\n');
}

static int section_standings(struct bounded *b, const struct results *r, struct strbuf *tmp)
{
    if (sb_puts(tmp, "# Results\n\n") < 0 || shard_notes(tmp, r) < 0 || standings_md_intro(tmp, r) < 0 ||
        sb_puts(tmp, "Files: `standings.md`, `audit.md` (every violation, with the command that re-runs its "
                     "match), `junit.xml`") < 0 ||
        sb_puts(tmp, r->has_grading ? ", `grades.md`.\n\n## Standings\n\n" : ".\n\n## Standings\n\n") < 0 ||
        standings_md_head(tmp) < 0 || add_sb(b, tmp) < 0)
        return -1;
    for (uint32_t k = 0; k < r->st.n_order; k++)
        if ((k == r->st.n_class && standings_md_reference_head(tmp, &r->st) < 0) ||
            standings_md_row(tmp, &r->st.players[r->st.order[k]]) < 0 || add_sb(b, tmp) < 0)
            return -1;
    return 0;
}

static int section_grades(struct bounded *b, const struct results *r, struct strbuf *tmp)
{
    if (!r->has_grading)
        return 0;
    if (sb_puts(tmp, "\n## Grades\n\n") < 0)
        return -1;
    if (r->opt->has_fail_under && sb_printf(tmp, "Pass mark: %" PRId64 " points; %" PRIu32 " below it.\n\n",
                                            r->opt->fail_under, r->rep->below_fail_under) < 0)
        return -1;
    return grades_md_table(tmp, r, NULL) < 0 ? -1 : add_sb(b, tmp);
}

static int section_violations(struct bounded *b, const struct results *r, struct strbuf *tmp)
{
    if (sb_printf(tmp, "\n## Violations\n\n%" PRIu64 " in all.", r->rep->violations) < 0)
        return -1;
    if (!r->rep->violations)
        return sb_putc(tmp, '\n') < 0 ? -1 : add_sb(b, tmp);
    if (sb_puts(tmp, "\n\n| player | total |") < 0)
        return -1;
    for (int k = 0; k < CI_KIND_COUNT; k++)
        if (sb_printf(tmp, " %s |", ci_kind_name((enum ci_kind)k)) < 0)
            return -1;
    if (sb_puts(tmp, "\n|:--|--:|--:|--:|--:|--:|--:|--:|--:|\n") < 0 || add_sb(b, tmp) < 0)
        return -1;
    for (uint32_t i = 0; i < r->st.n_order; i++) {
        const struct ci_player *p = &r->st.players[r->st.order[i]];
        if (!p->violation_total)
            continue;
        if (sb_puts(tmp, "| ") < 0 || esc_md_inline(tmp, p->name, p->name_len) < 0 ||
            sb_printf(tmp, " | %" PRIu64 " |", p->violation_total) < 0)
            return -1;
        for (int k = 0; k < CI_KIND_COUNT; k++)
            if (sb_printf(tmp, " %" PRIu64 " |", p->violations[k]) < 0)
                return -1;
        if (sb_putc(tmp, '\n') < 0 || add_sb(b, tmp) < 0)
            return -1;
    }
    return 0;
}

struct skipped_ctx {
    struct bounded *b;
    struct strbuf *tmp;
};

static int skipped_line(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    struct skipped_ctx *c = ctx;
    struct json_object *o = json_tokener_parse(data);
    size_t reason_len = 0;
    const char *reason = jf_string(o, "reason", &reason_len);
    int rc = sb_puts(c->tmp, "- ") < 0 ||
             esc_md_inline(c->tmp, reason ? reason : data, reason ? reason_len : len) < 0 ||
             sb_putc(c->tmp, '\n') < 0 || add_sb(c->b, c->tmp) < 0;
    json_object_put(o);
    return rc ? ci_fail_oom(err) : 0;
}

static int section_skipped(struct bounded *b, struct results *r, struct strbuf *tmp, struct ci_error *err)
{
    uint64_t n = r->rep->skipped_damaged + r->rep->skipped_duplicate;
    if (!n)
        return 0;
    if (sb_printf(tmp,
                  "\n## Skipped files\n\n%" PRIu64 " damaged, %" PRIu64
                  " duplicate (a match counted once).\n\n",
                  r->rep->skipped_damaged, r->rep->skipped_duplicate) < 0 ||
        add_sb(b, tmp) < 0)
        return ci_fail_oom(err);
    struct skipped_ctx c = {b, tmp};
    return spool_each(r->misc, MISC_SKIPPED, skipped_line, &c, err);
}

int summary_write(struct results *r, struct ci_error *err)
{
    struct bounded b = {STRBUF_INIT, r->opt->summary_limit ? r->opt->summary_limit : RESULTS_SUMMARY_LIMIT,
                        0};
    struct strbuf tmp = STRBUF_INIT;
    int rc = section_standings(&b, r, &tmp) < 0 || section_grades(&b, r, &tmp) < 0 ||
                     section_violations(&b, r, &tmp) < 0
                 ? ci_fail_oom(err)
                 : section_skipped(&b, r, &tmp, err);
    if (rc == 0 && b.omitted &&
        sb_printf(&b.sb,
                  "\n_Truncated to stay under %zu bytes: %" PRIu64 " more lines left out. standings.md, "
                  "grades.md and audit.md have everything._\n",
                  b.limit, b.omitted) < 0)
        rc = ci_fail_oom(err);
    if (rc == 0)
        rc = out_whole(r->opt->out_dir, "summary.md", b.sb.data ? b.sb.data : "", b.sb.len, err);
    sb_free(&tmp);
    sb_free(&b.sb);
    return rc;
}
