"""frank's bot breaks the rules: instead of a move it answers with a boast.
The judge stops it at its first reply with INVALID_OUTPUT (generals.md 5)."""
import sys

sys.stdin.readline()  # "n m k id"
print("I will crush you all!", flush=True)
for line in sys.stdin:
    pass
