"""games.py - two autobahn sessions play whole games to each end (seabattle-network.md N1,
N2, N5, N6, N8): all ships sunk, the shot limit, an invalid shot, a timeout, a disconnection
(both while shooting and while the opponent shoots), and a waiting game whose creator leaves.
Every game's replay verifies, its seabattle-log export equals get-game-log, and
`judge results` ranks the players by their player-id."""
import asyncio
import json
import os
import re
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netlib import (BOARD_A, BOARD_B, Check, Server, connect, error_of, judge, read_replay,  # noqa: E402
                    run, ship_cells, water_cells)


async def pair(srv, id1, id2):
    a, b = await connect(srv), await connect(srv)
    g1 = await a.call("new-game", id1, BOARD_A)
    g2 = await b.call("new-game", id2, BOARD_B)
    return a, b, g1, g2


def check_records(c, srv, game, log, name):
    path = os.path.join(srv.replays, "game-%d.jsonl.gz" % game)
    v = judge("replay", "verify", path)
    c.eq(v.returncode, 0, "%s: replay verify (%s)" % (name, v.stdout.strip() + v.stderr.strip()))
    e = judge("replay", "export", "--format", "seabattle-log", path)
    c.eq(e.stdout, log, "%s: the exported log equals get-game-log" % name)
    return read_replay(path) if os.path.exists(path) else []


async def sunk(c, srv):
    a, b, g, g2 = await pair(srv, "alice", "bob")
    c.eq(g, g2, "sunk: the second new-game joins the waiting game")
    results = [await a.call("shoot", g, x, y) for x, y in ship_cells(BOARD_B)]
    c.eq(results[-1], "sunk", "sunk: the last shot returns sunk")
    c.eq(await a.call("shoot", g, 1, 1), "game-over", "sunk: a later shot returns game-over")
    c.eq(await b.call("shoot", g, 1, 1), "game-over", "sunk: the loser's shot returns game-over")
    info = await b.call("get-game-info", g)
    c.eq(info, ["player1-win", "alice", "bob", BOARD_A, BOARD_B], "sunk: get-game-info after the end")
    log = await b.call("get-game-log", g)
    want = "".join(l + "\n" for l in BOARD_A) + "\n" + "".join(l + "\n" for l in BOARD_B) + "\n" + \
        "".join("1 %d %d %s\n" % (x, y, r) for (x, y), r in zip(ship_cells(BOARD_B), results))
    c.eq(log, want, "sunk: get-game-log is the §7 log")
    rec = check_records(c, srv, g, log, "sunk")
    if rec:
        c.eq([p["name"] for p in rec[0]["players"]], ["alice", "bob"], "sunk: players named by player-id")
        c.eq(rec[-1]["winner"], 1, "sunk: replay winner")
    a.leave(), b.leave()


async def turns(c, srv):
    """Held shots: player 2 shoots first (held until player 1 misses); hits keep the turn."""
    a, b, g, _ = await pair(srv, "carol", "dave")
    held = asyncio.ensure_future(b.call("shoot", g, 1, 1))          # BOARD_A (1,1) is a ship cell
    await asyncio.sleep(0.3)
    c.true(not held.done(), "turns: player 2's shot is held during player 1's turn")
    e = await error_of(b.call("shoot", g, 2, 1))
    c.eq(e and e.error, "seabattle.error.shot_pending", "turns: a second shot while one is held")
    c.eq(await a.call("shoot", g, 10, 1), "sunk", "turns: player 1 sinks a one-cell ship")
    c.true(not held.done(), "turns: after a hit player 1 shoots again")
    c.eq(await a.call("shoot", g, 2, 1), "miss", "turns: player 1 misses")
    c.eq(await asyncio.wait_for(held, 10), "hit", "turns: the held shot is applied once its turn comes")
    a.leave(), b.leave()
    await asyncio.sleep(0.3)


async def shot_limit(c, srv_limit):
    a, b, g, _ = await pair(srv_limit, "erin", "frank")
    water_b, water_a = water_cells(BOARD_B), water_cells(BOARD_A)
    seq = [await a.call("shoot", g, 4, 2)]                           # a hit of BOARD_B
    seq.append(await a.call("shoot", g, *water_b[0]))
    seq.append(await b.call("shoot", g, *water_a[0]))
    seq.append(await a.call("shoot", g, *water_b[1]))
    seq.append(await b.call("shoot", g, *water_a[1]))
    seq.append(await a.call("shoot", g, *water_b[2]))                # the 6th shot: shot_limit
    c.eq(seq, ["hit", "miss", "miss", "miss", "miss", "miss"], "shot_limit: results")
    c.eq(await b.call("shoot", g, 5, 5), "game-over", "shot_limit: no shot after the limit")
    info = await a.call("get-game-info", g)
    c.eq(info[0], "player1-win", "shot_limit: more cells hit wins (S9)")
    rec = check_records(c, srv_limit, g, await a.call("get-game-log", g), "shot_limit")
    c.true(any(r.get("event", {}).get("reason") == "shot_limit" for r in rec), "shot_limit: end event")
    a.leave(), b.leave()


