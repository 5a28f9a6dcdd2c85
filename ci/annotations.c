/*
 * annotations.c - GitHub Actions workflow commands (`::error title=...::...`)
 * for the report: only the RESULTS_MAX_ANNOTATIONS most serious are kept
 * (compile failures, then players below the pass mark, then violations by
 * kind, then skipped files), the earlier first among equals.
 */
#include <stdlib.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/results_internal.h"

#define MESSAGE_MAX 1024u /* bytes of the message shown; GitHub cuts long annotations anyway */

static char *format(int severity, const char *title, const char *message, size_t len)
{
    struct strbuf sb = STRBUF_INIT;
    bool bad = sb_puts(&sb, severity == SEV_SKIPPED ? "::warning title=" : "::error title=") < 0 ||
               esc_annotation(&sb, "judge results: ", 15, true) < 0 ||
               esc_annotation(&sb, title, strlen(title), true) < 0 || sb_puts(&sb, "::") < 0 ||
               esc_annotation(&sb, message, len < MESSAGE_MAX ? len : MESSAGE_MAX, false) < 0 ||
               (len > MESSAGE_MAX && sb_puts(&sb, "...") < 0);
    if (bad) {
        sb_free(&sb);
        return NULL;
    }
    return sb_steal(&sb);
}

int annotation_offer(struct results *r, int severity, const char *title, const char *message, size_t len)
{
    if (!r->opt->annotations)
        return 0;
    uint64_t seq = r->ann_seq++;
    size_t n = r->n_ann;
    if (n == RESULTS_MAX_ANNOTATIONS && severity >= r->ann[n - 1].severity)
        return 0;
    char *text = format(severity, title, message, len);
    if (!text)
        return -1;
    if (n == RESULTS_MAX_ANNOTATIONS)
        free(r->ann[--n].text);
    size_t at = n;
    while (at > 0 && r->ann[at - 1].severity > severity)
        at--;
    memmove(&r->ann[at + 1], &r->ann[at], (n - at) * sizeof r->ann[0]);
    r->ann[at] = (struct annotation){severity, seq, text};
    r->n_ann = n + 1;
    return 0;
}
