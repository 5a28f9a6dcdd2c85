/*
 * grades.c - the grading file applied to the standings: points per player
 * per rule, grades.json and grades.md, and who is below --fail-under.
 * A player whose compile failed gets no points.
 */
#include <inttypes.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/json_emit.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"

/* wins * of >= at_least * max(played, of): the share asked for, over at least `of` matches. */
static bool enough_wins(const struct grading_rule *rule, uint64_t wins, uint64_t played)
{
    if (!rule->of)
        return wins >= (uint64_t)rule->at_least;
    uint64_t of = (uint64_t)rule->of, base = played > of ? played : of;
    return (unsigned __int128)wins * of >= (unsigned __int128)rule->at_least * base;
}

/* "(needs 16 of 20: 8 of every 10)": the wins the player's own matches ask for, said as a number
 * a teacher can check against its record, and the rule's share when it is not the same words. */
static void needs(struct strbuf *d, const struct grading_rule *rule, uint64_t played)
{
    if (!rule->of) {
        sb_printf(d, "(needs %" PRId64 ")", rule->at_least);
        return;
    }
    uint64_t of = (uint64_t)rule->of, base = played > of ? played : of;
    unsigned __int128 product = (unsigned __int128)rule->at_least * base;
    uint64_t wanted = (uint64_t)((product + of - 1) / of);
    sb_printf(d, "(needs %" PRIu64 " of %" PRIu64, wanted, base);
    if (base != of)
        sb_printf(d, ": %" PRId64 " of every %" PRId64, rule->at_least, rule->of);
    sb_putc(d, ')');
}

static bool rule_wins(const struct results *r, const struct grading_rule *rule, uint32_t idx,
                      struct strbuf *d)
{
    const struct ci_player *p = &r->st.players[idx];
    uint64_t wins = p->wins, played = p->matches, draws, losses;
    uint32_t opp;
    if (rule->against && standings_find(&r->st, rule->against, strlen(rule->against), &opp)) {
        const struct ci_pair *pair = standings_pair(&r->st, idx, opp);
        standings_h2h(&r->st, idx, opp, &wins, &draws, &losses);
        played = pair ? pair->matches : 0;
    }
    sb_printf(d, "%" PRIu64 " win%s in %" PRIu64 " match%s%s%s ", wins, wins == 1 ? "" : "s", played,
              played == 1 ? "" : "es", rule->against ? " against " : "", rule->against ? rule->against : "");
    needs(d, rule, played);
    return enough_wins(rule, wins, played);
}

/* The class alone is counted (reference bots are ranked apart). A tie passes only when all of it is inside
 * the band, so players tied at the bottom are never lifted into it; nor is a player that broke a rule in
 * every match it played. */
static bool rule_top(const struct results *r, const struct grading_rule *rule, uint32_t idx, struct strbuf *d)
{
    const struct ci_player *p = &r->st.players[idx];
    uint64_t n = r->st.n_class, cut = (n * (uint64_t)rule->percent + 99) / 100;
    if (p->rank_last > p->rank)
        sb_printf(d, "rank %d (tied down to %d) of %" PRIu64, p->rank, p->rank_last, n);
    else
        sb_printf(d, "rank %d of %" PRIu64, p->rank, n);
    sb_printf(d, " (top %" PRId64 "%% = rank %" PRIu64 " or better)", rule->percent, cut);
    if (p->matches && p->violation_matches == p->matches) {
        sb_printf(d, "; a violation in every match");
        return false;
    }
    return p->matches > 0 && (uint64_t)p->rank_last <= cut;
}

/* Whether player idx meets the rule; why, in d (best effort: out of memory shortens it). */
static bool rule_passed(const struct results *r, const struct grading_rule *rule, uint32_t idx,
                        struct strbuf *d)
{
    const struct ci_player *p = &r->st.players[idx];
    if (p->compile_failed) {
        sb_puts(d, "compile failed");
        return false;
    }
    if (p->smoke_failed) {
        sb_printf(d, "failed the smoke test (%s): no match played", p->smoke_verdict);
        return false;
    }
    switch (rule->kind) {
    case GR_WINS:
        return rule_wins(r, rule, idx, d);
    case GR_TOP_PERCENT:
        return rule_top(r, rule, idx, d);
    case GR_NO_VIOLATIONS:
        sb_printf(d, "%" PRIu64 " violation%s in %" PRIu64 " match%s", p->violation_total,
                  p->violation_total == 1 ? "" : "s", p->matches, p->matches == 1 ? "" : "es");
        return p->matches > 0 && p->violation_total == 0;
    }
    return false;
}

static int64_t total_points(const struct results *r, uint32_t idx)
{
    int64_t total = 0;
    struct strbuf d = STRBUF_INIT;
    for (size_t i = 0; i < r->grading.n_rules; i++) {
        sb_reset(&d);
        if (rule_passed(r, &r->grading.rules[i], idx, &d))
            total += r->grading.rules[i].points;
    }
    sb_free(&d);
    return total;
}

