/* standings_out.c - standings.json and standings.md, and the Markdown table summary.md shares. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/isolation_note.h"
#include "ci/json_emit.h"
#include "ci/out_file.h"
#include "ci/player_verdict.h"
#include "ci/results_internal.h"

#define MATRIX_MAX_PLAYERS 30 /* a wider head-to-head table is unreadable: standings.json has it */

static void jo_violations(struct json_obj *o, const struct ci_player *p)
{
    struct json_obj v;
    jo_key(o, "violations");
    jo_begin(&v, o->sb);
    jo_u64(&v, "total", p->violation_total);
    for (int k = 0; k < CI_KIND_COUNT; k++)
        jo_u64(&v, ci_kind_name((enum ci_kind)k), p->violations[k]);
    if (jo_end(&v) < 0)
        o->bad = 1;
}

static void jo_verdicts(struct json_obj *o, const struct ci_player *p)
{
    struct json_obj v;
    jo_key(o, "verdicts");
    jo_begin(&v, o->sb);
    for (int i = 0; i < CI_MAX_VERDICTS && p->verdicts[i].count; i++)
        jo_u64(&v, p->verdicts[i].name, p->verdicts[i].count);
    if (p->other_verdicts)
        jo_u64(&v, "other", p->other_verdicts);
    if (jo_end(&v) < 0)
        o->bad = 1;
}

static int json_player(struct strbuf *sb, const struct ci_player *p)
{
    struct json_obj o;
    jo_begin(&o, sb);
    jo_i64(&o, "rank", p->rank);
    jo_str(&o, "name", p->name, p->name_len);
    jo_bool(&o, "reference", p->reference);
    jo_cstr(&o, "verdict", player_verdict_word(p));
    jo_cstr(&o, "compile", p->has_compile ? p->compile_verdict : NULL);
    jo_cstr(&o, "smoke_test", p->smoke_failed ? p->smoke_verdict : NULL);
    jo_u64(&o, "matches", p->matches);
    jo_u64(&o, "wins", p->wins);
    jo_u64(&o, "draws", p->draws);
    jo_u64(&o, "losses", p->losses);
    jo_i64(&o, "points", p->points);
    jo_double(&o, "points_per_match", p->matches ? standings_per_match(p) : NAN, 3);
    jo_u64(&o, "violation_matches", p->violation_matches);
    jo_verdicts(&o, p);
    jo_double(&o, "rating", p->rating, 1);
    jo_double(&o, "rating_se", p->rating_se, 1);
    jo_u64(&o, "cpu_ns", p->cpu_ns);
    jo_violations(&o, p);
    return jo_end(&o);
}

static void jo_rating(struct json_obj *o, const struct standings *st)
{
    struct json_obj r;
    jo_key(o, "rating");
    jo_begin(&r, o->sb);
    jo_cstr(&r, "model", "bradley-terry");
    jo_cstr(&r, "scale", "1500 + 400 log10(strength), centred on the mean");
    jo_i64(&r, "prior_games", 1);
    jo_bool(&r, "converged", st->rating_converged);
    jo_i64(&r, "iterations", st->rating_iterations);
    jo_cstr(&r, "standard_error", st->se_exact ? "fisher information" : "fisher information, diagonal only");
    if (jo_end(&r) < 0)
        o->bad = 1;
}

/* The object's opening and its small fields; the arrays follow (json_body). */
static int json_head(struct strbuf *sb, const struct results *r)
{
    const struct standings *st = &r->st;
    const struct results_report *rep = r->rep;
    struct json_obj o;
    jo_begin(&o, sb);
    jo_cstr(&o, "format", "judge-standings");
    jo_i64(&o, "version", 1);
    jo_key(&o, "games");
    o.bad |= sb_putc(sb, '[') < 0;
    for (size_t i = 0; i < st->n_games; i++)
        o.bad |= (i && sb_putc(sb, ',') < 0) || je_cstr(sb, NULL, st->games[i]) < 0;
    o.bad |= sb_putc(sb, ']') < 0;
    jo_u64(&o, "files", rep->files);
    jo_u64(&o, "matches", rep->matches);
    jo_u64(&o, "compile_records", rep->compile_records);
    jo_u64(&o, "best_effort_matches", rep->best_effort_matches);
    jo_key(&o, "skipped");
    o.bad |= sb_printf(sb, "{\"damaged\":%" PRIu64 ",\"duplicate\":%" PRIu64 "}", rep->skipped_damaged,
                       rep->skipped_duplicate) < 0;
    jo_cstr(&o, "ranking",
            "points per match, then rating, then wins; a failed compile last; reference bots ranked apart");
    jo_rating(&o, st);
    return o.bad || sb_putc(sb, ',') < 0 ? -1 : 0; /* left open */
}

