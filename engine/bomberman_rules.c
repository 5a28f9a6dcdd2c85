/* bomberman_rules.c - one step of bomberman.md §5 on the board: commands (B5, B6), lava decay
 * (B7), timers and explosions (B8..B10), damage (B11), each recorded for the events and log. */
#include <stdlib.h>
#include <string.h>

#include "engine/bomberman.h"

static const char *const command_names[] = {
    [BM_WAIT] = "WAIT",   [BM_UP] = "UP",     [BM_DOWN] = "DOWN",       [BM_LEFT] = "LEFT",
    [BM_RIGHT] = "RIGHT", [BM_BOMB] = "BOMB", [BM_INVALID] = "INVALID", [BM_CRASHED] = "CRASHED",
};
static const char *const effect_names[] = {
    [BM_NONE] = "none",     [BM_MOVED] = "moved",       [BM_BLOCKED] = "blocked",
    [BM_PLACED] = "placed", [BM_PICKUP_A] = "pickup-A", [BM_PICKUP_R] = "pickup-R",
};

const char *bm_command_name(enum bm_command c)
{
    return (unsigned)c <= BM_CRASHED ? command_names[c] : "?";
}

const char *bm_effect_name(enum bm_effect e)
{
    return (unsigned)e <= BM_PICKUP_R ? effect_names[e] : "?";
}

void bm_board_init(struct bm_board *b, const struct bomberman_map *map, const int64_t *params, int players)
{
    memset(b, 0, sizeof *b);
    b->params = params;
    b->players = players;
    memcpy(b->terrain, map->terrain, sizeof b->terrain);
    memcpy(b->hidden, map->hidden, sizeof b->hidden);
    for (int p = 1; p <= players; p++) {
        struct bm_player *pl = &b->p[p];
        pl->cell = map->start[p];
        pl->alive = true;
        pl->health = params[BP_HEALTH_START];
        pl->bombs_max = pl->bombs_left = params[BP_BOMBS_COUNT_START];
        pl->radius = params[BP_BANG_START_RADIUS];
        b->occupant[pl->cell] = (uint8_t)p;
    }
}

bool bm_lava_at(const struct bm_board *b, int cell)
{
    for (int o = 1; o <= BM_MAX_PLAYERS; o++)
        if (b->lava[cell][o] > 0) return true;
    return false;
}

/* The neighbour of cell in a move's direction, or -1 off the field (B1). */
static int neighbour(int cell, enum bm_command dir)
{
    int x = bm_x(cell), y = bm_y(cell);
    switch (dir) {
    case BM_UP:
        y--;
        break;
    case BM_DOWN:
        y++;
        break;
    case BM_LEFT:
        x--;
        break;
    case BM_RIGHT:
        x++;
        break;
    default:
        return -1;
    }
    return x < 1 || x > BM_SIDE || y < 1 || y > BM_SIDE ? -1 : bm_cell(x, y);
}

/* ---- a. commands (B5, B6) ------------------------------------------------------------------- */

static enum bm_effect pick_up(struct bm_board *b, struct bm_player *pl, int cell)
{
    char bonus = b->bonus[cell];
    if (!bonus) return BM_MOVED;
    b->bonus[cell] = 0;
    pl->points += b->params[BP_BONUS_FIND_POINTS];
    pl->bonuses++;
    if (bonus == 'A') {
        pl->bombs_max++;
        pl->bombs_left++;
        return BM_PICKUP_A;
    }
    pl->radius++;
    return BM_PICKUP_R;
}

static enum bm_effect move(struct bm_board *b, int p, enum bm_command dir)
{
    struct bm_player *pl = &b->p[p];
    int to = neighbour(pl->cell, dir);
    if (to < 0 || b->terrain[to] != BM_FREE || b->bomb[to].owner || b->occupant[to]) return BM_BLOCKED;
    b->occupant[pl->cell] = 0;
    b->occupant[to] = (uint8_t)p;
    pl->cell = to;
    return pick_up(b, pl, to);
}

