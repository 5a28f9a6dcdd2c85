#!/usr/bin/env bash
# 30_generals_match.sh - `judge run` on generals in the strict jail: whole matches on
# the original-format map and on generated maps, each misbehaving bot with its verdict
# at its 3rd reply while the others play on, determinism, and bad input.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
PROGS=$ROOT/build/progs
MAPS=$ROOT/examples/maps/generals
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip generals "strict jails need root"
    e2e_exit
fi
for bin in "$BOTS/greedy" "$BOTS/random" "$BOTS/pass" "$PROGS/gen_crash"; do
    if [ ! -x "$bin" ]; then
        fail generals "$bin is missing: run make programs"
        e2e_exit
    fi
done

# player NAME DIR CMD: one entry of a players list.
player() { printf '  - name: %s\n    dir: %s\n    command: [%s]\n' "$1" "$2" "$3"; }

# map_match FILE MAP TURNS PLAYER...: a match file on a map file.
map_match() {
    local file=$1 map=$2 turns=$3; shift 3
    { printf 'game: generals\nmap: %s\nseed: 77\nparams:\n  turn_limit: %s\nplayers:\n' "$map" "$turns"
      printf '%s\n' "$@"; } >"$file"
}

# gen_match FILE SEED ROWS PLAYERS TURNS PLAYER...: a match file on a generated map.
gen_match() {
    local file=$1 seed=$2 rows=$3 k=$4 turns=$5; shift 5
    { printf 'game: generals\ngenerate:\n  rows: %s\n  cols: %s\n  players: %s\n' "$rows" "$rows" "$k"
      printf 'seed: %s\nparams:\n  turn_limit: %s\nplayers:\n' "$seed" "$turns"
      printf '%s\n' "$@"; } >"$file"
}

verified() { "$JUDGE" replay verify "$1" >"$T/verify.out" 2>&1 && grep -q ': ok (' "$T/verify.out"; }

# ---- greedy against random ------------------------------------------------------------

map_match "$T/orig.yaml" "$MAPS/original.map" 300 "$(player greedy "$BOTS" ./greedy)" "$(player random "$BOTS" ./random)"
"$JUDGE" run "$T/orig.yaml" --replay "$T/orig.jsonl.gz" >"$T/orig.out" 2>"$T/orig.err"
check match/original_map_exit_0 [ $? = 0 ]
check match/original_map_two_result_lines [ "$(grep -cE "$(run_row '(greedy|random)' OK)[0-9]+/[0-9]+ ms +[0-9.]+ / [0-9.]+ MiB\$" "$T/orig.out")" = 2 ]
check match/original_map_replay_line grep -qxF "replay: $T/orig.jsonl.gz" "$T/orig.out"
check match/original_map_result_recorded [ "$(rq "$T/orig.jsonl.gz" 'R["type"] + " " + str(len(R["players"]))')" = "result 2" ]
check match/original_map_verify verified "$T/orig.jsonl.gz"
"$JUDGE" replay export --format generals-log "$T/orig.jsonl.gz" -o "$T/orig.log"
check match/original_map_export_first_line [ "$(head -1 "$T/orig.log")" = "$(head -1 "$MAPS/original.map" | cut -d' ' -f1-3) 0" ]
check match/original_map_export_last_line [ "$(tail -1 "$T/orig.log")" = 0 ]

for seed in 5 6; do
    gen_match "$T/gen$seed.yaml" $seed 12 2 200 "$(player greedy "$BOTS" ./greedy)" "$(player random "$BOTS" ./random)"
    "$JUDGE" run "$T/gen$seed.yaml" --replay "$T/gen$seed.jsonl.gz" >"$T/gen$seed.out" 2>&1
    check match/generated_${seed}_exit_0 [ $? = 0 ]
    check match/generated_${seed}_result_recorded [ "$(rq "$T/gen$seed.jsonl.gz" 'R["type"]')" = result ]
    check match/generated_${seed}_verify verified "$T/gen$seed.jsonl.gz"
    "$JUDGE" replay export --format generals-log "$T/gen$seed.jsonl.gz" -o "$T/gen$seed.log"
    check match/generated_${seed}_export [ "$(head -1 "$T/gen$seed.log")" = "12 12 2 0" -a "$(tail -1 "$T/gen$seed.log")" = 0 ]
