#!/usr/bin/env bash
# 45_results.sh - `judge results` on real replays: a round robin of generals bots (greedy,
# random, pass and one that makes an invalid move) on 2 maps and 2 seeds, plus a forbidden
# system call; standings, JUnit (validated against tests/data/junit-10.xsd), audit and
# grades checked field by field; damaged, truncated and duplicate replays, hostile player
# names, compile records and annotations.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
PROGS=$ROOT/build/progs
MAPS=$ROOT/examples/maps/generals
XSD=$ROOT/tests/data/junit-10.xsd
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip results "playing the matches needs strict jails, which need root"
    e2e_exit
fi
for bin in "$BOTS/greedy" "$BOTS/random" "$BOTS/pass" "$PROGS/gen_wrong_cell" "$PROGS/gen_forbidden"; do
    if [ ! -x "$bin" ]; then
        fail results "$bin is missing: run make programs"
        e2e_exit
    fi
done

# valid FILE: junit XML valid against the schema.
valid() { xmllint --noout --schema "$XSD" "$1" 2>"$T/xmllint.err"; }
# q FILE EXPR: a python expression over the JSON file FILE (as J), printed.
q() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
J = json.load(open(sys.argv[1], "rb"))
P = {p["name"]: p for p in J.get("players", [])}
print(eval(sys.argv[2]))
EOF
}
# qcheck NAME FILE EXPR: ok when the expression is true.
qcheck() { check "$1" [ "$(q "$2" "$3" 2>&1)" = True ]; }

# ---- the matches ---------------------------------------------------------------------

where() { case $1 in bad) echo "$PROGS ./gen_wrong_cell" ;; evil) echo "$PROGS ./gen_forbidden" ;; *) echo "$BOTS ./$1" ;; esac; }
play() { # play OUTDIR MAP SEED NAME1 NAME2
    local d1 c1 d2 c2
    read -r d1 c1 <<<"$(where "$4")"
    read -r d2 c2 <<<"$(where "$5")"
    printf 'game: generals\nmap: %s/%s.map\nparams:\n  turn_limit: 40\nplayers:\n' "$MAPS" "$2" >"$T/m.yaml"
    printf '  - name: %s\n    dir: %s\n    command: [%s]\n' "$4" "$d1" "$c1" "$5" "$d2" "$c2" >>"$T/m.yaml"
    mkdir -p "$1"
    "$JUDGE" run "$T/m.yaml" --seed "$3" --replay "$1/$2-$3-$4-$5.jsonl.gz" >/dev/null 2>&1
}
played=0
for map in original tiny; do
    for seed in 1 2; do
        for pair in "greedy random" "greedy pass" "greedy bad" "random pass" "random bad" "pass bad"; do
            # shards: the first map's matches in one directory, the second's in another
            play "$T/r/$map" $map $seed $pair && played=$((played + 1))
        done
    done
done
check matches/played [ $played = 24 ]
play "$T/evil" tiny 3 greedy evil
check matches/forbidden_played [ -f "$T/evil/tiny-3-greedy-evil.jsonl.gz" ]

# ---- standings -------------------------------------------------------------------------

O=$T/out
"$JUDGE" results "$T/r" --out "$O" >"$T/out.txt" 2>"$T/err.txt"
check run/exit_0 [ $? = 0 ]
check run/says_counts grep -q "^results: 24 matches, 4 players, 12 violations; skipped 0 damaged and 0 duplicate of 24 files" "$T/out.txt"
check run/no_annotations_outside_actions [ "$(grep -c '^::' "$T/out.txt")" = 0 ]
for f in standings.json standings.md junit.xml summary.md audit.json audit.md; do
    check "run/writes_$f" [ -s "$O/$f" ]
done
check run/no_temporary_files_left [ "$(find "$O" -name '.*' ! -path "$O/.judge-results" | wc -l)" = 0 ]

