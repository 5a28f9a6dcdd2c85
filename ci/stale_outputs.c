/*
 * stale_outputs.c - OUT/.judge-results lists the files of a run that the next
 * run into the same OUT may not write again (grades.*, the pages under
 * matches/, the files under rerun/). After writing its own outputs, a run
 * removes the files the list names that it did not write, then lists its own:
 * OUT never mixes two runs, and nothing but the stage's own files is removed
 * (a replay saved under rerun/ by an audit's command is never listed).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ci/escape.h"
#include "ci/out_file.h"
#include "ci/replay_load.h"
#include "ci/results_internal.h"

#define MANIFEST     ".judge-results"
#define MANIFEST_MAX (64u << 20)
#define NAMED_MAX    5 /* removed files named in the note; the rest counted */

struct manifest {
    struct strbuf text; /* one name a line, relative to OUT */
    struct keyset *names;
};

static struct key128 name_key(const char *name, size_t len)
{
    struct key128 h = KEY128_INIT;
    key128_add(&h, name, len);
    return key128_finish(h);
}

static int add_name(struct manifest *m, const char *dir, const char *name, size_t len, struct ci_error *err)
{
    size_t at = m->text.len;
    if (sb_printf(&m->text, "%s%.*s\n", dir, (int)len, name) < 0 ||
        keyset_add(m->names, name_key(m->text.data + at, m->text.len - at - 1), 0, NULL) < 0)
        return ci_fail_oom(err);
    return 0;
}

static int add_page(void *ctx, const char *name, size_t len, struct ci_error *err)
{
    return add_name(ctx, "matches/", name, len, err);
}

static int add_rerun(void *ctx, const char *name, size_t len, struct ci_error *err)
{
    return add_name(ctx, "rerun/", name, len, err);
}

static int list_this_run(struct results *r, struct manifest *m, struct ci_error *err)
{
    if (r->has_grading &&
        (add_name(m, "", "grades.json", 11, err) < 0 || add_name(m, "", "grades.md", 9, err) < 0))
        return -1;
    if (file_batch_each_kept(r->pages, add_page, m, err) != 0 ||
        file_batch_each_kept(r->rerun_files, add_rerun, m, err) != 0)
        return err->msg[0] ? -1 : ci_fail_oom(err);
    return 0;
}

/* Only what this stage writes: grades.*, or one plain name under matches/ or rerun/. */
static bool is_stage_output(const char *name, size_t len)
{
    if ((len == 11 && !memcmp(name, "grades.json", 11)) || (len == 9 && !memcmp(name, "grades.md", 9)))
        return true;
    size_t dir = len > 8 && !memcmp(name, "matches/", 8) ? 8 : len > 6 && !memcmp(name, "rerun/", 6) ? 6 : 0;
    if (!dir || name[dir] == '.' || memchr(name, '\0', len))
        return false;
    return !memchr(name + dir, '/', len - dir);
}

struct sweep {
    int out_fd;
    size_t removed;
    struct strbuf named; /* the first NAMED_MAX, escaped */
};

static void remove_one(struct sweep *s, const char *name, size_t len)
{
    char path[4096];
    if (len >= sizeof path)
        return;
    memcpy(path, name, len);
    path[len] = '\0';
    if (unlinkat(s->out_fd, path, 0) < 0)
        return; /* already gone, or never ours to remove */
    if (s->removed++ < NAMED_MAX) {
        if (s->named.len)
            sb_puts(&s->named, ", ");
        esc_visible(&s->named, name, len);
    }
}

static void sweep_earlier(struct sweep *s, const struct strbuf *earlier, const struct manifest *now)
{
    const char *at = earlier->data, *end = earlier->data + earlier->len;
    while (at < end) {
        const char *nl = memchr(at, '\n', (size_t)(end - at));
        size_t len = (size_t)((nl ? nl : end) - at);
        uint64_t ignored;
        if (is_stage_output(at, len) && !keyset_get(now->names, name_key(at, len), &ignored))
            remove_one(s, at, len);
        at += len + 1;
    }
}

static void note_removed(struct results *r, const struct sweep *s)
{
    if (!s->removed || !r->hooks || !r->hooks->note)
        return;
    struct strbuf line = STRBUF_INIT;
    if (sb_printf(&line, "removed %zu file%s an earlier run wrote into %s and this one did not: %s%s",
                  s->removed, s->removed == 1 ? "" : "s", r->opt->out_dir, s->named.data,
                  s->removed > NAMED_MAX ? ", ..." : "") == 0)
        r->hooks->note(r->hooks->ctx, line.data);
    sb_free(&line);
}

int stale_outputs_sweep(struct results *r, struct ci_error *err)
{
    struct manifest now = {STRBUF_INIT, keyset_new()};
    struct sweep s = {-1, 0, STRBUF_INIT};
    struct strbuf earlier = STRBUF_INIT;
    int rc = now.names ? list_this_run(r, &now, err) : ci_fail_oom(err);
    if (rc == 0 && (s.out_fd = open(r->opt->out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        rc = ci_fail(err, "%s: %s", r->opt->out_dir, strerror(errno));
    if (rc == 0) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", r->opt->out_dir, MANIFEST);
        if (loaded_read_bounded(path, MANIFEST_MAX, &earlier) == 1)
            sweep_earlier(&s, &earlier, &now);
        note_removed(r, &s);
        rc = out_whole(r->opt->out_dir, MANIFEST, now.text.data ? now.text.data : "", now.text.len, err);
    }
    if (s.out_fd >= 0)
        close(s.out_fd);
    sb_free(&s.named);
    sb_free(&earlier);
    sb_free(&now.text);
    keyset_free(now.names);
    return rc;
}
