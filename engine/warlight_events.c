/* warlight_events.c - the replay events of a round, a turn and the points (kinds: warlight.c). */
#include "engine/warlight.h"

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

/* "[a,b,...]", preceded by a comma unless first. */
static void array(struct out *o, bool first, const int64_t *v, int n)
{
    put(o, first ? "[" : ",[");
    for (int i = 0; i < n; i++) {
        if (i)
            put(o, ",");
        num(o, v[i]);
    }
    put(o, "]");
}

static void begin(struct out *o, const char *type, int64_t round)
{
    put(o, "{\"t\":\"");
    put(o, type);
    put(o, "\",\"round\":");
    num(o, round);
}

int wl_event_round(struct strbuf *ev, const struct warlight_board *b, int64_t round)
{
    struct out o = {ev, 0};
    begin(&o, "round", round);
    put(&o, ",\"bonuses\":[");
    for (int x = 0; x < b->bonus_count; x++) {
        put(&o, x ? ",{\"id\":" : "{\"id\":");
        num(&o, x);
        put(&o, ",\"value\":");
        num(&o, b->bonus_value[x]);
        put(&o, ",\"cells\":[");
        bool first = true;
        for (int t = 0; t < b->n; t++) {
            if (b->bonus[t] == x) {
                array(&o, first, (const int64_t[]){t / b->cols, t % b->cols}, 2);
                first = false;
            }
        }
        put(&o, "]}");
    }
    put(&o, "],\"starts\":[");
    for (int id = 0; id < b->k; id++)
        array(&o, id == 0, (const int64_t[]){b->start[id] / b->cols, b->start[id] % b->cols}, 2);
    put(&o, "]}\n");
    return o.rc;
}

static void players(struct out *o, const struct wl_turn *t, int k)
{
    put(o, ",\"players\":[");
    bool first = true;
    for (int id = 0; id < k; id++) {
        if (!t->ran[id])
            continue;
        put(o, first ? "[" : ",[");
        first = false;
        num(o, id);
        put(o, ",");
        num(o, t->income[id]);
        put(o, ",\"");
        put(o, wl_status_name(t->status[id]));
        put(o, "\",");
        num(o, t->dropped[id]);
        put(o, "]");
    }
    put(o, "]");
}

static void deploys(struct out *o, const struct wl_turn *t, int k)
{
    put(o, ",\"deploy\":[");
    bool first = true;
    for (int id = 0; id < k; id++) {
        if (!t->ran[id] || (t->status[id] != WS_OK && t->status[id] != WS_BADMOVES))
            continue;
        for (size_t i = 0; i < t->orders[id]->n_deploy; i++) {
            const struct wl_deploy *d = &t->orders[id]->deploy[i];
            array(o, first, (const int64_t[]){id, d->r, d->c, d->a}, 4);
            first = false;
        }
    }
    put(o, "]");
}

static void moves(struct out *o, const struct wl_moves *mv)
{
    put(o, ",\"moves\":[");
    for (size_t i = 0; i < mv->n; i++) {
        const struct wl_command *m = &mv->v[i].cmd;
        const int64_t v[7] = {mv->v[i].id, m->sr, m->sc, m->dr, m->dc, m->a, mv->v[i].n};
        put(o, i ? ",[" : "[");
        for (int f = 0; f < 7; f++) {
            num(o, v[f]);
            put(o, ",");
        }
        put(o, "\"");
        put(o, wl_outcome_name(mv->v[i].outcome));
        put(o, "\"]");
    }
    put(o, "]");
}

/* The territories changed by the turn, row-major, each [r, c, owner, armies] after it. */
static void cells(struct out *o, struct warlight_board *b)
{
    uint8_t *mark = (uint8_t *)b->scratch;
    const int32_t *list;
    int n = wl_board_take_changes(b, &list);
    for (int t = 0; t < b->n; t++)
        mark[t] = 0;
    for (int i = 0; i < n; i++)
        mark[list[i]] = 1;
    put(o, ",\"cells\":[");
    bool first = true;
    for (int t = 0; t < b->n; t++) {
        if (mark[t]) {
            array(o, first, (const int64_t[]){t / b->cols, t % b->cols, b->owner[t], b->armies[t]}, 4);
            first = false;
        }
    }
    put(o, "]");
}

int wl_event_turn(struct strbuf *ev, struct warlight_board *b, const struct wl_turn *t)
{
    struct out o = {ev, 0};
    begin(&o, "turn", t->round);
    put(&o, ",\"turn\":");
    num(&o, t->turn);
    players(&o, t, b->k);
    deploys(&o, t, b->k);
    moves(&o, t->moves);
    cells(&o, b);
    put(&o, ",\"out\":[");
    bool first = true;
    for (int id = 0; id < b->k; id++) {
        if (t->out[id]) {
            put(&o, first ? "" : ",");
            num(&o, id);
            first = false;
        }
    }
    put(&o, "]}\n");
    return o.rc;
}

/* {"t":"endround","round":R,"points":[...]} or, with round 0, {"t":"end","points":[...]}. */
int wl_event_points(struct strbuf *ev, const char *type, int64_t round, const int64_t *points, int k)
{
    struct out o = {ev, 0};
    put(&o, "{\"t\":\"");
    put(&o, type);
    put(&o, "\"");
    if (round > 0) {
        put(&o, ",\"round\":");
        num(&o, round);
    }
    put(&o, ",\"points\":");
    array(&o, true, points, k);
    put(&o, "}\n");
    return o.rc;
}