S=$O/standings.json
qcheck standings/counts "$S" 'J["matches"] == 24 and J["files"] == 24 and J["skipped"] == {"damaged": 0, "duplicate": 0} and J["games"] == ["generals"]'
qcheck standings/order "$S" '[p["name"] for p in J["players"]][0] == "greedy" and J["players"][-1]["name"] == "bad"'
qcheck standings/greedy "$S" '(P["greedy"]["rank"], P["greedy"]["matches"], P["greedy"]["wins"], P["greedy"]["draws"], P["greedy"]["losses"], P["greedy"]["points"]) == (1, 12, 12, 0, 0, 12)'
qcheck standings/bad "$S" '(P["bad"]["rank"], P["bad"]["wins"], P["bad"]["losses"], P["bad"]["points"], P["bad"]["violations"]["total"], P["bad"]["violations"]["invalid_move"]) == (4, 0, 12, 0, 12, 12)'
qcheck standings/middle "$S" 'P["random"]["wins"] + P["pass"]["wins"] == 12 and P["random"]["matches"] == P["pass"]["matches"] == 12'
qcheck standings/points_are_wins "$S" 'all(p["points"] == p["wins"] for p in J["players"])'
qcheck standings/verdicts "$S" 'all(p["verdict"] == ("INVALID_MOVE" if p["name"] == "bad" else "OK") and p["compile"] is None for p in J["players"])'
qcheck standings/bad_verdicts "$S" 'P["bad"]["verdicts"] == {"INVALID_MOVE": 12} and P["bad"]["violation_matches"] == 12'
qcheck standings/rating_order "$S" 'P["greedy"]["rating"] > max(P["random"]["rating"], P["pass"]["rating"]) and min(P["random"]["rating"], P["pass"]["rating"]) > P["bad"]["rating"]'
qcheck standings/rating_symmetric "$S" 'abs(P["greedy"]["rating"] + P["bad"]["rating"] - 3000) < 1 and all(p["rating_se"] > 0 for p in J["players"])'
qcheck standings/rating_model "$S" 'J["rating"]["model"] == "bradley-terry" and J["rating"]["converged"] is True'
qcheck standings/head_to_head "$S" '{(h["player"], h["opponent"]): (h["matches"], h["wins"], h["draws"], h["losses"]) for h in J["head_to_head"]}[("greedy", "bad")] == (4, 4, 0, 0) and len(J["head_to_head"]) == 12'
qcheck standings/h2h_sums "$S" 'all(sum(h["wins"] for h in J["head_to_head"] if h["player"] == n) == P[n]["wins"] for n in P)'
check standings/md_table grep -q '^| 1 | greedy | 12 | 12 | 0 | 0 | 12 | ' "$O/standings.md"
check standings/md_matrix grep -q '^| greedy | — | 4–0–0 | 4–0–0 | 4–0–0 |$' "$O/standings.md"

# The same replays as two shards given in the other order: the same standings to the bit.
"$JUDGE" results "$T/r/tiny" "$T/r/original" --out "$T/out_swapped" >/dev/null 2>&1
check standings/order_independent [ "$(q "$S" 'J["players"], J["head_to_head"]')" = "$(q "$T/out_swapped/standings.json" 'J["players"], J["head_to_head"]')" ]

# Read on one thread and on four: the same files, byte for byte (relative paths, so that
# the outputs, which name the replays and OUT, can be compared).
mkdir -p "$T/j1" "$T/j4"
(cd "$T/j1" && "$JUDGE" results ../r --out out --jobs 1 >/dev/null 2>&1)
(cd "$T/j4" && "$JUDGE" results ../r --out out --jobs 4 >/dev/null 2>&1)
check run/threads_do_not_change_outputs diff -r "$T/j1/out" "$T/j4/out"

# ---- JUnit -----------------------------------------------------------------------------

