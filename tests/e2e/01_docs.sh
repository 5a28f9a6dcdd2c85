#!/usr/bin/env bash
# 01_docs.sh - the docs say what the judge does: every runner limit a match file takes (as the
# judge itself lists them) is described under examples/README.md's match files, stderr_limit_kb
# saying that the rest of a flood is dropped and is no violation; and no doc asks a Python bot
# for `profile: interpreter`, which the examples never write (the default profile runs Python).
source "$(dirname "$0")/../lib.sh"
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || exit 1

printf 'game: generals\ngenerate: {}\nlimits: {no_such_limit: 1}\nplayers:\n%s\n%s\n' \
    '  - {name: a, command: [/bin/true]}' '  - {name: b, command: [/bin/true]}' >"$T/limit.yaml"
"$JUDGE" run "$T/limit.yaml" >"$T/limit.out" 2>&1
limits=$(sed -n 's/.*or one of \([a-z_, ]*\)).*/\1/p' "$T/limit.out" | tr -d ',')
check limits/listed_by_the_judge [ -n "$limits" ]
for name in $limits; do
    check "limits/${name}_described" grep -qE "^- \`$name\` \([0-9]+\): " examples/README.md
done
# says_all FILE PHRASE...: each phrase is in the file, however its lines are wrapped.
says_all() { python3 -c 'import sys; text = " ".join(open(sys.argv[1]).read().split())
sys.exit(not all(p in text for p in sys.argv[2:]))' "$@"; }
check limits/stderr_flood_cut_and_ok says_all examples/README.md 'is never a violation' \
    'only its last `stderr_limit_kb` KiB are kept and the rest is dropped' 'stderr still gets `OK`'

check profiles/no_interpreter_asked_for [ -z "$(grep -rln 'profile: interpreter' README.md docs examples --include='*.md' --include='*.yaml')" ]
# The match files the docs show (a ```yaml block starting with `game:`) play as written, from
# examples/ (their paths are relative to it): here from a directory of links to its parts.
if [ "$(id -u)" = 0 ] && [ -x "$ROOT/build/bots/bomberman/breaker" ]; then
    mkdir -p "$T/x/examples"
    for part in bots maps starters; do ln -s "$ROOT/examples/$part" "$T/x/examples/$part"; done
    ln -s "$ROOT/build" "$T/x/build"
    for doc in docs/games/*.md examples/starters/README.md; do
        python3 - "$doc" "$T/x/examples/$(basename "$doc" .md)" <<'PY'
import re, sys
blocks = [b for b in re.findall(r"```yaml\n(.*?)```", open(sys.argv[1]).read(), re.S) if b.startswith("game:")]
for i, b in enumerate(blocks):
    open("%s-%d.yaml" % (sys.argv[2], i), "w").write(b)
PY
    done
    for f in "$T"/x/examples/*.yaml; do
        name=docs/match_file_$(basename "$f" .yaml)_plays
        "$JUDGE" run "$f" --replay "$T/doc.jsonl.gz" >"$T/doc.out" 2>&1
        check "$name" [ $? = 0 -a "$(grep -cE '^[0-9-]+ +[0-9]+ +[^ ]+ +OK ' "$T/doc.out")" -ge 2 ]
    done
    check docs/match_files_found [ "$(ls "$T"/x/examples/*.yaml | wc -l)" -ge 2 ]
else
    skip docs/match_files_play "needs root and make programs"
fi
e2e_exit