static bool graded(const struct results *r, uint32_t idx)
{
    return !r->st.players[idx].reference; /* the grading file's or the replay headers' */
}

static bool below(const struct results *r, uint32_t idx)
{
    return r->opt->has_fail_under && total_points(r, idx) < r->opt->fail_under;
}

int grades_check_names(struct results *r, struct ci_error *err)
{
    const struct grading *g = &r->grading;
    uint32_t idx;
    for (size_t i = 0; i < g->n_rules; i++)
        if (g->rules[i].against &&
            !standings_find(&r->st, g->rules[i].against, strlen(g->rules[i].against), &idx))
            return grading_fail_at(g, g->rules[i].against_mark, err, "no player named '%s' in the replays",
                                   g->rules[i].against);
    for (size_t i = 0; i < g->n_reference; i++)
        if (!standings_find(&r->st, g->reference[i], strlen(g->reference[i]), &idx))
            return grading_fail_at(g, g->reference_marks[i], err, "no player named '%s' in the replays",
                                   g->reference[i]);
    return 0;
}

/* The array of the rules' outcomes for player idx. */
static int json_rules(struct strbuf *sb, const struct results *r, uint32_t idx)
{
    struct strbuf d = STRBUF_INIT;
    int bad = sb_putc(sb, '[') < 0;
    for (size_t i = 0; !bad && i < r->grading.n_rules; i++) {
        const struct grading_rule *rule = &r->grading.rules[i];
        sb_reset(&d);
        bool passed = rule_passed(r, rule, idx, &d);
        struct json_obj o;
        bad = i && sb_putc(sb, ',') < 0;
        jo_begin(&o, sb);
        jo_cstr(&o, "name", rule->name);
        jo_i64(&o, "points", passed ? rule->points : 0);
        jo_bool(&o, "passed", passed);
        jo_str(&o, "detail", d.data ? d.data : "", d.len);
        bad = bad || jo_end(&o) < 0;
    }
    sb_free(&d);
    return bad || sb_putc(sb, ']') < 0 ? -1 : 0;
}

static int json_player(struct strbuf *sb, const struct results *r, uint32_t idx, bool first)
{
    const struct ci_player *p = &r->st.players[idx];
    if (!first && sb_puts(sb, ",\n") < 0)
        return -1;
    struct json_obj o;
    jo_begin(&o, sb);
    jo_str(&o, "name", p->name, p->name_len);
    jo_i64(&o, "rank", p->rank);
    jo_i64(&o, "points", total_points(r, idx));
    jo_bool(&o, "below_fail_under", below(r, idx));
    jo_key(&o, "rules");
    o.bad |= json_rules(sb, r, idx) < 0;
    return jo_end(&o);
}

static int json_text(struct strbuf *sb, const struct results *r)
{
    const struct grading *g = &r->grading;
    if (sb_puts(sb, "{\"format\":\"judge-grades\",\"version\":1,") < 0 ||
        je_cstr(sb, "grading", g->path) < 0 || sb_putc(sb, ',') < 0 ||
        je_i64(sb, "max_points", g->max_points) < 0 || sb_putc(sb, ',') < 0 || je_key(sb, "fail_under") < 0 ||
        (r->opt->has_fail_under ? sb_printf(sb, "%" PRId64, r->opt->fail_under) : sb_puts(sb, "null")) < 0 ||
        sb_puts(sb, ",\"rules\":[") < 0)
        return -1;
    for (size_t i = 0; i < g->n_rules; i++)
        if ((i && sb_putc(sb, ',') < 0) || sb_putc(sb, '{') < 0 ||
            je_cstr(sb, "name", g->rules[i].name) < 0 || sb_putc(sb, ',') < 0 ||
            je_i64(sb, "points", g->rules[i].points) < 0 || sb_putc(sb, '}') < 0)
            return -1;
    if (sb_puts(sb, "],\"players\":[\n") < 0)
        return -1;
    bool first = true;
    for (uint32_t k = 0; k < r->st.n_order; k++) {
        if (!graded(r, r->st.order[k]))
            continue;
        if (json_player(sb, r, r->st.order[k], first) < 0)
            return -1;
        first = false;
    }
    return sb_puts(sb, "\n]}\n");
}

