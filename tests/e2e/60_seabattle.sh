#!/usr/bin/env bash
# 60_seabattle.sh - sea battle end to end: `judge mapgen seabattle`, whole matches in the strict
# jail with the example bots and rule-breaking ones (each verdict and its effect, seabattle.md
# §6), replays verified, the original log (§7) byte for byte, determinism.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/seabattle
BAD=$ROOT/build/progs/sea_bad
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

# ---- judge mapgen seabattle -------------------------------------------------------------------

# valid_board FILE [ships_1 ships_2 ships_3 ships_4]: a board file (10 lines of 10 '_'/'#', each
# ending in '\n') whose ships are straight, never touch, and make the fleet (S3).
valid_board() {
    python3 - "$@" <<'PY'
import sys
text = open(sys.argv[1], encoding="ascii").read()
fleet = list(map(int, sys.argv[2:6])) if len(sys.argv) > 2 else [4, 3, 2, 1]
rows = text.split("\n")
assert rows[-1] == "" and len(rows) == 11, "10 lines, each ending in a newline"
g = rows[:10]
assert all(len(r) == 10 and set(r) <= set("_#") for r in g), "10 cells of _ and # per line"
ship = lambda x, y: 0 <= x < 10 and 0 <= y < 10 and g[y][x] == "#"
seen, count = set(), [0] * 11
for y in range(10):
    for x in range(10):
        if ship(x, y) and (x, y) not in seen:
            stack, group = [(x, y)], set()
            while stack:
                c = stack.pop()
                if c in group: continue
                group.add(c)
                for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    n = (c[0] + d[0], c[1] + d[1])
                    if ship(*n): stack.append(n)
            seen |= group
            xs, ys = {c[0] for c in group}, {c[1] for c in group}
            assert len(xs) == 1 or len(ys) == 1, "a bent ship"
            assert all(not ship(cx + dx, cy + dy) for cx, cy in group for dx in (-1, 1) for dy in (-1, 1)
                       if (cx + dx, cy + dy) not in group), "ships touch at a corner"
            count[len(group)] += 1
assert count[1:5] == fleet and sum(count[5:]) == 0, f"fleet {count[1:5]}"
PY
}

gen() { "$JUDGE" mapgen seabattle "$@"; }
gen --seed 1 >"$T/b1" 2>"$T/b1.err"
check mapgen/exit_0_nothing_on_stderr [ $? = 0 -a ! -s "$T/b1.err" ]
check mapgen/valid_board valid_board "$T/b1"
# the seed-1 board from README C6's stream "seabattle/board", computed apart from the judge
printf '%s\n' '####______' '_____#_##_' '_###______' '_______##_' '#___#_____' '__________' \
    '__________' '________#_' '_###____#_' '_____#____' >"$T/b1.want"
check mapgen/seed_1_golden cmp -s "$T/b1" "$T/b1.want"
gen --seed 2 >"$T/b2"
check mapgen/other_seed_other_board eval '! cmp -s "$T/b1" "$T/b2"'
check mapgen/every_seed_valid eval 'for s in 3 4 5 6 7 8 9 10; do gen --seed $s >"$T/bs" && valid_board "$T/bs" || exit 1; done'
gen --seed 3 --ships-1 1 --ships-2 0 --ships-3 0 --ships-4 2 -o "$T/custom"
check mapgen/custom_fleet valid_board "$T/custom" 1 0 0 2

# usage_case NAME ARGS...: exit 2, nothing on stdout, one line on stderr matching the last argument.
usage_case() {
    local name=$1 want=${*: -1}
    set -- "${@:2:$#-2}"
    "$JUDGE" mapgen "$@" >"$T/u.out" 2>"$T/u.err"
    local rc=$?
    if [ $rc -ne 2 ]; then fail "mapgen/$name" "exit $rc, want 2"
    elif [ -s "$T/u.out" ]; then fail "mapgen/$name" "wrote to stdout"
    elif [ "$(wc -l <"$T/u.err")" -ne 1 ] || ! grep -qE -- "$want" "$T/u.err"; then fail "mapgen/$name" "$(cat "$T/u.err")"
    else ok "mapgen/$name"; fi
}
usage_case usage_missing_seed seabattle '--seed is required'
usage_case usage_generals_option seabattle --seed 1 --rows 5 '--rows is not an option of seabattle'
usage_case usage_sea_option_for_generals generals --rows 5 --cols 5 --players 2 --seed 1 --ships-1 2 \
    '--ships-1 is not an option of generals'
