/* warlight_board.c - the territories of one round: adjacency (W1), income (W6), the §4 prompt. */
#include <stdlib.h>
#include <string.h>

#include "engine/warlight.h"

int wl_board_init(struct warlight_board *b, int rows, int cols, int bonus_count, int k)
{
    memset(b, 0, sizeof *b);
    b->rows = rows;
    b->cols = cols;
    b->n = rows * cols;
    b->k = k;
    b->bonus_count = bonus_count;
    size_t n = (size_t)b->n, nb = (size_t)bonus_count;
    b->owner = malloc(n * sizeof *b->owner);
    b->armies = calloc(n, sizeof *b->armies);
    b->bonus = calloc(n, sizeof *b->bonus);
    b->bonus_value = calloc(nb, sizeof *b->bonus_value);
    b->bonus_size = calloc(nb, sizeof *b->bonus_size);
    b->changed = calloc(n, 1);
    b->changes = malloc(n * sizeof *b->changes);
    b->scratch = malloc(n * sizeof *b->scratch);
    if (!b->owner || !b->armies || !b->bonus || !b->bonus_value || !b->bonus_size || !b->changed ||
        !b->changes || !b->scratch) {
        wl_board_free(b);
        return -1;
    }
    for (int t = 0; t < b->n; t++)
        b->owner[t] = -1;
    return 0;
}

void wl_board_free(struct warlight_board *b)
{
    free(b->owner);
    free(b->armies);
    free(b->bonus);
    free(b->bonus_value);
    free(b->bonus_size);
    free(b->changed);
    free(b->changes);
    free(b->scratch);
    memset(b, 0, sizeof *b);
}

int64_t wl_sat_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

void wl_board_set(struct warlight_board *b, int t, int owner, int64_t armies)
{
    int was = b->owner[t];
    if (was != owner) {
        if (was >= 0)
            b->land[was]--;
        if (owner >= 0)
            b->land[owner]++;
    }
    b->owner[t] = owner;
    b->armies[t] = armies;
    if (!b->changed[t]) {
        b->changed[t] = 1;
        b->changes[b->n_changes++] = t;
    }
}

int wl_board_take_changes(struct warlight_board *b, const int32_t **list)
{
    int n = b->n_changes;
    for (int i = 0; i < n; i++)
        b->changed[b->changes[i]] = 0;
    b->n_changes = 0;
    *list = b->changes;  /* valid until the next wl_board_set */
    return n;
}

static int wrap(int v, int size)
{
    return (v % size + size) % size;
}

int wl_board_neighbour(const struct warlight_board *b, int t, int i)
{
    static const int dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int r = t / b->cols, c = t % b->cols;
    return wrap(r + dr[i], b->rows) * b->cols + wrap(c + dc[i], b->cols);
}

/* Rows and columns are at least 3, so a step of -1, 0 or 1 never lands back on its start. */
bool wl_board_adjacent(const struct warlight_board *b, int t, int u)
{
    int dr = wrap(u / b->cols - t / b->cols, b->rows), dc = wrap(u % b->cols - t % b->cols, b->cols);
    bool row_ok = dr == 0 || dr == 1 || dr == b->rows - 1;
    bool col_ok = dc == 0 || dc == 1 || dc == b->cols - 1;
    return row_ok && col_ok && (dr || dc);
}

/* owned[x] = territories of bonus x that id owns (scratch has n >= bonus_count ints). */
static void count_owned(const struct warlight_board *b, int id, int *owned)
{
    memset(owned, 0, (size_t)b->bonus_count * sizeof *owned);
    for (int t = 0; t < b->n; t++)
        if (b->owner[t] == id)
            owned[b->bonus[t]]++;
}

int64_t wl_board_income(const struct warlight_board *b, int id, int64_t base_income)
{
    count_owned(b, id, b->scratch);
    int64_t income = base_income;
    for (int x = 0; x < b->bonus_count; x++)
        if (b->scratch[x] == b->bonus_size[x])
            income = wl_sat_add(income, b->bonus_value[x]);
    return income;
}

static int put_fields(struct strbuf *out, const int64_t *v, int n)
{
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (i)
            rc = sb_putc(out, ',');
        if (rc == 0)
            rc = sb_put_i64(out, v[i]);
    }
    return rc;
}

/* §4 argument 3: every territory id owns or touches, row-major, "r,c,bonus,owner,armies". */
static int put_territories(struct warlight_board *b, int id, struct strbuf *out)
{
    uint8_t *seen = (uint8_t *)b->scratch;  /* n bytes of the n ints */
    memset(seen, 0, (size_t)b->n);
    for (int t = 0; t < b->n; t++) {
        if (b->owner[t] != id)
            continue;
        seen[t] = 1;
        for (int i = 0; i < 8; i++)
            seen[wl_board_neighbour(b, t, i)] = 1;
    }
    int rc = 0, listed = 0;
    for (int t = 0; t < b->n && rc == 0; t++) {
        if (!seen[t])
            continue;
        int64_t v[5] = {t / b->cols, t % b->cols, b->bonus[t], b->owner[t], b->armies[t]};
        if (listed++)
            rc = sb_putc(out, ' ');
        if (rc == 0)
            rc = put_fields(out, v, 5);
    }
    return rc;
}

/* §4 argument 4: "id,value,left" for every bonus. */
static int put_bonuses(struct warlight_board *b, int id, struct strbuf *out)
{
    count_owned(b, id, b->scratch);
    int rc = 0;
    for (int x = 0; x < b->bonus_count && rc == 0; x++) {
        int64_t v[3] = {x, b->bonus_value[x], b->bonus_size[x] - b->scratch[x]};
        if (x)
            rc = sb_putc(out, ' ');
        if (rc == 0)
            rc = put_fields(out, v, 3);
    }
    return rc;
}

/* One argument at a time: in argv form each ends with '\0', in line form they are joined by ' '. */
struct args { struct strbuf *out; bool as_line; int argc, rc; };

static void arg_begin(struct args *a)
{
    if (a->rc == 0 && a->as_line && a->argc > 0)
        a->rc = sb_putc(a->out, ' ');
}

static void arg_end(struct args *a)
{
    a->argc++;
    if (a->rc == 0 && !a->as_line)
        a->rc = sb_putc(a->out, '\0');
}

static void arg_number(struct args *a, int64_t v)
{
    arg_begin(a);
    if (a->rc == 0)
        a->rc = sb_put_i64(a->out, v);
    arg_end(a);
}

int wl_board_prompt(struct warlight_board *b, int id, int64_t income, bool first_turn, bool as_line,
                    struct strbuf *out, int *argc)
{
    struct args a = {out, as_line, 0, 0};
    arg_number(&a, id);
    arg_number(&a, income);
    arg_begin(&a);
    if (a.rc == 0)
        a.rc = put_territories(b, id, out);
    arg_end(&a);
    arg_begin(&a);
    if (a.rc == 0)
        a.rc = put_bonuses(b, id, out);
    arg_end(&a);
    if (first_turn) {
        arg_begin(&a);
        if (a.rc == 0)
            a.rc = sb_putc(out, 'X');
        arg_end(&a);
    }
    if (a.rc == 0 && as_line)
        a.rc = sb_putc(out, '\n');
    *argc = a.argc;
    return a.rc;
}
