#!/usr/bin/env bash
# 70_warlight.sh - warlight in the strict jail: a new process for every player on every
# turn (warlight.md §4), the data directory of §4.1, and the persistent mode of §9.
# Whole matches with the example bots and with rule-breaking ones (tests/progs/war_*.c),
# each with the status its spec gives (§8, D14-D16, D19), read from the game's own log;
# replays verified, determinism, a tournament and the results stage, bad match files.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/warlight
PROGS=$ROOT/build/progs
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip warlight "strict jails need root"
    e2e_exit
fi
for bin in "$BOTS/grabber" "$BOTS/weakest" "$BOTS/turtle" "$PROGS/war_slow" "$PROGS/war_escape" "$PROGS/war_fill" "$PROGS/war_inodes"; do
    if [ ! -x "$bin" ]; then
        fail warlight "$bin is missing: run make programs"
        e2e_exit
    fi
done

# player NAME DIR CMD...: one entry of a players list (CMD words already quoted for YAML).
player() { local name=$1 dir=$2; shift 2; printf '  - {name: %s, dir: %s, command: [%s]}\n' "$name" "$dir" "$(IFS=,; echo "$*")"; }

# match FILE SEED PARAMS PLAYER...: a warlight match file; PARAMS is "name: value, ...".
match() {
    local file=$1 seed=$2 params=$3; shift 3
    { printf 'game: warlight\nseed: %s\nparams: {%s}\nplayers:\n' "$seed" "$params"; printf '%s\n' "$@"; } >"$file"
}

verified() { "$JUDGE" replay verify "$1" >"$T/verify.out" 2>&1 && grep -q ': ok (' "$T/verify.out"; }

# statuses LOG ID: the player's status on every turn, "ROUND.TURN:STATUS" joined by spaces.
statuses() {
    awk -v id="$2" '$1 == "round" { r = $2 } $1 == "turn" { t = $2 }
        $1 == "player" && $2 == id { printf "%s%s.%s:%s", sep, r, t, $4; sep = " " } END { print "" }' "$1"
}
# only LOG ID STATUS: every turn of the player has that status.
only() { [ -n "$(statuses "$1" "$2")" ] && [ -z "$(statuses "$1" "$2" | tr ' ' '\n' | grep -v ":$3\$")" ]; }

# A process-per-turn run leaves no data directory behind: TMPDIR is ours for each run.
run_match() {
    local name=$1; shift
    mkdir -p "$T/tmp-$name"
    TMPDIR="$T/tmp-$name" "$JUDGE" run "$T/$name.yaml" --replay "$T/$name.jsonl.gz" "$@" >"$T/$name.out" 2>"$T/$name.err"
    echo $? >"$T/$name.rc"
    "$JUDGE" replay export --format warlight-log "$T/$name.jsonl.gz" -o "$T/$name.log" 2>>"$T/$name.err"
}
no_data_left() { [ -z "$(ls -A "$T/tmp-$1")" ]; }

# ---- the example bots ---------------------------------------------------------------------

match "$T/bots.yaml" 21 "rounds: 2, turn_limit: 40" "$(player grabber "$BOTS" ./grabber)" \
    "$(player weakest "$BOTS" ./weakest)" "$(player turtle "$BOTS" ./turtle)"
run_match bots
check bots/exit_0 [ "$(cat "$T/bots.rc")" = 0 ]
check bots/three_ok_lines [ "$(grep -cE "$(run_row '(grabber|weakest|turtle)' OK)" "$T/bots.out")" = 3 ]
check bots/log_header grep -qx 'warlight 10 10 3 2 40 0' "$T/bots.log"
check bots/no_turn_skipped [ -z "$(grep '^player' "$T/bots.log" | grep -v ' ok$')" ]
check bots/verify verified "$T/bots.jsonl.gz"
check bots/no_data_left no_data_left bots
cp "$T/bots.log" "$T/bots.log.first"
run_match bots
check bots/deterministic cmp -s "$T/bots.log" "$T/bots.log.first"

# ---- rule breakers, a process per turn ------------------------------------------------------

