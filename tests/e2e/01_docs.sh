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
e2e_exit
