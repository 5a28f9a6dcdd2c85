#!/usr/bin/env bash
# bench_viewer.sh - the replay viewer in headless chromium (tests/browser/bench_viewer.js):
# time to the first frame and the slowest seek for the largest replays (generals 50x50,
# 4 players, 1000 rounds; bomberman 4 players, 500 ticks, when the judge has bomberman), each
# against a baseline of the same run; and judge results' index.html over 10 000 replays: its
# size and time to render. Figures are printed, never asserted. Needs $JUDGE, root (the
# matches are played in strict jails), make programs and make deps (chromium, playwright-core).
# BENCH_VIEWER_REPLAYS (default 10000) scales the index.
set -u
: "${JUDGE:?set JUDGE to the judge binary}"
BOTS=$PWD/build/bots
count=${BENCH_VIEWER_REPLAYS:-10000}
echo "bench_viewer: the viewer in headless chromium"
if [ "$(id -u)" != 0 ] || [ ! -x "$BOTS/generals/greedy" ] || [ ! -x /usr/bin/chromium ] ||
   [ ! -d tests/browser/node_modules/playwright-core ]; then
    echo "  skipped: needs root, make programs, chromium and playwright-core (make deps)"
    exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-viewer.XXXXXX")
trap 'rm -rf "$T"' EXIT

cat >"$T/generals.yaml" <<YAML
game: generals
generate: {rows: 50, cols: 50, mountains: 15, cities: 40}
seed: 99
params: {turn_limit: 1000}
players:
  - {name: greedy, dir: $BOTS/generals, command: ./greedy}
  - {name: random1, dir: $BOTS/generals, command: ./random}
  - {name: random2, dir: $BOTS/generals, command: ./random}
  - {name: greedy2, dir: $BOTS/generals, command: ./greedy}
YAML
cat >"$T/bomberman.yaml" <<YAML
game: bomberman
generate: {players: 4, blocks: 60, bonuses: 10}
seed: 5
params: {game_ticks_max: 500}
players:
  - {name: walker1, dir: $BOTS/bomberman, command: ./walker}
  - {name: walker2, dir: $BOTS/bomberman, command: ./walker}
  - {name: waiter1, dir: $BOTS/bomberman, command: ./waiter}
  - {name: waiter2, dir: $BOTS/bomberman, command: ./waiter}
YAML
pages=()
for g in generals bomberman; do
    if "$JUDGE" run "$T/$g.yaml" --replay "$T/$g.jsonl.gz" >"$T/$g.out" 2>&1; then
        pages+=("$("$JUDGE" view "$T/$g.jsonl.gz")")
    else
        echo "  $g: skipped ($(tail -1 "$T/$g.out"))"
    fi
done

# The index: $count copies of a small real match, each with its own seed and two of 40 names.
printf 'game: generals\ngenerate: {rows: 10, cols: 10}\nseed: 1\nparams: {turn_limit: 60}\nplayers:\n  - {name: a, dir: %s, command: ./greedy}\n  - {name: b, dir: %s, command: ./random}\n' \
    "$BOTS/generals" "$BOTS/generals" >"$T/small.yaml"
"$JUDGE" run "$T/small.yaml" --replay "$T/small.jsonl.gz" >/dev/null 2>&1 || { echo "  index: skipped (judge run failed)"; count=0; }
if [ "$count" -gt 0 ]; then
    python3 - "$T" "$count" <<'PY'
import gzip, json, os, sys
root, count = sys.argv[1], int(sys.argv[2])
lines = gzip.open(os.path.join(root, "small.jsonl.gz"), "rt").read().split("\n")[:-1]
names = ["student%02d" % i for i in range(40)]
os.makedirs(os.path.join(root, "r"), exist_ok=True)
for i in range(count):
    out = list(lines)
    a, b = names[i % 40], names[(i // 40 + i + 1) % 40]
    if a == b:
        b = names[(i + 7) % 40]
    for n in (0, len(out) - 1):
        o = json.loads(out[n])
        if n == 0:
            o["seed"] = i + 1
        for p, name in zip(o["players"], (a, b)):
            p["name"] = name
        out[n] = json.dumps(o, separators=(",", ":"))
    with open(os.path.join(root, "r", "%05d.jsonl.gz" % i), "wb") as f:
        f.write(gzip.compress(("\n".join(out) + "\n").encode(), 6))
PY
    start=$(date +%s.%N)
    "$JUDGE" results "$T/r" --out "$T/out" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "  judge results over $count replays, with index.html and the match pages: $(echo "$end - $start" | bc) s" \
         "(matches/ holds $(du -sm "$T/out/matches" | cut -f1) MiB)"
    pages+=(--index "$T/out/index.html")
fi
(cd tests/browser && node bench_viewer.js "${pages[@]}")
