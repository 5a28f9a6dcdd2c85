/*
 * html_report.c - the results in a browser: OUT/index.html (standings, audit, every match in a
 * paged, filtered list) and the match pages under OUT/matches/, all sharing OUT/viewer.js,
 * OUT/viewer.css and OUT/report.js (the viewer of viewer/, compiled in). Pages load those with
 * <script src>, which works from file:// where a fetch does not.
 *
 * A page holds the replays of up to 64 matches in a row (matches/F-L.html, F to L their
 * numbers) and shows the one its URL names (?m=ID): one file per match made `judge results`
 * spend most of its time creating files, and a CI artifact of ten thousand files uploads
 * slowly. A replay over a megabyte gets a page of its own (N-N.html).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci/json_emit.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"
#include "viewer/page.h"

#define REPLAY_PAGE_MAX (256u << 20)    /* a bigger replay gets no page */
#define SHARED_REPLAY_MAX LOADED_WHOLE_MAX /* a bigger one gets a page of its own */
#define SHARED_PAGE_MATCHES 64
#define SHARED_PAGE_BASE64 (4u << 20)   /* a shared page's replay elements, at most */
#define AUDIT_INLINE_MAX (2u << 20)  /* a bigger audit.json is linked, not shown */
#define STANDINGS_MAX    (16u << 20)

static const char *base_name(const char *path)
{
    return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

/* The page name of a match: its number and its replay's name, in letters, digits, '.', '-', '_'. */
static void page_id(const struct match_record *m, uint64_t number, char *out, size_t size)
{
    const char *base = base_name(m->path);
    size_t len = strlen(base);
    static const char suffix[] = ".jsonl.gz";
    if (len > sizeof suffix - 1 && !strcmp(base + len - (sizeof suffix - 1), suffix))
        len -= sizeof suffix - 1;
    int n = snprintf(out, size, "%llu-", (unsigned long long)number);
    size_t at = n > 0 ? (size_t)n : 0;
    for (size_t i = 0; i < len && at + 1 < size && i < 80; i++) {
        char c = base[i];
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_';
        out[at++] = keep ? c : '_';
    }
    out[at] = '\0';
}

static int match_entry(struct strbuf *sb, const struct match_record *m, const char *id, uint32_t page)
{
    struct json_obj o;
    jo_begin(&o, sb);
    jo_cstr(&o, "id", id);
    if (id)
        jo_u64(&o, "page", page);
    jo_cstr(&o, "replay", m->path);
    jo_cstr(&o, "game", m->game);
    jo_u64(&o, "seed", m->seed);
    jo_i64(&o, "rounds", m->rounds);
    jo_key(&o, "players");
    o.bad |= sb_putc(sb, '[') < 0;
    for (int i = 0; i < m->n; i++) {
        const struct mr_seat *s = &m->seats[i];
        o.bad |= (i && sb_putc(sb, ',') < 0) || sb_putc(sb, '[') < 0 || sb_json_string(sb, s->name, s->name_len) < 0 ||
                 sb_printf(sb, ",%d,%lld,", s->place, (long long)s->points) < 0 ||
                 sb_json_string(sb, s->verdict, strlen(s->verdict)) < 0 || sb_putc(sb, ']') < 0;
    }
    o.bad |= sb_putc(sb, ']') < 0;
    return jo_end(&o);
}

static enum loaded_page page_failed(struct loaded_file *lf, const char *msg)
{
    snprintf(lf->page_msg, sizeof lf->page_msg, "%s", msg);
    return PAGE_FAILED;
}

static enum loaded_page shared_part(struct loaded_file *lf, const struct strbuf *bytes)
{
    struct strbuf base64 = STRBUF_INIT;
    if (viewer_base64(&base64, bytes->data ? bytes->data : "", bytes->len) < 0) {
        sb_free(&base64);
        return page_failed(lf, "out of memory");
    }
    lf->page_base64_len = base64.len;
    lf->page_base64 = sb_steal(&base64);
    return PAGE_SHARED;
}

/* Any thread. The bytes of a replay read whole are taken over; a bigger one's are read again
 * (from the page cache): its reading inflated as it went and never held the whole file. */
void html_prepare_page(struct results *r, struct loaded_file *lf)
{
    if (lf->kind != LOADED_REPLAY)
        return;
    struct strbuf bytes = STRBUF_INIT, page = STRBUF_INIT;
    int fits = 1;
    if (lf->bytes.data) {
        bytes = lf->bytes;
        lf->bytes = (struct strbuf)STRBUF_INIT;
    } else {
        fits = loaded_read_bounded(lf->path, REPLAY_PAGE_MAX, &bytes);
    }
    struct ci_error err = {0};
    if (fits < 0) {
        snprintf(err.msg, sizeof err.msg, "%s: cannot read it again for its page: %s", lf->path, strerror(errno));
        lf->page = page_failed(lf, err.msg);
    } else if (!fits) {
        lf->page = PAGE_TOO_BIG;
    } else if (bytes.len <= SHARED_REPLAY_MAX) {
        lf->page = shared_part(lf, &bytes);
    } else if (viewer_page(&page, bytes.data, bytes.len, base_name(lf->path), "..") < 0) {
        lf->page = page_failed(lf, "out of memory");
    } else {
        lf->page = file_batch_write(r->pages, lf->seq, page.data, page.len, &err) < 0 ? page_failed(lf, err.msg)
                                                                                     : PAGE_WRITTEN;
    }
    sb_free(&bytes);
    sb_free(&page);
}

void html_drop_page(struct results *r, struct loaded_file *lf)
{
    if (lf->page == PAGE_WRITTEN)
        file_batch_drop(r->pages, lf->seq);
    lf->page = PAGE_NONE; /* page_base64 goes with lf (loaded_file_free), on the thread that made it */
}

static int add_page_name(struct results *r, const char *name, struct ci_error *err)
{
    if (spool_append(r->html, HTML_PAGES, name, strlen(name), err) < 0)
        return -1;
    r->n_pages++;
    return 0;
}

/* The shared page filled so far, written (under a temporary name until html_write). */
static int flush_shared_page(struct results *r, struct ci_error *err)
{
    struct shared_page *c = &r->shared;
    if (!c->count)
        return 0;
    char name[64];
    snprintf(name, sizeof name, "%" PRIu64 "-%" PRIu64 ".html", c->first, c->last);
    struct strbuf page = STRBUF_INIT;
    int rc = viewer_page_of(&page, c->replays.data, c->replays.len, "..") < 0
                 ? ci_fail_oom(err)
                 : file_batch_put(r->pages, name, page.data, page.len, err);
    sb_free(&page);
    sb_reset(&c->replays);
    c->count = 0;
    return rc < 0 ? -1 : add_page_name(r, name, err);
}

static bool shared_page_full(const struct shared_page *c, size_t more)
{
    return c->count == SHARED_PAGE_MATCHES || (c->count && c->replays.len + more > SHARED_PAGE_BASE64);
}

static int add_to_shared_page(struct results *r, struct loaded_file *lf, const char *id, uint64_t number,
                              struct ci_error *err)
{
    struct shared_page *c = &r->shared;
    if (viewer_replay_element(&c->replays, lf->page_base64, lf->page_base64_len, base_name(lf->path), id) < 0)
        return ci_fail_oom(err);
    if (c->count++ == 0)
        c->first = number;
    c->last = number;
    return 0;
}

static int keep_own_page(struct results *r, struct loaded_file *lf, uint64_t number, struct ci_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "%" PRIu64 "-%" PRIu64 ".html", number, number);
    if (file_batch_keep(r->pages, lf->seq, name, err) < 0)
        return -1;
    lf->page = PAGE_KEPT;
    return add_page_name(r, name, err);
}

