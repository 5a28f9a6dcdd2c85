#!/usr/bin/env python3
"""A second, independent reading of warlight.md (README C6, W1..W12, §6..§10, D11..D19) in
Python. It plays seeded random bots (mostly valid replies, with every kind of fault mixed in),
or the inputs recorded in a judge replay, and writes two files: NAME.rec, the recording (every
reply or violation in the order it was handed in), and NAME.log, the §10 log.
tests/unit/test_engine_warlight_golden.c feeds the recording to the C engine and compares its
log with NAME.log byte for byte.

    python3 reference.py NAME SEED PLAYERS BOT_SEED [name=value ...]
    python3 reference.py from-replay REPLAY.jsonl.gz NAME
"""
import random
import sys

M64 = (1 << 64) - 1
DEFAULTS = [("rows", 10), ("cols", 10), ("rounds", 20), ("turn_limit", 1000), ("bonus_count", 10),
            ("bonus_size", 10), ("bonus_value_min", 5), ("bonus_value_max", 10), ("base_income", 5),
            ("start_armies", 5), ("neutral_armies", 2), ("attack_kill_pct", 60),
            ("defend_kill_pct", 70), ("round_points", 100), ("turn_wall_ms", 1000),
            ("memory_limit_mb", 256), ("max_output_bytes", 65536), ("data_quota_kb", 1024),
            ("persistent", 0)]


class Stream:
    """README C6."""

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

    def range(self, lo, hi):
        return lo + self.uniform(hi - lo + 1)

    def shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = self.uniform(i + 1)
            a[i], a[j] = a[j], a[i]


class Game:
    def __init__(self, seed, k, params):
        self.p = params
        self.seed, self.k = seed, k
        self.R, self.C = params["rows"], params["cols"]
        self.persistent = params["persistent"] == 1
        self.total = [0] * k
        self.log = []
        head = [self.R, self.C, k, params["rounds"], params["turn_limit"], params["persistent"]]
        self.log.append("warlight " + " ".join(map(str, head)))
        for name, d in DEFAULTS:
            if params[name] != d:
                self.log.append("param %s %d" % (name, params[name]))

    def nbrs(self, r, c):
        return [((r + dr) % self.R, (c + dc) % self.C) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if dr or dc]

    def setup(self, rnd):
        s = Stream(self.seed, "warlight/setup/%d" % rnd)
        cells = [(r, c) for r in range(self.R) for c in range(self.C)]
        lst = list(cells)
        s.shuffle(lst)
        nb, size = self.p["bonus_count"], self.p["bonus_size"]
        self.bonus = {}
        members = [[lst[b]] for b in range(nb)]
        for b in range(nb):
            self.bonus[lst[b]] = b
        for _ in range(2, size + 1):
            for b in range(nb):
                near = set()
                for t in members[b]:
                    for u in self.nbrs(*t):
                        if u not in self.bonus:
                            near.add(u)
                F = sorted(near) if near else [t for t in cells if t not in self.bonus]
                t = F[s.uniform(len(F))]
                self.bonus[t] = b
                members[b].append(t)
        self.values = [s.range(self.p["bonus_value_min"], self.p["bonus_value_max"]) for _ in range(nb)]
        lst = list(cells)
        s.shuffle(lst)
        self.owner = {t: -1 for t in cells}
        self.armies = {t: self.p["neutral_armies"] for t in cells}
        self.starts = lst[:self.k]
        for i in range(self.k):
            self.owner[lst[i]] = i
            self.armies[lst[i]] = self.p["start_armies"]
        self.play = Stream(self.seed, "warlight/play/%d" % rnd)
        self.log.append("round %d" % rnd)
        for b in range(nb):
            ts = sorted(t for t in cells if self.bonus[t] == b)
            self.log.append("bonus %d %d " % (b, self.values[b]) + " ".join("%d,%d" % t for t in ts))
        for i in range(self.k):
            self.log.append("start %d %d,%d" % (i, self.starts[i][0], self.starts[i][1]))

    def income(self, i):
        inc = self.p["base_income"]
        for b in range(self.p["bonus_count"]):
            if all(self.owner[t] == i for t in self.bonus if self.bonus[t] == b):
                inc += self.values[b]
        return inc

    def args(self, i, inc, first):
        vis = set()
        for t, o in self.owner.items():
            if o == i:
                vis.add(t)
                vis.update(self.nbrs(*t))
        terr = " ".join("%d,%d,%d,%d,%d" % (t[0], t[1], self.bonus[t], self.owner[t], self.armies[t])
                        for t in sorted(vis))
        bon = []
        for b in range(self.p["bonus_count"]):
            left = sum(1 for t in self.bonus if self.bonus[t] == b and self.owner[t] != i)
            bon.append("%d,%d,%d" % (b, self.values[b], left))
        a = [str(i), str(inc), terr, " ".join(bon)]
        return a + ["X"] if first else a


