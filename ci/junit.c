/*
 * junit.c - junit.xml: one testsuite per player (standings order), one
 * testcase per match it played (classname = player; name = opponents, map,
 * seed; time = its CPU seconds), an <error> for its violations, a <failure>
 * for a loss when the grading file asks for wins against that opponent, and a
 * "compile" testcase from a compile record. Testcases are spooled per player
 * as replays are read. The schema: tests/data/junit-10.xsd.
 */
#include <inttypes.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"
#include "engine/game.h"

static int attr(struct strbuf *sb, const char *name, const char *value, size_t len)
{
    if (sb_printf(sb, " %s=\"", name) < 0 || esc_xml(sb, value, len) < 0)
        return -1;
    return sb_putc(sb, '"');
}

static int testcase_name(struct strbuf *name, const struct match_record *m, int seat)
{
    if (sb_puts(name, "vs ") < 0)
        return -1;
    bool first = true;
    for (int j = 0; j < m->n; j++) {
        if (j == seat)
            continue;
        if ((!first && sb_puts(name, ", ") < 0) ||
            sb_append(name, m->seats[j].name, m->seats[j].name_len) < 0)
            return -1;
        first = false;
    }
    if (sb_puts(name, " on ") < 0 || mr_map_label(name, m) < 0 ||
        sb_printf(name, " seed %" PRIu64, m->seed) < 0)
        return -1;
    return m->match_id ? sb_printf(name, " match %s", m->match_id) : 0;
}

static bool is_loss(const struct match_record *m, int seat)
{
    bool all_equal = true;
    for (int j = 1; j < m->n; j++)
        all_equal = all_equal && m->seats[j].place == m->seats[0].place;
    return !all_equal && m->seats[seat].place != 1;
}

/* The first opponent that finished ahead whom the grading asks this player to beat, or -1. */
static int graded_loss(const struct results *r, const struct match_record *m, int seat)
{
    if (!r->has_grading || !is_loss(m, seat))
        return -1;
    const struct mr_seat *s = &m->seats[seat];
    for (int j = 0; j < m->n; j++)
        if (j != seat && m->seats[j].place < s->place &&
            grading_wants_wins(&r->grading, s->name, s->name_len, m->seats[j].name, m->seats[j].name_len))
            return j;
    return -1;
}

static int failure_element(struct strbuf *sb, const struct match_record *m, int seat, int winner)
{
    struct strbuf msg = STRBUF_INIT;
    int rc = sb_printf(&msg, "lost: place %d of %d, behind ", m->seats[seat].place, m->n) < 0 ||
                     sb_append(&msg, m->seats[winner].name, m->seats[winner].name_len) < 0 ||
                     sb_puts(&msg, " (the grading asks for wins)") < 0 ||
                     sb_puts(sb, "<failure type=\"loss\"") < 0 ||
                     attr(sb, "message", msg.data, msg.len) < 0 || sb_puts(sb, "/>\n") < 0
                 ? -1
                 : 0;
    sb_free(&msg);
    return rc;
}

static int error_element(struct strbuf *sb, const struct mr_seat *s)
{
    const char *tail = s->first_stderr.data ? s->first_stderr.data : "";
    if (sb_puts(sb, "<error") < 0 || attr(sb, "type", s->first_kind, strlen(s->first_kind)) < 0 ||
        attr(sb, "message", s->first_violation.data, s->first_violation.len) < 0 || sb_putc(sb, '>') < 0 ||
        esc_xml(sb, s->first_violation.data, s->first_violation.len) < 0 ||
        sb_printf(sb, "&#10;%" PRIu64 " violation(s) in this match; audit.md has each one with its evidence.",
                  s->violation_total) < 0)
        return -1;
    if (s->first_stderr.len &&
        (sb_puts(sb, "&#10;stderr tail:&#10;") < 0 || esc_xml(sb, tail, s->first_stderr.len) < 0))
        return -1;
    return sb_puts(sb, "</error>\n");
}