BREAKERS=("$(player grabber "$BOTS" ./grabber)" "$(player wrong_total "$PROGS" ./war_wrong_total)"
    "$(player silent "$PROGS" ./war_silent)" "$(player slow "$PROGS" ./war_slow)"
    "$(player crash "$PROGS" ./war_crash)" "$(player syscall "$PROGS" ./war_syscall)"
    "$(player escape "$PROGS" ./war_escape)" "$(player fill "$PROGS" ./war_fill '"65536"')")
match "$T/bad.yaml" 11 "rounds: 2, turn_limit: 3, data_quota_kb: 64" "${BREAKERS[@]}"
run_match bad
L=$T/bad.log
check bad/exit_0 [ "$(cat "$T/bad.rc")" = 0 ]
check bad/well_behaved_ok only "$L" 0 ok
check bad/wrong_total_skip_deploy only "$L" 1 skip-deploy
check bad/wrong_total_invalid_move grep -qE "$(run_row wrong_total 'INVALID_MOVE')" "$T/bad.out"
check bad/silent_skip_nooutput only "$L" 2 skip-nooutput
check bad/silent_invalid_output grep -qE "$(run_row silent 'INVALID_OUTPUT')" "$T/bad.out"
check bad/slow_skip_time_on_first_turns [ "$(statuses "$L" 3)" = "1.1:skip-time 1.2:ok 1.3:ok 2.1:skip-time 2.2:ok 2.3:ok" ]
check bad/slow_wall_limit grep -qE "$(run_row slow 'WALL_LIMIT')" "$T/bad.out"
check bad/crash_skip_crash only "$L" 4 skip-crash
check bad/crash_runtime_error grep -qE "$(run_row crash 'RUNTIME_ERROR')" "$T/bad.out"
check bad/syscall_skip_syscall only "$L" 5 skip-syscall
check bad/syscall_named grep -qE "$(run_row syscall 'FORBIDDEN_SYSCALL\(socket\)')" "$T/bad.out"
# escape: nothing outside /data is writable, /data is its own, and it lasts: its 5th
# process (round 2, turn 2) marks itself by printing nothing.
check bad/escape_confined_and_persistent [ "$(statuses "$L" 6)" = "1.1:ok 1.2:ok 1.3:ok 2.1:ok 2.2:skip-nooutput 2.3:ok" ]
check bad/fill_capped_and_kept only "$L" 7 ok
check bad/no_data_left no_data_left bad
check bad/verify verified "$T/bad.jsonl.gz"
check bad/time_evidence python3 - "$T/bad.jsonl.gz" <<'EOF'
import gzip, json, sys
V = [x for x in map(json.loads, gzip.open(sys.argv[1], "rt")) if x["type"] == "violation" and x["player"] == 4]
sys.exit(not (len(V) == 2 and all(v["kind"] == "time" and v["by"] == "judge" and
                                  v["evidence"]["limit_ns"] == 1000000000 and
                                  v["evidence"]["reason"] == "still running after turn_wall_ms" for v in V)))
EOF

# Empty files in a data directory: capped (one inode per 4 KiB of the quota), and the
# kernel memory they hold is never charged to the next player's jail (a pooled cgroup
# that still holds it is not reused): the well-behaved players stay within their limits.
match "$T/inodes.yaml" 5 "rounds: 2, turn_limit: 3, data_quota_kb: 64" "$(player grabber "$BOTS" ./grabber)" \
    "$(player inodes "$PROGS" ./war_inodes '"65536"')" "$(player turtle "$BOTS" ./turtle)"
run_match inodes
check inodes/exit_0 [ "$(cat "$T/inodes.rc")" = 0 ]
check inodes/capped_and_kept only "$T/inodes.log" 1 ok
check inodes/others_ok [ "$(grep -cE "$(run_row '(grabber|turtle|inodes)' OK)" "$T/inodes.out")" = 3 ]
# The peak memory each report gives is the bot's own: a few MiB, none of the flood's
# (the table's last column: cgroup peak / peak RSS MiB).
check inodes/memory_is_their_own awk '$3 == "grabber" || $3 == "turtle" { n++; if ($NF != "MiB" || $(NF-3) + 0 >= 8) bad = 1 }
    END { exit !(n == 2 && !bad) }' "$T/inodes.out"
