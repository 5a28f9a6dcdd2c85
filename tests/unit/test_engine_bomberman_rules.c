/* test_engine_bomberman_rules.c - every rule of bomberman.md §2 (B1..B11) on a board arranged by
 * hand, steps run in increasing player order (the shuffle is the game's, tested elsewhere). */
#include "tests/unit/bomberman_fixture.h"

#define AT(x, y) bm_cell((x), (y))

START_TEST(b1_the_field_has_edges_and_does_not_wrap)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    bfx_step(&f, BM_UP, BM_DOWN, BM_WAIT, BM_WAIT); /* 1 at (1,1), 2 at (1,15) */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_BLOCKED);
    ck_assert_int_eq(f.rec->cmd[1].effect, BM_BLOCKED);
    bfx_step(&f, BM_LEFT, BM_LEFT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    ck_assert_int_eq(b->p[2].cell, AT(1, 15));
    bfx_step(&f, BM_RIGHT, BM_UP, BM_WAIT, BM_WAIT); /* x+1 is RIGHT, y-1 is UP */
    ck_assert_int_eq(b->p[1].cell, AT(2, 1));
    ck_assert_int_eq(b->p[2].cell, AT(1, 14));
    bfx_step(&f, BM_DOWN, BM_WAIT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(b->p[1].cell, AT(2, 2));
    bfx_free(&f);
}
END_TEST

START_TEST(b2_b5_walls_and_blocks_stop_a_move_lava_does_not)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    b->terrain[AT(2, 1)] = BM_WALL;
    b->terrain[AT(1, 2)] = BM_BLOCK;
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_BLOCKED);
    bfx_step(&f, BM_DOWN, BM_WAIT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_BLOCKED);
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    ck_assert_int_eq(b->terrain[AT(1, 2)], BM_BLOCK);
    b->lava[AT(2, 15)][1] = 2; /* 2 walks onto lava: moved, and dies */
    bfx_step(&f, BM_WAIT, BM_RIGHT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(f.rec->cmd[1].effect, BM_MOVED);
    ck_assert_int_eq(b->p[2].cell, AT(2, 15));
    ck_assert(!b->p[2].alive);
    bfx_free(&f);
}
END_TEST

START_TEST(b3_players_start_on_their_markers_with_the_parameters)
{
    struct bm_fixture f;
    bfx_init(&f);
    f.params[BP_HEALTH_START] = 3;
    f.params[BP_BOMBS_COUNT_START] = 2;
    f.params[BP_BANG_START_RADIUS] = 4;
    struct bm_board *b = bfx_board(&f, 3);
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    ck_assert_int_eq(b->p[2].cell, AT(1, 15));
    ck_assert_int_eq(b->p[3].cell, AT(15, 1));
    ck_assert_int_eq(b->occupant[AT(15, 15)], 0); /* start 4 is a free cell with 3 players */
    for (int p = 1; p <= 3; p++) {
        ck_assert(b->p[p].alive);
        ck_assert_int_eq(b->p[p].health, 3);
        ck_assert_int_eq(b->p[p].points, 0);
        ck_assert_int_eq(b->p[p].bombs_max, 2);
        ck_assert_int_eq(b->p[p].bombs_left, 2);
        ck_assert_int_eq(b->p[p].radius, 4);
    }
    bfx_free(&f);
}
END_TEST

START_TEST(b4_b5_moves_into_a_player_or_a_bomb_are_blocked)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 3);
    bfx_put(b, 2, 2, 1);
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT); /* into player 2 */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_BLOCKED);
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    bfx_step(&f, BM_WAIT, BM_BOMB, BM_WAIT, BM_WAIT); /* 2 places a bomb under itself... */
    ck_assert_int_eq(f.rec->cmd[1].effect, BM_PLACED);
    ck_assert_int_eq(b->occupant[AT(2, 1)], 2);       /* ...and shares the cell with it */
    bfx_step(&f, BM_WAIT, BM_DOWN, BM_WAIT, BM_WAIT); /* it leaves */
    ck_assert_int_eq(b->p[2].cell, AT(2, 2));
    bfx_step(&f, BM_RIGHT, BM_UP, BM_WAIT, BM_WAIT); /* nobody enters the bomb's cell */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_BLOCKED);
    ck_assert_int_eq(f.rec->cmd[1].effect, BM_BLOCKED);
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    ck_assert_int_eq(b->p[2].cell, AT(2, 2));
    bfx_free(&f);
}
END_TEST

