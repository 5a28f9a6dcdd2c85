"""random.py - random.c in Python: moves a random owned cell in a random open
direction, sending all but one unit (opt 1) or half (opt 2) at random.

The random numbers come from the same xorshift64* as random.c, seeded from our
player id, so it plays exactly as random.c does. Protocol: generals.md section 5.
Compile and run it with the python3 profile (containers/python3.yaml).
"""
import sys

MASK = (1 << 64) - 1
MOUNTAIN, CITY = 4, 2


class Rng:
    def __init__(self, player_id):
        self.state = (0x9E3779B97F4A7C15 ^ (player_id * 0xD1B54A32D192ED03)) & MASK

    def below(self, bound):
        s = self.state
        s ^= s >> 12
        s ^= (s << 25) & MASK
        s ^= s >> 27
        self.state = s
        return ((s * 0x2545F4914F6CDD1D) & MASK) % bound


def read_ints():
    line = sys.stdin.readline()
    return [int(w) for w in line.split()] if line else None


def read_state(n, m, k):
    """The board as a list of (visible, type, owner, units), or None at the end."""
    alive = read_ints()
    if not alive or alive[0] == 0:
        return None
    for _ in range(k):
        read_ints()
    board = []
    for _ in range(n * m):
        w = read_ints()
        if w is None:
            return None
        owner, units = (w[2], w[3]) if len(w) == 4 else (-1, 0)
        board.append((w[0], w[1], owner, units))
    return board


def open_cell(board, n, m, i, j):
    if i < 1 or i > n or j < 1 or j > m:
        return False
    visible, kind, _, _ = board[(i - 1) * m + (j - 1)]
    return kind != MOUNTAIN if visible else kind != CITY


def move(board, n, m, me, rng):
    owned = [c for c, cell in enumerate(board) if cell[2] == me]
    for _ in range(64 if owned else 0):
        c = owned[rng.below(len(owned))]
        i, j = c // m + 1, c % m + 1
        di, dj = ((-1, 0), (1, 0), (0, -1), (0, 1))[rng.below(4)]
        if open_cell(board, n, m, i + di, j + dj):
            return "%d %d %d %d %d" % (1 + rng.below(2), i, j, i + di, j + dj)
    return "-1"


def main():
    n, m, k, me = read_ints()
    rng = Rng(me)
    while True:
        board = read_state(n, m, k)
        if board is None:
            return
        print(move(board, n, m, me, rng), flush=True)


main()