/* The match's place on a page; *page is the page's number (the shared one being filled, or its own). */
static int place_on_page(struct results *r, struct loaded_file *lf, const char *id, uint32_t *page,
                         struct ci_error *err)
{
    uint64_t number = r->rep->matches;
    bool own = lf->page == PAGE_WRITTEN;
    if ((own || shared_page_full(&r->shared, lf->page_base64_len)) && flush_shared_page(r, err) < 0)
        return -1;
    *page = r->n_pages;
    return own ? keep_own_page(r, lf, number, err) : add_to_shared_page(r, lf, id, number, err);
}

int html_add_match(struct results *r, const struct match_record *m, struct loaded_file *lf, struct ci_error *err)
{
    char id[128];
    page_id(m, r->rep->matches, id, sizeof id);
    if (lf->page == PAGE_FAILED)
        return ci_fail(err, "%s", lf->page_msg);
    bool has_page = lf->page == PAGE_SHARED || lf->page == PAGE_WRITTEN;
    uint32_t page = 0;
    if (has_page && place_on_page(r, lf, id, &page, err) < 0)
        return -1;
    struct strbuf entry = STRBUF_INIT;
    int rc = match_entry(&entry, m, has_page ? id : NULL, page) < 0
                 ? ci_fail_oom(err)
                 : spool_append(r->html, HTML_ENTRIES, entry.data, entry.len, err);
    sb_free(&entry);
    return rc;
}