check inodes/no_data_left no_data_left inodes

# A command that exists but cannot be executed (its interpreter is missing): printed nothing (D16).
mkdir -p "$T/noexec"
printf '#!/nonexistent/interpreter\n' >"$T/noexec/bot"
chmod +x "$T/noexec/bot"
match "$T/noexec.yaml" 3 "rounds: 1, turn_limit: 2" "$(player grabber "$BOTS" ./grabber)" "$(player noexec "$T/noexec" ./bot)"
run_match noexec
check noexec/skip_nooutput only "$T/noexec.log" 1 skip-nooutput

# ---- the persistent mode (§9) -------------------------------------------------------------------

match "$T/pers.yaml" 11 "rounds: 2, turn_limit: 3, data_quota_kb: 64, persistent: 1" "${BREAKERS[@]}"
run_match pers
L=$T/pers.log
check persistent/exit_0 [ "$(cat "$T/pers.rc")" = 0 ]
check persistent/log_header grep -qx 'warlight 10 10 8 2 3 1' "$L"
check persistent/well_behaved_ok only "$L" 0 ok
check persistent/wrong_total_goes_on only "$L" 1 skip-deploy
# A crash ends the process: the rest of the round is skipped, a new process starts next round.
check persistent/crash_restarts_each_round [ "$(statuses "$L" 4)" = "1.1:ok 1.2:skip-crash 1.3:skip-crash 2.1:ok 2.2:skip-crash 2.3:skip-crash" ]
check persistent/slow_skips_its_rounds only "$L" 3 skip-time
check persistent/slow_reason_names_turn_wall_ms python3 -c 'import gzip,json,sys
V=[x for x in map(json.loads, gzip.open(sys.argv[1])) if x["type"]=="violation" and x["player"]==4]
assert V and all(v["evidence"]["reason"] == "no complete reply within turn_wall_ms" for v in V), V' "$T/pers.jsonl.gz"
check persistent/slow_why_names_turn_wall_ms grep -qE '^ +why: round 2, reply [0-9]+: no complete reply within turn_wall_ms \(limit 1000 ms, waited [0-9]+ ms\)$' "$T/pers.out"
check persistent/fill_ok only "$L" 7 ok
check persistent/no_data_left no_data_left pers
check persistent/verify verified "$T/pers.jsonl.gz"

# ---- a tournament and the results stage ------------------------------------------------------------

cat >"$T/tour.yaml" <<EOF
game: warlight
format: round-robin
generate:
  - {}
