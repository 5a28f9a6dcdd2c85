/*
 * hunter.c - a sea battle bot that places a random valid fleet and hunts around its hits.
 *
 * The fleet (1 ship of 4, 2 of 3, 3 of 2, 4 of 1) is placed longest first, each ship at a
 * random place that keeps it off every ship placed before, corners included (rule S3).
 * Shooting: at random cells of one colour of a checkerboard (every ship of 2 or more
 * covers one) until a hit; then at the neighbours of the hit, and once two cells of a ship
 * are hit, along its line, until `sunk`. Ships never touch, so the cells around a sunk
 * ship are water and are never shot. No cell is shot twice.
 *
 * The random numbers come from argv[1] (default 1), so a match always plays the same way.
 * Protocol: seabattle.md §4 (see fixed.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 10

enum { UNKNOWN, WATER, HIT, SUNK };

static uint64_t rng_state;
static int cells[SIDE][SIDE];   /* what we know of the opponent's board, [y][x], 0-based */
static int hits[SIDE * SIDE][2], n_hits;

/* xorshift64*: small and good enough for a bot. */
static int random_below(int bound)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (int)((rng_state * 0x2545F4914F6CDD1DULL) % (uint64_t)bound);
}

/* ---- the fleet ------------------------------------------------------------------------------ */

static int free_for(const char ship[SIDE][SIDE + 1], int x, int y, int len, int vertical)
{
    for (int i = 0; i < len; i++) {
        int cx = vertical ? x : x + i, cy = vertical ? y + i : y;
        if (cx >= SIDE || cy >= SIDE)
            return 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (cy + dy >= 0 && cy + dy < SIDE && cx + dx >= 0 && cx + dx < SIDE &&
                    ship[cy + dy][cx + dx] == '#')
                    return 0;
    }
    return 1;
}

static int place_ship(char ship[SIDE][SIDE + 1], int len)
{
    int options[2 * SIDE * SIDE][3], n = 0;
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++)
            for (int v = 0; v <= (len > 1); v++)
                if (free_for(ship, x, y, len, v)) {
                    options[n][0] = x;
                    options[n][1] = y;
                    options[n++][2] = v;
                }
    if (n == 0)
        return 0;
    int *o = options[random_below(n)];
    for (int i = 0; i < len; i++)
        ship[o[2] ? o[1] + i : o[1]][o[2] ? o[0] : o[0] + i] = '#';
    return 1;
}

static void place_fleet(char ship[SIDE][SIDE + 1])
{
    static const int lengths[] = {4, 3, 3, 2, 2, 2, 1, 1, 1, 1};
    for (;;) {
        int ok = 1;
        for (int y = 0; y < SIDE; y++) {
            memset(ship[y], '_', SIDE);
            ship[y][SIDE] = '\0';
        }
        for (size_t i = 0; ok && i < sizeof lengths / sizeof lengths[0]; i++)
            ok = place_ship(ship, lengths[i]);
        if (ok)
            return;
    }
}

/* ---- shooting ------------------------------------------------------------------------------- */

static int unknown(int x, int y)
{
    return x >= 0 && x < SIDE && y >= 0 && y < SIDE && cells[y][x] == UNKNOWN;
}

/* Next to the hits: along their line once there are two, else any side of the one. */
static int target_near_hits(int *tx, int *ty)
{
    static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int vertical = n_hits > 1 && hits[0][0] == hits[1][0];
    for (int h = 0; h < n_hits; h++)
        for (int k = 0; k < 4; k++) {
            if (n_hits > 1 && (d[k][0] == 0) != vertical)
                continue;
            int x = hits[h][0] + d[k][0], y = hits[h][1] + d[k][1];
            if (unknown(x, y)) {
                *tx = x;
                *ty = y;
                return 1;
            }
        }
    return 0;
}

static int random_target(int *tx, int *ty, int parity_only)
{
    int n = 0;
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++)
            n += unknown(x, y) && (!parity_only || (x + y) % 2 == 0);
    if (n == 0)
        return 0;
    int pick = random_below(n);
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++)
            if (unknown(x, y) && (!parity_only || (x + y) % 2 == 0) && pick-- == 0) {
                *tx = x;
                *ty = y;
                return 1;
            }
    return 0;
}

static void mark_sunk(void)
{
    for (int h = 0; h < n_hits; h++) {
        int x = hits[h][0], y = hits[h][1];
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (unknown(x + dx, y + dy))
                    cells[y + dy][x + dx] = WATER;
        cells[y][x] = SUNK;
    }
    n_hits = 0;
}

static void record(int x, int y, const char *result)
{
    if (!strncmp(result, "miss", 4)) {
        cells[y][x] = WATER;
        return;
    }
    cells[y][x] = HIT;
    hits[n_hits][0] = x;
    hits[n_hits++][1] = y;
    if (!strncmp(result, "sunk", 4))
        mark_sunk();
}

int main(int argc, char **argv)
{
    char ship[SIDE][SIDE + 1], result[64];
    rng_state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)strtoull(argc > 1 ? argv[1] : "1", NULL, 10);
    random_below(2);
    place_fleet(ship);
    for (int y = 0; y < SIDE; y++)
        printf("%s\n", ship[y]);
    fflush(stdout);
    for (;;) {
        int x, y;
        if (!target_near_hits(&x, &y) && !random_target(&x, &y, 1) && !random_target(&x, &y, 0))
            return 0;
        printf("%d %d\n", x + 1, y + 1);
        fflush(stdout);
        if (!fgets(result, sizeof result, stdin))
            return 0;
        record(x, y, result);
    }
}
