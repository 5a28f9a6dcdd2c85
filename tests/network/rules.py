"""rules.py - what a session may and may not do (seabattle-network.md N1..N3, N7, D5..D9):
nothing of a game in progress is shown to anyone (no board, no log), a session cannot shoot
in a game it has no seat in, an invalid board is refused with the rule it breaks, wrong
arguments and unknown procedures are errors, REGISTER and SUBSCRIBE are refused, a fixed
realm refuses others, a session never joins its own waiting game nor one of its player-id, and
the limits on games per player-id, calls per second and connections name themselves."""
import asyncio
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netlib import (BOARD_A, BOARD_B, JUDGE, Check, RawWS, Server, connect, error_of, judge, read_replay,  # noqa: E402
                    run)


async def hidden(c, srv):
    a, b, watcher = await connect(srv), await connect(srv), await connect(srv)
    g = await a.call("new-game", "alice", BOARD_A)
    for who, s in (("the creator", a), ("a watcher", watcher)):
        c.eq(await s.call("get-game-info", g), ["waiting", "alice", None, None, None],
             "hidden/waiting: get-game-info by %s" % who)
    await b.call("new-game", "bob", BOARD_B)
    await a.call("shoot", g, 1, 1)
    for who, s in (("player 1", a), ("player 2", b), ("a watcher", watcher)):
        c.eq(await s.call("get-game-info", g), ["in-progress", "alice", "bob", None, None],
             "hidden/in-progress: no board to %s" % who)
        e = await error_of(s.call("get-game-log", g))
        c.eq(e and e.error, "seabattle.error.not_over", "hidden/in-progress: no log to %s" % who)
    c.true(g in await watcher.call("get-games"), "get-games lists the game")
    # Shooting in a game without a seat, and in no game at all.
    e = await error_of(watcher.call("shoot", g, 1, 1))
    c.eq(e and e.error, "seabattle.error.not_your_game", "no_seat: a watcher cannot shoot")
    e = await error_of(watcher.call("shoot", 999999, 1, 1))
    c.eq(e and e.error, "seabattle.error.no_such_game", "no_seat: an unknown game")
    c.eq((await a.call("get-game-info", g))[0], "in-progress", "no_seat: the game goes on")
    for s in (a, b, watcher):
        s.leave()


async def no_seat_after_the_end(c, srv):
    """A session opened after both players of a finished game left has no seat in it, whatever
    memory the server gives it (the seats' sessions are freed and reused)."""
    answers = []
    for n in range(4):
        a, b = await connect(srv), await connect(srv)
        g = await a.call("new-game", "ended-%d" % n, BOARD_A)
        await b.call("new-game", "over-%d" % n, BOARD_B)
        await a.call("shoot", g, 0, 0)              # an invalid move ends it at once
        for s in (a, b):
            s.leave()
            await asyncio.wait_for(s.left_, 10)
        late = await connect(srv)
        e = await error_of(late.call("shoot", g, 1, 1))
        answers.append(e.error if e else "a result")
        late.leave()
        await asyncio.wait_for(late.left_, 10)
    c.eq(answers, ["seabattle.error.not_your_game"] * 4, "no_seat: a later session cannot shoot in a finished game")


async def boards(c, srv):
    s = await connect(srv)
    bad = {
        "S2": (["__________"] * 9 + ["_____x____"], "S2"),
        "S2_lines": (BOARD_A[:9], "S2"),
        "S3a": (["#_________", "_#________"] + BOARD_A[2:], "S3a"),
        "S3b": (["#####_____"] + BOARD_A[1:], "S3b"),
        "S3c": (["__________"] + BOARD_A[1:], "S3c"),
    }
    for name, (board, rule) in bad.items():
        e = await error_of(s.call("new-game", "vera", board))
        c.eq(e and e.error, "seabattle.error.invalid_board", "invalid_board/%s: the error" % name)
        c.true(e is not None and len(e.args) == 1 and str(e.args[0]).startswith(rule + ": "),
               "invalid_board/%s: names rule %s (%r)" % (name, rule, e and e.args))
    c.eq(await s.call("get-games"), [], "invalid_board: no game was created")
    padded = ["  " + line + " \r" for line in BOARD_A]
    g = await s.call("new-game", "vera", padded)
    c.true(isinstance(g, int), "a board with spaces and a final CR is accepted (README C3)")
    s.leave()


