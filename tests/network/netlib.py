"""netlib.py - what the network tests share: start `judge serve seabattle`, connect real
autobahn WAMP sessions (Debian python3-autobahn, asyncio), boards, replays.

Run with /usr/bin/python3 (Debian's Python, which sees python3-autobahn)."""
import asyncio
import atexit
import gzip
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time

import txaio
txaio.use_asyncio()
txaio.start_logging(level="critical")
from autobahn.asyncio.wamp import ApplicationSession  # noqa: E402
from autobahn.asyncio.websocket import WampWebSocketClientFactory  # noqa: E402
from autobahn.wamp.exception import ApplicationError  # noqa: E402
from autobahn.wamp.types import ComponentConfig  # noqa: E402

JUDGE = os.environ.get("JUDGE", "bin/judge")

# The source's README board (seabattle.md §3) and one more valid board.
BOARD_A = ["####______", "__________", "###_###___", "__________", "##_##_##__",
           "__________", "#_#_#_#___", "__________", "__________", "__________"]
BOARD_B = ["#________#", "___#______", "___#______", "#__#___#__", "#______#__",
           "#_#______#", "#_#______#", "_____##__#", "__________", "#________#"]


def ship_cells(board):
    return [(x + 1, y + 1) for y, line in enumerate(board) for x, c in enumerate(line) if c == "#"]


def water_cells(board):
    return [(x + 1, y + 1) for y, line in enumerate(board) for x, c in enumerate(line) if c == "_"]


class Server:
    """bin/judge serve seabattle on a free loopback port, its stdout collected."""

    def __init__(self, workdir, *args):
        os.makedirs(workdir, exist_ok=True)
        self.replays = os.path.join(workdir, "replays")
        self.proc = subprocess.Popen([JUDGE, "serve", "seabattle", "--listen", "127.0.0.1:0",
                                      "--replays", self.replays, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
        if not m:
            self.proc.kill()
            raise RuntimeError("the server did not say where it listens: %r %r" % (line, self.proc.stderr.read()))
        self.port = int(m.group(1))
        self.url = "ws://127.0.0.1:%d/ws" % self.port
        self.lines = [line]
        atexit.register(self.kill)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def alive(self):
        return self.proc.poll() is None

    def rss_kb(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self, sig=signal.SIGTERM, timeout=20):
        self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=timeout)
        self.lines += out.splitlines(keepends=True)
        self.stderr = err
        return self.proc.returncode


class Player(ApplicationSession):
    def __init__(self, config, joined, left):
        super().__init__(config)
        self._joined, self._left = joined, left

    def onJoin(self, details):
        if not self._joined.done():
            self._joined.set_result(self)

    def onLeave(self, details):
        self.left_details = details
        if not self._joined.done():
            self._joined.set_exception(ConnectionError(details.reason))
        super().onLeave(details)

    def onDisconnect(self):
        if not self._left.done():
            self._left.set_result(True)
        if not self._joined.done():
            self._joined.set_exception(ConnectionError("disconnected before WELCOME"))


async def connect(server, realm="judge", timeout=15):
    """A WAMP session joined to the server (autobahn's own handshake and HELLO)."""
    loop = asyncio.get_running_loop()
    joined, left = loop.create_future(), loop.create_future()
    factory = WampWebSocketClientFactory(lambda: Player(ComponentConfig(realm), joined, left), url=server.url)
    transport, _ = await loop.create_connection(factory, "127.0.0.1", server.port)
    session = await asyncio.wait_for(joined, timeout)
    session.transport_ = transport
    session.left_ = left
    return session


async def error_of(coro):
    """The ApplicationError a call ends with, or None when it returns."""
    try:
        await coro
    except ApplicationError as e:
        return e
    return None


def read_replay(path):
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f]


def judge(*args):
    return subprocess.run([JUDGE, *args], capture_output=True, text=True, timeout=120)


