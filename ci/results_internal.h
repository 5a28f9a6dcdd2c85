/* results_internal.h - the state the modules of the results stage share while reading and writing. */
#ifndef CI_RESULTS_INTERNAL_H
#define CI_RESULTS_INTERNAL_H

#include "ci/compile_read.h"
#include "ci/grading.h"
#include "ci/keyset.h"
#include "ci/replay_load.h"
#include "ci/match_record.h"
#include "ci/file_batch.h"
#include "ci/results.h"
#include "ci/shards.h"
#include "ci/spool.h"
#include "ci/standings.h"

/* Chains of the `misc` spool. */
enum { MISC_SKIPPED = 0 };
/* Chains of the `html` spool: each counted match's entry in index.html; the names of the pages under matches/. */
enum { HTML_ENTRIES = 0, HTML_PAGES = 1 };

/* The page of several matches being filled (html_report.c). */
struct shared_page {
    struct strbuf replays; /* their elements (viewer_replay_element) */
    uint64_t first, last;  /* the first and last match on it */
    unsigned count;
};

struct annotation {
    int severity;
    uint64_t seq;
    char *text;
};
enum {
    SEV_COMPILE,
    SEV_FAIL_UNDER,
    SEV_VIOLATION /* + enum ci_kind */,
    SEV_SKIPPED = SEV_VIOLATION + CI_KIND_COUNT
};

struct results {
    const struct results_options *opt;
    const struct results_hooks *hooks;
    struct results_report *rep;
    struct standings st;
    struct grading grading;
    bool has_grading;
    struct keyset *seen;      /* match identities -> offset of the counted copy's path in `paths` */
    struct keyset *reruns;    /* match configurations whose re-run file is written */
    struct spool *paths;      /* chain 0: the path of every replay counted */
    struct spool *junit;      /* chain = player: <testcase> elements */
    struct spool *audit_json; /* chain = player: violation objects */
    struct spool *audit_md;   /* chain = player: violation sections */
    struct spool *misc;       /* MISC_SKIPPED: {"file":...,"reason":...} */
    struct spool *html;       /* HTML_ENTRIES, HTML_PAGES */
    struct file_batch *pages; /* the viewer pages under matches/ */
    struct shared_page shared;
    uint32_t n_pages;         /* made so far */
    struct file_batch *rerun_files; /* the match and map files under rerun/ */
    struct annotation ann[RESULTS_MAX_ANNOTATIONS];
    size_t n_ann;
    uint64_t ann_seq;
    struct shards shards;       /* the tournament directories among the inputs */
    struct strbuf shard_notes;  /* what is wrong with them, one line each (shards.h) */
    char rerun_dir[4096];
    char matches_dir[4096];   /* OUT/matches: the viewer pages */
};

/* stale_outputs.c: after the outputs are written, remove what an earlier run wrote into OUT
 * and this one did not. */
int stale_outputs_sweep(struct results *r, struct ci_error *err);

/* ingest.c: one file read by replay_load.c into the state; a damaged one is noted and skipped. */
int ingest_file(struct results *r, struct loaded_file *lf, struct ci_error *err);
void results_note_skip(struct results *r, const char *path, const char *why, bool duplicate);

/* Per-file work of the outputs, done when a match is counted. */
int audit_add_violation(struct results *r, const struct match_record *m, const struct mr_violation *v,
                        struct ci_error *err);
int audit_add_compile(struct results *r, uint32_t player, const struct ci_compile *c, const char *path,
                      struct ci_error *err);
int junit_add_match(struct results *r, const struct match_record *m, struct ci_error *err);
int junit_add_compile(struct results *r, uint32_t player, const struct ci_compile *c, const char *path,
                      struct ci_error *err);
/* rerun.c: the match file that re-runs m (written once per configuration); its name stem in hex[17]. */
int rerun_prepare(struct results *r, const struct match_record *m, char hex[17], struct ci_error *err);
int rerun_command(struct strbuf *sb, const struct results *r, const struct match_record *m, const char *hex);
/* annotations.c */
int annotation_offer(struct results *r, int severity, const char *title, const char *message, size_t len);

/* standings_out.c: the Markdown standings table, shared with summary.md. */
int standings_md_intro(struct strbuf *sb, const struct results *r);
int standings_md_head(struct strbuf *sb);
int standings_md_row(struct strbuf *sb, const struct ci_player *p);
/* The heading of the reference bots' table (order[n_class..]); nothing when there is none. */
int standings_md_reference_head(struct strbuf *sb, const struct standings *st);

/* grades.c: checks the names the grading file gives; the grades table (at most *rows_cap rows, then the rows
 * written). */
int grades_check_names(struct results *r, struct ci_error *err);
int grades_md_table(struct strbuf *sb, const struct results *r, size_t *rows_cap);

/* html_report.c: a replay's part of a page, made on the thread that read it (kept only if the match is
 * counted); a counted match put on a page under matches/ and its entry in index.html; a part not kept, dropped. */
void html_prepare_page(struct results *r, struct loaded_file *lf);
int html_add_match(struct results *r, const struct match_record *m, struct loaded_file *lf, struct ci_error *err);
void html_drop_page(struct results *r, struct loaded_file *lf);

/* The output files, written after every input is read and standings_finish ran. */
int standings_write(struct results *r, struct ci_error *err);
int junit_write(struct results *r, struct ci_error *err);
int audit_write(struct results *r, struct ci_error *err);
int grades_write(struct results *r, struct ci_error *err);
int summary_write(struct results *r, struct ci_error *err);
int html_write(struct results *r, struct ci_error *err); /* after standings_write and audit_write */

#endif
