/* audit_write.c - assemble audit.json and audit.md from the spooled entries, in standings order. */
#include <inttypes.h>

#include "ci/audit_groups.h"
#include "ci/escape.h"
#include "ci/json_emit.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"

static int json_player(struct results *r, struct out_file *out, uint32_t idx, bool first,
                       struct ci_error *err)
{
    const struct ci_player *p = &r->st.players[idx];
    struct strbuf sb = STRBUF_INIT;
    bool bad = (!first && sb_puts(&sb, ",\n") < 0) || sb_putc(&sb, '{') < 0 ||
               je_str(&sb, "name", p->name, p->name_len) < 0 || sb_putc(&sb, ',') < 0 ||
               je_i64(&sb, "rank", p->rank) < 0 || sb_putc(&sb, ',') < 0 ||
               je_u64(&sb, "count", spool_count(r->audit_json, idx)) < 0 ||
               sb_puts(&sb, ",\"violations\":[\n") < 0;
    if (bad || out_take(out, &sb, err) < 0) {
        sb_free(&sb);
        return bad ? ci_fail_oom(err) : -1;
    }
    sb_free(&sb);
    struct out_records c = {out, ",\n", 0};
    if (spool_each(r->audit_json, idx, out_record, &c, err) < 0)
        return -1;
    return out_puts(out, "]}", err);
}

static int write_json(struct results *r, struct ci_error *err)
{
    struct out_file out;
    if (out_open(&out, r->opt->out_dir, "audit.json", err) < 0)
        return -1;
    int rc = out_puts(&out, "{\"format\":\"judge-audit\",\"version\":1,\"players\":[\n", err);
    bool first = true;
    for (uint32_t k = 0; rc == 0 && k < r->st.n_order; k++) {
        uint32_t idx = r->st.order[k];
        if (!spool_count(r->audit_json, idx))
            continue;
        rc = json_player(r, &out, idx, first, err);
        first = false;
    }
    if (rc == 0)
        rc = out_puts(&out, "\n]}\n", err);
    if (rc == 0)
        return out_commit(&out, err);
    out_abort(&out);
    return -1;
}

static int md_header(struct results *r, struct out_file *out, struct ci_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = sb_printf(
        &sb,
        "# Audit\n\nEvery violation of every match counted (%" PRIu64 "), and every failed compile, "
        "grouped by player in standings order. Each violation gives the command that plays the "
        "match again with the same seed and verifies the new replay, and the one that verifies "
        "the recorded replay. Near-identical violations of a player (the same kind, verdict and "
        "reason, numbers aside) are shown once, with how many times and where the first and the "
        "last were; audit.json lists every one.\n\n",
        r->rep->violations);
    if (rc < 0)
        return ci_fail_oom(err);
    rc = out_take(out, &sb, err);
    sb_free(&sb);
    return rc;
}

static int md_player(struct results *r, struct out_file *out, uint32_t idx, struct ci_error *err)
{
    const struct ci_player *p = &r->st.players[idx];
    struct strbuf sb = STRBUF_INIT;
    uint64_t n = spool_count(r->audit_md, idx), groups, shown;
    if (audit_groups_count(r->audit_md, idx, &groups, err) < 0)
        return -1;
    bool bad = sb_puts(&sb, "## ") < 0 || esc_md_inline(&sb, p->name, p->name_len) < 0 ||
               sb_printf(&sb, " (%srank %d): %" PRIu64 " entr%s", p->reference ? "reference bot, " : "", p->rank,
                         n, n == 1 ? "y" : "ies") < 0 ||
               (groups < n && sb_printf(&sb, ", %" PRIu64 " different", groups) < 0) || sb_puts(&sb, "\n\n") < 0;
    int rc = bad ? ci_fail_oom(err) : out_take(out, &sb, err);
    sb_free(&sb);
    return rc < 0 ? -1 : audit_groups_write(r->audit_md, idx, out, &shown, err);
}

static int write_md(struct results *r, struct ci_error *err)
{
    struct out_file out;
    if (out_open(&out, r->opt->out_dir, "audit.md", err) < 0)
        return -1;
    int rc = md_header(r, &out, err);
    bool any = false;
    for (uint32_t k = 0; rc == 0 && k < r->st.n_order; k++) {
        uint32_t idx = r->st.order[k];
        if (spool_count(r->audit_md, idx)) {
            any = true;
            rc = md_player(r, &out, idx, err);
        }
    }
    if (rc == 0 && !any)
        rc = out_puts(&out, "No violations and no failed compiles.\n", err);
    if (rc == 0)
        return out_commit(&out, err);
    out_abort(&out);
    return -1;
}

int audit_write(struct results *r, struct ci_error *err)
{
    return write_json(r, err) < 0 ? -1 : write_md(r, err);
}