def num(tok):
    neg = tok.startswith("-")
    d = tok[1:] if neg else tok
    if not (1 <= len(d) <= 18) or not all("0" <= ch <= "9" for ch in d):
        return None
    return -int(d) if neg else int(d)


def fields(tok, n):
    parts = tok.split(",")
    if len(parts) != n:
        return None
    v = [num(x) for x in parts]
    return None if None in v else v


def tokens(line, terminated):
    """README C3 for one line; None when invalid."""
    if not terminated and line.endswith(b"\r"):
        return None
    if line.endswith(b"\r"):
        line = line[:-1]
    if any(ch < 0x20 or ch >= 0x7f for ch in line):
        return None
    return [t for t in line.decode().split(" ") if t]


def read_reply(g, i, inc, data):
    """(status, deploys, commands) of §8 and D14."""
    if len(data) == 0:
        return "skip-nooutput", [], []
    if len(data) > g.p["max_output_bytes"]:
        return "skip-output", [], []
    pieces = data.split(b"\n")
    lines = [(pieces[x], x < len(pieces) - 1) for x in range(len(pieces))]
    if lines[-1][0] == b"":
        lines.pop()
    for ln, term in lines[2:]:
        body = ln[:-1] if term and ln.endswith(b"\r") else ln
        if body.strip(b" ") != b"":
            return "skip-output", [], []
    t1 = tokens(*lines[0])
    if not t1:
        return "skip-output", [], []
    dep = [fields(t, 3) for t in t1]
    if None in dep:
        return "skip-output", [], []
    total = 0
    for r, c, a in dep:
        if not (0 <= r < g.R and 0 <= c < g.C) or g.owner[(r, c)] != i or a < 1:
            return "skip-deploy", [], []
        total += a
    if total != inc:
        return "skip-deploy", [], []
    if len(lines) < 2:
        return "ok", dep, []
    t2 = tokens(*lines[1])
    if t2 is None:
        return "badmoves", dep, []
    cmd = [fields(t, 5) for t in t2]
    if None in cmd:
        return "badmoves", dep, []
    return "ok", dep, cmd


def kills(n, pct):
    return (n * pct + 50) // 100


