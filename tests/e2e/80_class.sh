#!/usr/bin/env bash
# 80_class.sh - grading a class (examples/class, docs/class.md): submissions in C, C++,
# Python 3 and Java compiled once by the tournament from `source:` players, a gauntlet
# against reference bots, the results stage with a grading file; a compile error, a rule
# breaker and an attacker get their verdicts; resuming reuses the compiled bots; and
# `judge run` with source players. The pipeline's exit status is 0: losses are grades.
source "$(dirname "$0")/../lib.sh"
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip class "strict jails need root"
    e2e_exit
fi
for tool in /usr/bin/gcc /usr/bin/g++ /usr/bin/python3 /usr/bin/javac; do
    if [ ! -x "$tool" ]; then
        fail class "$tool is missing: run make deps"
        e2e_exit
    fi
done

# A copy of the class: the players: section is written from its submissions/ as committed.
cp -r "$ROOT/examples/class" "$T/class"
sh "$T/class/write-tournament.sh" "$T/class"
check players/written_from_submissions cmp -s "$T/class/tournament.yaml" "$ROOT/examples/class/tournament.yaml"

JUDGE=$JUDGE sh "$T/class/pipeline.sh" "$T/out" >"$T/pipeline.out" 2>"$T/pipeline.err"
check pipeline/exit_0 [ $? = 0 ]
check pipeline/prints_report grep -qx "report: $T/out/results/summary.md .*" "$T/pipeline.out"
R=$T/out/results
TO=$T/out/tournament

# q FILE EXPR: a python expression over the JSON file J.
q() { python3 -c 'import json,sys; J=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

for s in alice bob carol dave frank mallory ref-random ref-pass; do
    check "compile/${s}_ok" grep -qx "compile $s ([a-z0-9]*): OK" "$T/pipeline.err"
    check "compile/${s}_record" [ -f "$TO/compile/$s.jsonl.gz" ]
done
for s in alice bob carol dave; do
    check "played/$s" [ "$(q "$R/standings.json" "[p['matches'] for p in J['players'] if p['name']=='$s'][0]")" = 4 ]
done
check played/16_matches [ "$(ls "$TO/replays" | wc -l)" = 16 ]
check compile/erin_not_played grep -q "^compile erin (cpp): COMPILE_ERROR: its matches are not played" "$T/pipeline.err"
check compile/erin_no_replay [ -z "$(ls "$TO/replays" | grep erin)" ]
check compile/erin_standings [ "$(q "$R/standings.json" "[p['verdict'] for p in J['players'] if p['name']=='erin'][0]")" = COMPILE_ERROR ]
check compile/erin_audit_messages python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))
e=[v for p in a["players"] if p["name"]=="erin" for v in p["violations"]]
assert e and "COMPILE_ERROR" in json.dumps(e) and "expected" in json.dumps(e)' "$R/audit.json"
check compile/erin_junit python3 -c 'import sys, xml.etree.ElementTree as E
s=[x for x in E.parse(sys.argv[1]).getroot().iter("testsuite") if x.get("name")=="erin"][0]
c=s.find("testcase"); assert c.get("name")=="compile" and c.find("error") is not None and "COMPILE_ERROR" in E.tostring(c).decode()' "$R/junit.xml"

# verdicts V PLAYER: the verdicts of PLAYER's violations in the audit, sorted, unique.
verdicts() { python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))
print(" ".join(sorted({v["verdict"] + ("(" + v["evidence"]["syscall"]["name"] + ")" if v.get("evidence", {}).get("syscall") else "") for p in a["players"] if p["name"]==sys.argv[2] for v in p["violations"]})))' "$R/audit.json" "$1"; }
# frank and mallory fail the smoke test: reported at once, their matches not played (a gauntlet drops them).
check smoke/frank_reported grep -qE '^smoke frank: INVALID_OUTPUT at its first reply in [0-9]+-gen6x6-s1-frank-vs-ref-[a-z]+: .*sent "I will crush you all!"; its matches are not played$' "$T/pipeline.err"
check smoke/mallory_reported grep -qE '^smoke mallory: FORBIDDEN_SYSCALL at its first reply in .*: forbidden system call socket; its matches are not played$' "$T/pipeline.err"
check smoke/reported_before_matches [ "$(grep -nE '^smoke frank|^tournament:' "$T/pipeline.err" | cut -d: -f1 | tr '\n' ' ')" = "$(grep -n '^smoke frank' "$T/pipeline.err" | cut -d: -f1) $(grep -n '^tournament:' "$T/pipeline.err" | cut -d: -f1) " ]
check smoke/not_scheduled [ -z "$(ls "$TO/replays" | grep -E 'frank|mallory')" ]
check smoke/records [ -f "$TO/smoke/frank.jsonl.gz" -a -f "$TO/smoke/mallory.jsonl.gz" -a ! -e "$TO/smoke/alice.jsonl.gz" ]
check audit/frank_invalid_output [ "$(verdicts frank)" = INVALID_OUTPUT ]
check audit/mallory_forbidden_socket [ "$(verdicts mallory)" = "FORBIDDEN_SYSCALL" ]
check audit/mallory_reason python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))
v=[v for p in a["players"] if p["name"]=="mallory" for v in p["violations"]]
assert len(v) == 1 and v[0]["kind"] == "smoke_test" and v[0]["reason"] == "forbidden system call socket", v' "$R/audit.json"
check junit/frank_smoke_testcase python3 -c 'import sys, xml.etree.ElementTree as E
s=[x for x in E.parse(sys.argv[1]).getroot().iter("testsuite") if x.get("name")=="frank"][0]
c=[c for c in s.findall("testcase") if c.get("name")=="smoke test"][0]; assert c.find("error").get("type")=="INVALID_OUTPUT"' "$R/junit.xml"
for s in alice bob carol dave; do check "audit/${s}_clean" [ -z "$(verdicts $s)" ]; done

