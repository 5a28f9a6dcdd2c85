/* player_verdict.c - the standings' verdict of a player (player_verdict.h). */
#include "ci/player_verdict.h"

#include <inttypes.h>
#include <string.h>

#include "ci/escape.h"

/* The verdicts counted, most frequent first (then by name), in order[]; their number. */
static int sorted_verdicts(const struct ci_player *p, int order[CI_MAX_VERDICTS])
{
    int n = 0;
    while (n < CI_MAX_VERDICTS && p->verdicts[n].count)
        n++;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            const struct ci_verdict_count *a = &p->verdicts[order[j - 1]], *b = &p->verdicts[order[j]];
            if (a->count > b->count || (a->count == b->count && strcmp(a->name, b->name) <= 0))
                break;
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    return n;
}

const char *player_verdict_word(const struct ci_player *p)
{
    int order[CI_MAX_VERDICTS];
    if (p->compile_failed)
        return "COMPILE_ERROR";
    if (p->smoke_failed)
        return p->smoke_verdict;
    if (sorted_verdicts(p, order))
        return p->verdicts[order[0]].name;
    return p->violation_total || p->other_verdicts ? "VIOLATIONS" : "OK";
}

static int compile_md(struct strbuf *sb, const struct ci_player *p)
{
    if (sb_puts(sb, "`COMPILE_ERROR`") < 0)
        return -1;
    if (!p->compile_verdict[0] || !strcmp(p->compile_verdict, "COMPILE_ERROR"))
        return 0;
    return sb_puts(sb, " (") < 0 || esc_md_code(sb, p->compile_verdict, strlen(p->compile_verdict)) < 0 ||
                   sb_putc(sb, ')') < 0
               ? -1
               : 0;
}

int player_verdict_md(struct strbuf *sb, const struct ci_player *p)
{
    if (p->compile_failed)
        return compile_md(sb, p);
    if (p->smoke_failed)
        return esc_md_code(sb, p->smoke_verdict, strlen(p->smoke_verdict)) < 0 ||
                       sb_puts(sb, " at the smoke test: no match played") < 0
                   ? -1
                   : 0;
    int order[CI_MAX_VERDICTS], n = sorted_verdicts(p, order);
    if (!n && !p->other_verdicts && !p->violation_total)
        return sb_puts(sb, "OK");
    for (int i = 0; i < n; i++) {
        const struct ci_verdict_count *v = &p->verdicts[order[i]];
        if ((i && sb_puts(sb, ", ") < 0) || esc_md_code(sb, v->name, strlen(v->name)) < 0 ||
            sb_printf(sb, " in %" PRIu64, v->count) < 0)
            return -1;
    }
    if (p->other_verdicts && sb_printf(sb, "%sother verdicts in %" PRIu64, n ? ", " : "", p->other_verdicts) < 0)
        return -1;
    if (!n && !p->other_verdicts)
        return sb_printf(sb, "%" PRIu64 " violation%s in %" PRIu64 " of %" PRIu64 " match%s", p->violation_total,
                         p->violation_total == 1 ? "" : "s", p->violation_matches, p->matches,
                         p->matches == 1 ? "" : "es");
    return sb_printf(sb, " of %" PRIu64 " match%s", p->matches, p->matches == 1 ? "" : "es");
}