static enum bm_effect place_bomb(struct bm_board *b, int p)
{
    struct bm_player *pl = &b->p[p];
    if (pl->bombs_left < 1 || b->bomb[pl->cell].owner) return BM_NONE;
    b->bomb[pl->cell] =
        (struct bm_bomb){.owner = p, .radius = pl->radius, .timer = b->params[BP_BOMB_LIVE_TIME]};
    pl->bombs_left--;
    return BM_PLACED;
}

static enum bm_effect run_command(struct bm_board *b, int p, enum bm_command cmd)
{
    switch (cmd) {
    case BM_UP:
    case BM_DOWN:
    case BM_LEFT:
    case BM_RIGHT:
        return move(b, p, cmd);
    case BM_BOMB:
        return place_bomb(b, p);
    default:
        return BM_NONE;
    }
}

static void run_commands(struct bm_board *b, const int *order, int n, const enum bm_command *cmds,
                         struct bm_step_record *rec)
{
    rec->n_order = n;
    for (int i = 0; i < n; i++) {
        int p = order[i];
        rec->order[i] = p;
        rec->cmd[i].player = p;
        rec->cmd[i].cmd = cmds[p];
        rec->cmd[i].effect = run_command(b, p, cmds[p]);
        rec->cmd[i].cell = b->p[p].cell;
        rec->points_changed = rec->points_changed || rec->cmd[i].effect >= BM_PICKUP_A;
    }
}

/* ---- b. lava decay (B7) --------------------------------------------------------------------- */

static void decay_lava(struct bm_board *b, struct bm_step_record *rec)
{
    for (int c = 0; c < BM_CELLS; c++)
        for (int o = 1; o <= BM_MAX_PLAYERS; o++) {
            if (b->lava[c][o] <= 0) continue;
            if (--b->lava[c][o] == 0) {
                rec->decayed[rec->n_decayed].cell = c;
                rec->decayed[rec->n_decayed++].owner = o;
            }
        }
}

/* ---- c. timers and explosions (B8..B10) ----------------------------------------------------- */

struct blast {
    bool in_e[BM_CELLS]; /* the set E, by bomb cell */
    int queue[BM_CELLS], n_queue;
    unsigned block_owners[BM_CELLS];
};

static void join(struct blast *bl, int cell)
{
    if (!bl->in_e[cell]) {
        bl->in_e[cell] = true;
        bl->queue[bl->n_queue++] = cell;
    }
}

static const enum bm_command arms[4] = {BM_UP, BM_DOWN, BM_LEFT, BM_RIGHT};

/* B9: the flame of the bomb on `cell`; bombs it reaches join E, blocks it reaches are noted. */
static void work_out_flame(const struct bm_board *b, struct blast *bl, int cell, struct bm_boom *boom)
{
    const struct bm_bomb *bomb = &b->bomb[cell];
    *boom = (struct bm_boom){.cell = cell, .owner = bomb->owner, .radius = bomb->radius};
    boom->flame[boom->n_flame++] = cell;
    for (int a = 0; a < 4; a++) {
        int at = cell;
        for (int64_t d = 1; d <= bomb->radius; d++) {
            at = neighbour(at, arms[a]);
            if (at < 0 || b->terrain[at] == BM_WALL) break;
            boom->flame[boom->n_flame++] = at;
            if (b->terrain[at] == BM_BLOCK) {
                bl->block_owners[at] |= 1u << bomb->owner;
                break;
            }
            if (b->bomb[at].owner) {
                join(bl, at);
                break;
            }
        }
    }
}