int grades_md_table(struct strbuf *sb, const struct results *r, size_t *rows_cap)
{
    const struct grading *g = &r->grading;
    if (sb_puts(sb, "| # | player |") < 0)
        return -1;
    for (size_t i = 0; i < g->n_rules; i++)
        if (sb_putc(sb, ' ') < 0 || esc_md_inline(sb, g->rules[i].name, strlen(g->rules[i].name)) < 0 ||
            sb_printf(sb, " (%" PRId64 ") |", g->rules[i].points) < 0)
            return -1;
    if (sb_printf(sb, " total (%" PRId64 ") |\n|--:|:--|", g->max_points) < 0)
        return -1;
    for (size_t i = 0; i <= g->n_rules; i++)
        if (sb_puts(sb, "--:|") < 0)
            return -1;
    if (sb_putc(sb, '\n') < 0)
        return -1;
    size_t rows = 0;
    struct strbuf d = STRBUF_INIT;
    for (uint32_t k = 0; k < r->st.n_order && (!rows_cap || rows < *rows_cap); k++) {
        uint32_t idx = r->st.order[k];
        const struct ci_player *p = &r->st.players[idx];
        if (!graded(r, idx))
            continue;
        rows++;
        if (sb_printf(sb, "| %d | ", p->rank) < 0 || esc_md_inline(sb, p->name, p->name_len) < 0 ||
            sb_puts(sb, " |") < 0)
            return -1;
        for (size_t i = 0; i < g->n_rules; i++) {
            sb_reset(&d);
            bool passed = rule_passed(r, &g->rules[i], idx, &d);
            if (sb_printf(sb, " %" PRId64 " |", passed ? g->rules[i].points : 0) < 0)
                return -1;
        }
        if (sb_printf(sb, " %s%" PRId64 "%s |\n", below(r, idx) ? "**" : "", total_points(r, idx),
                      below(r, idx) ? "** (below the pass mark)" : "") < 0)
            return -1;
    }
    sb_free(&d);
    if (rows_cap)
        *rows_cap = rows;
    return 0;
}

static int md_details(struct strbuf *sb, const struct results *r)
{
    struct strbuf d = STRBUF_INIT;
    if (sb_puts(sb, "\n## Why\n\n") < 0)
        return -1;
    for (uint32_t k = 0; k < r->st.n_order; k++) {
        uint32_t idx = r->st.order[k];
        if (!graded(r, idx))
            continue;
        const struct ci_player *p = &r->st.players[idx];
        for (size_t i = 0; i < r->grading.n_rules; i++) {
            sb_reset(&d);
            bool passed = rule_passed(r, &r->grading.rules[i], idx, &d);
            if (sb_puts(sb, passed ? "- ✅ " : "- ❌ ") < 0 || esc_md_inline(sb, p->name, p->name_len) < 0 ||
                sb_puts(sb, ", ") < 0 ||
                esc_md_inline(sb, r->grading.rules[i].name, strlen(r->grading.rules[i].name)) < 0 ||
                sb_puts(sb, ": ") < 0 || esc_md_inline(sb, d.data ? d.data : "", d.len) < 0 ||
                sb_putc(sb, '\n') < 0)
                return -1;
        }
    }
    sb_free(&d);
    return 0;
}

static int md_text(struct strbuf *sb, const struct results *r)
{
    if (sb_puts(sb, "# Grades\n\nFrom ") < 0 ||
        esc_md_code(sb, r->grading.path, strlen(r->grading.path)) < 0 || sb_puts(sb, ". ") < 0)
        return -1;
    if (r->opt->has_fail_under &&
        sb_printf(sb, "Pass mark (--fail-under): %" PRId64 " points. ", r->opt->fail_under) < 0)
        return -1;
    if (sb_puts(sb, "Reference players are not graded.\n\n") < 0 || grades_md_table(sb, r, NULL) < 0)
        return -1;
    return md_details(sb, r);
}

static int count_below(struct results *r)
{
    struct strbuf msg = STRBUF_INIT;
    int rc = 0;
    for (uint32_t k = 0; rc == 0 && k < r->st.n_order; k++) {
        uint32_t idx = r->st.order[k];
        if (!graded(r, idx) || !below(r, idx))
            continue;
        r->rep->below_fail_under++;
        const struct ci_player *p = &r->st.players[idx];
        sb_reset(&msg);
        rc = sb_append(&msg, p->name, p->name_len) < 0 ||
                     sb_printf(&msg, ": %" PRId64 " points, below the pass mark of %" PRId64,
                               total_points(r, idx), r->opt->fail_under) < 0 ||
                     annotation_offer(r, SEV_FAIL_UNDER, "below the pass mark", msg.data, msg.len) < 0
                 ? -1
                 : 0;
    }
    sb_free(&msg);
    return rc;
}

int grades_write(struct results *r, struct ci_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = json_text(&sb, r) < 0 ? ci_fail_oom(err)
                                   : out_whole(r->opt->out_dir, "grades.json", sb.data, sb.len, err);
    sb_reset(&sb);
    if (rc == 0)
        rc = md_text(&sb, r) < 0 ? ci_fail_oom(err)
                                 : out_whole(r->opt->out_dir, "grades.md", sb.data, sb.len, err);
    sb_free(&sb);
    if (rc == 0 && count_below(r) < 0)
        rc = ci_fail_oom(err);
    return rc;
}
