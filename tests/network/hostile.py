"""hostile.py - hostile clients, each answered as seabattle-network.md N7 says, while a game
between two well-behaved autobahn sessions goes on unharmed: not JSON, a huge frame, a frame
dribbled one byte a second, a CALL before HELLO, a binary frame, 1000 connections at once, a
client that never reads its responses, random bytes after the handshake, a text frame that is
not UTF-8, a wrong path or subprotocol (an HTTP/1.1 refusal). The server never stops and its
memory stays bounded (its peak resident size under the configured byte limits plus a fixed
allowance)."""
import asyncio
import os
import random
import resource
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netlib import BOARD_A, BOARD_B, Check, RawWS, Server, connect, judge, run, ship_cells, water_cells  # noqa

MAX_CONNECTIONS = 300
BUFFERED_TOTAL_MB = 16
ALLOWANCE_MB = 64     # the server's own code, libwebsockets' tables and 1000 handshakes


def peak_kb(srv):
    with open("/proc/%d/status" % srv.proc.pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


class Background:
    """A game between two good clients, a shot at a time between the attacks."""

    def __init__(self, a, b, game):
        self.a, self.b, self.game = a, b, game
        self.todo = iter(water_cells(BOARD_B)[:30])
        self.results = []

    async def step(self):
        x, y = next(self.todo)
        r = await asyncio.wait_for(self.a.call("shoot", self.game, x, y), 10)   # a miss: b's turn
        r2 = await asyncio.wait_for(self.b.call("shoot", self.game, *water_cells(BOARD_A)[len(self.results)]), 10)
        self.results += [r, r2]

    async def finish(self):
        for x, y in ship_cells(BOARD_B):
            last = await asyncio.wait_for(self.a.call("shoot", self.game, x, y), 10)
        return last


def expect_abort(c, name, ws, uri="wamp.error.protocol_violation"):
    try:
        msg = ws.recv_message()
    except OSError as e:
        msg = "error %s" % e
    c.true(isinstance(msg, list) and msg[0] == 3 and msg[2] == uri, "%s: ABORT %s (got %r)" % (name, uri, msg))
    c.true(ws.closed_after(), "%s: the connection is closed" % name)
    ws.close()


async def attacks(c, srv, bg):
    loop = asyncio.get_running_loop()

    def blocking(fn):
        return loop.run_in_executor(None, fn)

    # Not JSON, before and after WELCOME.
    def not_json():
        ws = RawWS(srv)
        ws.handshake()
        ws.send_text("hello, is this JSON?")
        expect_abort(c, "not_json/before_hello", ws)
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        ws.send_text("[48, 1, {}, \"get-games\", [")
        expect_abort(c, "not_json/after_welcome", ws)
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        ws.send_text('{"not": "a list"}')
        expect_abort(c, "not_a_list", ws)
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        ws.send_text('[999, 1]')
        expect_abort(c, "unknown_code", ws)
    await blocking(not_json)
    await bg.step()

    # A CALL before HELLO, a second HELLO, a binary frame.
    def before_hello():
        ws = RawWS(srv)
        ws.handshake()
        ws.send_text('[48, 1, {}, "get-games", []]')
        expect_abort(c, "call_before_hello", ws)
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        ws.send_text('[1,"judge",{}]')
        expect_abort(c, "second_hello", ws)
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        ws.sock.sendall(RawWS.frame(b"\x93\x30\x01", opcode=2))
        expect_abort(c, "binary_frame", ws)
    await blocking(before_hello)
    await bg.step()

    # A huge frame: announced as 16 MiB, refused once net_max_message_bytes is passed.
    def huge():
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        head = RawWS.frame(b"", length=16 << 20)[:-4]
        mask = bytes(4)   # the payload stays text ("[[[..."): the size is refused, not the UTF-8
        ws.sock.sendall(head + mask)
        sent = 0
        try:
            while sent < 1 << 20:
                ws.sock.sendall(b"[" * 65536)
                sent += 65536
        except OSError:
            pass
        expect_abort(c, "huge_frame", ws)
    await blocking(huge)
    await bg.step()

    # A message dribbled one byte a second: ABORT once message_ms has passed.
    def dribble():
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        payload = b'[48, 7, {}, "get-games", []]' + b" " * 70
        frame = RawWS.frame(payload)
        ws.sock.sendall(frame[:6])
        ws.sock.settimeout(1.0)
        for i in range(6, min(len(frame), 6 + 20)):
            try:
                ws.sock.sendall(frame[i:i + 1])
                data = ws.sock.recv(4096)
                ws.buf += data
                if data:
                    break
            except socket.timeout:
                continue
            except OSError:
                break
        ws.sock.settimeout(10)
        expect_abort(c, "dribble", ws)
    await blocking(dribble)
    await bg.step()

    # Random bytes after the handshake: the connection ends; and random bytes in a text frame.
    def garbage():
        rng = random.Random(7)
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        try:
            ws.sock.sendall(bytes(rng.randrange(256) for _ in range(8192)))
        except OSError:
            pass
        c.true(ws.closed_after(), "random_bytes: the connection is closed")
        ws.close()
        ws = RawWS(srv)
        ws.handshake()
        ws.hello()
        ws.send_text(bytes(rng.randrange(256) for _ in range(300)))
        c.true(ws.closed_after(), "random_text_frame: the connection is closed")
        ws.close()
    await blocking(garbage)
    await bg.step()

    # A text frame that is not UTF-8 closes the connection with 1007 (RFC 6455 8.1), however
    # well-formed the JSON around it.
    def not_utf8():
        ws = RawWS(srv)
        ws.handshake()
        ws.send_text(b'[1,"re\xffalm",{"roles":{"caller":{}}}]')
        try:
            f = ws.recv_frame()
        except OSError as e:
            f = str(e)
        c.eq(f and f[0] == 8 and int.from_bytes(f[1][:2], "big"), 1007, "not_utf8: closed with 1007 (%r)" % (f,))
        ws.close()
    await blocking(not_utf8)
    await bg.step()

    # A wrong path or subprotocol is refused at the handshake, in HTTP/1.1 as asked.
    def wrong():
        for name, kw, want in (("wrong_path", {"path": "/other"}, 404),
                               ("wrong_subprotocol", {"protocol": "wamp.2.msgpack"}, 400)):
            ws = RawWS(srv, **kw)
            ws.send_handshake()
            status, text = ws.read_response()
            c.eq(status, want, "%s: refused at the handshake" % name)
            c.true(text.startswith("HTTP/1.1 %d " % want), "%s: an HTTP/1.1 status line (%r)" % (name, text[:40]))
            ws.close()
    await blocking(wrong)
    await bg.step()

    # A client that never reads what it asked for: the server drops it at max_queued_bytes.
    def never_reads():
        ws = RawWS(srv, rcvbuf=4096)
        ws.handshake()
        ws.hello()
        calls = b"".join(RawWS.frame(('[48,%d,{},"get-game-log",[%d]]' % (i + 1, done_game)).encode())
                         for i in range(4000))
        try:
            ws.sock.sendall(calls)
        except OSError:
            pass
        time.sleep(1.0)
        answers = 0
        ws.sock.settimeout(15)
        try:
            while ws.recv_message() is not None:
                answers += 1
        except OSError:
            pass
        c.true(answers < 4000, "never_reads: dropped before all 4000 answers (%d read)" % answers)
        ws.close()
    await blocking(never_reads)
    await bg.step()

    # 1000 connections at once: up to max_connections welcomed, the rest ABORT naming the limit.
    def thousand():
        conns, statuses, first = [], [], []
        for _ in range(1000):
            ws = RawWS(srv, timeout=20)
            ws.send_handshake()
            conns.append(ws)
        for ws in conns:
            try:
                status, _ = ws.read_response()
                if status == 101:
                    ws.send_text('[1,"judge",{"roles":{"caller":{}}}]')
            except OSError:
                status = 0
            statuses.append(status)
        for ws in conns:
            try:
                first.append(ws.recv_message())
            except (OSError, ValueError) as e:
                first.append(str(e))
        c.eq(statuses.count(101), 1000, "1000_connections: each one upgraded (%r)" % sorted(set(statuses)))
        welcomed = [m for m in first if isinstance(m, list) and m[0] == 2]
        refused = [m for m in first if isinstance(m, list) and m[0] == 3]
        c.true(len(welcomed) <= MAX_CONNECTIONS, "1000_connections: at most max_connections welcomed (%d)"
               % len(welcomed))
        c.eq(len(welcomed) + len(refused), 1000, "1000_connections: every other one gets ABORT")
        c.true(refused and all(m[2] == "seabattle.error.limit" and
                               m[1]["message"].startswith("max_connections (%d)" % MAX_CONNECTIONS) for m in refused),
               "1000_connections: the ABORT names its limit")
        for ws in conns:
            ws.close()
    await blocking(thousand)
    await asyncio.sleep(1.0)
    await bg.step()


done_game = 0


async def main():
    global done_game
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, max(4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1])))
    tmp = tempfile.mkdtemp(prefix="judge-net-")
    os.chmod(tmp, 0o755)  # bots in it run as the jail's own user
    c = Check("network/hostile")
    srv = Server(os.path.join(tmp, "srv"), "--max-connections", str(MAX_CONNECTIONS), "--message-ms", "3000",
                 "--max-queued-bytes", "65536", "--max-buffered-total", str(BUFFERED_TOTAL_MB << 20),
                 "--calls-per-second", "0")
    try:
        a, b = await connect(srv), await connect(srv)
        # A finished game, whose log the client that never reads asks for again and again.
        g0 = await a.call("new-game", "done1", BOARD_A)
        await b.call("new-game", "done2", BOARD_B)
        for x, y in ship_cells(BOARD_B):
            await a.call("shoot", g0, x, y)
        done_game = g0
        game = await a.call("new-game", "steady", BOARD_A)
        await b.call("new-game", "eddy", BOARD_B)
        bg = Background(a, b, game)
        await attacks(c, srv, bg)
        c.eq(await bg.finish(), "sunk", "the game between good clients went on to its end")
        c.eq((await b.call("get-game-info", game))[0], "player1-win", "its result")
        v = judge("replay", "verify", os.path.join(srv.replays, "game-%d.jsonl.gz" % game))
        c.eq(v.returncode, 0, "its replay verifies")
        fresh = await connect(srv)
        c.true(isinstance(await fresh.call("get-games"), list), "a new client is served after the attacks")
        c.true(srv.alive(), "the server never stopped")
        peak = peak_kb(srv) // 1024
        c.true(peak < BUFFERED_TOTAL_MB + ALLOWANCE_MB, "memory: peak %d MiB under %d MiB" %
               (peak, BUFFERED_TOTAL_MB + ALLOWANCE_MB))
        print("# hostile: server peak resident size %d MiB" % peak)
        for s in (a, b, fresh):
            s.leave()
        await asyncio.sleep(0.3)
    finally:
        if srv.alive():
            c.eq(srv.stop(), 0, "SIGTERM: exit status 0")
    return c.report()


if __name__ == "__main__":
    sys.exit(run(main))
