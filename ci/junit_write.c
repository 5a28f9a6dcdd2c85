/* junit_write.c - assemble junit.xml from the spooled testcases, one testsuite per player in standings order.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"

static int property(struct strbuf *sb, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int property(struct strbuf *sb, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sb_printf(sb, "<property name=\"%s\" value=\"", name) < 0 || sb_vprintf(sb, fmt, ap) < 0 ||
             sb_puts(sb, "\"/>\n") < 0;
    va_end(ap);
    return rc ? -1 : 0;
}

static int suite_open(struct strbuf *sb, const struct ci_player *p, uint64_t tests)
{
    if (sb_puts(sb, "<testsuite name=\"") < 0 || esc_xml(sb, p->name, p->name_len) < 0 ||
        sb_printf(sb,
                  "\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"%" PRIu64
                  "\" skipped=\"0\" time=\"%.3f\">\n<properties>\n",
                  tests, p->junit_failures, p->junit_errors, (double)p->junit_time_ns / 1e9) < 0)
        return -1;
    bool rated = !isnan(p->rating);
    if (property(sb, "rank", "%d", p->rank) < 0 || property(sb, "points", "%" PRId64, p->points) < 0 ||
        property(sb, "wins", "%" PRIu64, p->wins) < 0 || property(sb, "draws", "%" PRIu64, p->draws) < 0 ||
        property(sb, "losses", "%" PRIu64, p->losses) < 0 ||
        (rated && property(sb, "rating", "%.1f", p->rating) < 0) ||
        (rated && property(sb, "rating_se", "%.1f", p->rating_se) < 0) ||
        property(sb, "violations", "%" PRIu64, p->violation_total) < 0)
        return -1;
    return sb_puts(sb, "</properties>\n");
}

static int write_suites(struct results *r, struct out_file *out, struct ci_error *err)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = 0;
    for (uint32_t k = 0; rc == 0 && k < r->st.n_order; k++) {
        uint32_t idx = r->st.order[k];
        const struct ci_player *p = &r->st.players[idx];
        rc = suite_open(&sb, p, spool_count(r->junit, idx)) < 0 ? ci_fail_oom(err) : out_take(out, &sb, err);
        struct out_records records = {out, NULL, 0};
        if (rc == 0)
            rc = spool_each(r->junit, idx, out_record, &records, err);
        if (rc == 0)
            rc = out_puts(out, "</testsuite>\n", err);
    }
    sb_free(&sb);
    return rc;
}

static int totals(struct strbuf *sb, const struct results *r)
{
    uint64_t tests = 0, failures = 0, errors = 0, ns = 0;
    for (uint32_t k = 0; k < r->st.n_order; k++) {
        const struct ci_player *p = &r->st.players[r->st.order[k]];
        tests += spool_count(r->junit, r->st.order[k]);
        failures += p->junit_failures;
        errors += p->junit_errors;
        ns += p->junit_time_ns;
    }
    return sb_printf(sb,
                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"judge results\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
                     "\" errors=\"%" PRIu64 "\" time=\"%.3f\">\n",
                     tests, failures, errors, (double)ns / 1e9);
}

int junit_write(struct results *r, struct ci_error *err)
{
    struct out_file out;
    struct strbuf sb = STRBUF_INIT;
    if (out_open(&out, r->opt->out_dir, "junit.xml", err) < 0)
        return -1;
    int rc = totals(&sb, r) < 0 ? ci_fail_oom(err) : out_take(&out, &sb, err);
    sb_free(&sb);
    if (rc == 0)
        rc = write_suites(r, &out, err);
    if (rc == 0)
        rc = out_puts(&out, "</testsuites>\n", err);
    if (rc == 0)
        return out_commit(&out, err);
    out_abort(&out);
    return -1;
}
