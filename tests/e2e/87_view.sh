#!/usr/bin/env bash
# 85_view.sh - `judge view`: the page beside the replay or at --out, self-contained (the
# viewer and the replay's bytes inside, nothing loaded from elsewhere), and the errors of a
# missing replay, a bad option and an unwritable output. (What the page draws is checked in
# a browser: tests/browser/.)
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip view "strict jails need root"
    e2e_exit
fi
cat >"$T/m.yaml" <<EOF
game: generals
generate: {rows: 8, cols: 8}
seed: 3
params: {turn_limit: 30}
players:
  - {name: greedy, dir: $BOTS, command: ./greedy}
  - {name: random, dir: $BOTS, command: ./random}
EOF
"$JUDGE" run "$T/m.yaml" --replay "$T/m.jsonl.gz" >/dev/null 2>&1
check view/match_played [ -f "$T/m.jsonl.gz" ]

out=$("$JUDGE" view "$T/m.jsonl.gz" 2>"$T/err")
check view/beside_the_replay [ $? = 0 -a "$out" = "$T/m.html" -a -s "$T/m.html" ]
embedded=$(sed -n 's/.*id="jv-replay" data-name="m.jsonl.gz">\([^<]*\)<\/script>.*/\1/p' "$T/m.html" | base64 -d | cmp - "$T/m.jsonl.gz" && echo same)
check view/replay_bytes_inside [ "$embedded" = same ]
check view/self_contained [ "$(grep -c -E '<script src=|<link |https?://' "$T/m.html")" = 0 ]
check view/viewer_inside grep -q 'JV.App = function' "$T/m.html"

out=$("$JUDGE" view "$T/m.jsonl.gz" --out "$T/page.html")
check view/out [ $? = 0 -a "$out" = "$T/page.html" ]
check view/same_page cmp -s "$T/m.html" "$T/page.html"
# A page it wrote is replaced, with a note; anything else (a replay above all) is left alone.
"$JUDGE" view "$T/m.jsonl.gz" --out "$T/page.html" >/dev/null 2>"$T/err"
check view/replaces_its_page [ $? = 0 ]
check view/says_it_replaced grep -qxF "judge view: note: replaced the existing page $T/page.html" "$T/err"
cp "$T/m.jsonl.gz" "$T/other.jsonl.gz"
echo precious >"$T/notes.txt"
for target in other.jsonl.gz notes.txt m.jsonl.gz; do
    before=$(sha256sum <"$T/$target")
    "$JUDGE" view "$T/m.jsonl.gz" --out "$T/$target" >/dev/null 2>"$T/err"
    rc=$?
    check "view/keeps_$target" [ $rc = 2 -a "$(sha256sum <"$T/$target")" = "$before" ]
    check "view/says_why_$target" grep -qxF "judge view: $T/$target exists and is not a page judge view wrote: not replaced (remove it, or give another --out)" "$T/err"
done

# judge replay prompts (what the browser tests compare the viewer with): one line per
# recorded input, each the engine's state text for that player; a cut replay exits 1.
"$JUDGE" replay prompts "$T/m.jsonl.gz" >"$T/prompts" 2>"$T/err"
check view/prompts_status [ $? = 0 -a ! -s "$T/err" ]
inputs=$("$JUDGE" replay dump "$T/m.jsonl.gz" | grep -c '"type":"reply"')
check view/prompts_one_per_input [ "$(wc -l <"$T/prompts")" = "$inputs" ]
check view/prompts_are_states python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ok = all(r["input"] == i + 1 and r["prompt"].startswith("1\n") and r["prompt"].count("\n") == 1 + 2 + 64 for i, r in enumerate(rows))
sys.exit(0 if ok else 1)' "$T/prompts"
head -c 2000 "$T/m.jsonl.gz" >"$T/cut.jsonl.gz"
"$JUDGE" replay prompts "$T/cut.jsonl.gz" >/dev/null 2>"$T/err"
rc=$?
check view/prompts_cut_replay [ $rc = 1 ]
check view/prompts_cut_replay_message grep -Eq "^$T/cut.jsonl.gz: (truncated at line [0-9]+|not gzip)$" "$T/err"

"$JUDGE" view "$T/missing.jsonl.gz" >"$T/out" 2>"$T/err"
rc=$?
check view/missing_file [ $rc = 2 -a ! -s "$T/out" ]
check view/missing_file_message grep -q "^judge view: $T/missing.jsonl.gz: No such file or directory$" "$T/err"
"$JUDGE" view --frob "$T/m.jsonl.gz" >/dev/null 2>"$T/err"
check view/bad_option [ $? = 2 ]
"$JUDGE" view "$T/m.jsonl.gz" --out "$T/no/such/dir/p.html" >/dev/null 2>"$T/err"
check view/unwritable_out [ $? = 1 -a "$(wc -l <"$T/err")" = 1 ]
e2e_exit
