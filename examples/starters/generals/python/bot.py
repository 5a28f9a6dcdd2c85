"""A generals starter bot (docs/games/generals.md): it reads every state and makes a legal
move, from the cell of its own with the most units into a neighbour that is not a
mountain, or passes when it has no such cell. Copy it and make it clever."""
import sys


def numbers():
    """Every integer of stdin, one at a time."""
    for line in sys.stdin:
        for word in line.split():
            yield int(word)


def main():
    read = numbers()
    n, m, k, me = next(read), next(read), next(read), next(read)
    for flag in read:
        if flag == 0:  # the game is over for this bot
            return
        for _ in range(k):  # every player's total units and cells
            next(read), next(read)
        cells = []  # (type, owner, units); type 0: not seen
        for _ in range(n * m):
            visible, kind = next(read), next(read)
            if visible and kind != 4:
                cells.append((kind, next(read), next(read)))
            else:
                cells.append((kind if visible else 0, 0, 0))
        mine = [c for c in range(n * m) if cells[c][1] == me and cells[c][2] >= 2]
        move = "-1"  # pass
        if mine:
            best = max(mine, key=lambda c: cells[c][2])
            i, j = divmod(best, m)
            for ti, tj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= ti < n and 0 <= tj < m and cells[ti * m + tj][0] not in (0, 4):
                    move = "1 %d %d %d %d" % (i + 1, j + 1, ti + 1, tj + 1)  # rows, columns from 1
                    break
        print(move, flush=True)  # flush: a pipe is fully buffered


main()
