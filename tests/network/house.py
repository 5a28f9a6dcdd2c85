"""house.py - the house bot (--house-bot): a lone player gets the jailed local bot as its
opponent after house-wait-ms, plays a whole game against it, and the replay records the bot
as `judge run` would (its command, its CPU time) and verifies. Two players who find each
other first never meet the bot, and no client may take the bot's name."""
import asyncio
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netlib import BOARD_A, BOARD_B, Check, Server, connect, error_of, judge, read_replay, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


async def main():
    tmp = tempfile.mkdtemp(prefix="judge-net-")
    os.chmod(tmp, 0o755)  # bots in it run as the jail's own user
    c = Check("network/house_bot")
    house = os.path.join(ROOT, "examples", "house", "hunter.yaml")
    srv = Server(os.path.join(tmp, "srv"), "--house-bot", house, "--house-wait-ms", "500")
    try:
        a, b = await connect(srv), await connect(srv)
        g1 = await a.call("new-game", "ann", BOARD_A)
        g2 = await b.call("new-game", "ben", BOARD_B)
        c.eq(g1, g2, "two players pair with each other, not with the bot")
        e = await error_of(a.call("new-game", "house-hunter", BOARD_A))
        c.eq(e and e.error, "seabattle.error.reserved_player_id", "the house bot's name is refused")
        b.leave()
        human = await connect(srv)
        g = await human.call("new-game", "lone", BOARD_A)
        c.eq((await human.call("get-game-info", g))[0], "waiting", "the lone player waits first")
        results = []
        for n in range(200):                  # bounded: 100 cells, each once, then game-over
            x, y = n % 10 + 1, n // 10 % 10 + 1
            r = await asyncio.wait_for(human.call("shoot", g, x, y), 30)
            results.append(r)
            if r == "game-over":
                break
        info = await human.call("get-game-info", g)
        c.eq(info[2], "house-hunter", "the bot took the second seat")
        c.true(info[0] in ("player1-win", "player2-win", "draw"), "the game ends (%s)" % info[0])
        path = os.path.join(srv.replays, "game-%d.jsonl.gz" % g)
        v = judge("replay", "verify", path)
        c.eq(v.returncode, 0, "its replay verifies (%s)" % v.stdout.strip())
        e = judge("replay", "export", "--format", "seabattle-log", path)
        c.eq(e.stdout, await human.call("get-game-log", g), "its export equals get-game-log")
        rec = read_replay(path)
        p2 = rec[0]["players"][1]
        c.eq((p2["name"], p2["command"]), ("house-hunter", ["./hunter", "7"]), "the replay names the bot's command")
        c.eq(rec[-1]["players"][1]["verdict"], "OK", "the bot's verdict")
        c.true(any(r["type"] == "reply" and r["player"] == 2 and r["cpu_ns"] > 0 for r in rec),
               "the bot's CPU time is metered")
        a.leave(), human.leave()
        await asyncio.sleep(0.3)
        c.true(srv.alive(), "the server is still running")
    finally:
        if srv.alive():
            c.eq(srv.stop(), 0, "SIGTERM: exit status 0")
    return c.report()


if __name__ == "__main__":
    sys.exit(run(main))
