/*
 * warlight_orders.c - one reply, as the raw bytes the bot wrote: its two lines (§4, D14), the
 * deployment (W7) and the command list (W8's parse; the board checks run in warlight_resolve.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/reply_parse.h"
#include "engine/warlight.h"

struct line { const char *p; size_t len; bool terminated; int no; };

static int fail(struct wl_orders *o, enum wl_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct wl_orders *o, enum wl_status s, const char *fmt, ...)
{
    o->status = s;
    o->n_deploy = o->n_cmd = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->reason, sizeof o->reason, fmt, ap);
    va_end(ap);
    return 0;
}

void wl_orders_reset(struct wl_orders *o)
{
    o->status = WS_OK;
    o->n_deploy = o->n_cmd = 0;
    o->reason[0] = '\0';
}

void wl_orders_free(struct wl_orders *o)
{
    free(o->deploy);
    free(o->cmd);
    memset(o, 0, sizeof *o);
}

/* How much of a token a reason quotes: tokens are not NUL-terminated. */
static int shown(const struct reply_token *t)
{
    return t->len > 40 ? 40 : (int)t->len;
}

/* "a,b,c": exactly n README C4 numbers joined by commas. */
static bool parse_fields(const struct reply_token *t, int64_t *v, int n)
{
    size_t start = 0;
    int f = 0;
    for (size_t i = 0; i <= t->len; i++) {
        if (i < t->len && t->text[i] != ',')
            continue;
        struct reply_token field = {t->text + start, i - start, 0};
        if (f == n || !reply_number(&field, &v[f++]))
            return false;
        start = i + 1;
    }
    return f == n;
}

/* README C3 on one line (D14: an unterminated line may not end in '\r'), then its tokens.
 * *tokens is malloc'ed (NULL when there are none); false with why set when the line is bad. */
static bool line_tokens(const struct line *l, struct reply_token **tokens, int *count, char *why,
                        size_t size, bool *oom)
{
    struct game_error err;
    *tokens = NULL;
    *count = 0;
    if (!l->terminated && l->len > 0 && l->p[l->len - 1] == '\r') {
        snprintf(why, size, "line %d ends in \\r without \\n", l->no);
        return false;
    }
    if (reply_tokens(l->p, l->len, NULL, 0, count, &err) < 0) {
        snprintf(why, size, "line %d, column %d: %.80s", l->no, err.col, err.msg);
        return false;
    }
    if (*count == 0)
        return true;
    *tokens = malloc((size_t)*count * sizeof **tokens);
    if (!*tokens) {
        *oom = true;
        return false;
    }
    reply_tokens(l->p, l->len, *tokens, *count, count, &err);
    return true;
}

static bool grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    void *p = realloc(*v, need * size);
    if (!p)
        return false;
    *v = p;
    *cap = need;
    return true;
}

/* Line 1: "r,c,a" entries, at least one (D14). */
static int read_deploy(struct wl_orders *o, const struct line *l)
{
    struct reply_token *tok;
    int count;
    bool oom = false;
    char why[120];
    if (!line_tokens(l, &tok, &count, why, sizeof why, &oom))
        return oom ? -1 : fail(o, WS_OUTPUT, "%s", why);
    int rc = 0;
    if (count == 0)
        rc = fail(o, WS_OUTPUT, "line 1 (the deployment) is empty");
    else if (!grow((void **)&o->deploy, &o->cap_deploy, (size_t)count, sizeof *o->deploy))
        rc = -1;
    for (int i = 0; rc == 0 && o->status == WS_OK && i < count; i++) {
        int64_t v[3];
        if (!parse_fields(&tok[i], v, 3))
            rc = fail(o, WS_OUTPUT, "line 1, column %d: '%.*s' is not r,c,a", tok[i].col,
                      shown(&tok[i]), tok[i].text);
        else
            o->deploy[o->n_deploy++] = (struct wl_deploy){v[0], v[1], v[2]};
    }
    free(tok);
    return rc;
}

