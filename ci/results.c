/* results.c - results_run: set up, read every input, finish the standings, write every output (results.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ci/escape.h"
#include "ci/prefetch.h"
#include "ci/results_internal.h"
#include "ci/scan.h"

static int make_dir(const char *path, struct ci_error *err)
{
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        return ci_fail_usage(err, "%s: cannot create the directory: %s", path, strerror(errno));
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
        return ci_fail_usage(err, "%s: not a directory", path);
    return 0;
}

static int open_state(struct results *r, struct ci_error *err)
{
    standings_init(&r->st);
    if (r->opt->grading_path) {
        if (grading_load(r->opt->grading_path, &r->grading, err) < 0)
            return -1;
        r->has_grading = true;
    }
    if (make_dir(r->opt->out_dir, err) < 0)
        return -1;
    int n = snprintf(r->rerun_dir, sizeof r->rerun_dir, "%s/rerun", r->opt->out_dir);
    if (n < 0 || (size_t)n >= sizeof r->rerun_dir)
        return ci_fail_usage(err, "%s: path too long", r->opt->out_dir);
    if (make_dir(r->rerun_dir, err) < 0 || file_batch_open(&r->rerun_files, r->rerun_dir, r->opt->out_dir, err) < 0)
        return -1;
    n = snprintf(r->matches_dir, sizeof r->matches_dir, "%s/matches", r->opt->out_dir);
    if (n < 0 || (size_t)n >= sizeof r->matches_dir)
        return ci_fail_usage(err, "%s: path too long", r->opt->out_dir);
    if (make_dir(r->matches_dir, err) < 0 || file_batch_open(&r->pages, r->matches_dir, r->opt->out_dir, err) < 0)
        return -1;
    if (!(r->seen = keyset_new()) || !(r->reruns = keyset_new()))
        return ci_fail_oom(err);
    struct spool **spools[] = {&r->paths, &r->junit, &r->audit_json, &r->audit_md, &r->misc, &r->html};
    for (size_t i = 0; i < sizeof spools / sizeof spools[0]; i++)
        if (spool_open(r->opt->out_dir, spools[i], err) < 0)
            return -1;
    return 0;
}

static void close_state(struct results *r)
{
    standings_free(&r->st);
    shards_free(&r->shards);
    sb_free(&r->shard_notes);
    if (r->has_grading)
        grading_free(&r->grading);
    keyset_free(r->seen);
    keyset_free(r->reruns);
    spool_close(r->paths);
    spool_close(r->junit);
    spool_close(r->audit_json);
    spool_close(r->audit_md);
    spool_close(r->misc);
    spool_close(r->html);
    sb_free(&r->shared.replays);
    file_batch_close(r->pages);
    file_batch_close(r->rerun_files);
    for (size_t i = 0; i < r->n_ann; i++)
        free(r->ann[i].text);
}

static int on_loaded(void *ctx, struct loaded_file *lf, struct ci_error *err)
{
    return ingest_file(ctx, lf, err);
}

static void on_read(void *ctx, struct loaded_file *lf)
{
    html_prepare_page(ctx, lf);
}

static int on_file(void *ctx, const char *path, struct ci_error *err)
{
    return prefetch_submit(ctx, path, err);
}

static int on_tournament(void *ctx, const char *path, struct ci_error *err)
{
    return shards_add(ctx, path, err);
}

/* The shards of a tournament given must be all of one tournament's, each once: each way they are not
 * goes to the note hook, summary.md and the annotations, and the run exits 2, as for a damaged file. */
static int check_shards(struct results *r, struct ci_error *err)
{
    long n = shards_check(&r->shards, &r->shard_notes);
    if (n < 0)
        return ci_fail_oom(err);
    r->rep->shard_problems = (uint64_t)n;
    const char *p = r->shard_notes.data;
    for (const char *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
        struct strbuf line = STRBUF_INIT;
        if (esc_visible(&line, p, (size_t)(nl - p)) == 0 && r->hooks && r->hooks->note)
            r->hooks->note(r->hooks->ctx, line.data);
        annotation_offer(r, SEV_SKIPPED, "tournament shards", p, (size_t)(nl - p));
        sb_free(&line);
    }
    return 0;
}

