/*
 * results.h - the results stage (`judge results`, docs/results.md): read every
 * replay (and compile record) under the inputs, skip damaged and duplicate
 * ones, and write into the output directory standings.json/.md, junit.xml,
 * summary.md, audit.json/.md, the re-run match files under rerun/, and with a
 * grading file grades.json/.md. Nothing here prints: skipped files go to the
 * note hook, annotations come back in the report.
 */
#ifndef CI_RESULTS_H
#define CI_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ci/ci_error.h"

struct results_options {
    const char *const *inputs; /* directories (searched recursively) or replay files */
    size_t n_inputs;
    const char *out_dir;      /* made when missing */
    const char *grading_path; /* NULL: no grades */
    bool has_fail_under;
    int64_t fail_under;
    bool annotations;     /* GitHub Actions workflow commands in the report */
    size_t summary_limit; /* summary.md's size cap; 0: RESULTS_SUMMARY_LIMIT */
    int jobs;             /* threads reading replays; 1: the calling thread alone; 0: one per CPU */
};
#define RESULTS_SUMMARY_LIMIT   (1u << 20)
#define RESULTS_MAX_ANNOTATIONS 10

struct results_hooks {
    void (*note)(void *ctx, const char *line); /* a skipped file, one line; may be NULL */
    void *ctx;
};

struct results_report {
    uint64_t files, matches, compile_records, skipped_damaged, skipped_duplicate, violations;
    uint64_t shard_problems; /* tournament shards missing, given twice or of another tournament (notes) */
    uint32_t players, below_fail_under;
    uint64_t best_effort_matches; /* counted matches with a layer of isolation not fully on */
    char best_effort_layers[256]; /* those layers, ", "-separated (ci/isolation_note.h) */
    char *annotations[RESULTS_MAX_ANNOTATIONS]; /* "::error title=...::..." lines, most serious first */
    size_t n_annotations;
};

/* 0, or -1 with err (status 2: usage, grading file, no valid replay; 3: internal). */
int results_run(const struct results_options *opt, const struct results_hooks *hooks,
                struct results_report *rep, struct ci_error *err);
void results_report_free(struct results_report *rep);

#endif