async def arguments(c, srv):
    s = await connect(srv)
    cases = [
        ("new-game", ["x" * 65, BOARD_A], "wamp.error.invalid_argument", "a player-id of 65 characters"),
        ("new-game", ["", BOARD_A], "wamp.error.invalid_argument", "an empty player-id"),
        ("new-game", ["bad\nid", BOARD_A], "wamp.error.invalid_argument", "a player-id with a newline"),
        ("new-game", [7, BOARD_A], "wamp.error.invalid_argument", "a player-id that is a number"),
        ("new-game", ["ok", "not a list"], "wamp.error.invalid_argument", "a board that is a string"),
        ("new-game", ["ok", [1] * 10], "wamp.error.invalid_argument", "a board of numbers"),
        ("new-game", ["ok"], "wamp.error.invalid_argument", "one argument"),
        ("new-game", [], "wamp.error.invalid_argument", "no arguments (a CALL without its list: fuzz_wamp)"),
        ("shoot", ["1", 1, 1], "wamp.error.invalid_argument", "a game-id that is a string"),
        ("shoot", [1, 1], "wamp.error.invalid_argument", "two arguments"),
        ("get-game-info", [], "wamp.error.invalid_argument", "no game-id"),
        ("get-games", [1], "wamp.error.invalid_argument", "get-games with an argument"),
        ("no-such", [], "wamp.error.no_such_procedure", "an unknown procedure"),
        ("com.example.add2", [1, 2], "wamp.error.no_such_procedure", "a dotted unknown procedure"),
    ]
    for proc, args, uri, what in cases:
        e = await error_of(s.call(proc, *args))
        c.eq(e and e.error, uri, "arguments: %s" % what)
    try:
        await s.register(lambda: 1, "my.proc")
        c.true(False, "REGISTER must be refused")
    except Exception as ex:  # autobahn raises ApplicationError
        c.eq(getattr(ex, "error", None), "wamp.error.not_authorized", "REGISTER is refused")
    try:
        await s.subscribe(lambda *a: None, "game.1")
        c.true(False, "SUBSCRIBE must be refused")
    except Exception as ex:
        c.eq(getattr(ex, "error", None), "wamp.error.not_authorized", "SUBSCRIBE is refused")
    c.eq(await s.call("get-games"), [], "the session still works after its errors")
    s.leave()


def nul_bytes(c, srv, srv_realm):
    """A string from a client is never cut at a NUL (\\u0000 in JSON): the procedure, the realm,
    a player-id and a board line are compared whole."""
    ws = RawWS(srv)
    ws.handshake()
    ws.hello()
    ws.send_text('[48,1,{},"get-games\\u0000junk",[]]')
    msg = ws.recv_message()
    c.eq(msg[:5] if msg else msg, [8, 48, 1, {}, "wamp.error.no_such_procedure"], "NUL: a procedure name")
    ws.send_text('[48,2,{},"new-game",["ann\\u0000x",%s]]' % json.dumps(BOARD_A))
    msg = ws.recv_message()
    c.eq(msg[4] if msg else msg, "wamp.error.invalid_argument", "NUL: a player-id")
    board = [BOARD_A[0] + "\x00"] + BOARD_A[1:]
    ws.send_text('[48,3,{},"new-game",["ann",%s]]' % json.dumps(board))
    msg = ws.recv_message()
    c.eq(msg[4] if msg else msg, "seabattle.error.invalid_board", "NUL: a board line")
    ws.close()
    ws = RawWS(srv_realm)
    ws.handshake()
    ws.send_text('[1,"contest\\u0000other",{"roles":{"caller":{}}}]')
    msg = ws.recv_message()
    c.eq(msg[:1] + msg[2:] if msg else msg, [3, "wamp.error.no_such_realm"], "NUL: a realm")
    ws.close()


