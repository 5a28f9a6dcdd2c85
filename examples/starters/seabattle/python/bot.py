"""A sea battle starter bot (docs/games/seabattle.md): it sends a valid fleet, then shoots
every cell once, row by row, reading the judge's answer (miss, hit or sunk) after each shot
into a grid. Copy it, then choose better shots from the grid (around a hit, say)."""
import sys

# 10 lines of 10: '#' ship, '_' water. 4 ships of 1, 3 of 2, 2 of 3, 1 of 4, none touching.
BOARD = ["####______", "__________", "###_###___", "__________", "##_##_##__",
         "__________", "#_#_#_#___", "__________", "__________", "__________"]


def main():
    print("\n".join(BOARD), flush=True)  # flush: a pipe is fully buffered
    seen = [["."] * 10 for _ in range(10)]  # "miss", "hit" or "sunk" once shot
    for y in range(10):
        for x in range(10):
            print(x + 1, y + 1, flush=True)  # x the column, y the row, both from 1
            answer = sys.stdin.readline().strip()
            if not answer:
                return  # the game is over: the judge closed stdin
            seen[y][x] = answer


main()