START_TEST(d3_two_players_into_one_cell_the_first_in_order_gets_it)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    bfx_put(b, 2, 3, 1);
    enum bm_command cmds[] = {BM_WAIT, BM_RIGHT, BM_LEFT};
    int order[] = {2, 1};
    bm_board_step(b, order, 2, cmds, f.rec);
    ck_assert_int_eq(b->p[2].cell, AT(2, 1));
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    ck_assert_int_eq(f.rec->cmd[0].player, 2);
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_MOVED);
    ck_assert_int_eq(f.rec->cmd[1].effect, BM_BLOCKED);
    /* swapping places is impossible: each target holds the other player when it moves */
    bfx_put(b, 1, 1, 1);
    cmds[1] = BM_RIGHT;
    cmds[2] = BM_LEFT;
    bm_board_step(b, order, 2, cmds, f.rec);
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    ck_assert_int_eq(b->p[2].cell, AT(2, 1));
    bfx_free(&f);
}
END_TEST

START_TEST(b5_bonuses_are_picked_up)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    b->bonus[AT(2, 1)] = 'A';
    b->bonus[AT(3, 1)] = 'R';
    b->bonus[AT(4, 1)] = 'R';
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_PICKUP_A);
    ck_assert_int_eq(b->p[1].bombs_max, 2);
    ck_assert_int_eq(b->p[1].bombs_left, 2);
    ck_assert_int_eq(b->p[1].points, 4);
    ck_assert_int_eq(b->bonus[AT(2, 1)], 0);
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT);
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT); /* no limit on bonuses */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_PICKUP_R);
    ck_assert_int_eq(b->p[1].radius, 4);
    ck_assert_int_eq(b->p[1].points, 12);
    ck_assert_int_eq(b->p[1].bonuses, 3);
    bfx_step(&f, BM_LEFT, BM_WAIT, BM_WAIT, BM_WAIT); /* the bonus is gone */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_MOVED);
    bfx_free(&f);
}
END_TEST

START_TEST(b6_a_bomb_needs_one_left_and_a_cell_without_one)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    b->p[1].radius = 3;
    bfx_step(&f, BM_BOMB, BM_WAIT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_PLACED);
    const struct bm_bomb *bomb = &b->bomb[AT(1, 1)];
    ck_assert_int_eq(bomb->owner, 1);
    ck_assert_int_eq(bomb->radius, 3);
    ck_assert_int_eq(bomb->timer, 4); /* 5, less the placing step (B8, D4) */
    ck_assert_int_eq(b->p[1].bombs_left, 0);
    bfx_step(&f, BM_BOMB, BM_WAIT, BM_WAIT, BM_WAIT); /* none left, and a bomb already there */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_NONE);
    b->p[1].bombs_left = 1;
    bfx_step(&f, BM_BOMB, BM_WAIT, BM_WAIT, BM_WAIT); /* one left, but the cell has a bomb */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_NONE);
    ck_assert_int_eq(b->p[1].bombs_left, 1);
    bfx_step(&f, BM_WAIT, BM_WAIT, BM_WAIT, BM_WAIT); /* WAIT does nothing */
    ck_assert_int_eq(f.rec->cmd[0].effect, BM_NONE);
    ck_assert_int_eq(b->p[1].cell, AT(1, 1));
    bfx_free(&f);
}
END_TEST

