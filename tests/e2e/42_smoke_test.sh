#!/usr/bin/env bash
# 42_smoke_test.sh - the tournament's smoke test in each game's process model: a player
# started once on the first state of its first match; a failure reported at once with its
# verdict and reason, before any match; with `smoke_test: drop` its matches are not played
# and OUT/smoke/PLAYER.jsonl.gz says why; with `report` (the default outside a gauntlet)
# they are played; `--smoke-test off` tests nothing.
source "$(dirname "$0")/../lib.sh"
B=$ROOT/build/bots
P=$ROOT/build/progs
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip smoke_test "strict jails need root"
    e2e_exit
fi
for bin in "$B/warlight/turtle" "$B/seabattle/fixed" "$B/generals/greedy" "$P/war_silent" "$P/sea_bad"; do
    if [ ! -x "$bin" ]; then
        fail smoke_test "$bin is missing: run make programs"
        e2e_exit
    fi
done

# tournament NAME GAME HEAD PLAYER...: a round-robin file; HEAD is the game's own lines.
tournament() {
    local name=$1 game=$2 head=$3; shift 3
    { printf 'game: %s\nformat: round-robin\nseeds: [1]\n%b\nplayers:\n' "$game" "$head"
      printf '%s\n' "$@"; } >"$T/$name.yaml"
}
player() { printf '  - {name: %s, dir: %s, command: [%s]}' "$1" "$2" "$3"; }
play() {
    local name=$1; shift
    "$JUDGE" tournament "$T/$name.yaml" --out "$T/$name" --jobs 2 "$@" >"$T/$name.out" 2>"$T/$name.err"
    echo $? >"$T/$name.rc"
}

# Warlight: a process per turn; the silent bot prints nothing: INVALID_OUTPUT at its first turn.
tournament war warlight 'generate: {}\nparams: {rounds: 1, turn_limit: 4}\nlimits: {turn_wall_ms: 1000}\nsmoke_test: drop' \
    "$(player turtle "$B/warlight" ./turtle)" "$(player grabber "$B/warlight" ./grabber)" "$(player silent "$P" ./war_silent)"
play war
check war/exit_0 [ "$(cat "$T/war.rc")" = 0 ]
check war/reported grep -qE '^smoke silent: INVALID_OUTPUT at its first reply in [0-9]+-[^:]+: .*; its matches are not played$' "$T/war.err"
check war/before_the_matches [ "$(grep -n '^smoke silent' "$T/war.err" | cut -d: -f1)" -lt "$(grep -n '^tournament:' "$T/war.err" | cut -d: -f1)" ]
check war/only_one_failed grep -qx 'smoke test: 1 player failed' "$T/war.err"
check war/not_played grep -q ', 4 not played (a player did not compile or failed the smoke test), 2 to play' "$T/war.err"
# The first line counts the shard's matches as OUT/tournament.json does, those not played included.
check war/counts_as_tournament_json [ "$(json_get "$T/war/tournament.json" matches_in_shard)" = 6 ]
check war/first_line_counts_every_match grep -qx 'tournament: 6 matches in shard 1/1, 0 already finished, 4 not played '\
'(a player did not compile or failed the smoke test), 2 to play, 2 at a time' "$T/war.err"
check war/summary_counts_them grep -qE '; 2/2 finished; 4 not played; journal ' "$T/war.out"
check war/replays [ "$(ls "$T/war/replays" | grep -c silent)" = 0 -a "$(ls "$T/war/replays" | wc -l)" = 2 ]
check war/record python3 -c 'import gzip,json,sys; r=json.loads(gzip.open(sys.argv[1]).read())
assert (r["type"], r["format"], r["player"], r["verdict"]) == ("smoke", "judge-smoke", "silent", "INVALID_OUTPUT"), r' "$T/war/smoke/silent.jsonl.gz"
"$JUDGE" results "$T/war/replays" "$T/war/smoke" --out "$T/war-results" >/dev/null 2>&1
check war/results_last python3 -c 'import json,sys; J=json.load(open(sys.argv[1]))
p=J["players"][-1]; assert (p["name"], p["verdict"], p["smoke_test"], p["matches"]) == ("silent", "INVALID_OUTPUT", "INVALID_OUTPUT", 0), p' "$T/war-results/standings.json"

# Sea battle: the first reply is the board; a board whose ships touch is INVALID_MOVE. Reported, still played.
tournament sea seabattle 'generate: {}\nparams: {shot_limit: 40}' \
    "$(player fixed "$B/seabattle" ./fixed)" "$(player corner "$P" './sea_bad, corner')"
play sea
check sea/exit_0 [ "$(cat "$T/sea.rc")" = 0 ]
check sea/reported grep -qE '^smoke corner: INVALID_MOVE at its first reply in .*; its matches are played \(smoke_test: report\)$' "$T/sea.err"
check sea/played [ "$(ls "$T/sea/replays" | wc -l)" = 2 ]
check sea/no_record [ -z "$(ls -A "$T/sea/smoke")" ]

# Generals, a gauntlet (drop by default): a "bot" that sleeps past the wall limit; the flag turns it off.
{ printf 'game: generals\nformat: gauntlet\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\nparams: {turn_limit: 10}\n'
  printf 'limits: {move_wall_ms: 300}\nplayers:\n%s\n%s\nreferences:\n%s\n' "$(player greedy "$B/generals" ./greedy)" \
      "$(player sleepy /usr/bin './sleep, "100"')" "$(player pass "$B/generals" ./pass)"; } >"$T/gen.yaml"
play gen
check gen/wall_limit grep -qE '^smoke sleepy: WALL_LIMIT at its first reply in .*: no complete reply within move_wall_ms; its matches are not played$' "$T/gen.err"
check gen/greedy_passes [ -z "$(grep '^smoke greedy' "$T/gen.err")" ]
play gen --smoke-test off
check gen/off_tests_nothing [ -z "$(grep '^smoke' "$T/gen.err")" ]
e2e_exit
