#!/usr/bin/env bash
# 35_replay.sh - `judge replay verify|export|dump` on a real match's replay, and on
# tampered, truncated and damaged copies of it.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
MAP=$ROOT/examples/maps/generals/original.map
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip replay "strict jails need root"
    e2e_exit
fi
if [ ! -x "$BOTS/greedy" ] || [ ! -x "$BOTS/random" ]; then
    fail replay "build/bots/generals/{greedy,random} are missing: run make programs"
    e2e_exit
fi

cat >"$T/m.yaml" <<EOF
game: generals
map: $MAP
seed: 4242
params:
  turn_limit: 120
players:
  - name: greedy
    dir: $BOTS
    command: [./greedy]
  - name: random
    dir: $BOTS
    command: [./random]
EOF
R=$T/m.jsonl.gz
"$JUDGE" run "$T/m.yaml" --replay "$R" >"$T/run.out" 2>&1
check replay/match_played [ $? = 0 -a -f "$R" ]

# edit FILE OUT PYTHON: rewrite a replay's lines (a list of strings, L) with PYTHON, gzip again.
edit() {
    python3 - "$1" "$2" "$3" <<'EOF'
import gzip, json, sys
L = gzip.open(sys.argv[1], "rt").read().split("\n")[:-1]
exec(sys.argv[3])
with gzip.open(sys.argv[2], "wt") as f:
    f.write("".join(x + "\n" for x in L))
EOF
}
# first_move: the index in L of the first reply that is a move (not a pass).
FIRST_MOVE='i = next(i for i, x in enumerate(L) if json.loads(x)["type"] == "reply" and json.loads(x)["line"] != "-1")'

# ---- verify -----------------------------------------------------------------------------

replies=$(zcat "$R" | grep -c '"type":"reply"')
# --replay -: the replay alone on standard output, the summary on stderr.
"$JUDGE" run "$T/m.yaml" --replay - >"$T/stdout.jsonl.gz" 2>"$T/stdout.err"
check replay/to_stdout_played [ $? = 0 ]
check replay/to_stdout_is_the_replay_alone gzip -tq "$T/stdout.jsonl.gz"
check replay/to_stdout_verifies eval '"$JUDGE" replay verify "$T/stdout.jsonl.gz" >/dev/null'
check replay/to_stdout_summary_on_stderr grep -q '^result: ' "$T/stdout.err"
"$JUDGE" replay verify "$R" >"$T/verify.out" 2>&1
check verify/ok_exit_0 [ $? = 0 ]
check verify/ok_message [ "$(cat "$T/verify.out")" = "$R: ok ($replies replies, result matches)" ]

# expect_fail NAME FILE REGEX: verify exits 1 with one line matching REGEX.
expect_fail() {
    "$JUDGE" replay verify "$2" >"$T/$1.out" 2>&1
    local rc=$?
    check verify/${1}_exit_1 [ $rc = 1 ]
    check verify/${1}_one_line [ "$(wc -l <"$T/$1.out")" = 1 ]
    check verify/${1}_message grep -qE "$3" "$T/$1.out"
}

# A reply changed to a pass: the engine's event for it differs from the recorded one.
edit "$R" "$T/pass.jsonl.gz" "$FIRST_MOVE
o = json.loads(L[i]); o['line'] = '-1'; L[i] = json.dumps(o, separators=(',', ':'))
open('$T/pass.line', 'w').write(str(i + 2))"
expect_fail tampered_reply "$T/pass.jsonl.gz" "^$T/pass.jsonl.gz: line $(cat "$T/pass.line"): recorded \{\"t\":\"move\".* but the engine gives \{\"t\":\"pass\""

# A reply changed to text that is no move: the engine finds a violation the replay lacks.
edit "$R" "$T/hello.jsonl.gz" "$FIRST_MOVE
L[i] = L[i].replace(json.dumps(json.loads(L[i])['line']), '\"hello\"')"
expect_fail tampered_text "$T/hello.jsonl.gz" "^$T/hello.jsonl.gz: line [0-9]+: recorded .* but the engine gives .*\"violation\""

# An event changed: its cells no longer match.
edit "$R" "$T/cells.jsonl.gz" "i = next(i for i, x in enumerate(L) if x.startswith('{\"type\":\"event\",\"event\":{\"t\":\"move\"') and '\"cells\":[[' in x)
L[i] = L[i].replace('\"cells\":[[', '\"cells\":[[9,', 1)"
expect_fail tampered_event "$T/cells.jsonl.gz" "^$T/cells.jsonl.gz: line [0-9]+: recorded \{\"t\":\"move\".*\"cells\":\[\[9,"

# The result changed.
edit "$R" "$T/result.jsonl.gz" "o = json.loads(L[-1]); o['winner'] = 3 - o['winner'] if o['winner'] else 1
L[-1] = json.dumps(o, separators=(',', ':'))"
expect_fail tampered_result "$T/result.jsonl.gz" "^$T/result.jsonl.gz: line $(zcat "$R" | wc -l): recorded \{\"type\":\"result\""