seeds: [1]
params: {rounds: 1, turn_limit: 20}
players:
$(player grabber "$BOTS" ./grabber)
$(player turtle "$BOTS" ./turtle)
EOF
TMPDIR="$T/tmp-bots" "$JUDGE" tournament "$T/tour.yaml" --out "$T/tour" >"$T/tour.out" 2>&1
check tournament/exit_0 [ $? = 0 ]
check tournament/two_replays [ "$(ls "$T/tour/replays" 2>/dev/null | grep -c '\.jsonl\.gz$')" = 2 ]
for r in "$T"/tour/replays/*.jsonl.gz; do
    check "tournament/verify_$(basename "$r" .jsonl.gz)" verified "$r"
done
mkdir -p "$T/all"
cp "$T"/tour/replays/*.jsonl.gz "$T/bad.jsonl.gz" "$T/all/"
"$JUDGE" results "$T/all" --out "$T/results" >"$T/results.out" 2>&1
check results/exit_0 [ $? = 0 ]
check results/violations_counted python3 - "$T/results/standings.json" <<'EOF'
import json, sys
S = json.load(open(sys.argv[1]))
P = {p["name"]: p for p in S["players"]}
sys.exit(not (S["games"] == ["warlight"] and P["grabber"]["matches"] == 3 and
              P["wrong_total"]["violations"]["invalid_move"] == 6 and P["slow"]["violations"]["time"] == 2 and
              P["syscall"]["violations"]["forbidden_syscall"] == 6 and P["fill"]["violations"]["total"] == 0))
EOF

# ---- the rules as docs/games/warlight.md tells a student ------------------------------------------------
# On a wrapping 4 x 4 board each bot puts its income (5) on its start (5 armies) and attacks the
# territory up and to the left, across the edge when it starts on one, with 9: 2 neutral
# defenders lose 9 x 60%, the attackers 2 x 70% = 1. The doc says it is then theirs, with 8; a
# bot that does not see the target as its own next turn says so, which is not OK.
mkdir -p "$T/rules"
cat >"$T/rules/diag.py" <<'PY'
import sys
me, income, terr = sys.argv[1], int(sys.argv[2]), [t.split(",") for t in sys.argv[3].split()]
mine = [(int(t[0]), int(t[1]), int(t[4])) for t in terr if t[3] == me]
if len(sys.argv) == 6:
    r, c, a = mine[0]
    print("%d,%d,%d" % (r, c, income))
    print("%d,%d,%d,%d,%d" % (r, c, (r - 1) % 4, (c - 1) % 4, a + income - 1))
    open("target", "w").write("%d,%d" % ((r - 1) % 4, (c - 1) % 4))
else:
    if open("target").read() not in ["%d,%d" % (r, c) for r, c, _ in mine]: sys.exit(print("lost the fight"))
    print("%d,%d,%d\n" % (mine[0][0], mine[0][1], income))
PY
chmod -R a+rX "$T/rules"
printf 'game: warlight\nseed: 1\nparams: {rounds: 1, turn_limit: 2, rows: 4, cols: 4, bonus_count: 4, bonus_size: 4}\nplayers:\n%s\n%s\n' \
    '  - {name: a, command: [python3, diag.py]}' '  - {name: b, command: [python3, diag.py]}' >"$T/rules/m.yaml"
"$JUDGE" run "$T/rules/m.yaml" --replay "$T/rules.jsonl.gz" >"$T/rules.out" 2>&1
check doc_rules/diagonal_capture_ok [ "$(grep -cE "$(run_row '[ab]' OK)" "$T/rules.out")" = 2 ]
"$JUDGE" replay export --format warlight-log "$T/rules.jsonl.gz" >"$T/rules.log" 2>&1
# Seed 1 starts player 1 at 0,0: its attack on 3,3 wraps round both edges, and leaves 8 there.
check doc_rules/across_the_edge grep -qx 'move 1 0,0,3,3,9 9 capture' "$T/rules.log"
check doc_rules/eight_left grep -qx 'row 3 -1,2 -1,2 -1,2 1,8' "$T/rules.log"

# ---- bad match files ------------------------------------------------------------------------------------

printf 'game: warlight\nmap: %s\nplayers:\n%s\n%s\n' "$T/bots.yaml" "$(player a "$BOTS" ./grabber)" \
    "$(player b "$BOTS" ./turtle)" >"$T/map.yaml"
"$JUDGE" run "$T/map.yaml" >"$T/map.out" 2>&1
check bad_input/map_refused [ $? = 2 ]
check bad_input/map_message grep -qF "$T/map.yaml:2:6: warlight takes no map: remove map:" "$T/map.out"
printf 'game: warlight\ngenerate:\n  rows: 5\nplayers:\n%s\n%s\n' "$(player a "$BOTS" ./grabber)" \
    "$(player b "$BOTS" ./turtle)" >"$T/gen.yaml"
"$JUDGE" run "$T/gen.yaml" >"$T/gen.out" 2>&1
check bad_input/generate_refused [ $? = 2 ]
check bad_input/generate_message grep -qF "$T/gen.yaml:3:3: generate: warlight has no map to generate" "$T/gen.out"
"$JUDGE" run "$T/bots.yaml" --param turn_wall_ms=-1 >"$T/param.out" 2>&1
check bad_input/param_refused [ $? = 2 ]

e2e_exit