def resolve(g, alive, st):
    """st[i] = (status, income, deploys, commands) for every i alive."""
    for i in alive:
        if st[i][0] in ("ok", "badmoves"):
            for r, c, a in st[i][2]:
                g.armies[(r, c)] += a
    C = []
    for i in alive:
        if st[i][0] != "ok":
            continue
        for sr, sc, dr, dc, a in st[i][3]:
            if not (0 <= sr < g.R and 0 <= sc < g.C and 0 <= dr < g.R and 0 <= dc < g.C):
                continue
            if g.owner[(sr, sc)] != i or (dr, dc) not in g.nbrs(sr, sc):
                continue
            if a <= 0 or a > g.armies[(sr, sc)] - 1:
                continue
            C.append((i, sr, sc, dr, dc, a))
    g.play.shuffle(C)
    moves = []
    for i, sr, sc, dr, dc, a in C:
        s, d = (sr, sc), (dr, dc)
        if g.owner[s] != i:
            moves.append((i, sr, sc, dr, dc, a, 0, "lost-source"))
            continue
        n = min(a, g.armies[s] - 1)
        if n <= 0:
            moves.append((i, sr, sc, dr, dc, a, 0, "nothing-left"))
            continue
        g.armies[s] -= n
        if g.owner[d] == i:
            g.armies[d] += n
            out = "transfer"
        else:
            o = g.armies[d]
            o2 = max(0, o - kills(n, g.p["attack_kill_pct"]))
            n2 = max(0, n - kills(o, g.p["defend_kill_pct"]))
            if o2 == 0 and n2 > 0:
                g.owner[d], g.armies[d], out = i, n2, "capture"
            elif o2 == 0:
                g.armies[d], out = 1, "stalemate"
            else:
                g.armies[d] = o2
                g.armies[s] += n2
                out = "repelled"
        moves.append((i, sr, sc, dr, dc, a, n, out))
    return moves


