#!/usr/bin/env bash
# 85_starters.sh - every starter bot (examples/starters/GAME/LANGUAGE/) compiled in the jail
# from its `source:` directory and played in a real match against an example bot: it ends
# with verdict OK, every reply it made accepted, and at least one move.
source "$(dirname "$0")/../lib.sh"
B=$ROOT/build/bots
S=$ROOT/examples/starters
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip starters "strict jails need root"
    e2e_exit
fi
for tool in /usr/bin/gcc /usr/bin/g++ /usr/bin/python3 /usr/bin/javac "$B/generals/random" "$B/seabattle/fixed" "$B/warlight/turtle" "$B/bomberman/breaker"; do
    if [ ! -x "$tool" ]; then
        fail starters "$tool is missing: run make deps and make programs"
        e2e_exit
    fi
done

declare -A HEAD=(
    [generals]='generate: {rows: 8, cols: 8}\nseed: 4\nparams: {turn_limit: 40}'
    [seabattle]='generate: {}\nseed: 1\nparams: {shot_limit: 60}'
    [warlight]='generate: {}\nseed: 3\nparams: {rounds: 1, turn_limit: 5}'
    [bomberman]='generate: {players: 2}\nseed: 5\nparams: {game_ticks_max: 60}'
)
declare -A OPPONENT=([generals]=./random [seabattle]=./fixed [warlight]=./turtle [bomberman]=./breaker)

for game in generals seabattle warlight bomberman; do
    for lang in c:c cpp:cpp python:python3 java:java; do
        IFS=: read -r dir language <<<"$lang"
        name=$game-$dir
        { printf 'game: %s\n%b\nlimits: {memory_limit_mb: 448}\nplayers:\n' "$game" "${HEAD[$game]}"
          printf '  - {name: starter, source: %s, language: %s}\n' "$S/$game/$dir" "$language"
          printf '  - {name: example, dir: %s, command: [%s]}\n' "$B/$game" "${OPPONENT[$game]}"; } >"$T/$name.yaml"
        "$JUDGE" run "$T/$name.yaml" --replay "$T/$name.jsonl.gz" --json >"$T/$name.json" 2>"$T/$name.err"
        check "$name/exit_0" [ $? = 0 ]
        check "$name/ok_with_moves" python3 -c 'import json,sys; J=json.load(open(sys.argv[1]))
p=[p for p in J["players"] if p["name"]=="starter"][0]
assert p["verdict"] == "OK" and p["moves"] > 0, p' "$T/$name.json"
        check "$name/no_violation" python3 -c 'import gzip,json,sys
L=[json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
assert not [x for x in L if x["type"] == "violation"], [x for x in L if x["type"] == "violation"]' "$T/$name.jsonl.gz"
    done
done
e2e_exit