def numbers_as_sent(c, srv):
    """Numbers out of every integer type are reported as the client sent them: json-c gives
    INT64_MAX for 2**70 and UINT64_MAX for 10**20."""
    a, b = RawWS(srv), RawWS(srv)
    for ws in (a, b):
        ws.handshake()
        ws.hello()
    a.send_text('[48,1,{},"new-game",["nina",%s]]' % json.dumps(BOARD_A))
    g = a.recv_message()[3][0]
    b.send_text('[48,1,{},"new-game",["otto",%s]]' % json.dumps(BOARD_B))
    b.recv_message()
    a.send_text('[48,2,{},"get-game-info",[%d]]' % 2**70)
    msg = a.recv_message()
    c.eq(msg[4:] if msg else msg, ["seabattle.error.no_such_game", ["no game %d" % 2**70]],
         "numbers: an unknown game-id as sent")
    a.send_text('[48,3,{},"shoot",[%d,%d,1]]' % (g, 10**20))
    msg = a.recv_message()
    c.eq(msg and msg[3], ["game-over"], "numbers: a shot of 10**20 loses")
    rec = read_replay(os.path.join(srv.replays, "game-%d.jsonl.gz" % g))
    reasons = [r["evidence"]["reason"] for r in rec if r["type"] == "violation"]
    c.true(len(reasons) == 1 and str(10**20) in reasons[0] and str(2**64 - 1) not in reasons[0],
           "numbers: the violation tells the shot as sent (%r)" % reasons)
    for ws in (a, b):
        ws.close()


async def own_game(c, srv):
    s = await connect(srv)
    g1 = await s.call("new-game", "walt", BOARD_A)
    g2 = await s.call("new-game", "walt", BOARD_B)
    c.true(g1 != g2, "D8: a session never joins its own waiting game")
    c.eq((await s.call("get-game-info", g2))[0], "waiting", "D8: its second game waits too")
    s.leave()
    # The same player-id from another connection is never its own opponent either: a replay
    # naming one player twice is refused by judge results.
    a, b, other = await connect(srv), await connect(srv), await connect(srv)
    ga = await a.call("new-game", "same", BOARD_A)
    gb = await b.call("new-game", "same", BOARD_B)
    c.true(ga != gb, "same player-id: not paired with itself")
    c.eq((await b.call("get-game-info", gb))[:3], ["waiting", "same", None], "same player-id: it waits")
    go = await other.call("new-game", "other", BOARD_B)
    c.eq(go, ga, "same player-id: another id joins the oldest waiting game")
    c.eq((await other.call("get-game-info", ga))[:3], ["in-progress", "same", "other"], "same player-id: paired")
    for x in (a, b, other):
        x.leave()


async def limits(c, srv_lim):
    s = await connect(srv_lim)
    await s.call("new-game", "xena", BOARD_A)
    await s.call("new-game", "xena", BOARD_A)
    e = await error_of(s.call("new-game", "xena", BOARD_A))
    c.eq(e and e.error, "seabattle.error.limit", "max_games_per_player: refused")
    c.eq(e and list(e.args), ["max_games_per_player", 2], "max_games_per_player: names its limit")
    results = await asyncio.gather(*[error_of(s.call("get-games")) for _ in range(40)])
    refused = [e for e in results if e is not None]
    c.true(len(refused) > 0, "calls_per_second: a burst over the limit is refused")
    c.true(all(e.error == "seabattle.error.limit" and list(e.args) == ["calls_per_second", 5] for e in refused),
           "calls_per_second: names its limit")
    await asyncio.sleep(1.0)
    c.eq(await error_of(s.call("get-games")), None, "calls_per_second: allowed again after a pause")
    await s.call("new-game", "yuri", BOARD_A)        # the third live game (D8: never its own)
    e = await error_of(s.call("new-game", "zack", BOARD_A))
    c.eq(e and list(e.args), ["max_live_games", 3], "max_live_games: refused, naming its limit")
    # A connection with nothing going on is closed after idle_ms, naming the limit.
    idle = await connect(srv_lim)
    await asyncio.wait_for(idle.left_, 20)
    reason = getattr(getattr(idle, "left_details", None), "reason", None)
    c.eq(reason, "seabattle.error.limit", "idle_ms: an idle session is ended")
    c.true("idle_ms" in str(getattr(idle.left_details, "message", "")), "idle_ms: the ABORT names its limit")
    c.eq(await error_of(s.call("get-games")), None, "idle_ms: a session with live games stays")
    s.leave()