START_TEST(b7_lava_decays_and_goes)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    b->lava[AT(8, 8)][2] = 2;
    b->lava[AT(9, 8)][1] = 1;
    bfx_wait(&f, 1);
    ck_assert_int_eq(b->lava[AT(8, 8)][2], 1);
    ck_assert_int_eq(b->lava[AT(9, 8)][1], 0);
    ck_assert_int_eq(f.rec->n_decayed, 1);
    ck_assert_int_eq(f.rec->decayed[0].cell, AT(9, 8));
    bfx_wait(&f, 1);
    ck_assert(!bm_lava_at(b, AT(8, 8)));
    bfx_free(&f);
}
END_TEST

START_TEST(b8_timers_count_down_and_the_bomb_goes_off_at_zero)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    bfx_step(&f, BM_BOMB, BM_WAIT, BM_WAIT, BM_WAIT);
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT);
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT);
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT); /* at (4,1), out of radius 2 */
    ck_assert_int_eq(b->bomb[AT(1, 1)].timer, 1);
    ck_assert_int_eq(f.rec->n_booms, 0);
    bfx_step(&f, BM_WAIT, BM_WAIT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(f.rec->n_booms, 1);
    ck_assert_int_eq(b->bomb[AT(1, 1)].owner, 0);
    ck_assert_int_eq(b->p[1].bombs_left, 1); /* given back */
    ck_assert(b->p[1].alive);
    bfx_free(&f);
}
END_TEST

static bool in_flame(const struct bm_boom *bo, int cell)
{
    for (int i = 0; i < bo->n_flame; i++)
        if (bo->flame[i] == cell) return true;
    return false;
}

START_TEST(b9_a_flame_stops_before_walls_and_the_edge)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    bfx_put(b, 2, 15, 15);
    b->terrain[AT(5, 3)] = BM_WALL;
    bfx_bomb(b, 1, 3, 3, 3, 1);
    bfx_wait(&f, 1);
    ck_assert_int_eq(f.rec->n_booms, 1);
    const struct bm_boom *bo = &f.rec->boom[0];
    ck_assert_int_eq(bo->flame[0], AT(3, 3)); /* its own cell first */
    ck_assert(in_flame(bo, AT(4, 3)) && !in_flame(bo, AT(5, 3)) && !in_flame(bo, AT(6, 3)));
    ck_assert(in_flame(bo, AT(3, 1)) && in_flame(bo, AT(1, 3))); /* the edge: 2 cells, not 3 */
    ck_assert(in_flame(bo, AT(3, 6)) && !in_flame(bo, AT(3, 7)));
    ck_assert_int_eq(bo->n_flame, 1 + 1 + 2 + 2 + 3);
    ck_assert_int_eq(b->terrain[AT(5, 3)], BM_WALL);
    bfx_free(&f);
}
END_TEST

START_TEST(b9_a_flame_is_stopped_by_the_first_block_it_destroys)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    bfx_put(b, 1, 8, 1);
    b->terrain[AT(5, 3)] = BM_BLOCK;
    b->terrain[AT(6, 3)] = BM_BLOCK;
    bfx_bomb(b, 1, 3, 3, 5, 1);
    bfx_wait(&f, 1);
    const struct bm_boom *bo = &f.rec->boom[0];
    ck_assert(in_flame(bo, AT(5, 3)) && !in_flame(bo, AT(6, 3)));
    ck_assert_int_eq(b->terrain[AT(5, 3)], BM_FREE);
    ck_assert_int_eq(b->terrain[AT(6, 3)], BM_BLOCK);
    ck_assert_int_eq(f.rec->n_blocks, 1);
    ck_assert_int_eq(b->p[1].points, 1);
    bfx_free(&f);
}
END_TEST