X=$O/junit.xml
check junit/valid_against_xsd valid "$X"
# x XPATH: the string value of an XPath expression over junit.xml.
x() { xmllint --xpath "$1" "$X" 2>/dev/null; }
check junit/suites [ "$(x 'count(/testsuites/testsuite)')" = 4 ]
check junit/totals [ "$(x 'string(/testsuites/@tests)')" = 48 -a "$(x 'string(/testsuites/@errors)')" = 12 -a "$(x 'string(/testsuites/@failures)')" = 0 ]
check junit/suite_order [ "$(x 'string(/testsuites/testsuite[1]/@name)')" = greedy ]
check junit/suite_bad [ "$(x 'string(/testsuites/testsuite[@name="bad"]/@tests)')" = 12 -a "$(x 'string(/testsuites/testsuite[@name="bad"]/@errors)')" = 12 ]
check junit/classname [ "$(x 'count(//testsuite[@name="pass"]/testcase[@classname="pass"])')" = 12 ]
check junit/testcase_name [ "$(x 'count(//testcase[@classname="greedy"][@name="vs bad on original.map seed 1"])')" = 1 ]
check junit/time_is_cpu [ "$(x 'count(//testcase[not(@time)])')" = 0 ]
check junit/error_kind [ "$(x 'count(//testcase[@classname="bad"]/error[@type="invalid_move"])')" = 12 ]
check junit/error_evidence [ "$(x 'string(//testcase[@classname="bad"][@name="vs greedy on original.map seed 1"]/error/@message)')" = 'invalid_move (INVALID_MOVE) in round 3, reply 3: player 2 does not own (1, 1); sent "1 1 1 2 1"' ]
check junit/no_failure_without_grading [ "$(x 'count(//failure)')" = 0 ]

# ---- audit -----------------------------------------------------------------------------

A=$O/audit.json
qcheck audit/only_bad "$A" '[p["name"] for p in J["players"]] == ["bad"] and P["bad"]["count"] == 12 == len(P["bad"]["violations"])'
V='P["bad"]["violations"][0]'
qcheck audit/entry "$A" "($V['kind'], $V['verdict'], $V['by'], $V['round'], $V['reply'], $V['player_number'], $V['sent'], $V['reason']) == ('invalid_move', 'INVALID_MOVE', 'game', 3, 3, 2, '1 1 1 2 1', 'player 2 does not own (1, 1)')"
qcheck audit/match "$A" "$V['replay'].endswith('original-1-greedy-bad.jsonl.gz') and $V['game'] == 'generals' and $V['map'] == 'original.map' and $V['seed'] == 1 and $V['players'] == ['greedy', 'bad'] and $V['match_id'] is None"
qcheck audit/commands "$A" "$V['verify'] == 'judge replay verify ' + $V['replay'] and ' --seed 1 --replay ' in $V['rerun'] and ' && judge replay verify ' in $V['rerun']"
check audit/md_heading grep -q '^## bad (rank 4): 12 entries, 1 different$' "$O/audit.md"
check audit/md_grouped [ "$(grep -c '^### ' "$O/audit.md")" = 1 ]
check audit/md_group_count grep -qE '^- \*\*12 times\*\* in all .*; the first: `[^`]+` round 3, reply 3; the last: `[^`]+` round 3, reply 3\. The first in full:$' "$O/audit.md"
check audit/json_keeps_every_entry python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); assert len(a["players"][0]["violations"]) == 12' "$O/audit.json"
check audit/md_entry grep -q '^- sent: `1 1 1 2 1`$' "$O/audit.md"
# The re-run command plays the match again from the files under rerun/ and verifies it.
rerun=$(q "$A" "$V['rerun']")
(cd "$T" && eval "${rerun//judge /\"$JUDGE\" }") >"$T/rerun.out" 2>&1
check audit/rerun_runs_and_verifies [ $? = 0 ]
check audit/rerun_same_violation grep -qE "$(run_row bad INVALID_MOVE '[0-9]+' 2)" "$T/rerun.out"

# A forbidden system call: what the bot called, and the most serious annotation first.
GITHUB_ACTIONS=true "$JUDGE" results "$T/r" "$T/evil" --out "$T/out_evil" >"$T/evil.out" 2>&1
check annotations/exit_0 [ $? = 0 ]
E=$T/out_evil/audit.json
qcheck audit/syscall_called "$E" 'P["evil"]["violations"][0]["kind"] == "forbidden_syscall" and P["evil"]["violations"][0]["sent"].startswith("socket(2, 1, 0")'
check annotations/at_most_10 [ "$(grep -c '^::' "$T/evil.out")" = 10 ]
check annotations/most_serious_first grep -q '^::error title=judge results%3A forbidden_syscall::evil: forbidden_syscall' <(head -1 "$T/evil.out")