async def invalid_shot(c, srv):
    """An invalid shot is the reply `x y` as the client wrote it, refused by the engine as a bot's
    line is in judge run: off the board INVALID_MOVE, not two integers INVALID_OUTPUT."""
    for name, x, y, line, verdict in (("off_board", 0, 5, "0 5", "INVALID_MOVE"),
                                      ("off_board_y", 3, 11, "3 11", "INVALID_MOVE"),
                                      ("not_integer", True, 3, "true 3", "INVALID_OUTPUT"),
                                      ("float", 3.0, 3, "3.0 3", "INVALID_OUTPUT"),
                                      ("string", "3", 1, '"3" 1', "INVALID_OUTPUT")):
        a, b, g, _ = await pair(srv, "gina-" + name, "hank")
        c.eq(await a.call("shoot", g, x, y), "game-over", "invalid_shot/%s: returns game-over" % name)
        info = await b.call("get-game-info", g)
        c.eq(info[0], "player2-win", "invalid_shot/%s: the shooter loses" % name)
        rec = check_records(c, srv, g, await b.call("get-game-log", g), "invalid_shot/" + name)
        verdicts = [p["verdict"] for p in rec[-1]["players"]] if rec else []
        c.eq(verdicts, [verdict, "OK"], "invalid_shot/%s: verdicts" % name)
        after_boards = [(r["type"], r.get("line"), r.get("by")) for r in rec if r["type"] in ("reply", "violation")][2:]
        c.eq(after_boards, [("reply", line, None), ("violation", None, "game")],
             "invalid_shot/%s: the shot is a reply, the engine's violation follows" % name)
        a.leave(), b.leave()


async def timeout(c, srv_fast):
    a, b, g, _ = await pair(srv_fast, "ivan", "judy")
    held = asyncio.ensure_future(b.call("shoot", g, 1, 1))
    c.eq(await asyncio.wait_for(held, 20), "game-over", "timeout: the opponent's held shot ends game-over")
    info = await a.call("get-game-info", g)
    c.eq(info[0], "player2-win", "timeout: the silent player loses (N5)")
    c.eq(await a.call("shoot", g, 1, 1), "game-over", "timeout: a shot after the end")
    rec = check_records(c, srv_fast, g, await a.call("get-game-log", g), "timeout")
    if rec:
        c.eq([p["verdict"] for p in rec[-1]["players"]], ["WALL_LIMIT", "OK"], "timeout: verdicts")
        v = [r for r in rec if r["type"] == "violation"]
        c.eq(v and v[0]["evidence"]["limit_ns"], 800 * 10**6, "timeout: the limit in the evidence")
    a.leave(), b.leave()


async def no_opponent(c, srv_fast):
    """N5, D11: a game that waits net_wait_ms for an opponent is closed as a draw, no log, no replay."""
    a = await connect(srv_fast)
    g = await a.call("new-game", "tess", BOARD_A)
    held = asyncio.ensure_future(a.call("shoot", g, 1, 1))
    c.eq(await asyncio.wait_for(held, 20), "game-over", "no_opponent: the held shot ends game-over")
    c.eq(await a.call("get-game-info", g), ["draw", "tess", None, BOARD_A, None], "no_opponent: a draw, board 1 only")
    c.eq(await a.call("get-game-log", g), "", "no_opponent: an empty log")
    c.true(not os.path.exists(os.path.join(srv_fast.replays, "game-%d.jsonl.gz" % g)), "no_opponent: no replay")
    a.leave()


async def disconnect(c, srv):
    # The shooter's connection drops: it loses at once (N6).
    a, b, g, _ = await pair(srv, "kate", "leo")
    held = asyncio.ensure_future(b.call("shoot", g, 1, 1))
    await asyncio.sleep(0.2)
    a.transport_.abort()
    c.eq(await asyncio.wait_for(held, 10), "game-over", "disconnect/shooter: the held shot ends game-over")
    info = await b.call("get-game-info", g)
    c.eq(info[0], "player2-win", "disconnect/shooter: the one who left loses")
    rec = check_records(c, srv, g, await b.call("get-game-log", g), "disconnect/shooter")
    if rec:
        c.eq([p["verdict"] for p in rec[-1]["players"]], ["RUNTIME_ERROR", "OK"], "disconnect/shooter: verdicts")
    b.leave()
    # The opponent leaves while the shooter hits: it loses when its turn comes.
    a, b, g, _ = await pair(srv, "mia", "ned")
    await b.leave()
    c.eq(await a.call("shoot", g, 4, 2), "hit", "disconnect/opponent: the shooter goes on")
    c.eq(await a.call("shoot", g, *water_cells(BOARD_B)[0]), "miss", "disconnect/opponent: a miss")
    c.eq((await a.call("get-game-info", g))[0], "player1-win", "disconnect/opponent: the one who left loses")
    check_records(c, srv, g, await a.call("get-game-log", g), "disconnect/opponent")
    a.leave()
    # A waiting game whose creator leaves disappears (D11).
    w = await connect(srv)
    gw = await w.call("new-game", "olga", BOARD_A)
    w.transport_.abort()
    await asyncio.sleep(0.5)
    o = await connect(srv)
    e = await error_of(o.call("get-game-info", gw))
    c.eq(e and e.error, "seabattle.error.no_such_game", "disconnect/waiting: the waiting game is removed")
    c.true(gw not in await o.call("get-games"), "disconnect/waiting: get-games omits it")
    gn = await o.call("new-game", "pete", BOARD_A)
    c.true(gn > gw, "disconnect/waiting: ids are never reused")
    o.leave()