def engine_log(board1, board2, shots):
    """The §7 log for these boards and shots, as the engine writes it: played by `judge run`
    is another test; here the log is rebuilt from the shots alone, whose results the
    server's replay verification (judge replay verify) checks against the engine."""
    out = "".join(l + "\n" for l in board1) + "\n" + "".join(l + "\n" for l in board2) + "\n"
    return out + "".join("%d %d %d %s\n" % s for s in shots)


class Check:
    def __init__(self, name):
        self.name, self.failures = name, []

    def eq(self, got, want, what):
        if got != want:
            self.failures.append("%s: got %r, want %r" % (what, got, want))

    def true(self, cond, what):
        if not cond:
            self.failures.append(what)

    def report(self):
        if self.failures:
            print("FAIL %s: %s" % (self.name, "; ".join(self.failures[:5])))
            return 1
        print("ok %s" % self.name)
        return 0


def run(main):
    """Run an async test with a hard bound on its time."""
    try:
        return asyncio.run(asyncio.wait_for(main(), 300))
    except asyncio.TimeoutError:
        print("FAIL %s: timed out" % os.path.basename(sys.argv[0]))
        return 1


class RawWS:
    """A WebSocket client by hand, for clients no library would be: frames of any size,
    bytes dribbled, garbage, a client that never reads."""

    def __init__(self, server, protocol="wamp.2.json", path="/ws", rcvbuf=None, timeout=10):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", server.port))
        self.buf = b""
        self.path, self.protocol = path, protocol

    def send_handshake(self):
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        req = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: WebSocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: %s\r\n\r\n"
               % (self.path, key, self.protocol))
        self.sock.sendall(req.encode())

    def read_response(self):
        """The HTTP status and the whole response head (and body for an error)."""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.buf += chunk
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        self.buf = rest
        status = int(head.split()[1]) if head.startswith(b"HTTP/") else 0
        if status != 101:   # an error: its body too
            try:
                while True:
                    chunk = self.sock.recv(4096)
                    if not chunk:
                        break
                    self.buf += chunk
            except OSError:
                pass
        return status, (head + b"\r\n\r\n" + self.buf).decode("latin-1")

    def handshake(self):
        self.send_handshake()
        status, text = self.read_response()
        if status != 101:
            raise ConnectionError("handshake refused: %s" % text[:200])

    @staticmethod
    def frame(payload, opcode=1, length=None, fin=True):
        n = len(payload) if length is None else length
        head = bytes([(0x80 if fin else 0) | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def send_text(self, text):
        self.sock.sendall(self.frame(text.encode() if isinstance(text, str) else text))

    def hello(self):
        self.send_text('[1,"judge",{"roles":{"caller":{}}}]')
        msg = self.recv_message()
        if not msg or msg[0] != 2:
            raise ConnectionError("no WELCOME: %r" % (msg,))
        return msg

    def recv_frame(self):
        """(opcode, payload) of the next frame, or None at the end of the stream."""
        def need(n):
            while len(self.buf) < n:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return False
                self.buf += chunk
            return True
        if not need(2):
            return None
        op, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
        at = 2
        if n == 126:
            if not need(4):
                return None
            n, at = int.from_bytes(self.buf[2:4], "big"), 4
        elif n == 127:
            if not need(10):
                return None
            n, at = int.from_bytes(self.buf[2:10], "big"), 10
        if not need(at + n):
            return None
        payload, self.buf = self.buf[at:at + n], self.buf[at + n:]
        return op, payload

    def recv_message(self):
        """The next text message as JSON, or None when the server closed."""
        while True:
            f = self.recv_frame()
            if f is None or f[0] == 8:
                return None
            if f[0] == 1:
                return json.loads(f[1])

    def closed_after(self, timeout=15):
        """True when the server closes the connection (close frame or end of stream)."""
        self.sock.settimeout(timeout)
        try:
            while True:
                f = self.recv_frame()
                if f is None or f[0] == 8:
                    return True
        except (ConnectionError, socket.timeout, OSError) as e:
            return not isinstance(e, socket.timeout)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
