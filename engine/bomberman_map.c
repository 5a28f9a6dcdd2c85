/* bomberman_map.c - the map file of bomberman.md §3 (with D16): read, checked rule by rule with
 * the line and column of the first break, and written back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bomberman.h"
#include "engine/reply_parse.h"

static int map_error(struct game_error *err, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int map_error(struct game_error *err, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->line = line;
    err->col = col;
    return -1;
}

struct start_seen {
    int line, col;
};

/* One cell character of row y at column x (col: its column in the file). */
static int read_cell(struct bomberman_map *m, struct start_seen *seen, char ch, int x, int y, int col,
                     struct game_error *err)
{
    int c = bm_cell(x, y);
    switch (ch) {
    case '.':
        m->terrain[c] = BM_FREE;
        return 0;
    case '#':
        m->terrain[c] = BM_WALL;
        return 0;
    case '+':
        m->terrain[c] = BM_BLOCK;
        return 0;
    case 'a':
        m->terrain[c] = BM_BLOCK;
        m->hidden[c] = 'A';
        return 0;
    case 'r':
        m->terrain[c] = BM_BLOCK;
        m->hidden[c] = 'R';
        return 0;
    case '1':
    case '2':
    case '3':
    case '4':
        break;
    default:
        return map_error(err, y, col, "'%c' is not a cell: expected one of . # + a r 1 2 3 4", ch);
    }
    int p = ch - '0';
    if (seen[p].line)
        return map_error(err, y, col, "start %d appears twice (first at line %d, column %d)", p, seen[p].line,
                         seen[p].col);
    seen[p] = (struct start_seen){y, col};
    m->terrain[c] = BM_FREE;
    m->start[p] = c;
    return 0;
}

/* Row y: README C3 (one '\r' removed, surrounding spaces ignored, no control or non-ASCII
 * byte), then exactly BM_SIDE cell characters with no space inside (D16). */
static int read_row(struct bomberman_map *m, struct start_seen *seen, const char *line, size_t len, int y,
                    struct game_error *err)
{
    struct reply_token tok[2];
    int count;
    struct game_error terr = {0};
    if (reply_tokens(line, len, tok, 2, &count, &terr) < 0)
        return map_error(err, y, terr.col, "%s", terr.msg);
    if (count == 0) return map_error(err, y, 1, "row %d is blank: expected %d cells", y, BM_SIDE);
    if (count > 1) return map_error(err, y, tok[0].col + (int)tok[0].len, "a space inside row %d", y);
    for (int x = 1; x <= BM_SIDE && x <= (int)tok[0].len; x++)
        if (read_cell(m, seen, tok[0].text[x - 1], x, y, tok[0].col + x - 1, err) < 0) return -1;
    if (tok[0].len != BM_SIDE)
        return map_error(err, y, tok[0].col + (tok[0].len > BM_SIDE ? BM_SIDE : (int)tok[0].len),
                         "row %d has %zu cells, expected %d", y, tok[0].len, BM_SIDE);
    return 0;
}

/* The digits used are 1..S with S >= 2 (§3). */
static int check_starts(struct bomberman_map *m, const struct start_seen *seen, struct game_error *err)
{
    int highest = 0;
    for (int p = 1; p <= BM_MAX_PLAYERS; p++)
        if (seen[p].line) highest = p;
    for (int p = 1; p < highest; p++)
        if (!seen[p].line)
            return map_error(err, seen[highest].line, seen[highest].col,
                             "start %d is on the map but start %d is not (starts are numbered 1..S)", highest,
                             p);
    if (highest < 2)
        return map_error(err, highest ? seen[1].line : 1, highest ? seen[1].col : 1,
                         "the map has %d start(s); it needs at least 2, numbered from 1", highest);
    m->starts = highest;
    return 0;
}

static int parse_rows(struct bomberman_map *m, const char *text, size_t len, struct game_error *err)
{
    struct start_seen seen[BM_MAX_PLAYERS + 1];
    memset(seen, 0, sizeof seen);
    int y = 0;
    for (size_t at = 0; at < len;) {
        const char *start = text + at, *nl = memchr(start, '\n', len - at);
        size_t n = nl ? (size_t)(nl - start) : len - at;
        y++;
        if (y > BM_SIDE) {
            bool blank = n == 0 || (n == 1 && start[0] == '\r');
            return map_error(err, y, 1, blank ? "the file ends with a blank line" : "more than %d rows",
                             BM_SIDE);
        }
        if (read_row(m, seen, start, n, y, err) < 0) return -1;
        at += n + 1;
    }
    if (y < BM_SIDE) return map_error(err, y + 1, 1, "the map has %d rows, expected %d", y, BM_SIDE);
    return check_starts(m, seen, err);
}

int bomberman_map_parse(const char *text, size_t len, const int64_t *params, struct game_map **out,
                        struct game_error *err)
{
    (void)params;
    struct bomberman_map *m = calloc(1, sizeof *m);
    if (!m) return map_error(err, 0, 0, "out of memory");
    if (parse_rows(m, text, len, err) < 0) {
        free(m);
        return -1;
    }
    *out = (struct game_map *)m;
    return 0;
}

static char cell_char(const struct bomberman_map *m, int c)
{
    for (int p = 1; p <= m->starts; p++)
        if (m->start[p] == c) return (char)('0' + p);
    if (m->terrain[c] == BM_WALL) return '#';
    if (m->terrain[c] == BM_FREE) return '.';
    return m->hidden[c] == 'A' ? 'a' : m->hidden[c] == 'R' ? 'r' : '+';
}

int bomberman_map_write(const struct game_map *map, struct strbuf *out)
{
    const struct bomberman_map *m = (const struct bomberman_map *)map;
    char row[BM_SIDE + 1];
    for (int y = 1; y <= BM_SIDE; y++) {
        for (int x = 1; x <= BM_SIDE; x++) row[x - 1] = cell_char(m, bm_cell(x, y));
        row[BM_SIDE] = '\n';
        if (sb_append(out, row, sizeof row) < 0) return -1;
    }
    return 0;
}

int bomberman_map_players(const struct game_map *map)
{
    return ((const struct bomberman_map *)map)->starts;
}

void bomberman_map_free(struct game_map *map)
{
    free(map);
}
