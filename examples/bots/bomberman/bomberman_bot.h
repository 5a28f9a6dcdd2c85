/* bomberman_bot.h - what the example bomberman bots share: reading the state of
 * docs/games/bomberman.md (one per tick on stdin, OVER at the end), and working out which cells
 * are dangerous and when. x is the column, y the row, both 1..15. */
#ifndef BOMBERMAN_BOT_H
#define BOMBERMAN_BOT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE  15
#define NEVER 1000000

struct player {
    int x, y, alive, health, points, bombs_max, bombs_left, radius;
};
struct bomb {
    int x, y, owner, radius, timer;
};

struct state {
    int tick, me, players;
    long long bomb_live_time, lava_livetime; /* from CONFIG at tick 0 */
    char map[SIDE + 2][SIDE + 2];            /* [y][x]: '.', '#', '+'; the border is '#' */
    struct player p[5];
    int n_bombs;
    struct bomb bomb[SIDE * SIDE];
    char bonus[SIDE + 2][SIDE + 2];   /* 'A', 'R' or 0 */
    int lava[SIDE + 2][SIDE + 2];     /* the longest live time of lava on the cell, 0 if none */
    int explodes[SIDE + 2][SIDE + 2]; /* the step (1 = the next) a flame reaches it, NEVER if none */
};

static const int dx[4] = {0, 0, -1, 1}, dy[4] = {-1, 1, 0, 0};
static const char *const dir_name[4] = {"UP", "DOWN", "LEFT", "RIGHT"};

static inline void say(const char *word)
{
    printf("%s\n", word);
    fflush(stdout);
}

static inline int read_line(char *buf, int size)
{
    if (!fgets(buf, size, stdin)) return -1;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 0;
}

/* Reads one state; returns 0, or -1 at OVER or the end of input. */
static inline int read_state(struct state *s)
{
    char line[256];
    int n;
    if (read_line(line, sizeof line) < 0 || strcmp(line, "OVER") == 0) return -1;
    sscanf(line, "TICK %d", &s->tick);
    read_line(line, sizeof line);
    sscanf(line, "YOU %d", &s->me);
    read_line(line, sizeof line);
    if (sscanf(line, "CONFIG %d", &n) == 1) {
        for (int i = 0; i < n; i++) {
            char name[64];
            long long v;
            read_line(line, sizeof line);
            if (sscanf(line, "%63s %lld", name, &v) == 2 && !strcmp(name, "bomb_live_time"))
                s->bomb_live_time = v;
            else if (!strcmp(name, "lava_livetime"))
                s->lava_livetime = v;
        }
        read_line(line, sizeof line); /* MAP */
    }
    memset(s->map, '#', sizeof s->map);
    for (int y = 1; y <= SIDE; y++) {
        read_line(line, sizeof line);
        memcpy(&s->map[y][1], line, SIDE);
    }
    read_line(line, sizeof line);
    sscanf(line, "PLAYERS %d", &s->players);
    for (int i = 0; i < s->players; i++) {
        struct player pl;
        int id;
        read_line(line, sizeof line);
        sscanf(line, "%d %d %d %d %d %d %d %d %d", &id, &pl.x, &pl.y, &pl.alive, &pl.health, &pl.points,
               &pl.bombs_max, &pl.bombs_left, &pl.radius);
        if (id >= 1 && id <= 4) s->p[id] = pl;
    }
    read_line(line, sizeof line);
    sscanf(line, "BOMBS %d", &s->n_bombs);
    for (int i = 0; i < s->n_bombs; i++) {
        struct bomb *b = &s->bomb[i];
        read_line(line, sizeof line);
        sscanf(line, "%d %d %d %d %d", &b->x, &b->y, &b->owner, &b->radius, &b->timer);
    }
    memset(s->bonus, 0, sizeof s->bonus);
    read_line(line, sizeof line);
    sscanf(line, "BONUSES %d", &n);
    for (int i = 0; i < n; i++) {
        int x, y;
        char t;
        read_line(line, sizeof line);
        if (sscanf(line, "%d %d %c", &x, &y, &t) == 3) s->bonus[y][x] = t;
    }
    memset(s->lava, 0, sizeof s->lava);
    read_line(line, sizeof line);
    sscanf(line, "LAVA %d", &n);
    for (int i = 0; i < n; i++) {
        int x, y, owner, live;
        read_line(line, sizeof line);
        if (sscanf(line, "%d %d %d %d", &x, &y, &owner, &live) == 4 && live > s->lava[y][x])
            s->lava[y][x] = live;
    }
    read_line(line, sizeof line); /* END */
    return 0;
}