async def connection_limit(c, srv_conn):
    """A connection beyond --max-connections is upgraded and its HELLO answered with ABORT
    seabattle.error.limit naming the limit, which a WAMP library reports; a place freed is taken."""
    a, b = await connect(srv_conn), await connect(srv_conn)
    try:
        await connect(srv_conn, timeout=30)
        c.true(False, "max_connections: a third session must be refused")
    except (ConnectionError, asyncio.TimeoutError) as e:   # a timeout: it never learnt why
        c.eq(str(e), "seabattle.error.limit", "max_connections: autobahn reads the ABORT's reason")
    ws = RawWS(srv_conn)
    ws.handshake()
    ws.send_text('[1,"judge",{"roles":{"caller":{}}}]')
    msg = ws.recv_message()
    c.eq(msg and msg[0], 3, "max_connections: ABORT in answer to HELLO (%r)" % (msg,))
    c.true(msg and msg[2] == "seabattle.error.limit" and msg[1]["message"].startswith("max_connections (2)"),
           "max_connections: the ABORT names the limit (%r)" % (msg,))
    c.true(ws.closed_after(), "max_connections: then the connection closes")
    ws.close()
    a.leave()
    await asyncio.wait_for(a.left_, 10)
    again = await connect(srv_conn)
    c.true(isinstance(await again.call("get-games"), list), "max_connections: a place freed is taken")
    again.leave(), b.leave()


async def realm(c, srv_realm):
    ok = await connect(srv_realm, realm="contest")
    c.true(ok is not None, "realm: the server's realm is accepted")
    ok.leave()
    try:
        await connect(srv_realm, realm="other", timeout=5)
        c.true(False, "realm: another realm must be refused")
    except ConnectionError as e:
        c.eq(str(e), "wamp.error.no_such_realm", "realm: another realm gets ABORT no_such_realm")


async def kept_games(c, srv_kept):
    """Finished games beyond --kept-games leave memory, oldest first (their replays stay)."""
    a, b = await connect(srv_kept), await connect(srv_kept)
    ids = []
    for n in range(3):
        g = await a.call("new-game", "kim", BOARD_A)
        await b.call("new-game", "lou", BOARD_B)
        await a.call("shoot", g, 0, 0)              # an invalid move ends it at once
        ids.append(g)
    e = await error_of(a.call("get-game-info", ids[0]))
    c.eq(e and e.error, "seabattle.error.no_such_game", "kept_games: the oldest finished game left memory")
    c.eq(await a.call("get-games"), ids[1:], "kept_games: get-games lists the kept ones")
    c.true(os.path.exists(os.path.join(srv_kept.replays, "game-%d.jsonl.gz" % ids[0])), "kept_games: its replay stays")
    a.leave(), b.leave()


