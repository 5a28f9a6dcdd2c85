"""A separate reading of bomberman.md (rules §2, order §5, end §6, violations §7, log §8), written
apart from engine/bomberman*.c: from a replay's header (map, parameters, seed) and its recorded
replies and violations alone, it writes the §8 log. The judge's `replay export --format
bomberman-log` must give the same bytes.
Usage: bomberman_reference.py REPLAY.jsonl.gz > LOG"""
import gzip
import json
import sys

M64 = (1 << 64) - 1
WORDS = ("WAIT", "UP", "DOWN", "LEFT", "RIGHT", "BOMB")
GAME_PARAMS = ("game_ticks_max", "bang_start_radius", "player_bombs_count_start", "lava_livetime",
               "bomb_live_time", "player_kill_points", "player_survive_points", "player_cell_destroy_points",
               "player_win_points", "player_bonus_find_points", "player_health_start", "lava_damage")


class Stream:
    """README C6: SplitMix64 seeded with seed XOR fnv1a64(label)."""

    def __init__(self, seed, label):
        h = 0xcbf29ce484222325
        for b in label.encode():
            h = ((h ^ b) * 0x100000001b3) & M64
        self.state = seed ^ h

    def next(self):
        self.state = (self.state + 0x9e3779b97f4a7c15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
        return z ^ (z >> 31)

    def uniform(self, n):
        t = ((1 << 64) - n) % n
        while True:
            x = self.next()
            if x >= t:
                return x % n

    def shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = self.uniform(i + 1)
            a[i], a[j] = a[j], a[i]


def parse_reply(line, max_bytes):
    """C3 + §4: the command, or INVALID."""
    if len(line.encode()) > max_bytes or any(ord(c) < 0x20 or ord(c) >= 0x7f for c in line.rstrip("\r")):
        return "INVALID"
    words = line.rstrip("\r").split(" ")
    words = [w for w in words if w]
    return words[0] if len(words) == 1 and words[0] in WORDS else "INVALID"


class Game:
    def __init__(self, header):
        self.cfg = header["params"]
        rows = header["map"].split("\n")[:15]
        self.n = len(header["players"])
        self.terrain, self.hidden, start = {}, {}, {}
        for y, row in enumerate(rows, 1):
            for x, c in enumerate(row, 1):
                self.terrain[(x, y)] = "#" if c == "#" else "+" if c in "+ar" else "."
                if c in "ar":
                    self.hidden[(x, y)] = c.upper()
                if c.isdigit():
                    start[int(c)] = (x, y)
        c = self.cfg
        self.players = {p: {"pos": start[p], "alive": True, "health": c["player_health_start"], "points": 0,
                            "bmax": c["player_bombs_count_start"], "bleft": c["player_bombs_count_start"],
                            "radius": c["bang_start_radius"], "crashed": False} for p in range(1, self.n + 1)}
        self.bombs = {}     # (x, y) -> [owner, radius, timer]
        self.bonus = {}     # (x, y) -> "A" / "R"
        self.lava = {}      # ((x, y), owner) -> live time
        self.rng = Stream(header["seed"], "bomberman/order")
        self.tick = 0
        self.out = []

    def state(self):
        o = [f"TICK {self.tick}", "YOU 0"]
        if self.tick == 0:
            o.append("CONFIG 12")
            o += [f"{k} {self.cfg[k]}" for k in GAME_PARAMS]
        o.append("MAP")
        o += ["".join(self.terrain[(x, y)] for x in range(1, 16)) for y in range(1, 16)]
        o.append(f"PLAYERS {self.n}")
        for p, pl in self.players.items():
            o.append(f"{p} {pl['pos'][0]} {pl['pos'][1]} {int(pl['alive'])} {pl['health']} {pl['points']} "
                     f"{pl['bmax']} {pl['bleft']} {pl['radius']}")
        yx = lambda c: (c[1], c[0])
        o.append(f"BOMBS {len(self.bombs)}")
        o += [f"{c[0]} {c[1]} {b[0]} {b[1]} {b[2]}" for c, b in sorted(self.bombs.items(), key=lambda i: yx(i[0]))]
        o.append(f"BONUSES {len(self.bonus)}")
        o += [f"{c[0]} {c[1]} {t}" for c, t in sorted(self.bonus.items(), key=lambda i: yx(i[0]))]
        o.append(f"LAVA {len(self.lava)}")
        o += [f"{c[0]} {c[1]} {ow} {v}" for (c, ow), v in sorted(self.lava.items(), key=lambda i: (yx(i[0][0]), i[0][1]))]
        o.append("END")
        self.out += o

    def occupied(self, cell):
        return any(pl["alive"] and pl["pos"] == cell for pl in self.players.values())

    def command(self, p, cmd):
        pl = self.players[p]
        if cmd in ("UP", "DOWN", "LEFT", "RIGHT"):
            dx, dy = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}[cmd]
            to = (pl["pos"][0] + dx, pl["pos"][1] + dy)
            if self.terrain.get(to) != "." or to in self.bombs or self.occupied(to):
                return "blocked"
            pl["pos"] = to
            bonus = self.bonus.pop(to, None)
            if not bonus:
                return "moved"
            pl["points"] += self.cfg["player_bonus_find_points"]
            if bonus == "A":
                pl["bmax"] += 1
                pl["bleft"] += 1
            else:
                pl["radius"] += 1
            return "pickup-" + bonus
        if cmd == "BOMB" and pl["bleft"] >= 1 and pl["pos"] not in self.bombs:
            self.bombs[pl["pos"]] = [p, pl["radius"], self.cfg["bomb_live_time"]]
            pl["bleft"] -= 1
            return "placed"
        return "none"

    def step(self, cmds):
        order = [p for p in self.players if self.players[p]["alive"]]
        self.rng.shuffle(order)
        log = ["ORDER " + " ".join(map(str, order))]
        for p in order:
            cmd = "CRASHED" if self.players[p]["crashed"] else cmds.get(p, "WAIT")
            log.append(f"CMD {p} {cmd} {self.command(p, cmd)}")
        for k in list(self.lava):                                   # B7
            self.lava[k] -= 1
            if self.lava[k] == 0:
                del self.lava[k]
        for b in self.bombs.values():                               # B8
            b[2] -= 1
        lava_cells = {c for c, _ in self.lava}
        todo = [c for c, b in self.bombs.items() if b[2] == 0 or c in lava_cells]
        exploding, flames, reached = set(todo), {}, {}
        while todo:                                                 # B9
            c = todo.pop()
            owner, radius, _ = self.bombs[c]
            cells = [c]
            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                for r in range(1, radius + 1):
                    n = (c[0] + dx * r, c[1] + dy * r)
                    if self.terrain.get(n, "#") == "#":
                        break
                    cells.append(n)
                    if self.terrain[n] == "+":
                        reached.setdefault(n, set()).add(owner)
                        break
                    if n in self.bombs:
                        if n not in exploding:
                            exploding.add(n)
                            todo.append(n)
                        break
            flames[c] = (owner, cells)
        for c in sorted(exploding, key=lambda c: (c[1], c[0])):     # B10
            owner, cells = flames[c]
            log.append(f"BOOM {c[0]} {c[1]} {owner}")
            for f in cells:
                self.lava[(f, owner)] = self.cfg["lava_livetime"]
            del self.bombs[c]
            self.players[owner]["bleft"] += 1
        for c in sorted(reached, key=lambda c: (c[1], c[0])):
            self.terrain[c] = "."
            if c in self.hidden:
                self.bonus[c] = self.hidden.pop(c)
            for o in sorted(reached[c]):
                self.players[o]["points"] += self.cfg["player_cell_destroy_points"]
            log.append(f"BLOCK {c[0]} {c[1]} " + " ".join(map(str, sorted(reached[c]))))
        for p, pl in self.players.items():                          # B11
            owners = sorted(o for (c, o) in self.lava if c == pl["pos"]) if pl["alive"] else []
            if not owners:
                continue
            pl["health"] -= self.cfg["lava_damage"]
            if pl["health"] <= 0:
                pl["alive"] = False
                for o in owners:
                    if o != p:
                        self.players[o]["points"] += self.cfg["player_kill_points"]
                log.append(f"DEATH {p} " + " ".join(map(str, owners)))
        self.out += log
        self.tick += 1

    def over(self):
        return self.tick >= self.cfg["game_ticks_max"] or sum(pl["alive"] for pl in self.players.values()) <= 1

    def finish(self):
        alive = [pl for pl in self.players.values() if pl["alive"]]
        for pl in alive:
            pl["points"] += self.cfg["player_win_points" if len(alive) == 1 else "player_survive_points"]
        for p, pl in self.players.items():
            place = 1 + sum(q["points"] > pl["points"] for q in self.players.values())
            self.out.append(f"RESULT {p} {pl['points']} {place}")


def main():
    lines = [json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
    game = Game(lines[0])
    max_bytes = lines[0]["params"]["max_line_bytes"]
    by_tick = {}
    for x in lines:
        if x["type"] == "reply":
            by_tick.setdefault(x["round"], {})[x["player"]] = parse_reply(x["line"], max_bytes)
        elif x["type"] == "violation" and x["by"] == "judge":
            crash = x["kind"] not in ("invalid_output", "invalid_move")
            by_tick.setdefault(x["round"], {})[x["player"]] = "CRASH" if crash else "INVALID"
    game.state()
    while not game.over():
        cmds = by_tick.get(game.tick, {})
        for p, c in cmds.items():
            if c == "CRASH":
                game.players[p]["crashed"] = True
        game.step(cmds)
        game.state()
    game.finish()
    sys.stdout.write("\n".join(game.out) + "\n")


main()