static inline int bomb_at(const struct state *s, int x, int y)
{
    for (int i = 0; i < s->n_bombs; i++)
        if (s->bomb[i].x == x && s->bomb[i].y == y) return i;
    return -1;
}

/* Calls visit(ctx, x, y) for every cell of the flame of a bomb on (bx, by). */
static inline void flame(const struct state *s, int bx, int by, int radius, void (*visit)(void *, int, int),
                         void *ctx)
{
    visit(ctx, bx, by);
    for (int d = 0; d < 4; d++)
        for (int r = 1; r <= radius; r++) {
            int x = bx + dx[d] * r, y = by + dy[d] * r;
            if (s->map[y][x] == '#') break;
            visit(ctx, x, y);
            if (s->map[y][x] == '+' || bomb_at(s, x, y) >= 0) break;
        }
}

struct mark {
    struct state *s;
    int when;
    int changed;
    int *timer;
};

static inline void mark_cell(void *ctx, int x, int y)
{
    struct mark *m = ctx;
    if (m->when < m->s->explodes[y][x]) m->s->explodes[y][x] = m->when;
    int b = bomb_at(m->s, x, y);
    if (b >= 0 && m->when < m->timer[b]) { /* a chain: it goes off with this one */
        m->timer[b] = m->when;
        m->changed = 1;
    }
}

/* explodes[][]: when each cell is reached by a flame, chains included. */
static inline void find_danger(struct state *s)
{
    int timer[SIDE * SIDE];
    for (int i = 0; i < s->n_bombs; i++) timer[i] = s->bomb[i].timer;
    struct mark m = {s, 0, 1, timer};
    while (m.changed) {
        m.changed = 0;
        for (int y = 0; y < SIDE + 2; y++)
            for (int x = 0; x < SIDE + 2; x++) s->explodes[y][x] = NEVER;
        for (int i = 0; i < s->n_bombs; i++) {
            m.when = timer[i];
            flame(s, s->bomb[i].x, s->bomb[i].y, s->bomb[i].radius, mark_cell, &m);
        }
    }
}

/* Deadly to stand on at the end of step `step` (1 = the next): a flame then, or lava that lasts. */
static inline int deadly(const struct state *s, int x, int y, int step)
{
    int e = s->explodes[y][x];
    return (e <= step && step < e + (s->lava_livetime > 0 ? s->lava_livetime : 2)) || s->lava[y][x] > step;
}

/* A cell one can walk onto now (ignoring danger): free terrain, no bomb, no living player. */
static inline int walkable(const struct state *s, int x, int y)
{
    if (s->map[y][x] != '.' || bomb_at(s, x, y) >= 0) return 0;
    for (int p = 1; p <= s->players; p++)
        if (p != s->me && s->p[p].alive && s->p[p].x == x && s->p[p].y == y) return 0;
    return 1;
}

/* Safe for good: no flame will ever reach it and no lava lasts there. */
static inline int calm(const struct state *s, int x, int y)
{
    return s->explodes[y][x] == NEVER && s->lava[y][x] <= 1;
}

/* The first move (0..3) of a shortest walk from (x, y), arriving at step `start` + 1 onwards and
 * never standing where it is deadly, to a cell where goal(ctx, x, y) holds; -1 (stay) when the
 * start itself is a goal, -2 when none is reachable. */
static inline int walk_to(const struct state *s, int x0, int y0, int start,
                          int (*goal)(const struct state *, void *, int, int), void *ctx)
{
    int seen[SIDE + 2][SIDE + 2] = {{0}}, qx[SIDE * SIDE], qy[SIDE * SIDE], qd[SIDE * SIDE],
                              first[SIDE * SIDE];
    int head = 0, tail = 0;
    if (goal(s, ctx, x0, y0)) return -1;
    seen[y0][x0] = 1;
    qx[tail] = x0, qy[tail] = y0, qd[tail] = start, first[tail++] = -1;
    while (head < tail) {
        int x = qx[head], y = qy[head], d = qd[head], f = first[head++];
        for (int k = 0; k < 4; k++) {
            int nx = x + dx[k], ny = y + dy[k];
            if (seen[ny][nx] || !walkable(s, nx, ny) || deadly(s, nx, ny, d + 1)) continue;
            int step = f < 0 ? k : f;
            if (goal(s, ctx, nx, ny)) return step;
            seen[ny][nx] = 1;
            qx[tail] = nx, qy[tail] = ny, qd[tail] = d + 1, first[tail++] = step;
        }
    }
    return -2;
}

static inline int is_calm(const struct state *s, void *ctx, int x, int y)
{
    (void)ctx;
    return calm(s, x, y);
}

#endif