# ---- damaged, truncated and duplicate replays ------------------------------------------------

# edit FILE OUT PYTHON: rewrite a replay's lines (L, a list of strings) with PYTHON, gzip again.
edit() {
    python3 - "$1" "$2" "$3" <<'EOF'
import gzip, json, sys
L = gzip.open(sys.argv[1], "rb").read().split(b"\n")[:-1]
exec(sys.argv[3])
with gzip.open(sys.argv[2], "wb") as f:
    f.write(b"".join(x + b"\n" for x in L))
EOF
}
D=$T/damaged
mkdir -p "$D" "$T/copy"
SRC=$T/r/original/original-1-greedy-random.jsonl.gz
head -c $(( $(stat -c %s "$SRC") / 2 )) "$SRC" >"$D/truncated.jsonl.gz"
edit "$SRC" "$D/badjson.jsonl.gz" 'L[3] = L[3][:-4]'
edit "$SRC" "$D/noresult.jsonl.gz" 'L.pop()'
edit "$SRC" "$D/badresult.jsonl.gz" 'o = json.loads(L[-1]); o["players"].pop(); L[-1] = json.dumps(o).encode()'
echo "not a replay" >"$D/plain.jsonl.gz"
cp -r "$T/r/tiny" "$T/copy/"       # the same matches again: duplicates
"$JUDGE" results "$T/r" "$D" "$T/copy" --out "$T/out_damaged" >"$T/damaged.out" 2>"$T/damaged.err"
rc=$?
check damaged/exit_2 [ $rc = 2 ]
check damaged/outputs_written_from_the_rest [ -s "$T/out_damaged/summary.md" -a -s "$T/out_damaged/index.html" ]
check damaged/rest_counted [ "$(q "$T/out_damaged/standings.json" 'J["matches"], J["skipped"]')" = "(24, {'damaged': 5, 'duplicate': 12})" ]
check damaged/same_standings [ "$(q "$S" 'J["players"]')" = "$(q "$T/out_damaged/standings.json" 'J["players"]')" ]
check damaged/truncated_reported grep -qE "^judge results: $D/truncated.jsonl.gz: truncated at line [0-9]+ \(skipped\)$" "$T/damaged.err"
check damaged/bad_json_reported grep -qE "^judge results: $D/badjson.jsonl.gz: line 4, column [0-9]+: invalid JSON \(the line ends inside a value\) \(skipped\)$" "$T/damaged.err"
check damaged/no_result_reported grep -qF "judge results: $D/noresult.jsonl.gz: no result line (skipped)" "$T/damaged.err"
check damaged/bad_result_reported grep -qF "$D/badresult.jsonl.gz: line $(zcat "$SRC" | wc -l): result: 1 players where the header has 2 (skipped)" "$T/damaged.err"
check damaged/not_gzip_reported grep -qF "judge results: $D/plain.jsonl.gz: not gzip (skipped)" "$T/damaged.err"
check duplicate/reported grep -qF "judge results: $T/copy/tiny/tiny-1-greedy-bad.jsonl.gz: the same match (its whole header but timing and host facts) as $T/r/tiny/tiny-1-greedy-bad.jsonl.gz (skipped: counted once)" "$T/damaged.err"
check duplicate/audit_counts_once [ "$(q "$T/out_damaged/audit.json" 'P["bad"]["count"]')" = 12 ]
qcheck damaged/listed_in_standings "$T/out_damaged/standings.json" 'sum(1 for s in J["skipped_files"] if not s["duplicate"]) == 5'

