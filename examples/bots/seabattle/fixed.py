"""fixed.py - fixed.c in Python: the fleet of seabattle.md section 3, then a shot
at every cell in order, row by row (x is the column, y the row).

Protocol (seabattle.md section 4): 10 board lines, then one shot "x y" per line,
reading "miss", "hit" or "sunk" after each; the judge closes stdin at the end.
Compile and run it with the python3 profile (containers/python3.yaml).
"""
import sys

BOARD = ["####______", "__________", "###_###___", "__________", "##_##_##__",
         "__________", "#_#_#_#___", "__________", "__________", "__________"]


def main():
    print("\n".join(BOARD), flush=True)
    for y in range(1, 11):
        for x in range(1, 11):
            print(x, y, flush=True)
            if not sys.stdin.readline():
                return


main()