START_TEST(b9_chain_reaction_in_the_same_step)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 3);
    bfx_put(b, 1, 15, 8);
    bfx_put(b, 2, 15, 10);
    bfx_bomb(b, 1, 3, 8, 2, 1);      /* goes off now */
    bfx_bomb(b, 2, 5, 8, 2, 4);      /* reached by 1's flame: goes off too */
    bfx_bomb(b, 3, 5, 10, 2, 4);     /* reached by 2's flame (two cells down) */
    b->terrain[AT(7, 8)] = BM_BLOCK; /* only 2's flame reaches it */
    bfx_wait(&f, 1);
    ck_assert_int_eq(f.rec->n_booms, 3);
    ck_assert_int_eq(f.rec->boom[0].cell, AT(3, 8)); /* by y, then x */
    ck_assert_int_eq(f.rec->boom[1].cell, AT(5, 8));
    ck_assert_int_eq(f.rec->boom[2].cell, AT(5, 10));
    ck_assert(!in_flame(&f.rec->boom[0], AT(6, 8))); /* 1's flame stops at the bomb it reaches */
    ck_assert_int_eq(b->lava[AT(6, 8)][2], 2);       /* each bomb's lava is its own owner's */
    ck_assert_int_eq(b->lava[AT(6, 8)][1], 0);
    ck_assert_int_eq(b->lava[AT(5, 8)][1], 2);
    ck_assert_int_eq(b->lava[AT(5, 8)][2], 2);
    ck_assert_int_eq(f.rec->block[0].owners, 1u << 2);
    ck_assert_int_eq(b->p[2].points, 1);
    for (int p = 1; p <= 3; p++) ck_assert_int_eq(b->p[p].bombs_left, 1);
    bfx_free(&f);
}
END_TEST

START_TEST(b9_d8_a_bomb_on_lava_goes_off)
{
    struct bm_fixture f;
    bfx_init(&f);
    f.params[BP_HEALTH_START] = 5;
    struct bm_board *b = bfx_board(&f, 2);
    b->lava[AT(1, 1)][2] = 2; /* player 1 stands on lava (and survives: health 5) */
    bfx_step(&f, BM_BOMB, BM_WAIT, BM_WAIT, BM_WAIT);
    ck_assert_int_eq(f.rec->n_booms, 1);
    ck_assert_int_eq(b->bomb[AT(1, 1)].owner, 0);
    ck_assert_int_eq(b->p[1].health, 4); /* once per step, however many parts */
    ck_assert_int_eq(f.rec->n_damaged, 1);
    bfx_free(&f);
}
END_TEST

START_TEST(b10_two_bombs_destroying_one_block_both_credited)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    b->terrain[AT(8, 8)] = BM_BLOCK;
    b->hidden[AT(8, 8)] = 'R';
    bfx_bomb(b, 1, 6, 8, 2, 1);
    bfx_bomb(b, 2, 8, 10, 2, 1);
    bfx_wait(&f, 1);
    ck_assert_int_eq(f.rec->n_blocks, 1);
    ck_assert_int_eq(f.rec->block[0].owners, (1u << 1) | (1u << 2));
    ck_assert_int_eq(b->p[1].points, 1);
    ck_assert_int_eq(b->p[2].points, 1);
    ck_assert_int_eq(b->bonus[AT(8, 8)], 'R'); /* revealed now that the block burned */
    bfx_free(&f);
}
END_TEST

START_TEST(b10_one_lava_part_per_cell_and_owner_renewed)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    b->lava[AT(8, 8)][1] = 3;
    bfx_bomb(b, 1, 7, 8, 1, 2);
    bfx_bomb(b, 2, 9, 8, 1, 2);
    bfx_wait(&f, 1); /* the old part decays to 2; the bombs tick to 1 */
    ck_assert_int_eq(b->lava[AT(8, 8)][1], 2);
    bfx_wait(&f, 1); /* it decays to 1, both go off: 1's part is set back, 2 gets its own */
    ck_assert_int_eq(f.rec->n_decayed, 0);
    ck_assert_int_eq(b->lava[AT(8, 8)][1], 2);
    ck_assert_int_eq(b->lava[AT(8, 8)][2], 2);
    bfx_free(&f);
}
END_TEST

