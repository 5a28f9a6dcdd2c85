"""turtle.py - turtle.c in Python: puts all its armies on its strongest territory
and never attacks.

Per-turn mode (warlight.md section 4): argv is "ID INCOME TERRITORIES BONUSES [X]"
and the answer two lines, the deployment "r,c,a" and the commands (none here).
Persistent mode (section 9): the same words, one line a turn on stdin, until END.
Compile and run it with the python3 profile (containers/python3.yaml).
"""
import sys


def play(words):
    """The two answer lines for one turn's words."""
    if len(words) < 2:
        return "\n\n"
    me, income = int(words[0]), int(words[1])
    best = None
    for w in words[2:]:
        f = w.split(",")
        if len(f) == 5 and int(f[3]) == me and (best is None or int(f[4]) > int(best[4])):
            best = f
    return "%s,%s,%d\n\n" % (best[0], best[1], income) if best else "\n\n"


def main():
    if len(sys.argv) > 1:
        sys.stdout.write(play(" ".join(sys.argv[1:]).split()))
        return
    for line in sys.stdin:
        if line.startswith("END"):
            return
        sys.stdout.write(play(line.split()))
        sys.stdout.flush()


main()