usage_case usage_count_out_of_range seabattle --seed 1 --ships-1 26 'each ship count must be in 0..25'
usage_case usage_fleet_does_not_fit seabattle --seed 1 --ships-4 13 'does not fit'
usage_case usage_empty_fleet seabattle --seed 1 --ships-1 0 --ships-2 0 --ships-3 0 --ships-4 0 'no ship'

# ---- matches in the jail ------------------------------------------------------------------------

if [ "$(id -u)" != 0 ]; then
    skip seabattle/matches "strict jails need root"
    e2e_exit
fi
for bin in "$BOTS/fixed" "$BOTS/hunter" "$BAD"; do
    if [ ! -x "$bin" ]; then
        fail seabattle/matches "$bin is missing: run make programs"
        e2e_exit
    fi
done

# rq FILE EXPR: a python expression over the replay's lines L; V = violations, R = the result,
# E = the engine's events.
rq() {
    python3 - "$1" "$2" <<'PY'
import gzip, json, sys
L = [json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
V = [x for x in L if x["type"] == "violation"]
E = [x["event"] for x in L if x["type"] == "event"]
R = L[-1]
print(eval(sys.argv[2]))
PY
}

# match FILE PARAMS-YAML PLAYER1 PLAYER2: a match file; each player is "DIR|COMMAND" (YAML flow list).
match() {
    { printf 'game: seabattle\ngenerate: {}\nseed: 5\n%s' "$2"
      printf 'players:\n  - {name: one, dir: %s, command: %s}\n  - {name: two, dir: %s, command: %s}\n' \
          "${3%%|*}" "${3#*|}" "${4%%|*}" "${4#*|}"; } >"$1"
}

verified() { "$JUDGE" replay verify "$1" >"$T/verify.out" 2>&1 && grep -q ': ok (' "$T/verify.out"; }

# play NAME PARAMS-YAML P1 P2 [judge run options]: runs it; $M is the replay, $O the output.
play() {
    local name=$1 params=$2 p1=$3 p2=$4; shift 4
    M=$T/$name.jsonl.gz
    O=$T/$name.out
    match "$T/$name.yaml" "$params" "$p1" "$p2"
    "$JUDGE" run "$T/$name.yaml" --replay "$M" "$@" >"$O" 2>&1
    check $name/exit_0 [ $? = 0 ]
    check $name/verify verified "$M"
}

FIXED="$BOTS|[./fixed]"
HUNTER="$BOTS|[./hunter, 7]"
PROGS=$(dirname "$BAD")
bad() { echo "$PROGS|[./sea_bad, $1]"; }

# Fixed against fixed: the whole log is known in advance (both shoot row by row at the §3 board).
play fixed_vs_fixed '' "$FIXED" "$FIXED"
"$JUDGE" replay export --format seabattle-log "$M" -o "$T/ff.log"
python3 - >"$T/ff.want" <<'PY'
board = ["####______", "__________", "###_###___", "__________", "##_##_##__",
         "__________", "#_#_#_#___", "__________", "__________", "__________"]
out = board + [""] + board + [""]
ships = {}
for y in range(10):
    for x in range(10):
        if board[y][x] == "#" and (x, y) not in ships:
            cells = [(x, y)]
            while x + len(cells) < 10 and board[y][x + len(cells)] == "#":
                cells.append((x + len(cells), y))
            for c in cells: ships[c] = cells
hit = {1: set(), 2: set()}
nxt = {1: 0, 2: 0}
p = 1
while True:
    n = nxt[p]; nxt[p] += 1
    x, y = n % 10, n // 10
    h = hit[p]
    if board[y][x] == "#" and (x, y) not in h:
        h.add((x, y))
        r = "sunk" if all(c in h for c in ships[(x, y)]) else "hit"
    else:
        r = "miss"
    out.append(f"{p} {x + 1} {y + 1} {r}")
    if len(h) == 20: break
    if r == "miss": p = 3 - p
print("\n".join(out))
PY
check fixed_vs_fixed/log_byte_for_byte cmp "$T/ff.log" "$T/ff.want"
check fixed_vs_fixed/player_1_wins grep -qE '^result: one wins after [0-9]+ shots$' "$O"
check fixed_vs_fixed/result_lines [ "$(grep -cE "$(run_row '(one|two)' OK '[0-9]+' '[12]')[0-9]+/[0-9]+ ms +[0-9.]+ / [0-9.]+ MiB\$" "$O")" = 2 ]
check fixed_vs_fixed/shots_are_rounds [ "$(rq "$M" 'R["rounds"] == len(E) - 3 == sum(1 for e in E if e["t"] == "shot")')" = True ]
"$JUDGE" replay export --format seabattle-log "$M" >"$T/ff.stdout"
check fixed_vs_fixed/export_to_stdout cmp -s "$T/ff.log" "$T/ff.stdout"
"$JUDGE" replay export --format generals-log "$M" >/dev/null 2>"$T/fmt.err"
check fixed_vs_fixed/export_other_format_refused grep -q 'exports as --format seabattle-log' "$T/fmt.err"

# The source's example game (seabattle.md §4, §7) in the jail: what each bot sent, what the judge
# wrote to player 1 (copied to its stderr, kept with its violation: `0 0` after the script), and
# the log, each byte for byte.
play spec_game '' "$(bad spec1)" "$(bad spec2)"
check spec_game/replies_as_sent [ "$(rq "$M" '[x["line"] for x in L if x["type"] == "reply"][2:]')" = \
    "['2 9', '1 1', '9 9', '1 5', '10 1', '8 8', '1 2', '0 0']" ]
check spec_game/judge_wrote_to_player_1 [ "$(rq "$M" 'repr(V[0]["stderr_tail"])')" = "'miss\\nmiss\\nsunk\\nmiss\\n'" ]
check spec_game/player_1_loses_off_the_board [ "$(rq "$M" 'V[0]["player"], V[0]["verdict"], R["winner"]')" = "(1, 'INVALID_MOVE', 2)" ]
"$JUDGE" replay export --format seabattle-log "$M" -o "$T/spec.log"
printf '%s\n' ____###___ _________# __#___#__# __#_______ __#______# '#_#__###__' __________ _#_##_#___ \
    _#________ __________ '' '#________#' ___#______ ___#______ '#__#___#__' '#______#__' '#_#______#' \
    '#_#______#' _____##__# __________ '#________#' '' '1 2 9 miss' '2 1 1 miss' '1 9 9 miss' '2 1 5 miss' \
    '1 10 1 sunk' '1 8 8 miss' '2 1 2 miss' >"$T/spec.want"
check spec_game/log_byte_for_byte cmp "$T/spec.log" "$T/spec.want"

# The example bots: a random fleet, hunting around hits.
play fixed_vs_hunter '' "$FIXED" "$HUNTER"
"$JUDGE" replay export --format seabattle-log "$M" -o "$T/fh.log"
check fixed_vs_hunter/hunter_wins grep -qE '^result: two wins after [0-9]+ shots$' "$O"
sed -n 12,21p "$T/fh.log" >"$T/fh.board2"
check fixed_vs_hunter/log_has_hunters_valid_board valid_board "$T/fh.board2"
check fixed_vs_hunter/log_shape python3 - "$T/fh.log" <<'PY'
import re, sys
L = open(sys.argv[1]).read().split("\n")
assert L[10] == "" and L[21] == "" and L[-1] == ""
shots = L[22:-1]
assert shots and all(re.fullmatch(r"[12] (10|[1-9]) (10|[1-9]) (miss|hit|sunk)", s) for s in shots)
assert sum(s.split()[0] == "2" and s.split()[3] != "miss" for s in shots) == 20
PY

# ---- rule-breaking bots: verdict and effect of §6 ----------------------------------------------

# An invalid board (S3a): its owner loses, no shot is fired, the log is empty (S4, §7).
play corner '' "$FIXED" "$(bad corner)"
check corner/verdict grep -qE "$(run_row two INVALID_MOVE 0 2)" "$O"
check corner/reason_names_rule_and_place [ "$(rq "$M" 'V[0]["evidence"]["reason"], V[0]["reply"]')" = \
    "('the ship cell at x=5 y=2 touches the one at x=4 y=1 at a corner (S3a)', 1)" ]
check corner/other_wins_no_shot [ "$(rq "$M" 'R["winner"], R["rounds"], [e["t"] for e in E]')" = \
    "(1, 0, ['board', 'board_invalid', 'end'])" ]
"$JUDGE" replay export --format seabattle-log "$M" -o "$T/corner.log"
check corner/empty_log [ -f "$T/corner.log" -a ! -s "$T/corner.log" ]

play both_invalid '' "$(bad corner)" "$(bad corner)"
check both_invalid/draw grep -qE '^result: draw between one and two after 0 shots$' "$O"

# A board too slow: a time violation while sending it makes it invalid (S4).
play slow_board $'params:\n  board_wall_ms: 1000\n  move_wall_ms: 1000\n' "$(bad slow_board)" "$FIXED"
check slow_board/verdict grep -qE "$(run_row one WALL_LIMIT 0 2)" "$O"
check slow_board/board_invalid [ "$(rq "$M" 'R["winner"], [(e["t"], e.get("by")) for e in E if e["t"] != "board"]')" = \
    "(2, [('board_invalid', 'time'), ('end', None)])" ]

# The board's own wall limit (§6, D12): board_wall_ms counts from the bot's start and move_wall_ms
# (5000 here) is for shots only; with board_wall_ms = 0 a slow board is in time.
play board_wall $'params:\n  board_wall_ms: 1000\n' "$(bad slow_board)" "$FIXED"
check board_wall/verdict grep -qE "$(run_row one WALL_LIMIT 0 2)" "$O"
check board_wall/names_board_wall_ms [ "$(rq "$M" 'V[0]["evidence"]["reason"], V[0]["evidence"]["limit_ns"], V[0]["reply"]')" = \
    "('no complete reply within board_wall_ms', 1000000000, 1)" ]
check board_wall/cut_at_the_limit [ "$(rq "$M" 'V[0]["evidence"]["figure_ns"] < 2500000000')" = True ]
play board_wall_off $'params:\n  board_wall_ms: 0\n  move_wall_ms: 1000\n' "$(bad slow_board)" "$FIXED"
check board_wall_off/board_in_time [ "$(rq "$M" '[e["t"] for e in E][:2], len(V)')" = "(['board', 'board'], 0)" ]

# D11: a bad board line is invalid at once, even when the bot then sends nothing more (a wall
# limit would be the verdict otherwise); the reply recorded ends at that line.
play short_stall '' "$(bad short_stall)" "$FIXED"
check short_stall/verdict grep -qE "$(run_row one INVALID_OUTPUT 0 2)" "$O"
check short_stall/at_once [ "$(rq "$M" 'V[0]["evidence"]["reason"], V[0]["by"], [x["line"].count(chr(10)) for x in L if x["type"] == "reply"][0]')" = \
    "('board line 4 has 3 cells, not 10 (S2)', 'game', 3)" ]
check short_stall/board_invalid_S2 [ "$(rq "$M" '[(e["t"], e.get("rule")) for e in E if e["t"] != "board"]')" = \
    "[('board_invalid', 'S2'), ('end', None)]" ]
play corner_stall '' "$FIXED" "$(bad corner_stall)"
check corner_stall/verdict grep -qE "$(run_row two INVALID_MOVE 0 2)" "$O"
check corner_stall/reason [ "$(rq "$M" 'V[0]["evidence"]["reason"], R["winner"]')" = \
    "('the ship cell at x=5 y=2 touches the one at x=4 y=1 at a corner (S3a)', 1)" ]

# Shooting: the shooter who breaks a rule loses at once (S10). Its 3rd shot is reply 4.
bad_shot() {
    local mode=$1 verdict=$2; shift 2
    play $mode "$@" "$(bad $mode)" "$FIXED"
    check $mode/verdict grep -qE "$(run_row one "$verdict" 3 2)" "$O"
    check $mode/at_reply_4_loses [ "$(rq "$M" 'V[0]["reply"], V[0]["verdict"], R["winner"], E[-1]["reason"]')" = \
        "(4, '$verdict', 2, 'violation')" ]
}
bad_shot off_board INVALID_MOVE ''
check off_board/reason [ "$(rq "$M" 'V[0]["evidence"]["reason"]')" = "the shot (11, 5) is off the board: x and y are 1..10" ]
bad_shot text INVALID_OUTPUT ''
check text/evidence [ "$(rq "$M" 'V[0]["evidence"]["line"], V[0]["by"]')" = "('hello', 'game')" ]
bad_shot slow_shot WALL_LIMIT $'params:\n  move_wall_ms: 1000\n'
bad_shot quit RUNTIME_ERROR ''

# ---- parameters as a whole (D14): an empty fleet is a set-up error naming where it is set -------

{ printf 'game: seabattle\ngenerate: {}\nseed: 5\nparams:\n  ships_1: 0\n  ships_2: 0\n  ships_3: 0\n'
  printf '  ships_4: 0\nplayers:\n  - {name: one, dir: %s, command: [./fixed]}\n' "$BOTS"
  printf '  - {name: two, dir: %s, command: [./fixed]}\n' "$BOTS"; } >"$T/empty.yaml"
"$JUDGE" run "$T/empty.yaml" --replay "$T/empty.jsonl.gz" >"$T/empty.out" 2>"$T/empty.err"
check empty_fleet/exit_2 [ $? = 2 ]
check empty_fleet/names_file_and_parameter grep -qF "$T/empty.yaml:5:3: the fleet has no ship: ships_1..ships_4 are all 0 (D14)" "$T/empty.err"
check empty_fleet/no_replay [ ! -e "$T/empty.jsonl.gz" ]
sed -i 's/ships_4: 0/ships_4: 1/' "$T/empty.yaml"
"$JUDGE" run "$T/empty.yaml" --replay "$T/empty.jsonl.gz" --param ships_4=0 >"$T/empty.out" 2>"$T/empty.err"
check empty_fleet/by_param_exit_2 [ $? = 2 ]

# A map file for a game that has none: the match file's map: is blamed, not the map file.
printf 'game: seabattle\nmap: %s\nplayers:\n  - {name: a, command: ./a}\n  - {name: b, command: ./b}\n' \
    "$ROOT/examples/maps/generals/tiny.map" >"$T/withmap.yaml"
"$JUDGE" run "$T/withmap.yaml" --replay "$T/withmap.jsonl.gz" >"$T/withmap.out" 2>"$T/withmap.err"
check map_given/exit_2 [ $? = 2 ]
check map_given/names_the_match_file grep -qxF "$T/withmap.yaml:2:6: sea battle takes no map: remove map:" "$T/withmap.err"

# ---- determinism -------------------------------------------------------------------------------

strip_timing() {
    python3 - "$1" <<'PY'
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
PY
}
play det1 '' "$HUNTER" "$BOTS|[./hunter, 8]"
play det2 '' "$HUNTER" "$BOTS|[./hunter, 8]"
strip_timing "$T/det1.jsonl.gz" >"$T/det1.txt"
strip_timing "$T/det2.jsonl.gz" >"$T/det2.txt"
check determinism/identical_apart_from_timing cmp -s "$T/det1.txt" "$T/det2.txt"

# ---- the examples ------------------------------------------------------------------------------------

for ex in "$ROOT"/examples/seabattle-*.yaml; do
    name=$(basename "$ex" .yaml)
    "$JUDGE" run "$ex" --replay "$T/$name.jsonl.gz" >"$T/$name.out" 2>&1
    check examples/${name}_runs [ $? = 0 ]
    check examples/${name}_verify verified "$T/$name.jsonl.gz"
done

e2e_exit