START_TEST(b10_b11_a_dead_players_bombs_still_explode_and_earn)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 3);
    bfx_put(b, 2, 8, 10);
    b->terrain[AT(3, 3)] = BM_BLOCK;
    bfx_bomb(b, 1, 3, 1, 2, 3);
    b->lava[AT(1, 1)][3] = 2; /* player 1 dies at once, killed by 3 */
    bfx_wait(&f, 1);
    ck_assert(!b->p[1].alive);
    ck_assert_int_eq(b->occupant[AT(1, 1)], 0); /* taken off the field */
    ck_assert_int_eq(b->p[3].points, 20);
    bfx_wait(&f, 2);
    ck_assert_int_eq(f.rec->n_booms, 1);
    ck_assert_int_eq(b->p[1].points, 1); /* the block, after its death */
    ck_assert_int_eq(b->p[1].bombs_left, 1);
    bfx_free(&f);
}
END_TEST

START_TEST(b11_two_players_killing_a_third_at_once_both_credited)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 3);
    bfx_put(b, 3, 8, 8);
    bfx_put(b, 1, 1, 1);
    bfx_put(b, 2, 15, 15);
    bfx_bomb(b, 1, 6, 8, 2, 1);
    bfx_bomb(b, 2, 8, 6, 2, 1);
    bfx_wait(&f, 1);
    ck_assert(!b->p[3].alive);
    ck_assert_int_eq(f.rec->n_damaged, 1);
    ck_assert_int_eq(f.rec->damaged[0].killers, (1u << 1) | (1u << 2));
    ck_assert_int_eq(b->p[1].points, 20);
    ck_assert_int_eq(b->p[2].points, 20);
    ck_assert_int_eq(b->p[1].kills, 1);
    bfx_free(&f);
}
END_TEST

START_TEST(b11_d12_killing_yourself_earns_nothing)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    bfx_put(b, 2, 8, 8);
    bfx_bomb(b, 1, 9, 8, 2, 1); /* 1's bomb and 2's own bomb both reach 2 */
    bfx_bomb(b, 2, 8, 9, 2, 1);
    bfx_wait(&f, 1);
    ck_assert(!b->p[2].alive);
    ck_assert_int_eq(f.rec->damaged[0].killers, (1u << 1) | (1u << 2));
    ck_assert_int_eq(b->p[1].points, 20);
    ck_assert_int_eq(b->p[2].points, 0);
    bfx_free(&f);
}
END_TEST

START_TEST(b11_d18_health_above_damage_survives_until_zero)
{
    struct bm_fixture f;
    bfx_init(&f);
    f.params[BP_HEALTH_START] = 2;
    struct bm_board *b = bfx_board(&f, 2);
    b->lava[AT(1, 1)][2] = 3;
    bfx_wait(&f, 1);
    ck_assert(b->p[1].alive);
    ck_assert_int_eq(b->p[1].health, 1);
    ck_assert(!f.rec->damaged[0].died);
    ck_assert_int_eq(b->p[2].points, 0); /* non-lethal damage earns nothing */
    bfx_wait(&f, 1);                     /* the part is still there, live time 1 */
    ck_assert(!b->p[1].alive);
    ck_assert_int_eq(b->p[2].points, 20);
    bfx_free(&f);
}
END_TEST

START_TEST(s5_stepping_out_of_a_flame_as_it_goes_off_survives)
{
    struct bm_fixture f;
    bfx_init(&f);
    struct bm_board *b = bfx_board(&f, 2);
    bfx_put(b, 1, 5, 5);
    bfx_bomb(b, 1, 5, 5, 2, 1);                        /* under the player, going off in this step */
    bfx_step(&f, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT); /* (6,5) is in the flame: dies */
    ck_assert(!b->p[1].alive);
    struct bm_fixture g;
    bfx_init(&g);
    b = bfx_board(&g, 2);
    bfx_put(b, 1, 5, 6);
    bfx_bomb(b, 2, 5, 5, 2, 1);
    bfx_step(&g, BM_RIGHT, BM_WAIT, BM_WAIT, BM_WAIT); /* (6,6) is out of the cross */
    ck_assert(b->p[1].alive);
    ck_assert_int_eq(b->p[1].cell, AT(6, 6));
    bfx_free(&f);
    bfx_free(&g);
}
END_TEST