points() { q "$R/grades.json" "[p['points'] for p in J['players'] if p['name']=='$1'][0]"; }
check grades/alice_100 [ "$(points alice)" = 100 ]
check grades/carol_70 [ "$(points carol)" = 70 ]
check grades/erin_0 [ "$(points erin)" = 0 ]
check grades/frank_0 [ "$(points frank)" = 0 ]
# The reference bots play three times as many matches: ranked apart, the class by points per match.
check standings/class_first [ "$(q "$R/standings.json" "' '.join(p['name'] for p in J['players'] if not p['reference'])")" = "alice bob carol dave erin frank mallory" ]
check standings/references_apart [ "$(q "$R/standings.json" "' '.join(p['name'] + str(p['rank']) for p in J['players'] if p['reference'])")" = "ref-random1 ref-pass2" ]
check standings/alice_first grep -q '^| 1 | alice | 4 | 4 | 0 | 0 | 4 | 1.00 |' "$R/summary.md"
check standings/frank_verdict grep -q '^| 5 | frank | 0 | .* | `INVALID_OUTPUT` at the smoke test: no match played |$' "$R/standings.md"
check junit/names_the_generated_map python3 -c 'import sys, xml.etree.ElementTree as E
n=[c.get("name") for c in E.parse(sys.argv[1]).getroot().iter("testcase") if c.get("classname")=="alice"]
assert "vs ref-random on generated map rows=6 cols=6 cities=2 players=2 seed 1 match 0000-gen6x6-s1-alice-vs-ref-random" in n, n' "$R/junit.xml"
check grades/plural_free grep -q 'carol, beats the random bot in every match: 1 win in 2 matches against ref-random' "$R/grades.md"
check grades/references_not_graded [ "$(q "$R/grades.json" "[p['name'] for p in J['players'] if p['name'].startswith('ref-')]")" = "[]" ]

# Resuming: nothing compiled or played again; a changed submission alone is compiled again, with a
# warning: its finished matches were played with the earlier version.
echo '/* edited */' >>"$T/class/submissions/alice/bot.c"
"$JUDGE" tournament "$T/class/tournament.yaml" --out "$TO" --jobs 2 >"$T/resume.out" 2>"$T/resume.err"
check resume/exit_0 [ $? = 0 ]
check resume/alice_recompiled grep -qx "compile alice (c): OK" "$T/resume.err"
check resume/bob_reused grep -qx "compile bob (cpp): OK (reused from an earlier run)" "$T/resume.err"
check resume/erin_reused grep -q "^compile erin (cpp): COMPILE_ERROR (reused from an earlier run)" "$T/resume.err"
check resume/nothing_played grep -q "^played 0 matches" "$T/resume.out"
check resume/alice_change_warned grep -qxF "judge tournament: warning: player 'alice': its submission or language \
profile changed since an earlier run into $TO, and it was compiled again; its 4 finished matches were played with \
the earlier version and are kept: start a new output directory to play every match with this one" "$T/resume.err"
check resume/alice_alone_warned [ "$(grep -c '^judge tournament: warning: ' "$T/resume.err")" = 1 ]

# A shard compiles and smoke-tests the players of its own matches alone: shard 1/16 plays
# 0000 (alice vs ref-random) and 0016 (erin vs ref-random), not frank's nor dave's.
"$JUDGE" tournament "$T/class/tournament.yaml" --shard 1/16 --out "$T/shard" --jobs 2 \
    >"$T/shard.out" 2>"$T/shard.err"
check shard/exit_0 [ $? = 0 ]
words() { tr '\n' ' '; }
check shard/compiles_its_players_alone \
    [ "$(grep '^compile ' "$T/shard.err" | cut -d' ' -f2 | words)" = "alice erin ref-random " ]
check shard/records_of_its_players_alone \
    [ "$(ls "$T/shard/compile" | words)" = "alice.jsonl.gz erin.jsonl.gz ref-random.jsonl.gz " ]
