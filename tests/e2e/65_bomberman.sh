#!/usr/bin/env bash
# 65_bomberman.sh - bomberman end to end: `judge mapgen bomberman`, whole four-bot matches in the
# strict jail with the example bots and rule-breaking ones (each §7 verdict and its effect while
# the others play on), writing ahead, replays verified (and a tampered one refused), the §8 log
# byte for byte as a separate reading of the spec writes it (bomberman_reference.py), determinism, and bad input refused with one line and exit 2, no replay left behind.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/bomberman
BAD=$ROOT/build/progs/bm_bad
MAPS=$ROOT/examples/maps/bomberman
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

# ---- judge mapgen bomberman ---------------------------------------------------------------------

# valid_map FILE PLAYERS: 15 rows of 15 cells of .#+ar1234, starts 1..P in corners, every
# non-wall cell reachable from start 1 once the blocks are gone.
valid_map() {
    python3 - "$@" <<'PY'
import sys
rows = open(sys.argv[1], encoding="ascii").read().split("\n")
assert rows[-1] == "" and len(rows) == 16, "15 rows, each ending in a newline"
g = rows[:15]
assert all(len(r) == 15 and set(r) <= set(".#+ar1234") for r in g)
starts = {c: (x, y) for y, r in enumerate(g) for x, c in enumerate(r) if c.isdigit()}
assert sorted(starts) == [str(p) for p in range(1, int(sys.argv[2]) + 1)], starts
assert all(x in (0, 14) and y in (0, 14) for x, y in starts.values())
open_cells = {(x, y) for y, r in enumerate(g) for x, c in enumerate(r) if c != "#"}
seen, stack = set(), [starts["1"]]
while stack:
    c = stack.pop()
    if c in seen or c not in open_cells: continue
    seen.add(c)
    stack += [(c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)]
assert seen == open_cells
PY
}
gen() { "$JUDGE" mapgen bomberman "$@"; }
gen --seed 1 >"$T/m1" 2>"$T/m1.err"
check mapgen/exit_0_nothing_on_stderr [ $? = 0 -a ! -s "$T/m1.err" ]
check mapgen/valid_4_players valid_map "$T/m1" 4
gen --seed 1 >"$T/m1b"
check mapgen/same_seed_same_map cmp -s "$T/m1" "$T/m1b"
gen --seed 2 --players 2 --blocks 40 --bonuses 3 -o "$T/m2"
check mapgen/valid_2_players valid_map "$T/m2" 2
check mapgen/three_bonuses [ "$(tr -cd 'ar' <"$T/m2" | wc -c)" = 3 ]
gen --seed 3 --symmetric --blocks 80 >"$T/m3"
check mapgen/symmetric python3 -c 'import sys
g = open(sys.argv[1]).read().split("\n")[:15]
strip = lambda r: r.translate(str.maketrans("1234", "...."))
assert all(strip(r) == strip(r)[::-1] for r in g) and [strip(r) for r in g] == [strip(r) for r in g[::-1]]' "$T/m3"
for f in "$MAPS"/*.map; do
    check "mapgen/example_$(basename "$f" .map)_valid" valid_map "$f" "$(tr -cd 1234 <"$f" | wc -c)"
done

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
usage_case usage_players bomberman --seed 1 --players 5 'players must be 2 to 4'
usage_case usage_blocks bomberman --seed 1 --blocks 120 'blocks is a percentage'
usage_case usage_generals_option bomberman --seed 1 --rows 5 '--rows is not an option of bomberman'

# ---- bad input: one line naming the place, exit 2, no replay ----------------------------------

# refused NAME WANT: runs $T/NAME.yaml, which must fail with exit 2 and one stderr line matching WANT.
refused() {
    local name=$1 want=$2
    "$JUDGE" run "$T/$name.yaml" --replay "$T/$name.jsonl.gz" >"$T/$name.out" 2>"$T/$name.err"
    local rc=$?
    if [ $rc -ne 2 ]; then fail "input/$name" "exit $rc, want 2: $(head -c 300 "$T/$name.err")"
    elif [ "$(wc -l <"$T/$name.err")" -ne 1 ] || ! grep -qE -- "$want" "$T/$name.err"; then fail "input/$name" "$(cat "$T/$name.err")"
    elif ls "$T/$name".jsonl.gz* >/dev/null 2>&1; then fail "input/$name" "a replay was left behind"
    else ok "input/$name"; fi
}
# bad_match NAME MAP-LINE EXTRA-YAML N: a match file of N waiters.
bad_match() {
    { printf 'game: bomberman\nseed: 1\n%s\n%s' "$2" "$3"
      printf 'players:\n'
      for i in $(seq "$4"); do printf '  - {name: w%s, dir: %s, command: [./waiter]}\n' "$i" "$BOTS"; done
    } >"$T/$1.yaml"
}
sed '3s/a/x/' "$MAPS/classic.map" >"$T/badcell.map"
bad_match badcell "map: badcell.map" '' 4
refused badcell "badcell.map:3:6: 'x' is not a cell"
sed '9s/$/+/' "$MAPS/classic.map" >"$T/longrow.map"
bad_match longrow "map: longrow.map" '' 4
refused longrow "longrow.map:9:16: row 9 has 16 cells, expected 15"
head -14 "$MAPS/classic.map" >"$T/short.map"
bad_match short "map: short.map" '' 4
refused short "short.map:15:1: the map has 14 rows, expected 15"
sed '15s/2/1/' "$MAPS/classic.map" >"$T/twice.map"
bad_match twice "map: twice.map" '' 4
refused twice "twice.map:15:1: start 1 appears twice"
sed '15s/2/./' "$MAPS/classic.map" >"$T/gap.map"
bad_match gap "map: gap.map" '' 4
refused gap "gap.map:15:15: start 4 is on the map but start 2 is not"
{ cat "$MAPS/classic.map"; echo; } >"$T/blank.map"
bad_match blank "map: blank.map" '' 4
refused blank "blank.map:16:1: the file ends with a blank line"
bad_match five "map: $MAPS/classic.map" '' 5
refused five "five.yaml:[0-9]+:[0-9]+: the map has 4 starts but the match names 5 players"
bad_match one "map: $MAPS/classic.map" '' 1
refused one "one.yaml:[0-9]+:[0-9]+: bomberman is played by 2 to 4 players, not 1"
bad_match three_on_two 'generate: {players: 2}' '' 3
refused three_on_two "three_on_two.yaml:[0-9]+:[0-9]+: the map has 2 starts but the match names 3 players"
bad_match unknown_param "map: $MAPS/classic.map" $'params:\n  speed: 3\n' 4
refused unknown_param "unknown_param.yaml:5:3: unknown parameter 'speed' for game 'bomberman'"
bad_match zero_lava "map: $MAPS/classic.map" $'params:\n  lava_livetime: 0\n' 4
refused zero_lava "zero_lava.yaml:5:3: .*lava_livetime"
bad_match zero_wall "map: $MAPS/classic.map" $'limits:\n  tick_wall_ms: 0\n' 4
refused zero_wall "zero_wall.yaml:5:3: .*tick_wall_ms"
bad_match unknown_gen 'generate: {players: 2, walls: 3}' '' 2
refused unknown_gen "unknown_gen.yaml:3:[0-9]+: unknown generator option 'walls'"

# ---- matches in the jail ----------------------------------------------------------------------------

if [ "$(id -u)" != 0 ]; then
    skip bomberman/matches "strict jails need root"
    e2e_exit
fi
for bin in "$BOTS/breaker" "$BOTS/walker" "$BOTS/waiter" "$BAD"; do
    if [ ! -x "$bin" ]; then
        fail bomberman/matches "$bin is missing: run make programs"
        e2e_exit
    fi
done

# rq FILE EXPR: a python expression over the replay's lines L; V = violations, R = the result,
# E = the engine's events, P(p) = the result of player p.
rq() {
    python3 - "$1" "$2" <<'PY'
import gzip, json, sys
L = [json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
V = [x for x in L if x["type"] == "violation"]
E = [x["event"] for x in L if x["type"] == "event"]
R = L[-1]
P = lambda p: R["players"][p - 1]
CMDS = lambda p: [e["cmd"] for e in E if e["t"] == "cmd" and e["player"] == p]
print(eval(sys.argv[2]))
PY
}

# match NAME EXTRA-YAML PLAYER...: a match file on the classic map; each player "DIR|COMMAND".
match() {
    local name=$1 extra=$2; shift 2
    { printf 'game: bomberman\nmap: %s/classic.map\nseed: 9\n%s' "$MAPS" "$extra"
      printf 'players:\n'
      local i=1
      for p in "$@"; do printf '  - {name: p%s, dir: %s, command: %s}\n' $i "${p%%|*}" "${p#*|}"; i=$((i + 1)); done
    } >"$T/$name.yaml"
}
verified() { "$JUDGE" replay verify "$1" >"$T/verify.out" 2>&1 && grep -q ': ok (' "$T/verify.out"; }
# same_log REPLAY: the exported §8 log is byte for byte the one a separate reading of the spec
# (bomberman_reference.py) writes from the replay's header and replies alone.
same_log() {
    "$JUDGE" replay export --format bomberman-log "$1" -o "$T/engine.log" &&
        python3 "$ROOT/tests/e2e/bomberman_reference.py" "$1" >"$T/reference.log" && cmp -s "$T/engine.log" "$T/reference.log"
}

# play NAME EXTRA-YAML PLAYER...: runs it; $M is the replay, $O the output.
play() {
    local name=$1
    M=$T/$name.jsonl.gz
    O=$T/$name.out
    match "$@"
    "$JUDGE" run "$T/$name.yaml" --replay "$M" >"$O" 2>&1
    check $name/exit_0 [ $? = 0 ]
    check $name/verify verified "$M"
    check $name/log_as_the_reference same_log "$M"
}

BREAKER="$BOTS|[./breaker]"
WALKER="$BOTS|[./walker]"
WAITER="$BOTS|[./waiter]"
bad() { echo "$(dirname "$BAD")|[./bm_bad, $1]"; }
SHORT=$'params:\n  game_ticks_max: 20\n'

# Four example bots, a whole match: every living bot is asked every tick.
play four "$SHORT" "$BREAKER" "$WALKER" "$WAITER" "$BREAKER"
check four/every_tick_asked [ "$(rq "$M" 'all(len([x for x in L if x["type"] == "reply" and x["round"] == t]) == sum(1 for e in E if e["t"] == "status" and e["round"] == t - 1 for s in e["players"] if s[2]) or t == 0 for t in range(R["rounds"]))')" = True ]
check four/no_violation [ "$(rq "$M" 'len(V), R["rounds"]')" = "(0, 20)" ]
check four/walker_never_dies [ "$(rq "$M" 'P(2)["verdict"], [e for e in E if e["t"] == "death" and e["player"] == 2]')" = "('OK', [])" ]
"$JUDGE" replay export --format bomberman-log "$M" -o "$T/four.log"
check four/log_shape python3 - "$T/four.log" "$M" <<'PY'
import gzip, json, re, sys
log = open(sys.argv[1]).read()
L = [json.loads(x) for x in gzip.open(sys.argv[2], "rt")]
R = L[-1]
states = re.findall(r"TICK (\d+)\nYOU 0\n", log)
assert [int(t) for t in states] == list(range(R["rounds"] + 1)), states
assert log.count("CONFIG 12\n") == 1 and log.count("ORDER ") == R["rounds"]
results = log.strip().split("\n")[-4:]
for p, line in enumerate(results, 1):
    pl = R["players"][p - 1]
    assert line == f"RESULT {p} {pl['points']} {pl['place']}", (line, pl)
for block in re.findall(r"ORDER [^\n]*\n((?:CMD [^\n]*\n)+)", log):
    assert all(re.fullmatch(r"CMD [1-4] (WAIT|UP|DOWN|LEFT|RIGHT|BOMB|INVALID|CRASHED) (moved|blocked|placed|none|pickup-A|pickup-R)", c) for c in block.split("\n")[:-1])
PY

# Writing ahead: six lines at tick 0 are its replies to ticks 0..5 (bomberman.md §4's walk);
# the log shows the state of tick 7 of §4, for the spectator.
play ahead '' "$(bad ahead)" "$WAITER" "$WAITER" "$WAITER"
check ahead/lines_used_in_order [ "$(rq "$M" '[x["line"] for x in L if x["type"] == "reply" and x["player"] == 1][:8]')" = \
    "['RIGHT', 'RIGHT', 'BOMB', 'LEFT', 'LEFT', 'DOWN', 'WAIT', 'WAIT']" ]
"$JUDGE" replay export --format bomberman-log "$M" -o "$T/ahead.log"
printf '%s\n' 'TICK 7' 'YOU 0' MAP '....++++++++...' '.#.#+#+#+#+#.#.' '...++++++++++..' '+#+#+#+#+#+#+#+' \
    '+++++++++++++++' '+#+#+#+#+#+#+#+' '+++++++.+++++++' '+#+#+#...#+#+#+' '+++++++.+++++++' '+#+#+#+#+#+#+#+' \
    '+++++++++++++++' '+#+#+#+#+#+#+#+' '..+++++++++++..' '.#.#+#+#+#+#.#.' '...+++++++++...' 'PLAYERS 4' \
    '1 1 2 1 1 2 1 1 2' '2 1 15 1 1 0 1 1 2' '3 15 1 1 1 0 1 1 2' '4 15 15 1 1 0 1 1 2' 'BOMBS 0' 'BONUSES 0' \
    'LAVA 6' '1 1 1 2' '2 1 1 2' '3 1 1 2' '4 1 1 2' '3 2 1 2' '3 3 1 2' END >"$T/tick7.want"
check ahead/log_tick_7_of_section_4 python3 -c 'import sys
log, want = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert "\nBLOCK 3 3 1\n" + want in log' "$T/ahead.log" "$T/tick7.want"
check ahead/boom_and_blocks_logged grep -qzE 'BOOM 3 1 1
BLOCK 4 1 1
BLOCK 3 3 1
TICK 7' "$T/ahead.log"

# Lines written before the process ended still count; the crash is at the first tick without one (D20).
play ahead_exit "$SHORT" "$(bad ahead_exit)" "$WALKER" "$WAITER" "$WAITER"
check ahead_exit/crash_at_tick_3 [ "$(rq "$M" 'V[0]["verdict"], V[0]["round"], CMDS(1)[:5], P(1)["moves"]')" = \
    "('RUNTIME_ERROR', 3, ['WAIT', 'WAIT', 'WAIT', 'CRASHED', 'CRASHED'], 3)" ]

# violation NAME VERDICT [EXTRA]: player 2 breaks the rule at tick 3; it is crashed, stands still
# (B12) until the end, and the three others are asked every tick to the end.
violation() {
    local mode=$1 verdict=$2
    play $mode "$SHORT" "$WALKER" "$(bad $mode)" "$WAITER" "$WALKER"
    check $mode/verdict [ "$(rq "$M" 'V[0]["verdict"], V[0]["round"], V[0]["by"], len(V), P(2)["verdict"]')" = \
        "('$verdict', 3, 'judge', 1, '$verdict')" ]
    check $mode/stands_still [ "$(rq "$M" 'set(CMDS(2)[3:]), set((e["x"], e["y"]) for e in E if e["t"] == "cmd" and e["player"] == 2)')" = \
        "({'CRASHED'}, {(1, 15)})" ]
    check $mode/crashed_event [ "$(rq "$M" '[(e["player"], e["round"]) for e in E if e["t"] == "crashed"]')" = "[(2, 3)]" ]
    check $mode/others_play_on [ "$(rq "$M" 'R["rounds"], [len([x for x in L if x["type"] == "reply" and x["player"] == p]) for p in (1, 3, 4)]')" = \
        "(20, [20, 20, 20])" ]
    check $mode/still_survives [ "$(rq "$M" 'P(2)["points"], P(2)["violation"] is not None')" = "(20, True)" ]
}
violation late WALL_LIMIT
check late/names_tick_wall_ms [ "$(rq "$M" 'V[0]["evidence"]["reason"], V[0]["evidence"]["limit_ns"]')" = \
    "('no complete reply within tick_wall_ms', 1000000000)" ]
violation crash RUNTIME_ERROR
violation alloc MEMORY_LIMIT
violation forbidden FORBIDDEN_SYSCALL
check forbidden/names_socket [ "$(rq "$M" 'V[0]["evidence"]["syscall"]["name"]')" = socket ]

# Invalid output costs one tick each (WAIT) and the bot plays on.
play garbage "$SHORT" "$WALKER" "$(bad garbage)" "$WAITER" "$WALKER"
check garbage/three_invalid_outputs [ "$(rq "$M" '[(v["round"], v["verdict"], v["by"]) for v in V]')" = \
    "[(3, 'INVALID_OUTPUT', 'game'), (4, 'INVALID_OUTPUT', 'judge'), (5, 'INVALID_OUTPUT', 'judge')]" ]
check garbage/invalid_then_wait [ "$(rq "$M" 'CMDS(2)[2:7], P(2)["moves"], P(2)["violation"]')" = \
    "(['WAIT', 'INVALID', 'INVALID', 'INVALID', 'WAIT'], 17, None)" ]
check garbage/reasons [ "$(rq "$M" '[v["evidence"]["reason"] for v in V]')" = \
    "[\"'jump' is not one of WAIT, UP, DOWN, LEFT, RIGHT, BOMB\", 'control byte 0x01', 'line longer than 64 bytes']" ]

# A Java bot as a student writes it (command: [java, Main], the default 64 MiB) making 2 MiB of
# garbage a tick, a fresh table each time: the JVM sized its heap from the host's memory, not
# the limit, and reached it before its first collection (MEMORY_LIMIT at tick 30 or so).
if command -v javac >/dev/null && command -v java >/dev/null; then
    mkdir -p "$T/java"
    cat >"$T/java/Main.java" <<'JAVA'
import java.io.*;
public class Main { public static void main(String[] a) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in)); long sum = 0;
    for (String line; (line = in.readLine()) != null && !line.trim().equals("OVER");) {
        while (!line.trim().equals("END")) line = in.readLine();
        int[][] table = new int[512][1024]; sum += table[1][1];
        System.out.println("WAIT"); } } }
JAVA
    (cd "$T/java" && javac Main.java) && chmod -R a+rX "$T/java"
    printf 'game: bomberman\ngenerate: {players: 2}\nseed: 1\nparams: {game_ticks_max: 100}\nplayers:\n%s\n%s\n' \
        '  - {name: java, command: [java, Main]}' "  - {name: waiter, dir: $BOTS, command: [./waiter]}" >"$T/java/m.yaml"
    "$JUDGE" run "$T/java/m.yaml" --replay "$T/java.jsonl.gz" >"$T/java.out" 2>&1
    check java/garbage_collected_within_the_limit grep -qE "$(run_row java OK 100)" "$T/java.out"
else
    skip java/garbage_collected_within_the_limit "no javac/java on this machine"
fi

# ---- the examples: match files (C and Python bots), the free-for-all and its results -------------

for ex in classic generated; do
    M=$T/ex_$ex.jsonl.gz
    "$JUDGE" run "$ROOT/examples/bomberman-$ex.yaml" --param game_ticks_max=40 --replay "$M" >"$T/ex.out" 2>&1
    check example_$ex/exit_0 [ $? = 0 ]
    check example_$ex/no_violation [ "$(rq "$M" 'len(V), R["rounds"] <= 40, all(p["verdict"] == "OK" for p in R["players"])')" = "(0, True, True)" ]
    check example_$ex/verify verified "$M"
    check example_$ex/log_as_the_reference same_log "$M"
done
"$JUDGE" tournament "$ROOT/examples/tournaments/bomberman-free-for-all.yaml" --out "$T/ffa" >"$T/ffa.out" 2>&1
check tournament/exit_0 [ $? = 0 ]
check tournament/twenty_matches_of_four [ "$(ls "$T/ffa/replays" | wc -l)" = 20 ]
check tournament/replays_verify eval 'for r in "$T"/ffa/replays/*.jsonl.gz; do verified "$r" || exit 1; done'
check tournament/logs_as_the_reference eval 'for r in "$T"/ffa/replays/*.jsonl.gz; do same_log "$r" || exit 1; done'
"$JUDGE" results "$T/ffa" --out "$T/ffa-results" >"$T/res.out" 2>&1
check results/exit_0 [ $? = 0 ]
check results/points_and_places python3 - "$T/ffa-results/standings.json" "$T/ffa" <<'PY'
import glob, gzip, json, sys
st = json.load(open(sys.argv[1]))
points = {}
for f in glob.glob(sys.argv[2] + "/replays/*.jsonl.gz"):
    lines = [json.loads(x) for x in gzip.open(f, "rt")]
    names = [p["name"] for p in lines[0]["players"]]
    for p in lines[-1]["players"]:
        points[names[p["player"] - 1]] = points.get(names[p["player"] - 1], 0) + p["points"]
        assert p["place"] == 1 + sum(q["points"] > p["points"] for q in lines[-1]["players"])
assert st["games"] == ["bomberman"] and st["matches"] == 20
assert {p["name"]: p["points"] for p in st["players"]} == points, (st["players"], points)
assert [p["points"] for p in st["players"]] == sorted(points.values(), reverse=True)
PY
printf '%s\n' 'game: bomberman' 'format: free-for-all' 'players_per_match: 4' "maps: [$MAPS/classic.map, $MAPS/duel.map]" \
    'seeds: [1]' 'players:' "  - {name: a, dir: $BOTS, command: [./waiter]}" "  - {name: b, dir: $BOTS, command: [./waiter]}" \
    "  - {name: c, dir: $BOTS, command: [./waiter]}" "  - {name: d, dir: $BOTS, command: [./waiter]}" >"$T/duel.yaml"
"$JUDGE" tournament "$T/duel.yaml" --out "$T/ffa-bad" --list >"$T/duel.out" 2>"$T/duel.err"
rc=$?
check tournament/four_on_a_duel_map_refused [ $rc = 2 -a "$(wc -l <"$T/duel.err")" = 1 ]
check tournament/names_the_map grep -qE 'duel.yaml:4:[0-9]+: the map is for 2 players but free-for-all seats 4 per match' "$T/duel.err"

# ---- replays: tampering is found, the same seed and bots give the same replay ------------------------

python3 - "$T/four.jsonl.gz" "$T/tampered.jsonl.gz" <<'PY'
import gzip, sys
lines = gzip.open(sys.argv[1], "rt").read().split("\n")
i = next(i for i, l in enumerate(lines) if '"t":"cmd"' in l and '"effect":"moved"' in l)
lines[i] = lines[i].replace('"effect":"moved"', '"effect":"blocked"')
gzip.open(sys.argv[2], "wt").write("\n".join(lines))
PY
"$JUDGE" replay verify "$T/tampered.jsonl.gz" >"$T/tv.out" 2>&1
check replay/tampered_refused [ $? -ne 0 ] 
check replay/tampered_names_the_line grep -qE 'tampered.jsonl.gz: line [0-9]+: recorded .*"effect":"blocked"' "$T/tv.out"

strip() {
    python3 - "$1" <<'PY'
import gzip, json, sys
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()
                if not k.endswith("_ns") and k not in ("memory_peak_bytes", "figure_bytes", "timing")}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
for line in gzip.open(sys.argv[1], "rt"):
    print(json.dumps(clean(json.loads(line)), sort_keys=False))
PY
}
"$JUDGE" run "$T/four.yaml" --replay "$T/four2.jsonl.gz" >/dev/null 2>&1
strip "$T/four.jsonl.gz" >"$T/a.txt"
strip "$T/four2.jsonl.gz" >"$T/b.txt"
check replay/same_seed_same_replay cmp -s "$T/a.txt" "$T/b.txt"

e2e_exit
