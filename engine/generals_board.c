/* generals_board.c - the generals cells in play: totals, vision, changes, and their text. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/generals.h"

/* Decimal digits of v at w, README C2; returns the end. */
static char *put_u64(char *w, uint64_t v)
{
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *w++ = tmp[--n];
    return w;
}

static char *put_pair(char *w, int64_t a, int64_t b)
{
    w = put_u64(w, (uint64_t)a);
    *w++ = ' ';
    w = put_u64(w, (uint64_t)b);
    *w++ = '\n';
    return w;
}

/* The cell's visible line, into its slot. */
static void format_line(struct generals_board *b, size_t c)
{
    char *start = b->line[c], *w = start;
    int t = b->type[c];
    if (t == CELL_MOUNTAIN) {
        memcpy(w, "1 4\n", 4);
        w += 4;
    } else {
        w[0] = '1';
        w[1] = ' ';
        w[2] = (char)('0' + t);
        w[3] = ' ';
        w = put_pair(w + 4, b->owner[c], b->units[c]);
    }
    b->line_len[c] = (uint8_t)(w - start);
}

/* The cell's hidden line, into its 4 bytes: "0 2" for a city or mountain, else "0 1". */
static void format_hidden(struct generals_board *b, size_t c)
{
    int t = b->type[c];
    memcpy(b->hidden + 4 * c, t == CELL_CITY || t == CELL_MOUNTAIN ? "0 2\n" : "0 1\n", 4);
}

static bool is_town(int type)
{
    return type == CELL_CITY || type == CELL_CAPITAL;
}

/* Lists the city and capital cells, and formats every cell's lines. */
static void index_cells(struct generals_board *b)
{
    for (size_t c = 0; c < b->cells; c++) {
        if (is_town(b->type[c]))
            b->towns[b->n_towns++] = c;
        format_line(b, c);
        format_hidden(b, c);
    }
}

int generals_board_init(struct generals_board *b, const struct generals_map *map, int vision_radius)
{
    memset(b, 0, sizeof *b);
    b->n = map->n;
    b->m = map->m;
    b->k = map->k;
    b->cells = (size_t)map->n * (size_t)map->m;
    b->vision_radius = vision_radius;
    b->type = malloc(b->cells);
    b->owner = calloc(b->cells, 1);
    b->units = malloc(b->cells * sizeof *b->units);
    b->vision = calloc((size_t)b->k * b->cells, sizeof *b->vision);
    b->changed = malloc(b->cells * sizeof *b->changed);
    b->is_changed = calloc(b->cells, 1);
    b->line = malloc(b->cells * sizeof *b->line);
    b->line_len = malloc(b->cells);
    b->hidden = malloc(4 * b->cells);
    b->towns = malloc(b->cells * sizeof *b->towns);
    if (!b->type || !b->owner || !b->units || !b->vision || !b->changed || !b->is_changed ||
        !b->line || !b->line_len || !b->hidden || !b->towns) {
        generals_board_free(b);
        return -1;
    }
    memcpy(b->type, map->type, b->cells);
    for (size_t c = 0; c < b->cells; c++)
        b->units[c] = map->type[c] == CELL_CITY ? map->army[c] : 0;
    index_cells(b);
    return 0;
}

void generals_board_free(struct generals_board *b)
{
    free(b->type);
    free(b->owner);
    free(b->units);
    free(b->vision);
    free(b->changed);
    free(b->is_changed);
    free(b->line);
    free(b->line_len);
    free(b->hidden);
    free(b->towns);
    memset(b, 0, sizeof *b);
}

/* Adds delta to player p's vision count of every cell within the radius of c. */
static void add_vision(struct generals_board *b, size_t c, int p, int delta)
{
    int i = (int)(c / (size_t)b->m), j = (int)(c % (size_t)b->m), r = b->vision_radius;
    int i0 = i - r > 0 ? i - r : 0, i1 = i + r < b->n - 1 ? i + r : b->n - 1;
    int j0 = j - r > 0 ? j - r : 0, j1 = j + r < b->m - 1 ? j + r : b->m - 1;
    uint16_t *plane = b->vision + (size_t)(p - 1) * b->cells;
    for (int y = i0; y <= i1; y++) {
        uint16_t *row = plane + (size_t)y * (size_t)b->m;
        for (int x = j0; x <= j1; x++)
            row[x] = (uint16_t)(row[x] + delta);
    }
}

static void count_cell(struct generals_board *b, size_t c, int sign)
{
    int p = b->owner[c];
    if (p == 0)
        return;
    b->army[p] += sign * b->units[c];
    b->land[p] += sign;
    if (b->type[c] == CELL_CITY)
        b->cities[p] += sign;
}