def refused_start(*args):
    """judge serve seabattle ARGS expected to stop at once; one that listens is ended (its output
    then says where it listened) rather than waited for."""
    p = subprocess.Popen([JUDGE, "serve", "seabattle", "--listen", "127.0.0.1:0", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def bad_start(c, tmp):
    """A bad house-bot file, an address that cannot be listened on or parameters no game can be
    played with: exit 2, one line."""
    bad = os.path.join(tmp, "bad-house.yaml")
    with open(bad, "w") as f:
        f.write("name: house\ncommand: [./bot]\nbogus: 1\n")
    r = judge("serve", "seabattle", "--listen", "127.0.0.1:0", "--house-bot", bad)
    c.eq(r.returncode, 2, "bad house-bot file: exit 2")
    c.true(r.stderr.startswith("judge serve: %s:3:1: " % bad) and r.stderr.count("\n") == 1,
           "bad house-bot file: FILE:LINE:COL (%r)" % r.stderr)
    r = judge("serve", "seabattle", "--listen", "192.0.2.1:8080")
    c.eq(r.returncode, 2, "an address not of this machine: exit 2 (%r)" % r.stderr)
    r = judge("serve", "chess")
    c.eq(r.returncode, 2, "another game: exit 2")
    # Parameters the engine refuses (D14: no ship at all) are refused before listening, with the
    # engine's message, as judge run refuses them.
    no_ship = sum((["--param", "ships_%d=0" % n] for n in range(1, 5)), [])
    r = refused_start(*no_ship)
    c.eq((r.returncode, r.stdout), (2, ""), "a fleet of no ship: exit 2 before listening")
    c.eq(r.stderr, "judge serve: the fleet has no ship: ships_1..ships_4 are all 0 (D14)\n",
         "a fleet of no ship: the engine's message")
    # A count that would turn every client away is refused; a clock or a rate of 0 is none.
    for option in ("--max-connections", "--max-games-per-player", "--max-live-games"):
        r = refused_start(option, "0")
        c.eq((r.returncode, r.stdout), (2, ""), "%s 0: exit 2 before listening" % option)
        c.true(r.stderr.startswith("judge serve: %s 0: must be at least 1" % option) and r.stderr.count("\n") == 1,
               "%s 0: one line (%r)" % (option, r.stderr))


async def zero_is_no_limit(c, tmp):
    """--idle-ms, --message-ms, --send-ms and --calls-per-second 0: no such limit, not a limit of 0."""
    srv = Server(os.path.join(tmp, "zero"), "--idle-ms", "0", "--message-ms", "0", "--send-ms", "0",
                 "--calls-per-second", "0")
    try:
        s = await connect(srv)
        await asyncio.sleep(0.5)                    # a few of the server's 100 ms ticks
        try:
            got = await s.call("get-games")
        except Exception as e:                      # TransportLost: it was closed
            got = repr(e)
        c.true(isinstance(got, list), "idle_ms 0: an idle session is not closed (%s)" % got)
        s.leave()
    finally:
        srv.stop()


async def main():
    tmp = tempfile.mkdtemp(prefix="judge-net-")
    os.chmod(tmp, 0o755)  # bots in it run as the jail's own user
    c = Check("network/rules")
    srv = Server(os.path.join(tmp, "main"))
    srv_lim = Server(os.path.join(tmp, "lim"), "--max-games-per-player", "2", "--calls-per-second", "5",
                     "--max-live-games", "3", "--idle-ms", "1500")
    srv_realm = Server(os.path.join(tmp, "realm"), "--realm", "contest")
    try:
        await hidden(c, srv)
        await no_seat_after_the_end(c, srv)
        await asyncio.get_running_loop().run_in_executor(None, numbers_as_sent, c, srv)
        for step in (boards, arguments, own_game):
            one = Server(os.path.join(tmp, step.__name__))
            try:
                await step(c, one)
            finally:
                one.stop()
        await limits(c, srv_lim)
        srv_kept = Server(os.path.join(tmp, "kept"), "--kept-games", "2")
        try:
            await kept_games(c, srv_kept)
        finally:
            srv_kept.stop()
        bad_start(c, tmp)
        await zero_is_no_limit(c, tmp)
        srv_conn = Server(os.path.join(tmp, "conn"), "--max-connections", "2")
        try:
            await connection_limit(c, srv_conn)
        finally:
            srv_conn.stop()
        await realm(c, srv_realm)
        await asyncio.get_running_loop().run_in_executor(None, nul_bytes, c, srv, srv_realm)
        for s in (srv, srv_lim, srv_realm):
            c.true(s.alive(), "the server is still running")
    finally:
        for s in (srv, srv_lim, srv_realm):
            if s.alive():
                s.stop()
    return c.report()


if __name__ == "__main__":
    sys.exit(run(main))
