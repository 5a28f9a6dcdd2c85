"""A bomberman bot that walks at random and never steps where a flame or lava will be at the
end of the step; it never places a bomb. Seeded with its player number: a match replays the same."""
import random

from bomberman_bot import DIRS, NEVER, say, states

rng = None
for s in states():
    if rng is None:
        rng = random.Random(s.me)
    x, y = s.my["x"], s.my["y"]
    best, options = -1, []
    for name, dx, dy in (("WAIT", 0, 0),) + DIRS:
        nx, ny = x + dx, y + dy
        if (dx or dy) and not s.walkable(nx, ny) or s.deadly(nx, ny, 1):
            continue
        safety = 0 if s.lava.get((nx, ny), 0) > 1 else s.explodes.get((nx, ny), NEVER)
        if safety > best:
            best, options = safety, []
        if safety == best:
            options.append(name)
    say(rng.choice(options) if options else "WAIT")
