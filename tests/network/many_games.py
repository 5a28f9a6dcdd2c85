"""concurrent.py - pairing of many clients at once: 100 autobahn sessions ask for a game at
the same moment and play 50 games concurrently with seeded random shots. Every game's log
(get-game-log) holds exactly the shots its two clients made with the results they were
given, equals the seabattle-log export of its replay (the engine replaying the recorded
shots), and for a sample, equals the log of `judge run` playing the same boards and shots
between two local bots in the jail."""
import asyncio
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netlib import Check, Server, connect, judge, run  # noqa: E402

GAMES = 50
SAMPLE = 3   # games also played by `judge run`


def board_of(seed):
    r = judge("mapgen", "seabattle", "--seed", str(seed))
    return r.stdout.splitlines()


async def play(session, game, rng):
    cells = [(x, y) for x in range(1, 11) for y in range(1, 11)]
    rng.shuffle(cells)
    shots = []
    for x, y in cells * 2:       # bounded: every cell twice at most
        result = await session.call("shoot", game, x, y)
        if result == "game-over":
            break
        shots.append((x, y, result))
    return shots


def log_shots(log, player):
    return [tuple(int(v) if v.isdigit() else v for v in line.split()[1:])
            for line in log.split("\n\n")[2].splitlines() if line.split()[0] == str(player)]


def judge_run_log(tmp, game, boards, shots):
    d = os.path.join(tmp, "run-%d" % game)
    os.makedirs(d)
    for p in (1, 2):
        with open(os.path.join(d, "p%d.txt" % p), "w") as f:
            f.write("".join(line + "\n" for line in boards[p]))
            f.write("".join("%d %d\n" % (x, y) for x, y, _ in shots[p]))
    with open(os.path.join(d, "match.yaml"), "w") as f:
        f.write("game: seabattle\ngenerate: {}\nseed: 1\nplayers:\n")
        for p in (1, 2):
            f.write("  - name: p%d\n    dir: .\n    command: [/bin/sh, -c, \"cat p%d.txt; exec sleep 600\"]\n" % (p, p))
    r = judge("run", os.path.join(d, "match.yaml"), "--replay", os.path.join(d, "r.jsonl.gz"))
    if r.returncode != 0:
        return "judge run failed: " + r.stderr.strip()
    return judge("replay", "export", "--format", "seabattle-log", os.path.join(d, "r.jsonl.gz")).stdout


async def main():
    tmp = tempfile.mkdtemp(prefix="judge-net-")
    os.chmod(tmp, 0o755)  # bots in it run as the jail's own user
    c = Check("network/concurrent_50_games")
    srv = Server(os.path.join(tmp, "srv"))
    try:
        boards = [board_of(1000 + i) for i in range(2 * GAMES)]
        sessions = await asyncio.gather(*[connect(srv) for _ in range(2 * GAMES)])
        ids = await asyncio.gather(*[s.call("new-game", "p%03d" % i, boards[i]) for i, s in enumerate(sessions)])
        games = {}
        for i, g in enumerate(ids):
            games.setdefault(g, []).append(i)
        c.eq(len(games), GAMES, "pairing: %d clients make %d games" % (2 * GAMES, GAMES))
        c.true(all(len(v) == 2 for v in games.values()), "pairing: two clients in every game")
        shots = await asyncio.gather(*[play(s, ids[i], random.Random(i)) for i, s in enumerate(sessions)])
        checked = 0
        for n, (g, members) in enumerate(sorted(games.items())):
            info = await sessions[members[0]].call("get-game-info", g)
            seat = {info[1]: 1, info[2]: 2}
            by_player = {seat["p%03d" % i]: shots[i] for i in members}
            board = {seat["p%03d" % i]: boards[i] for i in members}
            log = await sessions[members[0]].call("get-game-log", g)
            ok = all(log_shots(log, p) == by_player[p] for p in (1, 2))
            c.true(ok, "game %d: the log holds exactly the shots made and the results given" % g)
            c.true(info[0] in ("player1-win", "player2-win", "draw"), "game %d: over (%s)" % (g, info[0]))
            e = judge("replay", "export", "--format", "seabattle-log", os.path.join(srv.replays, "game-%d.jsonl.gz" % g))
            c.eq(e.stdout, log, "game %d: the replay's export equals get-game-log" % g)
            if n < SAMPLE:
                c.eq(judge_run_log(tmp, g, board, by_player), log, "game %d: `judge run` with the same shots" % g)
            checked += 1
        c.eq(checked, GAMES, "every game checked")
        for s in sessions:
            s.leave()
        await asyncio.sleep(0.5)
        c.true(srv.alive(), "the server is still running")
        srv.stop()
        c.eq(len([l for l in srv.lines if " started: " in l]), GAMES, "one start line per game")
        c.eq(len([l for l in srv.lines if " ended: " in l]), GAMES, "one end line per game")
    finally:
        if srv.alive():
            srv.proc.kill()
    return c.report()


if __name__ == "__main__":
    sys.exit(run(main))