# The tournament's match id is part of a match's identity when the header has one.
edit "$SRC" "$T/copy/id1.jsonl.gz" 'o = json.loads(L[0]); o["match_id"] = "m-1"; L[0] = json.dumps(o).encode()'
edit "$SRC" "$T/copy/id2.jsonl.gz" 'o = json.loads(L[0]); o["match_id"] = 2; L[0] = json.dumps(o).encode()'
mkdir -p "$T/copy2" && cp "$T/copy/id1.jsonl.gz" "$T/copy2/"
"$JUDGE" results "$SRC" "$T/copy/id1.jsonl.gz" "$T/copy/id2.jsonl.gz" "$T/copy2" --out "$T/out_ids" >/dev/null 2>&1
check match_id/distinct_ids_count [ "$(q "$T/out_ids/standings.json" 'J["matches"], J["skipped"]["duplicate"]')" = "(3, 1)" ]
check match_id/in_testcase_name [ "$(xmllint --xpath 'count(//testcase[@name="vs random on original.map seed 1 match m-1"])' "$T/out_ids/junit.xml")" = 1 ]

"$JUDGE" results "$D" --out "$T/out_none" >/dev/null 2>"$T/none.err"
check no_valid_replay/exit_2 [ $? = 2 ]
check no_valid_replay/message grep -q "^judge results: no valid replay found (5 files read, 5 damaged, 0 duplicate)$" "$T/none.err"

# ---- hostile names, stderr with ANSI escapes, compile records -------------------------------

H=$T/hostile
mkdir -p "$H/compile"
# Player names: a closing tag, quotes, an ANSI escape, invalid UTF-8; a stderr tail full of them.
edit "$T/r/tiny/tiny-1-greedy-bad.jsonl.gz" "$H/names.jsonl.gz" '
names = [b"</testcase><x a=\"1\">&amp;", b"\"q\" \x27s\x27 \\\\ | `tick` *b* <br>", b"\\u001b[31mred\\u001b[0m \xff\xfe end"]
for i, x in enumerate(L):
    for old, new in ((b"\"name\":\"greedy\"", b"\"name\":\"" + names[0].replace(b"\"", b"\\\"") + b"\""), (b"\"name\":\"bad\"", b"\"name\":\"" + names[2] + b"\"")):
        L[i] = L[i].replace(old, new)
    if x.startswith(b"{\"type\":\"violation\""):
        L[i] = L[i].replace(b"\"stderr_tail\":\"\"", b"\"stderr_tail\":\"\\u001b[1mboom</error>]]>\\n\xc3\x28 ```\\n\\u009b2J\\n\"")'
