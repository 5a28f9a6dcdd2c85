/* generals_map.c - the generals map file (generals.md §3, D11, D18): reading and writing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/generals.h"
#include "engine/reply_parse.h"

struct generals_map *generals_map_new(int n, int m)
{
    size_t cells = (size_t)n * (size_t)m;
    struct generals_map *map =
        calloc(1, sizeof *map + cells * sizeof *map->army + cells * sizeof *map->type);
    if (!map)
        return NULL;
    map->n = n;
    map->m = m;
    map->army = (int32_t *)(map + 1);
    map->type = (uint8_t *)(map->army + cells);
    memset(map->type, CELL_EMPTY, cells);
    return map;
}

void generals_map_free(struct game_map *map)
{
    free(map);
}

int generals_map_players(const struct game_map *map)
{
    return ((const struct generals_map *)map)->k;
}

/* ---- reading -------------------------------------------------------------- */

struct line_reader {
    const char *text;
    size_t len, pos;
    int line_no;           /* of the line last returned */
    size_t max_line_bytes;
};

/* The next line without its '\n'; the last line of the file may lack the '\n'. */
static bool next_line(struct line_reader *r, const char **line, size_t *len)
{
    if (r->pos >= r->len)
        return false;
    const char *start = r->text + r->pos;
    const char *nl = memchr(start, '\n', r->len - r->pos);
    *line = start;
    *len = nl ? (size_t)(nl - start) : r->len - r->pos;
    r->pos += *len + (nl ? 1 : 0);
    r->line_no++;
    return true;
}

__attribute__((format(printf, 4, 5)))
static int map_error(struct game_error *err, int line, int col, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    err->line = line;
    err->col = col;
    snprintf(err->msg, sizeof err->msg, "line %d, column %d: %s", line, col, what);
    return -1;
}

/* Splits one line into at most max tokens (README C3), checking its length first. */
static int read_tokens(const struct line_reader *r, const char *line, size_t len,
                       struct reply_token *tokens, int max, int *count, struct game_error *err)
{
    if (len > r->max_line_bytes)
        return map_error(err, r->line_no, (int)r->max_line_bytes + 1,
                         "line is longer than max_line_bytes (%zu)", r->max_line_bytes);
    struct game_error bad;
    if (reply_tokens(line, len, tokens, max, count, &bad) < 0)
        return map_error(err, r->line_no, bad.col, "%s", bad.msg);
    if (*count == 0)
        return map_error(err, r->line_no, 1, "blank line");
    return 0;
}

static int token_end_col(const struct reply_token *t)
{
    return t->col + (int)t->len;
}

/* A number token within lo..hi, or an error naming what was expected. */
static int read_number(const struct line_reader *r, const struct reply_token *t, int64_t lo,
                       int64_t hi, const char *what, int64_t *out, struct game_error *err)
{
    if (!reply_number(t, out) || *out < lo || *out > hi)
        return map_error(err, r->line_no, t->col, "expected %s", what);
    return 0;
}

struct header { int64_t n, m, k; int k_col; };

static int read_header(struct line_reader *r, struct header *h, struct game_error *err)
{
    const char *line;
    size_t len;
    if (!next_line(r, &line, &len))
        return map_error(err, 1, 1, "empty map file: expected the header N M K");
    struct reply_token t[4];
    int count;
    if (read_tokens(r, line, len, t, 4, &count, err) < 0)
        return -1;
    if (count < 3)
        return map_error(err, 1, token_end_col(&t[count - 1]) + 1, "expected the header N M K");
    if (count > 3)
        return map_error(err, 1, t[3].col, "unexpected text after the header N M K");
    if (read_number(r, &t[0], 1, GENERALS_MAX_SIDE, "N (rows) in 1..50", &h->n, err) < 0 ||
        read_number(r, &t[1], 1, GENERALS_MAX_SIDE, "M (columns) in 1..50", &h->m, err) < 0 ||
        read_number(r, &t[2], 2, GAME_MAX_PLAYERS, "K (capitals) in 2..16", &h->k, err) < 0)
        return -1;
    h->k_col = t[2].col;
    return 0;
}