static int json_h2h(struct strbuf *sb, const struct results *r, bool *first, uint32_t x, uint32_t y)
{
    const struct standings *st = &r->st;
    const struct ci_pair *pair = standings_pair(st, x, y);
    if (!pair)
        return 0;
    uint64_t w, d, l;
    standings_h2h(st, x, y, &w, &d, &l);
    const struct ci_player *p = &st->players[x], *q = &st->players[y];
    if (!*first && sb_puts(sb, ",\n") < 0)
        return -1;
    *first = false;
    struct json_obj o;
    jo_begin(&o, sb);
    jo_str(&o, "player", p->name, p->name_len);
    jo_str(&o, "opponent", q->name, q->name_len);
    jo_u64(&o, "matches", pair->matches);
    jo_u64(&o, "wins", w);
    jo_u64(&o, "draws", d);
    jo_u64(&o, "losses", l);
    return jo_end(&o);
}

static int json_body(struct results *r, struct out_file *out, struct strbuf *sb, struct ci_error *err)
{
    const struct standings *st = &r->st;
    if (sb_puts(sb, "\"players\":[\n") < 0)
        return ci_fail_oom(err);
    for (uint32_t k = 0; k < st->n_order; k++)
        if ((k && sb_puts(sb, ",\n") < 0) || json_player(sb, &st->players[st->order[k]]) < 0)
            return ci_fail_oom(err);
    if (sb_puts(sb, "\n],\"head_to_head\":[\n") < 0 || out_take(out, sb, err) < 0)
        return err->msg[0] ? -1 : ci_fail_oom(err);
    bool first = true;
    for (uint32_t i = 0; i < st->n_order; i++) {
        for (uint32_t j = 0; j < st->n_order; j++)
            if (i != j && json_h2h(sb, r, &first, st->order[i], st->order[j]) < 0)
                return ci_fail_oom(err);
        if (out_take(out, sb, err) < 0)
            return -1;
    }
    return 0;
}

static int write_json(struct results *r, struct ci_error *err)
{
    struct out_file out;
    struct strbuf sb = STRBUF_INIT;
    if (out_open(&out, r->opt->out_dir, "standings.json", err) < 0)
        return -1;
    int rc = json_head(&sb, r) < 0 ? ci_fail_oom(err) : json_body(r, &out, &sb, err);
    sb_free(&sb);
    if (rc == 0)
        rc = out_puts(&out, "\n],\"skipped_files\":[", err);
    struct out_records records = {&out, ",\n", 0};
    if (rc == 0)
        rc = spool_each(r->misc, MISC_SKIPPED, out_record, &records, err);
    if (rc == 0)
        rc = out_puts(&out, "]}\n", err);
    if (rc == 0)
        return out_commit(&out, err);
    out_abort(&out);
    return -1;
}

/* ---- Markdown ------------------------------------------------------------------- */

int standings_md_head(struct strbuf *sb)
{
    return sb_puts(sb, "| # | player | matches | W | D | L | points | per match | rating | violations | verdict |\n"
                       "|--:|:--|--:|--:|--:|--:|--:|--:|--:|--:|:--|\n");
}

int standings_md_reference_head(struct strbuf *sb, const struct standings *st)
{
    if (st->n_class == st->n_order)
        return 0;
    return sb_puts(sb, "\nReference bots (the teacher's: not part of the class's ranking):\n\n") < 0
               ? -1
               : standings_md_head(sb);
}

int standings_md_row(struct strbuf *sb, const struct ci_player *p)
{
    if (sb_printf(sb, "| %d | ", p->rank) < 0 || esc_md_inline(sb, p->name, p->name_len) < 0 ||
        sb_printf(sb, " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRId64 " | ", p->matches,
                  p->wins, p->draws, p->losses, p->points) < 0)
        return -1;
    int rc = p->matches ? sb_printf(sb, "%.2f | ", standings_per_match(p)) : sb_puts(sb, "— | ");
    rc = rc < 0 ? rc : isnan(p->rating) ? sb_puts(sb, "—") : sb_printf(sb, "%.0f ± %.0f", p->rating, p->rating_se);
    if (rc < 0 || sb_printf(sb, " | %" PRIu64 " | ", p->violation_total) < 0 || player_verdict_md(sb, p) < 0)
        return -1;
    return sb_puts(sb, " |\n");
}

