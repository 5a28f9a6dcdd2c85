/* bomberman_text.c - what bomberman writes: the §4 state, the §8 lines of a step, and a step's
 * replay events (the kinds are listed at the top of bomberman.c). */
#include <stdio.h>

#include "engine/bomberman.h"

#define TRY(x)                                                                                               \
    do {                                                                                                     \
        if ((x) < 0) return -1;                                                                              \
    } while (0)

/* ---- the state (§4) ------------------------------------------------------------------------ */

static int write_config(const int64_t *params, struct strbuf *out)
{
    TRY(sb_printf(out, "CONFIG %d\n", BP_GAME_COUNT));
    for (int i = 0; i < BP_GAME_COUNT; i++)
        TRY(sb_printf(out, "%s %lld\n", bomberman_params[i].name, (long long)params[i]));
    return 0;
}

/* Terrain only: '+' for every block, whatever it hides (D1). */
static int write_terrain(const struct bm_board *b, struct strbuf *out)
{
    static const char glyph[] = {[BM_FREE] = '.', [BM_WALL] = '#', [BM_BLOCK] = '+'};
    char row[BM_SIDE + 1];
    TRY(sb_puts(out, "MAP\n"));
    for (int y = 1; y <= BM_SIDE; y++) {
        for (int x = 1; x <= BM_SIDE; x++) row[x - 1] = glyph[b->terrain[bm_cell(x, y)]];
        row[BM_SIDE] = '\n';
        TRY(sb_append(out, row, sizeof row));
    }
    return 0;
}

static int write_players(const struct bm_board *b, struct strbuf *out)
{
    TRY(sb_printf(out, "PLAYERS %d\n", b->players));
    for (int p = 1; p <= b->players; p++) {
        const struct bm_player *pl = &b->p[p];
        TRY(sb_printf(out, "%d %d %d %d %lld %lld %lld %lld %lld\n", p, bm_x(pl->cell), bm_y(pl->cell),
                      pl->alive ? 1 : 0, (long long)pl->health, (long long)pl->points,
                      (long long)pl->bombs_max, (long long)pl->bombs_left, (long long)pl->radius));
    }
    return 0;
}

static int write_objects(const struct bm_board *b, struct strbuf *out)
{
    int bombs = 0, bonuses = 0, lava = 0;
    for (int c = 0; c < BM_CELLS; c++) {
        bombs += b->bomb[c].owner != 0;
        bonuses += b->bonus[c] != 0;
        for (int o = 1; o <= BM_MAX_PLAYERS; o++) lava += b->lava[c][o] > 0;
    }
    TRY(sb_printf(out, "BOMBS %d\n", bombs));
    for (int c = 0; c < BM_CELLS; c++)
        if (b->bomb[c].owner)
            TRY(sb_printf(out, "%d %d %d %lld %lld\n", bm_x(c), bm_y(c), b->bomb[c].owner,
                          (long long)b->bomb[c].radius, (long long)b->bomb[c].timer));
    TRY(sb_printf(out, "BONUSES %d\n", bonuses));
    for (int c = 0; c < BM_CELLS; c++)
        if (b->bonus[c]) TRY(sb_printf(out, "%d %d %c\n", bm_x(c), bm_y(c), b->bonus[c]));
    TRY(sb_printf(out, "LAVA %d\n", lava));
    for (int c = 0; c < BM_CELLS; c++)
        for (int o = 1; o <= BM_MAX_PLAYERS; o++)
            if (b->lava[c][o] > 0)
                TRY(sb_printf(out, "%d %d %d %lld\n", bm_x(c), bm_y(c), o, (long long)b->lava[c][o]));
    return 0;
}

int bm_write_state(const struct bm_board *b, int tick, int viewer, struct strbuf *out)
{
    TRY(sb_printf(out, "TICK %d\nYOU %d\n", tick, viewer));
    if (tick == 0) TRY(write_config(b->params, out));
    TRY(write_terrain(b, out));
    TRY(write_players(b, out));
    TRY(write_objects(b, out));
    return sb_puts(out, "END\n");
}