/* Line 2: "sr,sc,dr,dc,a" entries; none is fine. A bad line throws every command away. */
static int read_commands(struct wl_orders *o, const struct line *l)
{
    struct reply_token *tok;
    int count;
    bool oom = false;
    char why[120];
    if (!line_tokens(l, &tok, &count, why, sizeof why, &oom)) {
        if (oom)
            return -1;
        o->status = WS_BADMOVES;
        snprintf(o->reason, sizeof o->reason, "%s", why);
        return 0;
    }
    int rc = grow((void **)&o->cmd, &o->cap_cmd, (size_t)count, sizeof *o->cmd) ? 0 : -1;
    for (int i = 0; rc == 0 && i < count; i++) {
        int64_t v[5];
        if (!parse_fields(&tok[i], v, 5)) {
            o->status = WS_BADMOVES;
            o->n_cmd = 0;
            snprintf(o->reason, sizeof o->reason, "line 2, column %d: '%.*s' is not sr,sc,dr,dc,a",
                     tok[i].col, shown(&tok[i]), tok[i].text);
            break;
        }
        o->cmd[o->n_cmd++] = (struct wl_command){v[0], v[1], v[2], v[3], v[4]};
    }
    free(tok);
    return rc;
}

/* W7 against the board at the start of the turn; sums compared exactly (D13). */
static int check_deploy(struct wl_orders *o, const struct warlight_board *b, int id, int64_t income)
{
    int64_t sum = 0;
    for (size_t i = 0; i < o->n_deploy; i++) {
        const struct wl_deploy *d = &o->deploy[i];
        if (d->r < 0 || d->r >= b->rows || d->c < 0 || d->c >= b->cols)
            return fail(o, WS_DEPLOY, "deployment %lld,%lld is off the board", (long long)d->r,
                        (long long)d->c);
        if (b->owner[d->r * b->cols + d->c] != id)
            return fail(o, WS_DEPLOY, "player %d does not own %lld,%lld", id, (long long)d->r,
                        (long long)d->c);
        if (d->a < 1)
            return fail(o, WS_DEPLOY, "deployment %lld,%lld,%lld: the amount is less than 1",
                        (long long)d->r, (long long)d->c, (long long)d->a);
        if (d->a > income - sum)
            return fail(o, WS_DEPLOY, "the amounts add up to more than the income %lld",
                        (long long)income);
        sum += d->a;
    }
    if (sum != income)
        return fail(o, WS_DEPLOY, "the amounts add up to %lld, not the income %lld", (long long)sum,
                    (long long)income);
    return 0;
}

/* D14: a further line holding only spaces (or a '\r' before its '\n') counts as empty. */
static bool blank(const struct line *l)
{
    size_t n = l->len;
    if (l->terminated && n > 0 && l->p[n - 1] == '\r')
        n--;
    for (size_t i = 0; i < n; i++)
        if (l->p[i] != ' ')
            return false;
    return true;
}

int wl_orders_read(struct wl_orders *o, const struct warlight_board *b, int id, int64_t income,
                   int64_t max_output_bytes, const char *data, size_t len)
{
    wl_orders_reset(o);
    if (len == 0)
        return fail(o, WS_NOOUTPUT, "printed nothing");
    if ((uint64_t)len > (uint64_t)max_output_bytes)
        return fail(o, WS_OUTPUT, "more than max_output_bytes (%lld) of output",
                    (long long)max_output_bytes);
    struct line lines[2] = {{0}, {"", 0, false, 2}};
    for (size_t pos = 0, no = 1; pos < len; no++) {
        const char *p = data + pos, *nl = memchr(p, '\n', len - pos);
        struct line l = {p, nl ? (size_t)(nl - p) : len - pos, nl != NULL, (int)no};
        pos += l.len + (nl ? 1 : 0);
        if (no <= 2)
            lines[no - 1] = l;
        else if (!blank(&l))
            return fail(o, WS_OUTPUT, "line %d is not empty", l.no);
    }
    if (read_deploy(o, &lines[0]) < 0)
        return -1;
    if (o->status == WS_OK)
        check_deploy(o, b, id, income);
    if (o->status == WS_OK)
        return read_commands(o, &lines[1]);
    return 0;
}