int standings_md_intro(struct strbuf *sb, const struct results *r)
{
    const struct standings *st = &r->st;
    if (sb_puts(sb, st->n_games ? "" : "No game") < 0)
        return -1;
    for (size_t i = 0; i < st->n_games; i++)
        if ((i && sb_puts(sb, ", ") < 0) || esc_md_inline(sb, st->games[i], strlen(st->games[i])) < 0)
            return -1;
    const struct results_report *rep = r->rep;
    if (sb_printf(sb,
                  ": %" PRIu64 " match%s, %" PRIu32 " player%s (%" PRIu64 " file%s read; %" PRIu64
                  " damaged and %" PRIu64 " duplicate skipped; %" PRIu64
                  " compile or smoke test record%s).\n\n",
                  rep->matches, rep->matches == 1 ? "" : "es", st->n_order, st->n_order == 1 ? "" : "s",
                  rep->files, rep->files == 1 ? "" : "s", rep->skipped_damaged, rep->skipped_duplicate,
                  rep->compile_records, rep->compile_records == 1 ? "" : "s") < 0 ||
        isolation_note_md(sb, rep) < 0)
        return -1;
    return sb_puts(sb, "Ranked by points per match (the game's points over the matches played: the win "
                       "rate where a win scores 1), then the rating, then wins; reference bots are listed "
                       "apart. Rating: Bradley–Terry by maximum likelihood, 1500 + 400·log10(strength), ± "
                       "one standard error.\n\n");
}

static int md_matrix(struct strbuf *sb, const struct standings *st)
{
    if (st->n_order > MATRIX_MAX_PLAYERS)
        return sb_printf(sb,
                         "\n## Head to head\n\n%" PRIu32 " players: too many for a table; standings.json "
                         "has every pair.\n",
                         st->n_order);
    if (sb_puts(sb, "\n## Head to head\n\nWins–draws–losses of the row's player against the column's (· "
                    "never met).\n\n|  |") < 0)
        return -1;
    for (uint32_t j = 0; j < st->n_order; j++)
        if (sb_putc(sb, ' ') < 0 ||
            esc_md_inline(sb, st->players[st->order[j]].name, st->players[st->order[j]].name_len) < 0 ||
            sb_puts(sb, " |") < 0)
            return -1;
    if (sb_puts(sb, "\n|:--|") < 0)
        return -1;
    for (uint32_t j = 0; j < st->n_order; j++)
        if (sb_puts(sb, ":-:|") < 0)
            return -1;
    for (uint32_t i = 0; i < st->n_order; i++) {
        const struct ci_player *p = &st->players[st->order[i]];
        if (sb_puts(sb, "\n| ") < 0 || esc_md_inline(sb, p->name, p->name_len) < 0 || sb_puts(sb, " |") < 0)
            return -1;
        for (uint32_t j = 0; j < st->n_order; j++) {
            uint64_t w, d, l;
            standings_h2h(st, st->order[i], st->order[j], &w, &d, &l);
            bool met = standings_pair(st, st->order[i], st->order[j]) != NULL;
            int rc = i == j ? sb_puts(sb, " — |")
                     : !met ? sb_puts(sb, " · |")
                            : sb_printf(sb, " %" PRIu64 "–%" PRIu64 "–%" PRIu64 " |", w, d, l);
            if (rc < 0)
                return -1;
        }
    }
    return sb_putc(sb, '\n');
}

static int write_md(struct results *r, struct ci_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    bool bad =
        sb_puts(&sb, "# Standings\n\n") < 0 || standings_md_intro(&sb, r) < 0 || standings_md_head(&sb) < 0;
    for (uint32_t k = 0; !bad && k < r->st.n_order; k++)
        bad = (k == r->st.n_class && standings_md_reference_head(&sb, &r->st) < 0) ||
              standings_md_row(&sb, &r->st.players[r->st.order[k]]) < 0;
    bad = bad || md_matrix(&sb, &r->st) < 0;
    int rc = bad ? ci_fail_oom(err) : out_whole(r->opt->out_dir, "standings.md", sb.data, sb.len, err);
    sb_free(&sb);
    return rc;
}

int standings_write(struct results *r, struct ci_error *err)
{
    return write_json(r, err) < 0 ? -1 : write_md(r, err);
}
