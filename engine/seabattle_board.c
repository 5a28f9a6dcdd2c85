/*
 * seabattle_board.c - a sea battle board (seabattle.md §3): reading its lines, the
 * validity rules S2 and S3 in the order D11 reports them, and shots (S5).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/reply_parse.h"
#include "engine/seabattle.h"

#define WATER '_'
#define SHIP  '#'

const char *sea_rule_name(enum sea_rule r)
{
    static const char *const names[] = {"", "S2", "S3a", "S3b", "S3c"};
    return r <= SEA_RULE_S3C ? names[r] : "";
}

const char *sea_shot_name(enum sea_shot s)
{
    static const char *const names[] = {"miss", "hit", "sunk"};
    return s <= SEA_SUNK ? names[s] : "";
}

struct sea_fleet sea_fleet_of(const int64_t *params)
{
    struct sea_fleet f = {{0}};
    for (int len = 1; len <= SEA_MAX_LEN; len++) {
        int x = SP_SHIPS_1 + len - 1;
        f.count[len] = (int)(params ? params[x] : seabattle_params[x].def);
    }
    return f;
}

void sea_board_init(struct sea_board *b)
{
    memset(b, 0, sizeof *b);
}

static int cell_index(int x, int y)
{
    return (y - 1) * SEA_SIDE + (x - 1);
}

static bool is_ship(const struct sea_board *b, int x, int y)
{
    return x >= 1 && x <= SEA_SIDE && y >= 1 && y <= SEA_SIDE && y <= b->lines &&
           b->line[y - 1][x - 1] == SHIP;
}

static int broken(struct sea_board_error *err, enum sea_rule rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int broken(struct sea_board_error *err, enum sea_rule rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof err->msg)
        snprintf(err->msg + n, sizeof err->msg - (size_t)n, " (%s)", sea_rule_name(rule));
    err->rule = rule;
    return -1;
}

/* ---- one line: S2 (D10) and S3a (D9, D11) ------------------------------------------- */

static int check_cells(const struct reply_token *t, int y, struct sea_board_error *err)
{
    if (t->len != SEA_SIDE)
        return broken(err, SEA_RULE_S2, "board line %d has %zu cells, not %d", y, t->len, SEA_SIDE);
    for (size_t i = 0; i < t->len; i++)
        if (t->text[i] != WATER && t->text[i] != SHIP)
            return broken(err, SEA_RULE_S2, "board line %d, column %d: '%c' is neither '_' nor '#'", y,
                          t->col + (int)i, t->text[i]);
    return 0;
}

static int check_line_text(const char *line, size_t len, int64_t max_line_bytes, int y,
                           struct reply_token *cells, struct sea_board_error *err)
{
    struct reply_token t[2];
    struct game_error gerr;
    int count;
    if ((int64_t)len > max_line_bytes)
        return broken(err, SEA_RULE_S2, "board line %d is longer than max_line_bytes (%lld)", y,
                      (long long)max_line_bytes);
    if (reply_tokens(line, len, t, 2, &count, &gerr) < 0)
        return broken(err, SEA_RULE_S2, "board line %d, column %d: %.80s", y, gerr.col, gerr.msg);
    if (count == 0)
        return broken(err, SEA_RULE_S2, "board line %d is empty", y);
    if (count > 1)
        return broken(err, SEA_RULE_S2, "board line %d, column %d: a space inside the line", y,
                      t[0].col + (int)t[0].len);
    *cells = t[0];
    return check_cells(&t[0], y, err);
}

/* S3a for line y: the first ship cell with a ship cell diagonally above it, above-left first. */
static int check_corners(const struct sea_board *b, int y, struct sea_board_error *err)
{
    for (int x = 1; x <= SEA_SIDE; x++) {
        if (!is_ship(b, x, y))
            continue;
        for (int dx = -1; dx <= 1; dx += 2)
            if (is_ship(b, x + dx, y - 1))
                return broken(err, SEA_RULE_S3A,
                              "the ship cell at x=%d y=%d touches the one at x=%d y=%d at a corner", x, y,
                              x + dx, y - 1);
    }
    return 0;
}