/* ---- the log lines of a step (§8, D11..D13) ------------------------------------------------- */

static int put_owners(struct strbuf *out, unsigned owners)
{
    for (int o = 1; o <= BM_MAX_PLAYERS; o++)
        if (owners & (1u << o)) TRY(sb_printf(out, " %d", o));
    return 0;
}

int bm_write_step_log(const struct bm_step_record *rec, struct strbuf *out)
{
    TRY(sb_puts(out, "ORDER"));
    for (int i = 0; i < rec->n_order; i++) TRY(sb_printf(out, " %d", rec->order[i]));
    TRY(sb_putc(out, '\n'));
    for (int i = 0; i < rec->n_order; i++)
        TRY(sb_printf(out, "CMD %d %s %s\n", rec->cmd[i].player, bm_command_name(rec->cmd[i].cmd),
                      bm_effect_name(rec->cmd[i].effect)));
    for (int i = 0; i < rec->n_booms; i++)
        TRY(sb_printf(out, "BOOM %d %d %d\n", bm_x(rec->boom[i].cell), bm_y(rec->boom[i].cell),
                      rec->boom[i].owner));
    for (int i = 0; i < rec->n_blocks; i++) {
        TRY(sb_printf(out, "BLOCK %d %d", bm_x(rec->block[i].cell), bm_y(rec->block[i].cell)));
        TRY(put_owners(out, rec->block[i].owners));
        TRY(sb_putc(out, '\n'));
    }
    for (int i = 0; i < rec->n_damaged; i++) {
        if (!rec->damaged[i].died) continue;
        TRY(sb_printf(out, "DEATH %d", rec->damaged[i].player));
        TRY(put_owners(out, rec->damaged[i].killers));
        TRY(sb_putc(out, '\n'));
    }
    return 0;
}

/* ---- the events of a step ---------------------------------------------------------------- */

static int put_owner_array(struct strbuf *out, unsigned owners)
{
    const char *sep = "[";
    for (int o = 1; o <= BM_MAX_PLAYERS; o++)
        if (owners & (1u << o)) {
            TRY(sb_printf(out, "%s%d", sep, o));
            sep = ",";
        }
    return sb_puts(out, *sep == '[' ? "[]" : "]");
}

static int write_commands(const struct bm_board *b, const struct bm_step_record *rec, int tick,
                          struct strbuf *out)
{
    TRY(sb_printf(out, "{\"t\":\"step\",\"round\":%d,\"order\":[", tick));
    for (int i = 0; i < rec->n_order; i++) TRY(sb_printf(out, "%s%d", i ? "," : "", rec->order[i]));
    TRY(sb_puts(out, "]}\n"));
    for (int i = 0; i < rec->n_order; i++) {
        int c = rec->cmd[i].cell;
        TRY(sb_printf(
            out,
            "{\"t\":\"cmd\",\"round\":%d,\"player\":%d,\"cmd\":\"%s\",\"effect\":\"%s\",\"x\":%d,\"y\":%d",
            tick, rec->cmd[i].player, bm_command_name(rec->cmd[i].cmd), bm_effect_name(rec->cmd[i].effect),
            bm_x(c), bm_y(c)));
        if (rec->cmd[i].effect == BM_PLACED)
            TRY(sb_printf(out, ",\"bomb\":{\"radius\":%lld,\"timer\":%lld}",
                          (long long)b->p[rec->cmd[i].player].radius,
                          (long long)b->params[BP_BOMB_LIVE_TIME]));
        TRY(sb_puts(out, "}\n"));
    }
    return 0;
}