static int check_inputs(const struct results_options *opt, struct ci_error *err)
{
    for (size_t i = 0; i < opt->n_inputs; i++)
        if (access(opt->inputs[i], R_OK) < 0)
            return ci_fail_usage(err, "%s: %s", opt->inputs[i], strerror(errno));
    return 0;
}

static int read_inputs(struct results *r, struct ci_error *err)
{
    struct scan_skip skip = {0};
    struct stat st;
    if (stat(r->opt->out_dir, &st) == 0)
        skip = (struct scan_skip){st.st_dev, st.st_ino, 1};
    struct prefetch *p;
    int workers = r->opt->jobs == 0 ? prefetch_default_workers() : r->opt->jobs - 1; /* and this thread */
    if (prefetch_start(&p, workers, on_loaded, on_read, r, err) < 0)
        return -1;
    struct scan_hooks hooks = {on_file, on_tournament, p, &r->shards};
    if (scan_inputs(r->opt->inputs, r->opt->n_inputs, &skip, &hooks, err) != 0) {
        prefetch_abort(p);
        return -1;
    }
    if (prefetch_finish(p, err) < 0 || check_shards(r, err) < 0)
        return -1;
    if (!r->rep->matches && !r->rep->compile_records)
        return ci_fail_usage(err, "no valid replay found (%llu file%s read, %llu damaged, %llu duplicate)",
                             (unsigned long long)r->rep->files, r->rep->files == 1 ? "" : "s",
                             (unsigned long long)r->rep->skipped_damaged,
                             (unsigned long long)r->rep->skipped_duplicate);
    return 0;
}

/* The grading file's reference bots, besides those the replay headers mark. */
static void mark_references(struct results *r)
{
    uint32_t idx;
    for (size_t i = 0; r->has_grading && i < r->grading.n_reference; i++)
        if (standings_find(&r->st, r->grading.reference[i], strlen(r->grading.reference[i]), &idx))
            standings_mark_reference(&r->st, idx);
}

static int write_outputs(struct results *r, struct ci_error *err)
{
    if (r->has_grading && grades_check_names(r, err) < 0) /* a grading file's error: before any output */
        return -1;
    if (file_batch_commit(r->rerun_files, err) < 0)
        return -1;
    if (r->has_grading && grades_write(r, err) < 0)
        return -1;
    if (standings_write(r, err) < 0 || junit_write(r, err) < 0 || audit_write(r, err) < 0 || html_write(r, err) < 0)
        return -1;
    if (summary_write(r, err) < 0)
        return -1;
    return stale_outputs_sweep(r, err);
}

/* A failed run leaves no directory it made that is still empty. */
static void remove_empty_dirs(const struct results *r, bool made_out)
{
    rmdir(r->matches_dir);
    rmdir(r->rerun_dir);
    if (made_out)
        rmdir(r->opt->out_dir);
}

static void hand_over_annotations(struct results *r)
{
    for (size_t i = 0; i < r->n_ann; i++) {
        r->rep->annotations[i] = r->ann[i].text;
        r->ann[i].text = NULL;
    }
    r->rep->n_annotations = r->n_ann;
    r->n_ann = 0;
}

int results_run(const struct results_options *opt, const struct results_hooks *hooks,
                struct results_report *rep, struct ci_error *err)
{
    memset(rep, 0, sizeof *rep);
    memset(err, 0, sizeof *err);
    struct results *r = calloc(1, sizeof *r);
    if (!r)
        return ci_fail_oom(err);
    r->opt = opt;
    r->hooks = hooks;
    r->rep = rep;
    int rc = check_inputs(opt, err);
    bool made_out = access(opt->out_dir, F_OK) < 0;
    if (rc == 0)
        rc = open_state(r, err);
    if (rc == 0)
        rc = read_inputs(r, err);
    if (rc == 0)
        mark_references(r);
    if (rc == 0)
        rc = standings_finish(&r->st, err);
    if (rc == 0) {
        rep->players = r->st.n_order;
        rc = write_outputs(r, err);
    }
    if (rc == 0)
        hand_over_annotations(r);
    close_state(r);
    if (rc != 0)
        remove_empty_dirs(r, made_out);
    free(r);
    return rc;
}

void results_report_free(struct results_report *rep)
{
    for (size_t i = 0; i < rep->n_annotations; i++)
        free(rep->annotations[i]);
    rep->n_annotations = 0;
}
