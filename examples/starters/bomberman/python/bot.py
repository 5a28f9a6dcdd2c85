"""A bomberman starter bot (docs/games/bomberman.md): it reads every state and walks to a
free neighbouring cell that no bomb's flame or lava reaches, or waits where it is. It never
places a bomb. Copy it and make it clever."""
import sys

MOVES = (("UP", 0, -1), ("RIGHT", 1, 0), ("DOWN", 0, 1), ("LEFT", -1, 0))


def read_state(lines):
    """One state as a dict, or None when the bot gets OVER (or its input ends)."""
    state = {"map": [], "players": [], "bombs": [], "lava": []}
    for line in lines:
        words = line.split()
        if not words:
            continue
        key = words[0]
        if key == "OVER":
            return None
        if key == "END":
            return state
        if key in ("TICK", "YOU"):
            state[key.lower()] = int(words[1])
        elif key == "CONFIG":
            for _ in range(int(words[1])):
                next(lines)
        elif key == "MAP":
            state["map"] = [next(lines).rstrip("\r\n") for _ in range(15)]  # 15 rows
        else:  # PLAYERS, BOMBS, BONUSES, LAVA: a count, then one item per line
            items = [[int(w) if w.lstrip("-").isdigit() else w for w in next(lines).split()]
                     for _ in range(int(words[1]))]
            state[key.lower()] = items
    return None


def danger(state):
    """The cells a flame or lava can reach: every bomb's cross, stopped by walls and blocks."""
    field, cells = state["map"], set()
    for x, y, _owner, radius, _timer in state["bombs"]:
        cells.add((x, y))
        for _, dx, dy in MOVES:
            for step in range(1, radius + 1):
                cx, cy = x + dx * step, y + dy * step
                if not (1 <= cy <= len(field) and 1 <= cx <= len(field[cy - 1])) or field[cy - 1][cx - 1] != ".":
                    break
                cells.add((cx, cy))
    for x, y, _owner, _time in state["lava"]:
        cells.add((x, y))
    return cells


def choose(state):
    me = [p for p in state["players"] if p[0] == state["you"]][0]
    x, y = me[1], me[2]
    field, unsafe = state["map"], danger(state)
    bombs = {(b[0], b[1]) for b in state["bombs"]}
    turn = state["tick"] % 4  # a different first direction each tick: it wanders
    for name, dx, dy in MOVES[turn:] + MOVES[:turn]:
        cx, cy = x + dx, y + dy
        inside = 1 <= cy <= len(field) and 1 <= cx <= len(field[cy - 1])
        if inside and field[cy - 1][cx - 1] == "." and (cx, cy) not in bombs and (cx, cy) not in unsafe:
            return name
    return "WAIT"


def main():
    lines = iter(sys.stdin)
    while True:
        state = read_state(lines)
        if state is None:
            return
        print(choose(state), flush=True)  # flush: a pipe is fully buffered


main()