async def main():
    tmp = tempfile.mkdtemp(prefix="judge-net-")
    os.chmod(tmp, 0o755)  # bots in it run as the jail's own user
    c = Check("network/games")
    srv = Server(os.path.join(tmp, "main"))
    srv_limit = Server(os.path.join(tmp, "limit"), "--param", "shot_limit=6")
    srv_fast = Server(os.path.join(tmp, "fast"), "--net-move-wall-ms", "800", "--net-wait-ms", "1500")
    try:
        for step in (sunk(c, srv), turns(c, srv), shot_limit(c, srv_limit), invalid_shot(c, srv),
                     timeout(c, srv_fast), no_opponent(c, srv_fast), disconnect(c, srv)):
            await step
        await asyncio.sleep(0.5)
        r = judge("results", srv.replays, "--out", os.path.join(tmp, "results"))
        c.eq(r.returncode, 0, "results: judge results reads the server's replays (%s)" % r.stderr.strip())
        standings = open(os.path.join(tmp, "results", "standings.md")).read() if r.returncode == 0 else ""
        c.true("alice" in standings and "kate" in standings, "results: network players in the standings")
        # Games in progress when the server stops are recorded as aborted, nothing half-written.
        a, b, g, _ = await pair(srv, "quinn", "rosa")
        await a.call("shoot", g, 1, 1)
        w = await connect(srv)
        gw = await w.call("new-game", "sam", BOARD_A)
        for s in (srv, srv_limit, srv_fast):
            c.true(s.alive(), "the server is still running")
        held = asyncio.ensure_future(b.call("shoot", g, 1, 1))   # player 2's, held during player 1's turn
        await asyncio.sleep(0.2)
        stopped = asyncio.get_running_loop().run_in_executor(None, srv.stop, signal.SIGINT)
        try:
            answer = await asyncio.wait_for(held, 20)
        except Exception as e:                      # the transport lost before the answer left
            answer = repr(e)
        c.eq(answer, "game-over", "SIGINT: a held shot is answered game-over")
        for who, s in (("a player", a), ("the other", b), ("a waiting player", w)):
            await asyncio.wait_for(s.left_, 20)
            reason = getattr(getattr(s, "left_details", None), "reason", None)
            c.eq(reason, "wamp.close.system_shutdown", "SIGINT: %s is told GOODBYE system_shutdown" % who)
        c.eq(await stopped, 0, "SIGINT: exit status 0")
        for s in (srv_limit, srv_fast):
            c.eq(s.stop(), 0, "SIGTERM: exit status 0")
        for game, was in ((g, "in-progress"), (gw, "waiting")):
            path = os.path.join(srv.replays, "game-%d.aborted.json" % game)
            rec = json.load(open(path)) if os.path.exists(path) else {}
            c.eq((rec.get("status"), rec.get("was")), ("aborted", was), "SIGINT: game %d recorded as aborted" % game)
        c.true(not os.path.exists(os.path.join(srv.replays, "game-%d.jsonl.gz" % g)), "SIGINT: no replay of it")
        c.eq([f for f in os.listdir(srv.replays) if not re.fullmatch(r"game-\d+\.(jsonl\.gz|aborted\.json)", f)], [],
             "SIGINT: no temporary file left")
        c.true(any(re.match(r"game %d ended: aborted" % g, l) for l in srv.lines), "SIGINT: its end is logged")
        starts = [l for l in srv.lines if " started: " in l]
        ends = [l for l in srv.lines if " ended: " in l]
        c.true(len(starts) == 10 and len(ends) >= len(starts), "one log line per game start and end: %r" % srv.lines)
    finally:
        for s in (srv, srv_limit, srv_fast):
            if s.alive():
                s.proc.kill()
    return c.report()


if __name__ == "__main__":
    sys.exit(run(main))
