"""A bomberman bot that breaks blocks and collects the bonuses they hide: it walks to the
nearest visible bonus or the nearest cell next to a block, bombs there when it can get out of
the blast, and runs for a calm cell whenever a flame threatens it."""
from bomberman_bot import CONFIG, DIRS, say, states


def next_to_block(s, x, y):
    return any(s.map[y + dy][x + dx] == "+" for _, dx, dy in DIRS)


def can_escape(s):
    me = s.my
    s.bombs.append((me["x"], me["y"], s.me, me["radius"], CONFIG["bomb_live_time"]))
    s.find_danger()
    way = s.walk_to(1, s.calm)
    s.bombs.pop()
    s.find_danger()
    return way is not False


def choose(s):
    x, y = s.my["x"], s.my["y"]
    if not s.calm(x, y):
        way = s.walk_to(0, s.calm)
        return way or "WAIT"
    if s.my["bombs_left"] > 0 and next_to_block(s, x, y) and can_escape(s):
        return "BOMB"
    way = s.walk_to(0, lambda cx, cy: s.calm(cx, cy) and ((cx, cy) in s.bonus or next_to_block(s, cx, cy)))
    return way or "WAIT"


for state in states():
    say(choose(state))