int sea_board_add_line(struct sea_board *b, const char *line, size_t len, int64_t max_line_bytes,
                       struct sea_board_error *err)
{
    struct reply_token cells;
    int y = b->lines + 1;
    err->rule = SEA_RULE_NONE;
    err->msg[0] = '\0';
    if (y > SEA_SIDE)
        return broken(err, SEA_RULE_S2, "a board has %d lines", SEA_SIDE);
    if (check_line_text(line, len, max_line_bytes, y, &cells, err) < 0)
        return -1;
    memcpy(b->line[y - 1], cells.text, SEA_SIDE);
    b->line[y - 1][SEA_SIDE] = '\0';
    b->lines = y;
    return check_corners(b, y, err);
}

/* ---- the whole board: S3b and S3c -------------------------------------------------- */

static void describe_ship(const struct sea_ship *s, char *out, size_t size)
{
    if (s->len == 1)
        snprintf(out, size, "x=%d y=%d", s->x, s->y);
    else if (s->vertical)
        snprintf(out, size, "x=%d y=%d..%d", s->x, s->y, s->y + s->len - 1);
    else
        snprintf(out, size, "x=%d..%d y=%d", s->x, s->x + s->len - 1, s->y);
}

/* With no diagonal neighbours (S3a), every group joined through sides is a straight run
 * starting at its top-left cell: measure it right and down. */
static void add_ship(struct sea_board *b, int x, int y)
{
    int right = 0, down = 0;
    while (is_ship(b, x + right, y))
        right++;
    while (is_ship(b, x, y + down))
        down++;
    struct sea_ship *s = &b->ships[b->n_ships++];
    *s = (struct sea_ship){.x = x, .y = y, .len = down > right ? down : right, .vertical = down > right};
    for (int i = 0; i < s->len; i++)
        b->ship_at[cell_index(s->vertical ? x : x + i, s->vertical ? y + i : y)] = (uint8_t)b->n_ships;
    b->ship_cells += s->len;
}

static void list_ships(struct sea_board *b)
{
    for (int y = 1; y <= SEA_SIDE; y++)
        for (int x = 1; x <= SEA_SIDE; x++)
            if (is_ship(b, x, y) && !b->ship_at[cell_index(x, y)])
                add_ship(b, x, y);
}

/* S3b, then S3c: the first ship (row-major by its top-left cell) that is too long or one too
 * many of its length; else the first length with too few ships. */
static int check_fleet(const struct sea_board *b, const struct sea_fleet *fleet, struct sea_board_error *err)
{
    int seen[SEA_MAX_LEN + 1] = {0};
    char where[32];
    for (int i = 0; i < b->n_ships; i++) {
        const struct sea_ship *s = &b->ships[i];
        describe_ship(s, where, sizeof where);
        if (s->len > SEA_MAX_LEN)
            return broken(err, SEA_RULE_S3B, "the ship at %s is %d cells long; the longest is %d", where,
                          s->len, SEA_MAX_LEN);
    }
    for (int i = 0; i < b->n_ships; i++) {
        const struct sea_ship *s = &b->ships[i];
        describe_ship(s, where, sizeof where);
        if (++seen[s->len] > fleet->count[s->len])
            return broken(err, SEA_RULE_S3C, "the ship at %s is one of length %d too many; the fleet has %d",
                          where, s->len, fleet->count[s->len]);
    }
    for (int len = 1; len <= SEA_MAX_LEN; len++)
        if (seen[len] < fleet->count[len])
            return broken(err, SEA_RULE_S3C, "only %d ship(s) of length %d; the fleet has %d", seen[len], len,
                          fleet->count[len]);
    return 0;
}

int sea_board_finish(struct sea_board *b, const struct sea_fleet *fleet, struct sea_board_error *err)
{
    err->rule = SEA_RULE_NONE;
    err->msg[0] = '\0';
    if (b->lines != SEA_SIDE)
        return broken(err, SEA_RULE_S2, "the board has %d lines, not %d", b->lines, SEA_SIDE);
    memset(b->ship_at, 0, sizeof b->ship_at);
    b->n_ships = b->ship_cells = b->cells_hit = 0;
    list_ships(b);
    return check_fleet(b, fleet, err);
}

/* ---- shots (S5) --------------------------------------------------------------------- */

enum sea_shot sea_board_shoot(struct sea_board *b, int x, int y)
{
    int c = cell_index(x, y);
    bool first = !b->shot[c];
    b->shot[c] = true;
    if (!first || !b->ship_at[c])
        return SEA_MISS;
    struct sea_ship *s = &b->ships[b->ship_at[c] - 1];
    s->hits++;
    b->cells_hit++;
    return s->hits == s->len ? SEA_SUNK : SEA_HIT;
}