printf '{"type":"compile","format":"judge-compile","version":1,"player":"carol","profile":"c","source":"submissions/carol","verdict":"COMPILE_ERROR","exit_code":1,"messages":"carol.c:3:1: error: expected ; before </testcase>\\n\\u001b[0m","cpu_ns":120000000,"wall_ns":300000000,"judge_version":"x"}\n' | gzip >"$H/compile/carol.jsonl.gz"
printf '{"type":"compile","format":"judge-compile","version":1,"player":"greedy","profile":"c","source":"submissions/greedy","verdict":"OK","exit_code":0,"messages":"","cpu_ns":1,"wall_ns":2,"judge_version":"x"}\n' | gzip >"$H/compile/greedy.jsonl.gz"
"$JUDGE" results "$T/r" "$H" --out "$T/out_h" >"$T/h.out" 2>"$T/h.err"
check hostile/exit_0 [ $? = 0 ]
HX=$T/out_h/junit.xml
check hostile/junit_valid valid "$HX"
check hostile/junit_name_round_trips [ "$(xmllint --xpath "count(//testsuite[@name='</testcase><x a=\"1\">&amp;'])" "$HX")" = 1 ]
check hostile/junit_ansi_visible [ "$(xmllint --xpath 'count(//testsuite[@name="\x1b[31mred\x1b[0m �� end"])' "$HX")" = 1 ]
check hostile/junit_no_raw_escape [ "$(grep -c $'\x1b' "$HX")" = 0 ]
check hostile/junit_stderr_kept grep -qF 'boom&lt;/error&gt;]]&gt;&#10;�( ```' "$HX"
HS=$T/out_h/standings.json
qcheck hostile/json_valid_utf8 "$HS" 'any(p["name"] == "\x1b[31mred\x1b[0m \ufffd\ufffd end" for p in J["players"])'
qcheck hostile/json_tag_name "$HS" '"</testcase><x a=\"1\">&amp;" in P'
check hostile/md_no_html [ "$(cat "$T/out_h/standings.md" "$T/out_h/summary.md" <(grep -v '^carol.c' "$T/out_h/audit.md") | grep -c '</testcase>')" = 0 ]
check hostile/md_escaped grep -qF '| &lt;/testcase&gt;&lt;x a="1"&gt;&amp;amp; |' "$T/out_h/standings.md"
check hostile/md_heading_escaped grep -qF '## \x1b\[31mred\x1b\[0m �� end (rank' "$T/out_h/audit.md"
check hostile/md_no_raw_escape [ "$(cat "$T/out_h/"*.md | grep -c $'\x1b')" = 0 ]
# U+009B (CSI) in the stderr tail: a terminal obeys it as ESC [; shown as its bytes everywhere.
check hostile/no_raw_c1 [ "$(cat "$T/out_h/"*.md "$HX" "$T/h.out" "$T/h.err" | grep -c $'\xc2\x9b')" = 0 ]
check hostile/c1_shown grep -qxF '\xc2\x9b2J' "$T/out_h/audit.md"
qcheck compile/standings "$HS" '(P["carol"]["verdict"], P["carol"]["compile"], P["carol"]["matches"], P["carol"]["rank"]) == ("COMPILE_ERROR", "COMPILE_ERROR", 0, len(J["players"])) and P["greedy"]["compile"] == "OK"'
qcheck compile/audit "$T/out_h/audit.json" 'P["carol"]["violations"][0]["kind"] == "compile" and "expected ; before </testcase>" in P["carol"]["violations"][0]["messages"]'
check compile/junit_error [ "$(xmllint --xpath 'string(//testcase[@classname="carol"][@name="compile"]/error/@type)' "$HX")" = COMPILE_ERROR ]
check compile/junit_ok_testcase [ "$(xmllint --xpath 'count(//testcase[@classname="greedy"][@name="compile"][not(error)])' "$HX")" = 1 ]
check compile/md_fenced grep -qF 'carol.c:3:1: error: expected ; before </testcase>' "$T/out_h/audit.md"

# ---- grading ---------------------------------------------------------------------------

G=$ROOT/examples/grading/generals-course.yaml
"$JUDGE" results "$T/r" "$H/compile" --out "$T/out_g" --grading "$G" --fail-under 50 >"$T/g.out" 2>&1
check grading/below_pass_mark_exit_1 [ $? = 1 ]
GJ=$T/out_g/grades.json
qcheck grading/graded_players "$GJ" '[p["name"] for p in J["players"]] == ["greedy", "bad", "carol"] and J["max_points"] == 100 and J["fail_under"] == 50'
qcheck grading/greedy "$GJ" '(P["greedy"]["points"], [r["points"] for r in P["greedy"]["rules"]]) == (70, [0, 20, 20, 10, 20]) and not P["greedy"]["below_fail_under"]'
qcheck grading/too_few_matches "$GJ" 'P["greedy"]["rules"][0]["detail"] == "4 wins in 4 matches against random (needs 8 of 10)"'
# Past `of` matches, the wins its own record asks for, then the rule's share.
qcheck grading/needs_the_players_own_count "$GJ" \
    'P["greedy"]["rules"][1]["detail"] == "4 wins in 4 matches against pass (needs 4 of 4: 1 of every 1)"'
qcheck grading/bad_and_carol "$GJ" 'P["bad"]["points"] == 0 == P["carol"]["points"] and P["bad"]["below_fail_under"] and P["carol"]["rules"][0]["detail"] == "compile failed"'
check grading/md grep -q '^| 1 | greedy | 0 | 20 | 20 | 10 | 20 | 70 |$' "$T/out_g/grades.md"
check grading/junit_failures [ "$(xmllint --xpath 'count(//testcase[@classname="bad"]/failure[@type="loss"])' "$T/out_g/junit.xml")" = 12 -a "$(xmllint --xpath 'count(//testcase[@classname!="bad"]/failure)' "$T/out_g/junit.xml")" = 0 ]
check grading/junit_valid valid "$T/out_g/junit.xml"
"$JUDGE" results "$T/r" --out "$T/out_g2" --grading "$G" --fail-under 0 >/dev/null 2>&1
check grading/pass_mark_met_exit_0 [ $? = 0 ]

printf 'rules:\n  - name: x\n    points: 5\n    wins: {against: nobody, at_least: 1}\n' >"$T/unknown.yaml"
"$JUDGE" results "$T/r" --out "$T/out_g3" --grading "$T/unknown.yaml" >/dev/null 2>"$T/unknown.err"
check grading/unknown_player_exit_2 [ $? = 2 ]
check grading/unknown_player_mark grep -qF "judge results: $T/unknown.yaml:4:21: no player named 'nobody' in the replays" "$T/unknown.err"
check grading/unknown_player_writes_nothing [ ! -e "$T/out_g3" ]
printf 'rules:\n  - name: x\n    points: 5\n    top_percent: 150\n' >"$T/range.yaml"
"$JUDGE" results "$T/r" --out "$T/out_g4" --grading "$T/range.yaml" >/dev/null 2>"$T/range.err"
check grading/bad_file_exit_2 [ $? = 2 ]
check grading/bad_file_mark grep -qF "judge results: $T/range.yaml:4:18: expected an integer from 1 to 100" "$T/range.err"
printf 'rules:\n  - name: x\n    points: 5\n    no_violations: true\n' >"$T/twice.yaml"
printf '  - name: x\n    points: 5\n    top_percent: 50\n' >>"$T/twice.yaml"
"$JUDGE" results "$T/r" --out "$T/out_g5" --grading "$T/twice.yaml" >/dev/null 2>"$T/twice.err"
check grading/rule_name_twice_exit_2 [ $? = 2 ]
check grading/rule_name_twice_mark grep -qxF "judge results: $T/twice.yaml:5:5: a second rule named 'x' \
(rule 1 has that name)" "$T/twice.err"

# A second run into the same OUT, without grading and with fewer matches: nothing of the first is left.
"$JUDGE" results "$T/r/tiny" --out "$T/out_g" >/dev/null 2>"$T/again.err"
check again/exit_0 [ $? = 0 ]
check again/grades_removed [ ! -e "$T/out_g/grades.json" -a ! -e "$T/out_g/grades.md" ]
check again/says_what_it_removed grep -qE "^judge results: removed [0-9]+ files an earlier run wrote into $T/out_g and this one did not: grades.json, grades.md, " "$T/again.err"
"$JUDGE" results "$T/r/tiny" --out "$T/out_fresh" >/dev/null 2>&1
check again/same_files_as_a_fresh_run diff <(cd "$T/out_g" && find . -type f ! -name .judge-results | sort) <(cd "$T/out_fresh" && find . -type f ! -name .judge-results | sort)
touch "$T/out_g/rerun/mine.jsonl.gz"
"$JUDGE" results "$T/r" --out "$T/out_g" >/dev/null 2>&1
check again/keeps_files_it_did_not_write [ -e "$T/out_g/rerun/mine.jsonl.gz" ]

# ---- summary and usage -----------------------------------------------------------------------

check summary/size [ "$(stat -c %s "$O/summary.md")" -le 1048576 ]
check summary/standings grep -q '^| 1 | greedy | 12 | 12 | 0 | 0 | 12 | ' "$O/summary.md"
"$JUDGE" results "$T/r" >/dev/null 2>&1
check usage/no_out_exit_2 [ $? = 2 ]
"$JUDGE" results --out "$T/x" >/dev/null 2>&1
check usage/no_input_exit_2 [ $? = 2 ]
"$JUDGE" results "$T/missing" --out "$T/x" >/dev/null 2>&1
check usage/missing_dir_exit_2 [ $? = 2 ]
"$JUDGE" results "$T/r" --out "$T/x" --fail-under 3 >/dev/null 2>&1
check usage/fail_under_needs_grading_exit_2 [ $? = 2 ]
"$JUDGE" results --help | grep -q "judge results DIR|REPLAY... --out OUT"
check usage/help [ $? = 0 ]

e2e_exit
