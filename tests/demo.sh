#!/usr/bin/env bash
# make demo: a real match in the jail (greedy vs random on the original-format map),
# then the replay verified and exported to the original visualizer's log format.
set -euo pipefail
JUDGE=$1
cd "$(dirname "$0")/.."
out=$(mktemp -d "${TMPDIR:-/tmp}/judge-demo.XXXXXX")
echo "== judge run examples/generals-greedy-vs-random.yaml"
"$JUDGE" run examples/generals-greedy-vs-random.yaml --replay "$out/demo.jsonl.gz"
echo
echo "== judge replay verify"
"$JUDGE" replay verify "$out/demo.jsonl.gz"
"$JUDGE" replay export --format generals-log "$out/demo.jsonl.gz" -o "$out/demo.log"
"$JUDGE" view "$out/demo.jsonl.gz" --out "$out/demo.html" >/dev/null
echo
echo "replay:         $out/demo.jsonl.gz  (judge replay dump $out/demo.jsonl.gz)"
echo "generals log:   $out/demo.log  (for the original visualizer)"
echo "watch it:       $out/demo.html  (open in a browser: Space plays, arrows step)"