done

# The original contest's C++ style (cin >> token by token) runs unchanged.
map_match "$T/cpp.yaml" "$MAPS/original.map" 50 "$(player cpp "$BOTS" ./original_style)" "$(player pass "$BOTS" ./pass)"
"$JUDGE" run "$T/cpp.yaml" --replay "$T/cpp.jsonl.gz" >"$T/cpp.out" 2>&1
check match/original_style_cpp_bot_ok grep -qE "$(run_row cpp OK)" "$T/cpp.out"
check match/original_style_verify verified "$T/cpp.jsonl.gz"
check match/result_line_names_the_winner_or_the_draw grep -qE '^result: ((cpp|pass) wins|draw between cpp and pass) after [0-9]+ rounds$' "$T/cpp.out"

# ---- misbehaving bots: the right verdict at reply 3; the others play on -----------------

# misbehave NAME VERDICT [judge run options...]: gen_NAME against pass and greedy on a
# 3-player map of 15 rounds. Sets $M to the replay.
misbehave() {
    local name=$1 verdict=$2; shift 2
    M=$T/bad_$name.jsonl.gz
    gen_match "$T/bad_$name.yaml" 9 8 3 15 "$(player bad "$PROGS" ./gen_$name)" \
        "$(player pass "$BOTS" ./pass)" "$(player greedy "$BOTS" ./greedy)"
    "$JUDGE" run "$T/bad_$name.yaml" --replay "$M" "$@" >"$T/bad_$name.out" 2>&1
    check bad/${name}_exit_0 [ $? = 0 ]
    local re=${verdict//(/\\(}
    re=${re//)/\\)}
    check bad/${name}_verdict grep -qE "$(run_row bad "$re" 2)" "$T/bad_$name.out"
    check bad/${name}_at_reply_3 [ "$(rq "$M" 'len(V), V[0]["player"], V[0]["reply"], V[0]["verdict"]')" = "(1, 1, 3, '${verdict%%(*}')" ]
    check bad/${name}_others_play_on [ "$(rq "$M" '[(p["verdict"], p["moves"]) for p in R["players"][1:]]')" = "[('OK', 15), ('OK', 15)]" ]
    check bad/${name}_verify verified "$M"
}

misbehave garbage INVALID_OUTPUT
check bad/garbage_evidence [ "$(rq "$M" 'V[0]["evidence"]["line"], V[0]["by"]')" = "('hello', 'game')" ]
misbehave wrong_cell INVALID_MOVE
misbehave crash RUNTIME_ERROR
check bad/crash_reason [ "$(rq "$M" 'V[0]["kind"], V[0]["evidence"]["reason"]')" = "('crash', 'exited with status 1 before the reply was complete')" ]
misbehave sleep WALL_LIMIT --param move_wall_ms=300
check bad/sleep_figures [ "$(rq "$M" 'V[0]["evidence"]["limit_ns"] == 300000000 <= V[0]["evidence"]["figure_ns"]')" = True ]
misbehave cpu_burn CPU_LIMIT --param budget_base_ms=300
check bad/cpu_burn_limit_is_budget_at_reply_3 [ "$(rq "$M" 'V[0]["evidence"]["limit_ns"]')" = 303000000 ]
# How far past the budget it got before it was stopped is a figure of make bench, not a check.
check bad/cpu_burn_figure_reaches_the_budget [ "$(rq "$M" 'V[0]["evidence"]["figure_ns"] >= V[0]["evidence"]["limit_ns"]')" = True ]
misbehave alloc MEMORY_LIMIT --param memory_limit_mb=64
check bad/alloc_evidence [ "$(rq "$M" 'V[0]["kind"], V[0]["evidence"]["limit_bytes"]')" = "('memory_limit', 67108864)" ]
misbehave forbidden 'FORBIDDEN_SYSCALL(socket)'
check bad/forbidden_evidence [ "$(rq "$M" 'V[0]["kind"], V[0]["evidence"]["syscall"]["name"], V[0]["evidence"]["syscall"]["args"][:3]')" = "('forbidden_syscall', 'socket', [2, 1, 0])" ]

# A bot asleep reading its stdin is not frozen while the others think; one that wakes itself
# there (a timer after its 2nd reply) and burns 200 ms has them counted all the same.
M=$T/self_wake.jsonl.gz
gen_match "$T/self_wake.yaml" 9 8 3 15 "$(player bad "$PROGS" ./gen_self_wake)" \
    "$(player pass "$BOTS" ./pass)" "$(player greedy "$BOTS" ./greedy)"
"$JUDGE" run "$T/self_wake.yaml" --replay "$M" >"$T/self_wake.out" 2>&1
check self_wake/exit_0 [ $? = 0 ]
check self_wake/all_ok [ "$(rq "$M" '[(p["verdict"], p["moves"]) for p in R["players"]]')" = "[('OK', 15), ('OK', 15), ('OK', 15)]" ]
check self_wake/burn_counted [ "$(rq "$M" 'R["players"][0]["cpu_ns"] >= 200000000')" = True ]

# Stderr is no violation: a bot that writes 2 MB of it (far past stderr_limit_kb, of which
# only the last KiB are kept: examples/README.md) plays the whole match and gets OK.
M=$T/flood.jsonl.gz
gen_match "$T/flood.yaml" 9 8 3 15 \
    "$(player flood "$BOTS" '/bin/sh, -c, "yes flooding stderr | head -c 2000000 >&2; exec ./pass"')" \
    "$(player pass "$BOTS" ./pass)" "$(player greedy "$BOTS" ./greedy)"
"$JUDGE" run "$T/flood.yaml" --replay "$M" >"$T/flood.out" 2>&1
check stderr_flood/exit_0 [ $? = 0 ]
check stderr_flood/all_ok [ "$(rq "$M" '[(p["verdict"], p["moves"]) for p in R["players"]]')" = "[('OK', 15), ('OK', 15), ('OK', 15)]" ]

# --no-freeze: the same verdicts, the bots thinking on each other's time.
misbehave cpu_burn CPU_LIMIT --param budget_base_ms=300 --no-freeze
check bad/no_freeze_recorded [ "$(rq "$M" 'L[0]["freeze"]')" = False ]

# ---- determinism --------------------------------------------------------------------------

strip_timing() {
    python3 - "$1" <<'EOF'
import gzip, json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if not (k.endswith("_ns") or k in ("timing", "memory_peak_bytes", "figure_bytes"))}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
for line in gzip.open(sys.argv[1], "rt"):
    print(json.dumps(strip(json.loads(line)), separators=(",", ":")))
EOF
}
gen_match "$T/det.yaml" 31 14 2 150 "$(player greedy "$BOTS" ./greedy)" "$(player random "$BOTS" ./random)"
"$JUDGE" run "$T/det.yaml" --replay "$T/det1.jsonl.gz" >/dev/null 2>&1
"$JUDGE" run "$T/det.yaml" --replay "$T/det2.jsonl.gz" >/dev/null 2>&1
strip_timing "$T/det1.jsonl.gz" >"$T/det1.txt"
strip_timing "$T/det2.jsonl.gz" >"$T/det2.txt"
check determinism/identical_apart_from_timing cmp -s "$T/det1.txt" "$T/det2.txt"
check determinism/replay_long_enough [ "$(zcat "$T/det1.jsonl.gz" | wc -l)" = "$(wc -l <"$T/det1.txt")" -a "$(wc -l <"$T/det1.txt")" -gt 100 ]
"$JUDGE" run "$T/det.yaml" --seed 32 --replay "$T/det3.jsonl.gz" >/dev/null 2>&1
strip_timing "$T/det3.jsonl.gz" >"$T/det3.txt"
differ() { ! cmp -s "$1" "$2"; }
check determinism/another_seed_differs differ "$T/det1.txt" "$T/det3.txt"

# ---- output forms and the default replay name ----------------------------------------------

mkdir "$T/cwd"
(cd "$T/cwd" && "$JUDGE" run "$T/orig.yaml" --json >"$T/json.out" 2>"$T/json.err")
check run/json_exit_0 [ $? = 0 ]
check run/json_one_object [ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["game"], d["seed"], len(d["players"]), d["players"][0]["verdict"])' "$T/json.out")" = "generals 77 2 OK" ]
check run/default_replay_name [ "$(cd "$T/cwd" && ls replays | grep -cE '^generals-77-[0-9]+\.jsonl\.gz$')" = 1 ]
check run/default_replay_is_the_one_printed [ -f "$T/cwd/$(json_get "$T/json.out" replay)" ]
check run/no_progress_line_when_not_a_terminal [ ! -s "$T/json.err" ]

# ---- bad input: one clear line, exit 2, nothing left in the replay directory -----------------

mkdir "$T/out"
# bad NAME EXPECTED-MESSAGE-REGEX MATCHFILE [options...]
bad() {
    local name=$1 regex=$2 file=$3; shift 3
    "$JUDGE" run "$file" --replay "$T/out/$name.jsonl.gz" "$@" >"$T/$name.stdout" 2>"$T/$name.stderr"
    local rc=$?
    check bad_input/${name}_exit_2 [ $rc = 2 ]
    check bad_input/${name}_one_line [ "$(wc -l <"$T/$name.stderr")" = 1 -a ! -s "$T/$name.stdout" ]
    check bad_input/${name}_message grep -qE "$regex" "$T/$name.stderr"
    check bad_input/${name}_no_file_left [ -z "$(ls -A "$T/out")" ]
}

printf 'game: generals\nplayers: [\n  - name: a\n' >"$T/malformed.yaml"
bad malformed_yaml "^$T/malformed.yaml:[0-9]+:[0-9]+: " "$T/malformed.yaml"

head -20 "$MAPS/original.map" >"$T/short.map"
map_match "$T/short.yaml" "$T/short.map" 10 "$(player a "$BOTS" ./pass)" "$(player b "$BOTS" ./pass)"
bad map_cell_count "^$T/short.map:[0-9]+:[0-9]+: expected 100 cell entries \(N\*M\), found 19$" "$T/short.yaml"

map_match "$T/chess.yaml" "$MAPS/original.map" 10 "$(player a "$BOTS" ./pass)" "$(player b "$BOTS" ./pass)"
sed -i 's/^game: generals/game: chess/' "$T/chess.yaml"
bad unknown_game "^$T/chess.yaml:1:7: .*chess" "$T/chess.yaml"

map_match "$T/nobin.yaml" "$MAPS/original.map" 10 "$(player a "$BOTS" ./pass)" "$(player b "$BOTS" ./no_such_bot)"
bad missing_binary "^$T/nobin.yaml:[0-9]+:[0-9]+: player 'b': command './no_such_bot' not found \($BOTS/no_such_bot\)$" "$T/nobin.yaml"

map_match "$T/limit.yaml" "$MAPS/original.map" 10 "$(player a "$BOTS" ./pass)" "$(player b "$BOTS" ./pass)"
printf 'limits:\n  pids: 32\n  cpu_seconds: 3\n' >>"$T/limit.yaml"
bad unknown_limit "^$T/limit.yaml:15:3: unknown limit 'cpu_seconds' " "$T/limit.yaml"

map_match "$T/three.yaml" "$MAPS/original.map" 10 "$(player a "$BOTS" ./pass)" "$(player b "$BOTS" ./pass)" "$(player c "$BOTS" ./pass)"
bad player_count "^$T/three.yaml:[0-9]+:[0-9]+: the map is for 2 players but the match names 3$" "$T/three.yaml"

bad bad_param "^--param turn_limit=0: parameter turn_limit = 0 is out of range" "$T/orig.yaml" --param turn_limit=0
bad bad_seed "^judge run: --seed -1: expected an unsigned 64-bit integer$" "$T/orig.yaml" --seed -1

e2e_exit
