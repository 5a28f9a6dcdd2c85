"""bench_serve.py - `judge serve seabattle` over loopback: shoot calls per second and the
server's CPU per shot with 1, 10 and 100 concurrent games, next to the same shots played by
`judge run` between two local bots (the judge's own CPU per shot, the bots' excluded as far
as rusage allows: the bots only `cat` their shots); memory per idle WAMP connection.
Figures are printed, never asserted. The clients are raw asyncio WebSocket/WAMP clients, so
the figures measure the server rather than a client library."""
import asyncio
import base64
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

JUDGE = os.environ.get("JUDGE", "bin/judge")
BOARD_A = ["####______", "__________", "###_###___", "__________", "##_##_##__",
           "__________", "#_#_#_#___", "__________", "__________", "__________"]
BOARD_B = ["#________#", "___#______", "___#______", "#__#___#__", "#______#__",
           "#_#______#", "#_#______#", "_____##__#", "__________", "#________#"]
# Each player shoots the cells row by row: the game ends when player 2's fleet is sunk.
CELLS = [(x, y) for y in range(1, 11) for x in range(1, 11)]


class Client:
    async def open(self, port):
        self.r, self.w = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        self.w.write(("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: wamp.2.json\r\n\r\n"
                      % key).encode())
        await self.r.readuntil(b"\r\n\r\n")
        self.next = 0
        await self.send([1, "bench", {"roles": {"caller": {}}}])
        await self.recv()

    async def send(self, msg):
        data = json.dumps(msg).encode()
        n = len(data)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
        self.w.write(head + b"\0\0\0\0" + data)   # a zero mask: the payload goes as is

    async def recv(self):
        h = await self.r.readexactly(2)
        n = h[1] & 0x7F
        if n == 126:
            n = int.from_bytes(await self.r.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.r.readexactly(8), "big")
        return json.loads(await self.r.readexactly(n))

    async def call(self, proc, *args):
        self.next += 1
        await self.send([48, self.next, {}, proc, list(args)])
        m = await self.recv()
        return m[3][0] if m[0] == 50 else m


def cpu_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(next(l for l in f if l.startswith("VmRSS:")).split()[1])


def start_server(tmp, *args):
    p = subprocess.Popen([JUDGE, "serve", "seabattle", "--listen", "127.0.0.1:0", "--replays", tmp,
                          "--calls-per-second", "0", *args], stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)/ws", p.stdout.readline()).group(1))
    return p, port


async def play_game(port, shots_log):
    a, b = Client(), Client()
    await a.open(port)
    await b.open(port)
    g = await a.call("new-game", "a", BOARD_A)
    await b.call("new-game", "b", BOARD_B)

    async def player(c, name):
        n = 0
        for x, y in CELLS:
            r = await c.call("shoot", g, x, y)
            if r == "game-over":
                break
            n += 1
            shots_log.append((name, x, y))
        return n
    counts = await asyncio.gather(player(a, 1), player(b, 2))
    for c in (a, b):
        c.w.close()
    return sum(counts)


async def network_run(port, games):
    log = []
    t0 = time.monotonic()
    shots = sum(await asyncio.gather(*[play_game(port, log) for _ in range(games)]))
    return shots, time.monotonic() - t0


def judge_run_baseline(tmp, games):
    """The same shots as `games` network games, played by `judge run` one match at a time."""
    d = tempfile.mkdtemp(dir=tmp)
    os.chmod(d, 0o755)   # bound at /bot, read by the bots' own uid
    for p, board in ((1, BOARD_A), (2, BOARD_B)):
        with open(os.path.join(d, "p%d.txt" % p), "w") as f:
            f.write("".join(l + "\n" for l in board) + "".join("%d %d\n" % c for c in CELLS))
    with open(os.path.join(d, "m.yaml"), "w") as f:
        f.write("game: seabattle\ngenerate: {}\nseed: 1\nplayers:\n")
        for p in (1, 2):
            f.write("  - name: p%d\n    dir: .\n    command: [/bin/sh, -c, \"cat p%d.txt; exec sleep 600\"]\n" % (p, p))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    for i in range(games):
        subprocess.run([JUDGE, "run", os.path.join(d, "m.yaml"), "--replay", os.path.join(d, "r%d.jsonl.gz" % i)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rec = subprocess.run([JUDGE, "replay", "dump", os.path.join(d, "r0.jsonl.gz")], capture_output=True, text=True).stdout
    shots = rec.count('"t":"shot"')
    return shots * games, wall, cpu


async def idle_memory(port, pid, n):
    before = rss_kb(pid)
    clients = []
    for _ in range(n):
        c = Client()
        await c.open(port)
        clients.append(c)
    await asyncio.sleep(0.5)
    after = rss_kb(pid)
    for c in clients:
        c.w.close()
    return (after - before) * 1024 / n


async def main(tmp):
    print("bench_serve: judge serve seabattle over loopback (raw WAMP clients), vs judge run with the same shots")
    print("%-8s %10s %10s %12s %14s | %14s %14s" % ("games", "shots", "wall s", "calls/s", "server us/shot",
                                                  "run wall ms/shot", "run cpu us/shot"))
    levels = [int(x) for x in os.environ.get("BENCH_SERVE_GAMES", "1 10 100").split()]
    for games in levels:
        p, port = start_server(tempfile.mkdtemp(dir=tmp))
        cpu0 = cpu_of(p.pid)
        shots, wall = await network_run(port, games)
        cpu = cpu_of(p.pid) - cpu0
        p.terminate()
        p.wait()
        base_games = min(games, int(os.environ.get("BENCH_SERVE_RUNS", "3")))
        bshots, bwall, bcpu = judge_run_baseline(tmp, base_games)
        print("%-8d %10d %10.2f %12.0f %14.1f | %14.2f %14.1f" % (games, shots, wall, shots / wall, cpu * 1e6 / shots,
                                                                  bwall * 1e3 / bshots, bcpu * 1e6 / bshots))
    p, port = start_server(tempfile.mkdtemp(dir=tmp), "--max-connections", "2000")
    n = int(os.environ.get("BENCH_SERVE_IDLE", "500"))
    per = await idle_memory(port, p.pid, n)
    p.terminate()
    p.wait()
    print("memory per idle WAMP connection (after HELLO/WELCOME, %d connections): %.1f KiB" % (n, per / 1024))
    print("(judge run: %s matches per level at most, one after another, CPU of judge and its jails)"
          % os.environ.get("BENCH_SERVE_RUNS", "3"))


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, max(4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1])))
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        os.chmod(tmp, 0o755)   # the judge run baseline's bots, their own uid, must enter it (judge refuses otherwise)
        asyncio.run(main(tmp))