def strong_reply(rng, g, i, inc, mine):
    """Everything on the biggest territory, then two attacks from it on its weakest enemies."""
    big = max(mine, key=lambda t: (g.armies[t], t))
    foes = sorted((g.armies[u], u) for u in set(g.nbrs(*big)) if g.owner[u] != i)
    cmds = []
    have = g.armies[big] + inc
    for _, u in foes[:2]:
        cmds.append("%d,%d,%d,%d,%d" % (big + u + (rng.randint(have // 2, have),)))
    return ("%d,%d,%d\n" % (big + (inc,)) + " ".join(cmds) + "\n").encode()


def bot_reply(rng, g, i, inc):
    """A random reply: raw bytes, or a violation name found by the runner."""
    roll = rng.random()
    fatal = ["time", "crash", "memory_limit", "forbidden_syscall"]
    if roll < 0.03:
        return rng.choice(fatal)
    if roll < 0.05:
        return rng.choice([b"", b"\n", b"   \n", b"1,2\n", b"0,0,1\tx\n", b"a\0b\n", b"x" * 300])
    mine = sorted(t for t, o in g.owner.items() if o == i)
    if i == 0 and rng.random() < 0.9:
        return strong_reply(rng, g, i, inc, mine)
    parts, left = [], inc
    while left > 0:
        a = rng.randint(1, left) if rng.random() < 0.5 else left
        t = rng.choice(mine)
        parts.append("%d,%d,%d" % (t[0], t[1], a))
        left -= a
    if rng.random() < 0.04:
        parts.append(rng.choice(["0,0,1", "%d,%d,0" % mine[0], "99,0,1", "%d,%d,-1" % mine[0]]))
    cmds = []
    for t in mine:
        if rng.random() < 0.7:
            d = rng.choice(g.nbrs(*t))
            cmds.append("%d,%d,%d,%d,%d" % (t[0], t[1], d[0], d[1], rng.randint(1, g.armies[t] + 6)))
    if rng.random() < 0.05:
        cmds.append(rng.choice(["0,0,5,5,1", "1,1,1", "%d,%d,%d,%d,0" % (mine[0] + mine[0])]))
    rng.shuffle(cmds)
    line2 = " ".join(cmds)
    tail = rng.choice(["\n", "\n", "", "\r\n", "\n\n  \n"])
    if rng.random() < 0.03:
        tail = "\nextra\n"
    if rng.random() < 0.03:
        line2 += "\t"
    return (" ".join(parts) + "\n" + line2 + tail).encode()


FATAL_STATUS = {"time": "skip-time", "crash": "skip-crash", "memory_limit": "skip-memory",
                "forbidden_syscall": "skip-syscall", "invalid_output": "skip-output",
                "invalid_move": "skip-deploy"}


def log_turn(g, turn, alive, st, moves):
    g.log.append("turn %d" % turn)
    for i in alive:
        g.log.append("player %d %d %s" % (i, st[i][1], st[i][0]))
    for i in alive:
        if st[i][0] in ("ok", "badmoves"):
            g.log.append("deploy %d " % i + " ".join("%d,%d,%d" % tuple(d) for d in st[i][2]))
    for m in moves:
        g.log.append("move %d %d,%d,%d,%d,%d %d %s" % m)
    for r in range(g.R):
        g.log.append("row %d " % r + " ".join("%d,%d" % (g.owner[(r, c)], g.armies[(r, c)])
                                              for c in range(g.C)))


def play(seed, k, params, source):
    """The match; source(rnd, turn, i, g, inc) gives a reply's bytes or a violation name.
    Returns the log lines and the recording lines."""
    g = Game(seed, k, params)
    rec = ["seed %d players %d" % (seed, k) +
           "".join(" %s=%d" % (n, params[n]) for n, d in DEFAULTS if params[n] != d)]
    for rnd in range(1, params["rounds"] + 1):
        g.setup(rnd)
        alive = list(range(k))
        dead = {}
        pts = [0] * k
        for turn in range(1, params["turn_limit"] + 1):
            st = {}
            for i in alive:
                inc = g.income(i)
                if i in dead:
                    st[i] = (dead[i], inc, [], [])
                    continue
                r = source(rnd, turn, i, g, inc)
                if isinstance(r, str):
                    rec.append("%d %d %d %s" % (rnd, turn, i + 1, r))
                    st[i] = (FATAL_STATUS[r], inc, [], [])
                    if g.persistent and r in ("time", "crash", "memory_limit", "forbidden_syscall"):
                        dead[i] = FATAL_STATUS[r]
                else:
                    rec.append("%d %d %d out %s" % (rnd, turn, i + 1, r.hex() or "-"))
                    s, dep, cmd = read_reply(g, i, inc, r)
                    st[i] = (s, inc, dep, cmd)
            moves = resolve(g, alive, st)
            log_turn(g, turn, alive, st, moves)
            gone = [i for i in alive if not any(o == i for o in g.owner.values())]
            for i in gone:
                g.log.append("out %d" % i)
            alive = [i for i in alive if i not in gone]
            if len(alive) <= 1:
                break
        for i in alive:
            pts[i] = params["round_points"] // len(alive)
            g.total[i] += pts[i]
        g.log.append("endround %d " % rnd + " ".join(map(str, pts)))
    g.log.append("total " + " ".join(map(str, g.total)))
    return g.log, rec


def from_replay(path):
    """seed, players, params and a source replaying the inputs of a judge replay."""
    import gzip
    import json
    with gzip.open(path, "rt") as f:
        lines = [json.loads(x) for x in f]
    head = lines[0]
    params = dict(DEFAULTS)
    params.update(head["params"])
    inputs = iter(x for x in lines if x["type"] == "reply" or
                  (x["type"] == "violation" and x["by"] == "judge"))

    def source(rnd, turn, i, g, inc):
        x = next(inputs)
        assert x["player"] == i + 1 and x["round"] == rnd, (x, rnd, turn, i)
        return x["line"].encode("latin-1") if x["type"] == "reply" else x["kind"]
    return head["seed"], len(head["players"]), params, source


def write(name, log, rec):
    with open(name + ".rec", "w") as f:
        f.write("\n".join(rec) + "\n")
    with open(name + ".log", "w") as f:
        f.write("\n".join(log) + "\n")


def main():
    if sys.argv[1] == "from-replay":
        log, rec = play(*from_replay(sys.argv[2]))
        write(sys.argv[3], log, rec)
        return
    name, seed, k, bot_seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    params = dict(DEFAULTS)
    for kv in sys.argv[5:]:
        key, val = kv.split("=")
        params[key] = int(val)
    rng = random.Random(bot_seed)
    log, rec = play(seed, k, params, lambda rnd, turn, i, g, inc: bot_reply(rng, g, i, inc))
    write(name, log, rec)


if __name__ == "__main__":
    main()