# Truncated, damaged, or not a replay at all.
head -c $(( $(stat -c %s "$R") / 2 )) "$R" >"$T/half.jsonl.gz"
expect_fail truncated "$T/half.jsonl.gz" "^$T/half.jsonl.gz: truncated at line [0-9]+$"
edit "$R" "$T/noresult.jsonl.gz" "L.pop()"
expect_fail no_result "$T/noresult.jsonl.gz" "^$T/noresult.jsonl.gz: no result line$"
edit "$R" "$T/badjson.jsonl.gz" "L[5] = L[5][:-3]"
expect_fail invalid_json "$T/badjson.jsonl.gz" "^$T/badjson.jsonl.gz: line 6, column [0-9]+: invalid JSON \(the line ends inside a value\)$"
zcat "$R" >"$T/plain.jsonl"
expect_fail not_gzip "$T/plain.jsonl" "^$T/plain.jsonl: not gzip$"
expect_fail missing "$T/none.jsonl.gz" "^$T/none.jsonl.gz: No such file or directory$"

# ---- dump ---------------------------------------------------------------------------------

"$JUDGE" replay dump "$R" >"$T/dump.out"
check dump/exit_0 [ $? = 0 ]
check dump/same_lines_as_zcat cmp -s "$T/dump.out" "$T/plain.jsonl"
"$JUDGE" replay dump "$T/half.jsonl.gz" >"$T/dump_half.out" 2>"$T/dump_half.err"
check dump/truncated_exit_1 [ $? = 1 ]
check dump/truncated_says_so grep -qE ": truncated at line [0-9]+$" "$T/dump_half.err"
# A bot's stderr with a C1 CSI (U+009B, valid UTF-8 a terminal obeys as ESC [) and, in a copy
# not written by the judge, a raw ESC and CR in a string (json-c reads them): the dump is the
# same JSON, strict, with neither raw.
python3 - "$R" "$T/c1.jsonl.gz" <<'EOF2'
import gzip, sys
L = gzip.open(sys.argv[1], "rb").read().split(b"\n")[:-1]
L[1] = L[1][:-1] + b',"stderr":"\xc2\x9b2J \x1b]0;owned\x07 \\"\rx\xc3\xa9"}'
gzip.open(sys.argv[2], "wb").write(b"".join(x + b"\n" for x in L))
EOF2
"$JUDGE" replay dump "$T/c1.jsonl.gz" >"$T/dump_c1.out"
check dump/raw_controls_exit_0 [ $? = 0 ]
check dump/no_raw_control python3 -c 'import sys; b = open(sys.argv[1], "rb").read()
sys.exit(b"\xc2\x9b" in b or any(c < 0x20 and c != 0x0a for c in b))' "$T/dump_c1.out"
check dump/same_json python3 -c 'import json, sys; d = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
sys.exit(d[1]["stderr"] != "\x9b2J \x1b]0;owned\x07 \"\rx\xe9")' "$T/dump_c1.out"

# ---- export ---------------------------------------------------------------------------------

"$JUDGE" replay export --format generals-log "$R" -o "$T/m.log"
check export/exit_0 [ $? = 0 ]
check export/first_line [ "$(head -1 "$T/m.log")" = "10 10 2 0" ]
check export/last_line [ "$(tail -1 "$T/m.log")" = 0 ]
check export/frames_of_state_lines [ "$(sed -n 2p "$T/m.log")" = 1 ]
"$JUDGE" replay export --format generals-log "$R" >"$T/m_stdout.log"
check export/stdout_same_as_file cmp -s "$T/m.log" "$T/m_stdout.log"
(cd "$T" && "$JUDGE" replay export --format generals-log m.jsonl.gz -o relative.log)
check export/relative_output_path cmp -s "$T/m.log" "$T/relative.log"
check export/no_temporary_left [ "$(ls -A "$T" | grep -c '\.tmp')" = 0 ]
"$JUDGE" replay export --format seabattle-log "$R" >/dev/null 2>"$T/fmt.err"
check export/wrong_format_exit_1 [ $? = 1 ]
check export/wrong_format_message grep -qF "a generals replay exports as --format generals-log" "$T/fmt.err"
"$JUDGE" replay export --format generals-log "$T/pass.jsonl.gz" -o "$T/bad.log" 2>/dev/null
check export/tampered_refused [ $? = 1 -a ! -e "$T/bad.log" ]

# ---- usage ---------------------------------------------------------------------------------

"$JUDGE" replay >/dev/null 2>&1
check usage/no_subcommand_exit_2 [ $? = 2 ]
"$JUDGE" replay verify >/dev/null 2>&1
check usage/verify_without_file_exit_2 [ $? = 2 ]
"$JUDGE" replay export "$R" >/dev/null 2>&1
check usage/export_without_format_exit_2 [ $? = 2 ]
"$JUDGE" replay --help | grep -q "judge replay verify FILE"
check usage/help [ $? = 0 ]

e2e_exit