check shard/smoke_tests_its_players_alone [ -z "$(grep -E '^smoke (frank|mallory)' "$T/shard.err")" ]
check shard/plays_its_match grep -q '; 1/1 finished' "$T/shard.out"
# A player seated in no match (a free-for-all's sample of 1 of 3 pairs leaves one out) is
# compiled by shard 1, so that its compile is recorded; shard 2 (no match) compiles nothing.
{ printf 'game: generals\nformat: free-for-all\nplayers_per_match: 2\nsample: 1\nseeds: [1]\n'
  printf 'generate: {rows: 6, cols: 6, cities: 2}\nparams: {turn_limit: 10}\nplayers:\n'
  printf '  - {name: alice, source: submissions/alice, language: c}\n'
  printf '  - {name: carol, source: submissions/carol, language: python3}\n'
  printf '  - {name: frank, source: submissions/frank, language: python3}\n'; } >"$T/class/ffa.yaml"
"$JUDGE" tournament "$T/class/ffa.yaml" --shard 2/2 --out "$T/ffa2" >/dev/null 2>"$T/ffa2.err"
check shard/no_match_no_compile [ $? = 0 -a -z "$(grep '^compile ' "$T/ffa2.err")" ]
"$JUDGE" tournament "$T/class/ffa.yaml" --shard 1/2 --out "$T/ffa1" >/dev/null 2>"$T/ffa1.err"
check shard/one_compiles_a_player_seated_nowhere \
    [ $? = 0 -a "$(ls "$T/ffa1/compile" | words)" = "alice.jsonl.gz carol.jsonl.gz frank.jsonl.gz " ]

# A class's compiles take minutes: each player's line comes as soon as it and those before it
# have compiled, not once they all have. With one job, alice's line is read before bob's
# compile (C++, in a fresh jail) has written its record.
{ printf 'game: generals\nseeds: [1]\ngenerate: {rows: 6, cols: 6, cities: 2}\nparams: {turn_limit: 10}\n'
  printf 'players:\n  - {name: alice, source: submissions/alice, language: c}\n'
  printf '  - {name: bob, source: submissions/bob, language: cpp}\n'; } >"$T/class/two.yaml"
"$JUDGE" tournament "$T/class/two.yaml" --out "$T/two" --jobs 1 2>&1 >/dev/null |
    while IFS= read -r line; do
        [ "$line" = "compile alice (c): OK" ] || continue
        [ -e "$T/two/compile/bob.jsonl.gz" ] && echo late || echo early
    done >"$T/two.when"
check compile/each_line_as_it_compiles [ "$(cat "$T/two.when")" = early ]

# judge run: source players compiled into a temporary directory, removed after.
cat >"$T/class/match.yaml" <<YAML
game: generals
generate: {rows: 6, cols: 6}
seed: 2
params: {turn_limit: 30}
limits: {memory_limit_mb: 448}
players:
  - {name: dave, source: submissions/dave, language: java}
  - {name: carol, source: submissions/carol, profile: python3}  # the old spelling of language
YAML
TMPDIR=$T "$JUDGE" run "$T/class/match.yaml" --replay "$T/run.jsonl.gz" >"$T/run.out" 2>&1
check run/exit_0 [ $? = 0 ]
check run/both_ok [ "$(grep -cE "$(run_row '(dave|carol)' OK 30 '[12]')" "$T/run.out")" = 2 ]
check run/temp_removed [ -z "$(ls -d "$T"/judge-run-* 2>/dev/null)" ]
sed -i 's|submissions/carol, profile: python3|submissions/erin, profile: cpp|' "$T/class/match.yaml"
"$JUDGE" run "$T/class/match.yaml" --replay "$T/run2.jsonl.gz" >"$T/run2.out" 2>"$T/run2.err"
check run/compile_error_exit_1 [ $? = 1 ]
check run/compile_error_message grep -q "^judge run: player 'carol' did not compile: COMPILE_ERROR" "$T/run2.err"
check run/compiler_words grep -q "error: expected ';'" "$T/run2.err"

# Bad player entries: one line naming FILE:LINE:COL, exit 2.
bad() {
    printf 'game: generals\ngenerate: {rows: 6, cols: 6}\nplayers:\n  - name: a\n%b  - {name: b, command: [/bin/true]}\n' "$2" >"$T/class/bad-$1.yaml"
    "$JUDGE" run "$T/class/bad-$1.yaml" >/dev/null 2>"$T/bad-$1.err"
    check "bad/${1}_exit_2" [ $? = 2 ]
    check "bad/${1}_message" grep -qx "$T/class/bad-$1.yaml:$3" "$T/bad-$1.err"
}
bad no_language '    source: submissions/alice\n' "5:5: a 'source' player needs 'language' (c, cpp, python3, java, ...)"
bad both '    source: submissions/alice\n    language: c\n    command: [./x]\n' "5:5: a player has 'command' or 'source', not both"
bad unknown_language '    source: submissions/alice\n    language: cobol\n' "6:15: no language profile 'cobol' in .* (profiles: c, cpp, java, python3)"
bad language_and_profile '    source: submissions/alice\n    language: c\n    profile: c\n' "7:5: a 'source' player names its language with 'language' alone ('profile' is the old spelling of it)"
bad missing_source '    source: nope\n    language: c\n' "5:13: player source '$T/class/nope': No such file or directory"
bad dir_with_source '    source: submissions/alice\n    language: c\n    dir: .\n' "7:5: 'dir' belongs to a 'command' player: a 'source' player runs from its compiled bot"

e2e_exit
