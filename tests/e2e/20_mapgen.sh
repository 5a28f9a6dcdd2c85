#!/usr/bin/env bash
# 20_mapgen.sh - `judge mapgen`: determinism, seeds, symmetry, the map format, notes, usage errors,
# and a generated map played by `judge run`.
source "$(dirname "$0")/../lib.sh"
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

gen() { "$JUDGE" mapgen generals "$@"; }

# check_map FILE [symmetric]: a well-formed §3 map (one entry per line, exactly K capitals),
# and with "symmetric" the same after a half turn.
check_map() {
    python3 - "$@" <<'EOF'
import re, sys
lines = open(sys.argv[1], encoding="ascii").read().split("\n")
assert lines[-1] == "", "the map must end with a newline"
n, m, k = map(int, re.fullmatch(r"(\d+) (\d+) (\d+)", lines[0]).groups())
cells = lines[1:-1]
assert len(cells) == n * m, f"{len(cells)} entries for {n}x{m}"
for c in cells:
    assert re.fullmatch(r"[134]|2 \d+", c), f"bad entry {c!r}"
assert sum(c == "3" for c in cells) == k, "wrong number of capitals"
if len(sys.argv) > 2:
    for idx, c in enumerate(cells):
        assert c == cells[n * m - 1 - idx], f"entry {idx + 1} differs from its mirror"
EOF
}

gen --rows 20 --cols 25 --players 3 --seed 42 >"$T/a.map" 2>"$T/a.err"
gen --rows 20 --cols 25 --players 3 --seed 42 >"$T/b.map" 2>/dev/null
gen --rows 20 --cols 25 --players 3 --seed 43 >"$T/c.map" 2>/dev/null
check mapgen_writes_a_valid_map check_map "$T/a.map"
check mapgen_same_seed_same_bytes cmp -s "$T/a.map" "$T/b.map"
check mapgen_other_seed_other_map eval '! cmp -s "$T/a.map" "$T/c.map"'

gen --rows 17 --cols 12 --players 2 --seed 7 --symmetric --cities 9 --mountains 30 >"$T/sym.map"
check mapgen_symmetric_under_half_turn check_map "$T/sym.map" symmetric
gen --rows 16 --cols 16 --players 2 --seed 7 --symmetric >"$T/sym-even.map"
check mapgen_symmetric_even_sides check_map "$T/sym-even.map" symmetric

# -o writes the same bytes through a temporary name and leaves nothing else behind.
mkdir "$T/out"
gen --rows 20 --cols 25 --players 3 --seed 42 -o "$T/out/x.map" 2>/dev/null
check mapgen_output_file_same_bytes cmp -s "$T/a.map" "$T/out/x.map"
check mapgen_output_file_no_leftovers test "$(ls -A "$T/out")" = x.map
gen --rows 20 --cols 25 --players 3 --seed 42 -o "$T/out/x.map" 2>"$T/again.err"
check mapgen_output_replaced_says_so grep -qxF "judge mapgen: note: replaced the existing file $T/out/x.map (named by --output)" "$T/again.err"

# A capital distance that cannot be met is lowered, with a note on stderr.
gen --rows 4 --cols 4 --players 4 --seed 1 --min-capital-dist 9 >"$T/near.map" 2>"$T/near.err"
check mapgen_note_on_stderr grep -q '^judge mapgen: min_capital_dist lowered to [0-9]*$' "$T/near.err"
check mapgen_note_map_still_valid check_map "$T/near.map"

# usage_case NAME ARGS...: exit 2, nothing on stdout, one line on stderr.
usage_case() {
    local name=$1; shift
    "$JUDGE" mapgen "$@" >"$T/u.out" 2>"$T/u.err"
    local rc=$?
    if [ $rc -ne 2 ]; then fail "$name" "exit $rc, want 2"
    elif [ -s "$T/u.out" ]; then fail "$name" "wrote to stdout"
    elif [ "$(wc -l <"$T/u.err")" -ne 1 ]; then fail "$name" "stderr is not one line: $(cat "$T/u.err")"
    else ok "$name"; fi
}
usage_case mapgen_usage_no_game
usage_case mapgen_usage_unknown_game chess --rows 5 --cols 5 --players 2 --seed 1
usage_case mapgen_usage_missing_seed generals --rows 5 --cols 5 --players 2
usage_case mapgen_usage_bad_number generals --rows five --cols 5 --players 2 --seed 1
usage_case mapgen_usage_negative_seed generals --rows 5 --cols 5 --players 2 --seed -3
usage_case mapgen_usage_unknown_option generals --rows 5 --cols 5 --players 2 --seed 1 --hills 3
usage_case mapgen_usage_out_of_range generals --rows 51 --cols 5 --players 2 --seed 1
usage_case mapgen_usage_symmetric_three generals --rows 9 --cols 9 --players 3 --seed 1 --symmetric
usage_case mapgen_usage_extra_argument generals extra --rows 5 --cols 5 --players 2 --seed 1

# The generated map, read back by `judge run` in a pass-against-pass match.
cat >"$T/match.yaml" <<EOF
game: generals
map: a.map
seed: 1
players:
  - {name: p1, command: [./pass], dir: $ROOT/build/bots/generals}
  - {name: p2, command: [./pass], dir: $ROOT/build/bots/generals}
  - {name: p3, command: [./pass], dir: $ROOT/build/bots/generals}
EOF
"$JUDGE" run "$T/match.yaml" --param turn_limit=5 --replay "$T/replay.jsonl.gz" >"$T/run.out" 2>"$T/run.err"
rc=$?
if grep -q 'not built yet' "$T/run.err"; then
    skip mapgen_map_plays_in_judge_run "judge run is not functional yet"
elif [ ! -x "$ROOT/build/bots/generals/pass" ]; then
    skip mapgen_map_plays_in_judge_run "build/bots/generals/pass is not built (make programs)"
else
    check mapgen_map_plays_in_judge_run test $rc -eq 0 -a -s "$T/replay.jsonl.gz"
fi

e2e_exit
