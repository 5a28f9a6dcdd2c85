/* warlight_log.c - the log file of spec §10 (with D17's param lines), one piece at a time. */
#include "engine/warlight.h"

/* Appends to a log, remembering the first failure. */
struct out { struct strbuf *sb; int rc; };

static void put(struct out *o, const char *s)
{
    if (o->rc == 0)
        o->rc = sb_puts(o->sb, s);
}

static void num(struct out *o, int64_t v)
{
    if (o->rc == 0)
        o->rc = sb_put_i64(o->sb, v);
}

/* " a,b,c": a space, then n numbers joined by commas. */
static void fields(struct out *o, const int64_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        put(o, i ? "," : " ");
        num(o, v[i]);
    }
}

int wl_log_header(struct strbuf *log, const int64_t *params, int k)
{
    struct out o = {log, 0};
    const int64_t head[6] = {params[WP_ROWS], params[WP_COLS], k, params[WP_ROUNDS],
                             params[WP_TURN_LIMIT], params[WP_PERSISTENT]};
    put(&o, "warlight");
    for (int i = 0; i < 6; i++)
        fields(&o, &head[i], 1);
    put(&o, "\n");
    for (int x = 0; x < WP_COUNT; x++) {
        if (params[x] == warlight_params[x].def)
            continue;
        put(&o, "param ");
        put(&o, warlight_params[x].name);
        fields(&o, &params[x], 1);
        put(&o, "\n");
    }
    return o.rc;
}

int wl_log_round(struct strbuf *log, const struct warlight_board *b, int64_t round)
{
    struct out o = {log, 0};
    put(&o, "round");
    fields(&o, &round, 1);
    put(&o, "\n");
    for (int x = 0; x < b->bonus_count; x++) {
        const int64_t head[2] = {x, b->bonus_value[x]};
        put(&o, "bonus");
        fields(&o, &head[0], 1);
        fields(&o, &head[1], 1);
        for (int t = 0; t < b->n; t++) {
            const int64_t rc[2] = {t / b->cols, t % b->cols};
            if (b->bonus[t] == x)
                fields(&o, rc, 2);
        }
        put(&o, "\n");
    }
    for (int id = 0; id < b->k; id++) {
        const int64_t rc[2] = {b->start[id] / b->cols, b->start[id] % b->cols};
        put(&o, "start");
        fields(&o, &(int64_t){id}, 1);
        fields(&o, rc, 2);
        put(&o, "\n");
    }
    return o.rc;
}

static void log_deploy(struct out *o, const struct wl_turn *t, int k)
{
    for (int id = 0; id < k; id++) {
        const struct wl_orders *ord = t->orders[id];
        if (!t->ran[id] || (t->status[id] != WS_OK && t->status[id] != WS_BADMOVES))
            continue;
        put(o, "deploy");
        fields(o, &(int64_t){id}, 1);
        for (size_t i = 0; i < ord->n_deploy; i++) {
            const struct wl_deploy *d = &ord->deploy[i];
            fields(o, (const int64_t[]){d->r, d->c, d->a}, 3);
        }
        put(o, "\n");
    }
}

static void log_moves(struct out *o, const struct wl_moves *moves)
{
    for (size_t i = 0; i < moves->n; i++) {
        const struct wl_move *mv = &moves->v[i];
        const struct wl_command *m = &mv->cmd;
        put(o, "move");
        fields(o, &(int64_t){mv->id}, 1);
        fields(o, (const int64_t[]){m->sr, m->sc, m->dr, m->dc, m->a}, 5);
        fields(o, &mv->n, 1);
        put(o, " ");
        put(o, wl_outcome_name(mv->outcome));
        put(o, "\n");
    }
}

static void log_rows(struct out *o, const struct warlight_board *b)
{
    for (int r = 0; r < b->rows; r++) {
        put(o, "row");
        fields(o, &(int64_t){r}, 1);
        for (int c = 0; c < b->cols; c++) {
            int t = r * b->cols + c;
            fields(o, (const int64_t[]){b->owner[t], b->armies[t]}, 2);
        }
        put(o, "\n");
    }
}

int wl_log_turn(struct strbuf *log, const struct warlight_board *b, const struct wl_turn *t)
{
    struct out o = {log, 0};
    put(&o, "turn");
    fields(&o, &t->turn, 1);
    put(&o, "\n");
    for (int id = 0; id < b->k; id++) {
        if (!t->ran[id])
            continue;
        put(&o, "player");
        fields(&o, (const int64_t[]){id}, 1);
        fields(&o, &t->income[id], 1);
        put(&o, " ");
        put(&o, wl_status_name(t->status[id]));
        put(&o, "\n");
    }
    log_deploy(&o, t, b->k);
    log_moves(&o, t->moves);
    log_rows(&o, b);
    for (int id = 0; id < b->k; id++) {
        if (t->out[id]) {
            put(&o, "out");
            fields(&o, &(int64_t){id}, 1);
            put(&o, "\n");
        }
    }
    return o.rc;
}

/* "endround R p0 ... pk-1" (round > 0) or "total p0 ... pk-1". */
int wl_log_points(struct strbuf *log, const char *word, int64_t round, const int64_t *points, int k)
{
    struct out o = {log, 0};
    put(&o, word);
    if (round > 0)
        fields(&o, &round, 1);
    for (int id = 0; id < k; id++)
        fields(&o, &points[id], 1);
    put(&o, "\n");
    return o.rc;
}
