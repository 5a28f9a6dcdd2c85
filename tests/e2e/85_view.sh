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

"$JUDGE" view "$T/missing.jsonl.gz" >"$T/out" 2>"$T/err"
rc=$?
check view/missing_file [ $rc = 2 -a ! -s "$T/out" ]
check view/missing_file_message grep -q "^judge view: $T/missing.jsonl.gz: No such file or directory$" "$T/err"
"$JUDGE" view --frob "$T/m.jsonl.gz" >/dev/null 2>"$T/err"
check view/bad_option [ $? = 2 ]
"$JUDGE" view "$T/m.jsonl.gz" --out "$T/no/such/dir/p.html" >/dev/null 2>"$T/err"
check view/unwritable_out [ $? = 1 -a "$(wc -l <"$T/err")" = 1 ]
e2e_exit