static int system_out(struct strbuf *sb, const struct match_record *m, const struct mr_seat *s)
{
    if (sb_puts(sb, "<system-out>replay: ") < 0 || esc_xml(sb, m->path, strlen(m->path)) < 0 ||
        sb_printf(sb, "&#10;place %d of %d, points %" PRId64 ", verdict ", s->place, m->n, s->points) < 0 ||
        esc_xml(sb, s->verdict, strlen(s->verdict)) < 0 ||
        sb_printf(sb, ", moves %" PRId64 ", CPU %.3f s; the match lasted %" PRId64 " %s</system-out>\n",
                  s->moves, (double)s->cpu_ns / 1e9, m->rounds, game_rounds_word(m->game, m->rounds)) < 0)
        return -1;
    return 0;
}

static int seat_testcase(struct results *r, const struct match_record *m, int seat, struct strbuf *sb)
{
    const struct mr_seat *s = &m->seats[seat];
    struct ci_player *p = &r->st.players[s->player];
    struct strbuf name = STRBUF_INIT;
    int winner = graded_loss(r, m, seat);
    int rc = testcase_name(&name, m, seat) < 0 || sb_puts(sb, "<testcase") < 0 ||
                     attr(sb, "classname", s->name, s->name_len) < 0 ||
                     attr(sb, "name", name.data, name.len) < 0 ||
                     sb_printf(sb, " time=\"%.3f\">\n", (double)s->cpu_ns / 1e9) < 0 ||
                     (s->violation_total && error_element(sb, s) < 0) ||
                     (winner >= 0 && failure_element(sb, m, seat, winner) < 0) || system_out(sb, m, s) < 0 ||
                     sb_puts(sb, "</testcase>\n") < 0
                 ? -1
                 : 0;
    sb_free(&name);
    p->junit_errors += s->violation_total ? 1 : 0;
    p->junit_failures += winner >= 0 ? 1 : 0;
    p->junit_time_ns += s->cpu_ns;
    return rc;
}

int junit_add_match(struct results *r, const struct match_record *m, struct ci_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = 0;
    for (int i = 0; rc == 0 && i < m->n; i++) {
        sb_reset(&sb);
        rc = seat_testcase(r, m, i, &sb) < 0
                 ? ci_fail_oom(err)
                 : spool_append(r->junit, m->seats[i].player, sb.data, sb.len, err);
    }
    sb_free(&sb);
    return rc;
}

static int compile_testcase(struct strbuf *sb, const struct ci_compile *c, const char *path)
{
    bool failed = ci_compile_failed(c);
    if (sb_puts(sb, "<testcase") < 0 || attr(sb, "classname", c->player, c->player_len) < 0 ||
        sb_printf(sb, " name=\"%s\" time=\"%.3f\">\n", c->smoke ? "smoke test" : "compile",
                  (double)c->cpu_ns / 1e9) < 0)
        return -1;
    if (failed) {
        struct strbuf msg = STRBUF_INIT;
        int rc =
            (c->smoke ? sb_printf(&msg, "smoke test failed: %s: %s", c->verdict, c->reason ? c->reason : "")
                      : sb_printf(&msg, "compile failed: %s", c->verdict)) < 0 ||
                    (c->has_exit_code && sb_printf(&msg, " (exit code %" PRId64 ")", c->exit_code) < 0) ||
                    sb_puts(sb, "<error") < 0 || attr(sb, "type", c->verdict, strlen(c->verdict)) < 0 ||
                    attr(sb, "message", msg.data, msg.len) < 0 || sb_putc(sb, '>') < 0 ||
                    esc_xml(sb, c->messages ? c->messages : "", c->messages_len) < 0 ||
                    sb_puts(sb, "</error>\n") < 0
                ? -1
                : 0;
        sb_free(&msg);
        if (rc < 0)
            return -1;
    }
    if (sb_puts(sb, c->smoke ? "<system-out>smoke record: " : "<system-out>compile record: ") < 0 || esc_xml(sb, path, strlen(path)) < 0 ||
        sb_puts(sb, "</system-out>\n") < 0)
        return -1;
    return sb_puts(sb, "</testcase>\n");
}

int junit_add_compile(struct results *r, uint32_t player, const struct ci_compile *c, const char *path,
                      struct ci_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = compile_testcase(&sb, c, path) < 0 ? ci_fail_oom(err)
                                                : spool_append(r->junit, player, sb.data, sb.len, err);
    sb_free(&sb);
    struct ci_player *p = &r->st.players[player];
    p->junit_errors += ci_compile_failed(c) ? 1 : 0;
    p->junit_time_ns += c->cpu_ns;
    return rc;
}
