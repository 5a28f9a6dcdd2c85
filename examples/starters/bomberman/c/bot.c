/* A bomberman starter bot (docs/games/bomberman.md): it reads every state and walks to a
 * free neighbouring cell that no bomb's flame or lava reaches, or waits where it is. It
 * never places a bomb. Copy it and make it clever. */
#include <stdio.h>
#include <string.h>

#define SIZE 15
#define MAX_ITEMS 256

static char field[SIZE][SIZE + 2];  /* field[y - 1][x - 1]: '.', '#' or '+' */
static int unsafe[SIZE + 2][SIZE + 2]; /* reached by a flame or lava, by [y][x] */
static int bomb_at[SIZE + 2][SIZE + 2];
static int tick, me, my_x, my_y;
static const char *const names[4] = {"UP", "RIGHT", "DOWN", "LEFT"};
static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};

static int free_cell(int x, int y)
{
    return x >= 1 && x <= SIZE && y >= 1 && y <= SIZE && field[y - 1][x - 1] == '.';
}

static void mark_bomb(int x, int y, int radius)
{
    bomb_at[y][x] = unsafe[y][x] = 1;
    for (int d = 0; d < 4; d++)
        for (int step = 1; step <= radius && free_cell(x + dx[d] * step, y + dy[d] * step); step++)
            unsafe[y + dy[d] * step][x + dx[d] * step] = 1;
}

/* Reads one state up to END; 0 when the bot gets OVER or its input ends. */
static int read_state(void)
{
    char line[256];
    int n;
    memset(unsafe, 0, sizeof unsafe);
    memset(bomb_at, 0, sizeof bomb_at);
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "OVER", 4)) return 0;
        if (!strncmp(line, "END", 3)) return 1;
        if (sscanf(line, "TICK %d", &tick) == 1 || sscanf(line, "YOU %d", &me) == 1) continue;
        if (sscanf(line, "CONFIG %d", &n) == 1) {
            while (n-- > 0 && fgets(line, sizeof line, stdin)) {}
        } else if (!strncmp(line, "MAP", 3)) {
            for (int y = 0; y < SIZE; y++)
                if (!fgets(field[y], sizeof field[y], stdin)) return 0;
        } else if (sscanf(line, "PLAYERS %d", &n) == 1) {
            for (int id, x, y; n-- > 0 && fgets(line, sizeof line, stdin);)
                if (sscanf(line, "%d %d %d", &id, &x, &y) == 3 && id == me) my_x = x, my_y = y;
        } else if (sscanf(line, "BOMBS %d", &n) == 1) {
            for (int x, y, owner, radius; n-- > 0 && fgets(line, sizeof line, stdin);)
                if (sscanf(line, "%d %d %d %d", &x, &y, &owner, &radius) == 4) mark_bomb(x, y, radius);
        } else if (sscanf(line, "LAVA %d", &n) == 1) {
            for (int x, y; n-- > 0 && fgets(line, sizeof line, stdin);)
                if (sscanf(line, "%d %d", &x, &y) == 2 && x >= 1 && x <= SIZE && y >= 1 && y <= SIZE) unsafe[y][x] = 1;
        } else if (sscanf(line, "BONUSES %d", &n) == 1) {
            while (n-- > 0 && fgets(line, sizeof line, stdin)) {}
        }
    }
    return 0;
}

static const char *choose(void)
{
    for (int i = 0; i < 4; i++) {
        int d = (tick + i) % 4; /* a different first direction each tick: it wanders */
        int x = my_x + dx[d], y = my_y + dy[d];
        if (free_cell(x, y) && !bomb_at[y][x] && !unsafe[y][x]) return names[d];
    }
    return "WAIT";
}

int main(void)
{
    while (read_state()) {
        printf("%s\n", choose());
        fflush(stdout); /* a pipe is fully buffered */
    }
    return 0;
}