static int read_cell(struct line_reader *r, const char *line, size_t len, struct generals_map *map,
                     size_t c, struct game_error *err)
{
    struct reply_token t[3];
    int count;
    int64_t type, army = 0;
    if (read_tokens(r, line, len, t, 3, &count, err) < 0 ||
        read_number(r, &t[0], CELL_EMPTY, CELL_MOUNTAIN, "cell type 1..4", &type, err) < 0)
        return -1;
    int wanted = type == CELL_CITY ? 2 : 1;
    if (count < wanted)
        return map_error(err, r->line_no, token_end_col(&t[0]) + 1,
                         "expected the army of the city after '2'");
    if (count > wanted)
        return map_error(err, r->line_no, t[wanted].col, "unexpected text after the cell entry");
    if (type == CELL_CITY &&
        read_number(r, &t[1], 0, GENERALS_MAX_CITY_ARMY, "a city army in 0..1000000", &army, err) < 0)
        return -1;
    map->type[c] = (uint8_t)type;
    map->army[c] = (int32_t)army;
    return 0;
}

static int read_cells(struct line_reader *r, struct generals_map *map, struct game_error *err)
{
    size_t cells = (size_t)map->n * (size_t)map->m;
    const char *line;
    size_t len;
    for (size_t c = 0; c < cells; c++) {
        if (!next_line(r, &line, &len))
            return map_error(err, r->line_no + 1, 1, "expected %zu cell entries (N*M), found %zu",
                             cells, c);
        if (read_cell(r, line, len, map, c, err) < 0)
            return -1;
        if (map->type[c] == CELL_CAPITAL)
            map->k++;
    }
    if (next_line(r, &line, &len))
        return map_error(err, r->line_no, 1, "unexpected line after the %zu cell entries", cells);
    return 0;
}

int generals_map_parse(const char *text, size_t len, const int64_t *params, struct game_map **out,
                       struct game_error *err)
{
    struct line_reader r = {text, len, 0, 0, 0};
    r.max_line_bytes = (size_t)(params ? params[GP_MAX_LINE_BYTES]
                                       : generals_params[GP_MAX_LINE_BYTES].def);
    struct header h;
    if (read_header(&r, &h, err) < 0)
        return -1;
    struct generals_map *map = generals_map_new((int)h.n, (int)h.m);
    if (!map) {
        *err = (struct game_error){"out of memory", 0, 0};
        return -1;
    }
    if (read_cells(&r, map, err) < 0) {
        free(map);
        return -1;
    }
    if (map->k != h.k) {
        map_error(err, 1, h.k_col, "K = %lld but the map has %d capitals (entries '3')",
                  (long long)h.k, map->k);
        free(map);
        return -1;
    }
    *out = (struct game_map *)map;
    return 0;
}

/* ---- writing -------------------------------------------------------------- */

int generals_map_write(const struct game_map *gm, struct strbuf *out)
{
    const struct generals_map *map = (const struct generals_map *)gm;
    size_t cells = (size_t)map->n * (size_t)map->m;
    if (sb_reserve(out, 16 + cells * 10) < 0)
        return -1;
    sb_put_i64(out, map->n);
    sb_putc(out, ' ');
    sb_put_i64(out, map->m);
    sb_putc(out, ' ');
    sb_put_i64(out, map->k);
    sb_putc(out, '\n');
    for (size_t c = 0; c < cells; c++) {
        sb_putc(out, (char)('0' + map->type[c]));
        if (map->type[c] == CELL_CITY) {
            sb_putc(out, ' ');
            sb_put_i64(out, map->army[c]);
        }
        sb_putc(out, '\n');
    }
    return 0;
}