/* B8, B9: E and every flame, worked out before anything is destroyed. */
static void find_explosions(struct bm_board *b, struct blast *bl, struct bm_step_record *rec)
{
    for (int c = 0; c < BM_CELLS; c++) {
        if (!b->bomb[c].owner) continue;
        b->bomb[c].timer--;
        if (b->bomb[c].timer <= 0 || bm_lava_at(b, c)) join(bl, c);
    }
    struct bm_boom *scratch = rec->boom; /* in queue order first, sorted below */
    for (int i = 0; i < bl->n_queue; i++) work_out_flame(b, bl, bl->queue[i], &scratch[i]);
    rec->n_booms = bl->n_queue;
}

static int by_cell(const void *a, const void *b)
{
    return ((const struct bm_boom *)a)->cell - ((const struct bm_boom *)b)->cell;
}

/* B10: lava, blocks and their bonuses, block points, bombs removed and given back. */
static void apply_explosions(struct bm_board *b, struct blast *bl, struct bm_step_record *rec)
{
    qsort(rec->boom, (size_t)rec->n_booms, sizeof rec->boom[0], by_cell);
    for (int i = 0; i < rec->n_booms; i++) {
        const struct bm_boom *boom = &rec->boom[i];
        for (int f = 0; f < boom->n_flame; f++)
            b->lava[boom->flame[f]][boom->owner] = b->params[BP_LAVA_LIVETIME];
        b->bomb[boom->cell].owner = 0;
        b->p[boom->owner].bombs_left++;
    }
    for (int c = 0; c < BM_CELLS; c++) {
        unsigned owners = bl->block_owners[c];
        if (!owners) continue;
        b->terrain[c] = BM_FREE;
        b->bonus[c] = b->hidden[c];
        b->hidden[c] = 0;
        rec->block[rec->n_blocks].cell = c;
        rec->block[rec->n_blocks].owners = owners;
        rec->block[rec->n_blocks++].bonus = b->bonus[c];
        for (int o = 1; o <= b->players; o++)
            if (owners & (1u << o)) {
                b->p[o].points += b->params[BP_CELL_DESTROY_POINTS];
                b->p[o].blocks++;
                rec->points_changed = true;
            }
    }
}

/* ---- d. damage (B11) ---------------------------------------------------------------------- */

static unsigned lava_owners(const struct bm_board *b, int cell)
{
    unsigned owners = 0;
    for (int o = 1; o <= BM_MAX_PLAYERS; o++)
        if (b->lava[cell][o] > 0) owners |= 1u << o;
    return owners;
}

static void take_damage(struct bm_board *b, struct bm_step_record *rec)
{
    for (int p = 1; p <= b->players; p++) {
        struct bm_player *pl = &b->p[p];
        unsigned owners = pl->alive ? lava_owners(b, pl->cell) : 0;
        if (!owners) continue;
        pl->health -= b->params[BP_LAVA_DAMAGE];
        bool died = pl->health <= 0;
        rec->damaged[rec->n_damaged].player = p;
        rec->damaged[rec->n_damaged].health = pl->health;
        rec->damaged[rec->n_damaged].died = died;
        rec->damaged[rec->n_damaged++].killers = died ? owners : 0;
        if (!died) continue;
        pl->alive = false;
        b->occupant[pl->cell] = 0;
        for (int o = 1; o <= b->players; o++)
            if (o != p && (owners & (1u << o))) {
                b->p[o].points += b->params[BP_KILL_POINTS];
                b->p[o].kills++;
                rec->points_changed = true;
            }
    }
}

void bm_board_step(struct bm_board *b, const int *order, int n_order, const enum bm_command *cmds,
                   struct bm_step_record *rec)
{
    struct blast bl;
    memset(&bl, 0, sizeof bl);
    rec->n_order = rec->n_decayed = rec->n_booms = rec->n_blocks = rec->n_damaged = 0;
    rec->points_changed = false;
    run_commands(b, order, n_order, cmds, rec);
    decay_lava(b, rec);
    find_explosions(b, &bl, rec);
    apply_explosions(b, &bl, rec);
    take_damage(b, rec);
}