static int write_decay(const struct bm_step_record *rec, int tick, struct strbuf *out)
{
    if (rec->n_decayed == 0) return 0;
    TRY(sb_printf(out, "{\"t\":\"lava_decay\",\"round\":%d,\"removed\":[", tick));
    for (int i = 0; i < rec->n_decayed; i++)
        TRY(sb_printf(out, "%s[%d,%d,%d]", i ? "," : "", bm_x(rec->decayed[i].cell),
                      bm_y(rec->decayed[i].cell), rec->decayed[i].owner));
    return sb_puts(out, "]}\n");
}

static int write_booms(const struct bm_step_record *rec, int tick, struct strbuf *out)
{
    for (int i = 0; i < rec->n_booms; i++) {
        const struct bm_boom *bo = &rec->boom[i];
        TRY(sb_printf(
            out, "{\"t\":\"boom\",\"round\":%d,\"x\":%d,\"y\":%d,\"owner\":%d,\"radius\":%lld,\"cells\":[",
            tick, bm_x(bo->cell), bm_y(bo->cell), bo->owner, (long long)bo->radius));
        for (int f = 0; f < bo->n_flame; f++)
            TRY(sb_printf(out, "%s[%d,%d]", f ? "," : "", bm_x(bo->flame[f]), bm_y(bo->flame[f])));
        TRY(sb_puts(out, "]}\n"));
    }
    for (int i = 0; i < rec->n_blocks; i++) {
        TRY(sb_printf(out, "{\"t\":\"block\",\"round\":%d,\"x\":%d,\"y\":%d,\"owners\":", tick,
                      bm_x(rec->block[i].cell), bm_y(rec->block[i].cell)));
        TRY(put_owner_array(out, rec->block[i].owners));
        if (rec->block[i].bonus)
            TRY(sb_printf(out, ",\"bonus\":\"%c\"}\n", rec->block[i].bonus));
        else
            TRY(sb_puts(out, ",\"bonus\":null}\n"));
    }
    return 0;
}

static int write_damage(const struct bm_board *b, const struct bm_step_record *rec, int tick,
                        struct strbuf *out)
{
    for (int i = 0; i < rec->n_damaged; i++) {
        int p = rec->damaged[i].player, c = b->p[p].cell;
        TRY(sb_printf(out, "{\"t\":\"damage\",\"round\":%d,\"player\":%d,\"health\":%lld}\n", tick, p,
                      (long long)rec->damaged[i].health));
        if (!rec->damaged[i].died) continue;
        TRY(sb_printf(out, "{\"t\":\"death\",\"round\":%d,\"player\":%d,\"x\":%d,\"y\":%d,\"killers\":", tick,
                      p, bm_x(c), bm_y(c)));
        TRY(put_owner_array(out, rec->damaged[i].killers));
        TRY(sb_puts(out, "}\n"));
    }
    return 0;
}

/* Every player as it is after the step: [x, y, alive, health, points, bombs_max, bombs_left, radius]. */
static int write_status(const struct bm_board *b, int tick, struct strbuf *out)
{
    TRY(sb_printf(out, "{\"t\":\"status\",\"round\":%d,\"players\":[", tick));
    for (int p = 1; p <= b->players; p++) {
        const struct bm_player *pl = &b->p[p];
        TRY(sb_printf(out, "%s[%d,%d,%d,%lld,%lld,%lld,%lld,%lld]", p > 1 ? "," : "", bm_x(pl->cell),
                      bm_y(pl->cell), pl->alive ? 1 : 0, (long long)pl->health, (long long)pl->points,
                      (long long)pl->bombs_max, (long long)pl->bombs_left, (long long)pl->radius));
    }
    return sb_puts(out, "]}\n");
}

int bm_write_step_events(const struct bm_board *b, const struct bm_step_record *rec, int tick,
                         struct strbuf *out)
{
    TRY(write_commands(b, rec, tick, out));
    TRY(write_decay(rec, tick, out));
    TRY(write_booms(rec, tick, out));
    TRY(write_damage(b, rec, tick, out));
    return write_status(b, tick, out);
}
