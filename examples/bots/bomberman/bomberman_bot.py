"""What the example bomberman bots in Python share: reading the state of
docs/games/bomberman.md (one per tick on stdin, OVER at the end) and working out which cells
are dangerous and when. x is the column, y the row, both 1..15."""
import sys
from collections import deque

SIDE = 15
NEVER = 10 ** 9
DIRS = (("UP", 0, -1), ("DOWN", 0, 1), ("LEFT", -1, 0), ("RIGHT", 1, 0))
CONFIG = {"bomb_live_time": 5, "lava_livetime": 2}


def say(word):
    sys.stdout.write(word + "\n")
    sys.stdout.flush()


class State:
    def __init__(self, lines):
        it = iter(lines)
        self.tick = int(next(it).split()[1])
        self.me = int(next(it).split()[1])
        line = next(it)
        if line.startswith("CONFIG"):
            for _ in range(int(line.split()[1])):
                name, value = next(it).split()
                CONFIG[name] = int(value)
            next(it)                                    # MAP
        self.map = ["#" * (SIDE + 2)] + ["#" + next(it) + "#" for _ in range(SIDE)] + ["#" * (SIDE + 2)]
        self.players = {}
        for _ in range(int(next(it).split()[1])):
            v = list(map(int, next(it).split()))
            self.players[v[0]] = dict(zip(("x", "y", "alive", "health", "points", "bombs_max", "bombs_left",
                                           "radius"), v[1:]))
        self.bombs = [tuple(map(int, next(it).split())) for _ in range(int(next(it).split()[1]))]
        self.bonus = {}
        for _ in range(int(next(it).split()[1])):
            x, y, t = next(it).split()
            self.bonus[(int(x), int(y))] = t
        self.lava = {}
        for _ in range(int(next(it).split()[1])):
            x, y, _owner, live = map(int, next(it).split())
            self.lava[(x, y)] = max(live, self.lava.get((x, y), 0))
        self.find_danger()

    @property
    def my(self):
        return self.players[self.me]

    def bomb_cells(self):
        return {(b[0], b[1]) for b in self.bombs}

    def flame(self, bx, by, radius):
        cells, bombs = [(bx, by)], self.bomb_cells()
        for _, dx, dy in DIRS:
            for r in range(1, radius + 1):
                x, y = bx + dx * r, by + dy * r
                if self.map[y][x] == "#":
                    break
                cells.append((x, y))
                if self.map[y][x] == "+" or (x, y) in bombs:
                    break
        return cells

    def find_danger(self):
        """explodes[(x, y)]: the step (1 = the next) a flame reaches the cell, chains included."""
        timer = {(b[0], b[1]): b[4] for b in self.bombs}
        changed = True
        while changed:
            changed, self.explodes = False, {}
            for b in self.bombs:
                when = timer[(b[0], b[1])]
                for c in self.flame(b[0], b[1], b[3]):
                    self.explodes[c] = min(self.explodes.get(c, NEVER), when)
                    if c in timer and when < timer[c]:
                        timer[c], changed = when, True

    def deadly(self, x, y, step):
        e = self.explodes.get((x, y), NEVER)
        return e <= step < e + CONFIG["lava_livetime"] or self.lava.get((x, y), 0) > step

    def calm(self, x, y):
        return (x, y) not in self.explodes and self.lava.get((x, y), 0) <= 1

    def walkable(self, x, y):
        if self.map[y][x] != "." or (x, y) in self.bomb_cells():
            return False
        return not any(p["alive"] and (p["x"], p["y"]) == (x, y) for i, p in self.players.items() if i != self.me)

    def walk_to(self, start, goal):
        """The first move of a shortest safe walk to a cell where goal(x, y) holds:
        None to stay (already there), False when there is none."""
        x0, y0 = self.my["x"], self.my["y"]
        if goal(x0, y0):
            return None
        seen, queue = {(x0, y0)}, deque([(x0, y0, start, None)])
        while queue:
            x, y, d, first = queue.popleft()
            for name, dx, dy in DIRS:
                nx, ny = x + dx, y + dy
                if (nx, ny) in seen or not self.walkable(nx, ny) or self.deadly(nx, ny, d + 1):
                    continue
                step = first or name
                if goal(nx, ny):
                    return step
                seen.add((nx, ny))
                queue.append((nx, ny, d + 1, step))
        return False


def states():
    """Each state as it arrives, until OVER or the end of input."""
    lines = []
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        if line == "OVER":
            return
        lines.append(line)
        if line == "END":
            yield State(lines)
            lines = []