START_TEST(b2_b10_bonuses_stay_hidden_until_their_block_burns)
{
    struct bm_fixture f;
    bfx_init(&f);
    bfx_map(&f, CLASSIC_MAP);
    struct bm_board *b = &f.board;
    bm_board_init(b, (const struct bomberman_map *)f.map, f.params, 4);
    ck_assert_int_eq(b->hidden[AT(6, 3)], 'A');
    ck_assert_int_eq(b->bonus[AT(6, 3)], 0);
    ck_assert_int_eq(b->terrain[AT(6, 3)], BM_BLOCK);
    b->terrain[AT(7, 3)] = BM_FREE;
    bfx_bomb(b, 1, 7, 3, 1, 2); /* a bomb next to the block */
    bfx_wait(&f, 1);
    ck_assert_int_eq(b->bonus[AT(6, 3)], 0); /* not yet */
    bfx_wait(&f, 1);
    ck_assert_int_eq(b->terrain[AT(6, 3)], BM_FREE);
    ck_assert_int_eq(b->bonus[AT(6, 3)], 'A'); /* the flame on its cell leaves it be */
    ck_assert_int_eq(f.rec->n_blocks, 4);
    bool found = false;
    for (int i = 0; i < f.rec->n_blocks; i++)
        if (f.rec->block[i].cell == AT(6, 3)) {
            ck_assert_int_eq(f.rec->block[i].bonus, 'A');
            found = true;
        } else {
            ck_assert_int_eq(f.rec->block[i].bonus, 0);
        }
    ck_assert(found);
    bfx_free(&f);
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *s = suite_create("bomberman_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, b1_the_field_has_edges_and_does_not_wrap);
    tcase_add_test(tc, b2_b5_walls_and_blocks_stop_a_move_lava_does_not);
    tcase_add_test(tc, b3_players_start_on_their_markers_with_the_parameters);
    tcase_add_test(tc, b4_b5_moves_into_a_player_or_a_bomb_are_blocked);
    tcase_add_test(tc, d3_two_players_into_one_cell_the_first_in_order_gets_it);
    tcase_add_test(tc, b5_bonuses_are_picked_up);
    tcase_add_test(tc, b6_a_bomb_needs_one_left_and_a_cell_without_one);
    tcase_add_test(tc, b7_lava_decays_and_goes);
    tcase_add_test(tc, b8_timers_count_down_and_the_bomb_goes_off_at_zero);
    tcase_add_test(tc, b9_a_flame_stops_before_walls_and_the_edge);
    tcase_add_test(tc, b9_a_flame_is_stopped_by_the_first_block_it_destroys);
    tcase_add_test(tc, b9_chain_reaction_in_the_same_step);
    tcase_add_test(tc, b9_d8_a_bomb_on_lava_goes_off);
    tcase_add_test(tc, b10_two_bombs_destroying_one_block_both_credited);
    tcase_add_test(tc, b10_one_lava_part_per_cell_and_owner_renewed);
    tcase_add_test(tc, b10_b11_a_dead_players_bombs_still_explode_and_earn);
    tcase_add_test(tc, b11_two_players_killing_a_third_at_once_both_credited);
    tcase_add_test(tc, b11_d12_killing_yourself_earns_nothing);
    tcase_add_test(tc, b11_d18_health_above_damage_survives_until_zero);
    tcase_add_test(tc, s5_stepping_out_of_a_flame_as_it_goes_off_survives);
    tcase_add_test(tc, b2_b10_bonuses_stay_hidden_until_their_block_burns);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(rules_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