void generals_board_set(struct generals_board *b, size_t c, int type, int owner, int64_t units)
{
    int old_owner = b->owner[c];
    count_cell(b, c, -1);
    if (old_owner != owner) {
        if (old_owner)
            add_vision(b, c, old_owner, -1);
        if (owner)
            add_vision(b, c, owner, +1);
    }
    b->type[c] = (uint8_t)type;
    b->owner[c] = (uint8_t)owner;
    b->units[c] = units;
    count_cell(b, c, +1);
    format_line(b, c);
    format_hidden(b, c);
    if (!b->is_changed[c]) {
        b->is_changed[c] = 1;
        b->changed[b->n_changed++] = c;
    }
}

/* Adds amount to the units of cell c, which has an owner. */
static void grow_cell(struct generals_board *b, size_t c, int64_t amount)
{
    b->units[c] += amount;
    b->army[b->owner[c]] += amount;
    format_line(b, c);
}

/* Whether any owned city or capital grew. */
static bool grow_towns(struct generals_board *b, int64_t amount)
{
    bool grew = false;
    for (size_t x = 0; x < b->n_towns; x++) {
        size_t c = b->towns[x];
        if (b->owner[c]) {
            grow_cell(b, c, amount);
            grew = true;
        }
    }
    return grew;
}

/* Whether any owned empty cell grew. */
static bool grow_land(struct generals_board *b, int64_t amount)
{
    bool grew = false;
    for (size_t c = 0; c < b->cells; c++) {
        if (b->owner[c] && b->type[c] == CELL_EMPTY) {
            grow_cell(b, c, amount);
            grew = true;
        }
    }
    return grew;
}

struct generals_growth generals_board_grow(struct generals_board *b, int64_t city_amount,
                                           int64_t land_amount)
{
    struct generals_growth grown = {0, 0};
    if (city_amount && grow_towns(b, city_amount))
        grown.cities = city_amount;
    if (land_amount && grow_land(b, land_amount))
        grown.land = land_amount;
    return grown;
}

/* Longest statistics line: two 20-digit numbers, a space and '\n'. */
#define MAX_STATS_LINE 42

/* The first cell from c on with a non-zero vision count (cells if none); four at a time. */
static size_t next_seen(const uint16_t *vision, size_t c, size_t cells)
{
    uint64_t four;
    while (c + 4 <= cells && (memcpy(&four, vision + c, sizeof four), four == 0))
        c += 4;
    while (c < cells && !vision[c])
        c++;
    return c;
}

/* Every cell as the owner of vision sees it: a run of hidden cells is one copy from
 * b->hidden, a visible cell one slot copy; vision NULL sees everything. */
static char *write_cells(const struct generals_board *b, const uint16_t *vision, char *w)
{
    const size_t cells = b->cells;
    const char(*line)[GENERALS_LINE_SLOT] = b->line;
    const uint8_t *line_len = b->line_len;
    size_t c = 0;
    while (c < cells) {
        size_t start = c;
        if (vision)
            c = next_seen(vision, c, cells);
        memcpy(w, b->hidden + 4 * start, 4 * (c - start));
        w += 4 * (c - start);
        for (; c < cells && (!vision || vision[c]); c++) {
            memcpy(w, line[c], GENERALS_LINE_SLOT);
            w += line_len[c];
        }
    }
    return w;
}

int generals_board_write_state(const struct generals_board *b, int viewer, struct strbuf *out)
{
    /* Every visible cell copies a whole slot, so room for cells * slot bytes is reserved. */
    if (sb_reserve(out, 2 + (size_t)b->k * MAX_STATS_LINE + b->cells * GENERALS_LINE_SLOT) < 0)
        return -1;
    char *w = out->data + out->len;
    *w++ = '1';
    *w++ = '\n';
    for (int p = 1; p <= b->k; p++)
        w = put_pair(w, b->army[p], b->land[p]);
    w = write_cells(b, viewer ? b->vision + (size_t)(viewer - 1) * b->cells : NULL, w);
    *w = '\0';
    out->len = (size_t)(w - out->data);
    return 0;
}

/* Longest JSON cell: "[" + four small numbers and a 20-digit count + four ',' + "],". */
#define MAX_JSON_CELL 48

int generals_board_write_changes(struct generals_board *b, struct strbuf *out)
{
    if (sb_reserve(out, 2 + b->n_changed * MAX_JSON_CELL) < 0)
        return -1;
    char *w = out->data + out->len;
    *w++ = '[';
    for (size_t x = 0; x < b->n_changed; x++) {
        size_t c = b->changed[x];
        b->is_changed[c] = 0;
        if (x)
            *w++ = ',';
        *w++ = '[';
        w = put_u64(w, c / (size_t)b->m + 1);
        *w++ = ',';
        w = put_u64(w, c % (size_t)b->m + 1);
        *w++ = ',';
        *w++ = (char)('0' + b->type[c]);
        *w++ = ',';
        w = put_u64(w, b->owner[c]);
        *w++ = ',';
        w = put_u64(w, (uint64_t)b->units[c]);
        *w++ = ']';
    }
    *w++ = ']';
    *w = '\0';
    out->len = (size_t)(w - out->data);
    b->n_changed = 0;
    return 0;
}