/* JSON text inside a <script> element: every '<' written \u003c (the same string in JSON, as
 * '<' only appears inside strings), so no "</script" or "<!--" in a bot's text can end or
 * bend the element. */
static int put_json_in_script(struct strbuf *sb, const char *text, size_t len)
{
    for (size_t start = 0, i = 0; i <= len; i++) {
        if (i < len && text[i] != '<')
            continue;
        if (sb_append(sb, text + start, i - start) < 0 || (i < len && sb_puts(sb, "\\u003c") < 0))
            return -1;
        start = i + 1;
    }
    return 0;
}

static int data_block(struct strbuf *sb, const char *id, const char *text, size_t len)
{
    return sb_printf(sb, "<script type=\"application/json\" id=\"%s\">", id) < 0 ||
                   put_json_in_script(sb, text, len) < 0 || sb_puts(sb, "</script>\n") < 0
               ? -1
               : 0;
}

/* An output file already written (standings.json, audit.json) as a data block; "null" when
 * it is bigger than max. */
static int file_block(struct results *r, struct strbuf *html, const char *id, const char *file, size_t max,
                      struct ci_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", r->opt->out_dir, file);
    struct strbuf text = STRBUF_INIT;
    int rc = loaded_read_bounded(path, max, &text);
    if (rc < 0)
        rc = ci_fail(err, "%s: cannot read it back: %s", path, strerror(errno));
    else
        rc = data_block(html, id, rc ? text.data : "null", rc ? text.len : 4) < 0 ? ci_fail_oom(err) : 0;
    sb_free(&text);
    return rc;
}

static int add_entry(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    struct strbuf *sb = ctx;
    (void)err;
    return (sb->data[sb->len - 1] != '[' && sb_putc(sb, ',') < 0) || sb_putc(sb, '\n') < 0 ||
                   put_json_in_script(sb, data, len) < 0
               ? -1
               : 0;
}

static int add_page(void *ctx, const char *data, size_t len, struct ci_error *err)
{
    struct strbuf *sb = ctx;
    (void)err;
    return (sb->data[sb->len - 1] != '[' && sb_putc(sb, ',') < 0) || sb_json_string(sb, data, len) < 0 ? -1 : 0;
}

int html_write(struct results *r, struct ci_error *err)
{
    if (flush_shared_page(r, err) < 0 || file_batch_commit(r->pages, err) < 0 ||
        out_whole(r->opt->out_dir, "viewer.js", viewer_js, viewer_js_len, err) < 0 ||
        out_whole(r->opt->out_dir, "viewer.css", viewer_css, viewer_css_len, err) < 0 ||
        out_whole(r->opt->out_dir, "report.js", viewer_report_js, viewer_report_js_len, err) < 0)
        return -1;
    struct strbuf html = STRBUF_INIT;
    int rc = sb_puts(&html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                            "<title>judge results</title>\n<link rel=\"stylesheet\" href=\"viewer.css\">\n</head>\n"
                            "<body class=\"jr\">\n<main id=\"jr-app\"><p>This report needs JavaScript: "
                            "standings.md and audit.md hold the same in text.</p></main>\n") < 0
                 ? ci_fail_oom(err)
                 : 0;
    if (rc == 0)
        rc = file_block(r, &html, "jr-standings", "standings.json", STANDINGS_MAX, err);
    if (rc == 0)
        rc = file_block(r, &html, "jr-audit", "audit.json", AUDIT_INLINE_MAX, err);
    if (rc == 0)
        rc = sb_puts(&html, "<script type=\"application/json\" id=\"jr-matches\">[") < 0 ? ci_fail_oom(err) : 0;
    if (rc == 0)
        rc = spool_each(r->html, HTML_ENTRIES, add_entry, &html, err) != 0 ? (err->msg[0] ? -1 : ci_fail_oom(err)) : 0;
    if (rc == 0)
        rc = sb_puts(&html, "]</script>\n<script type=\"application/json\" id=\"jr-pages\">[") < 0 ? ci_fail_oom(err) : 0;
    if (rc == 0)
        rc = spool_each(r->html, HTML_PAGES, add_page, &html, err) != 0 ? (err->msg[0] ? -1 : ci_fail_oom(err)) : 0;
    if (rc == 0)
        rc = sb_puts(&html, "]</script>\n<script src=\"report.js\"></script>\n</body>\n</html>\n") < 0 ? ci_fail_oom(err) : 0;
    if (rc == 0)
        rc = out_whole(r->opt->out_dir, "index.html", html.data, html.len, err);
    sb_free(&html);
    return rc;
}
