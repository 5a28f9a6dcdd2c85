#!/usr/bin/env bash
# Run every end-to-end script in tests/e2e/ (sorted) against $JUDGE.
# Each script prints "ok NAME", "skip NAME: reason" or "FAIL NAME: reason" lines
# and exits non-zero on failure. Their lines are shown as they come (the hostile
# suite prints each attack as it finishes), then counted.
set -u
cd "$(dirname "$0")/.."
: "${JUDGE:?set JUDGE to the judge binary}"
export JUDGE
OUT=$(mktemp "${TMPDIR:-/tmp}/judge-e2e-out.XXXXXX")
trap 'rm -f "$OUT"' EXIT
passed=0; failed=0; skipped=0
for t in tests/e2e/*.sh; do
    echo "== ${t##*/}"
    bash "$t" 2>&1 | tee "$OUT"; rc=${PIPESTATUS[0]}
    p=$(grep -c '^ok ' "$OUT"); s=$(grep -c '^skip ' "$OUT"); f=$(grep -c '^FAIL ' "$OUT")
    passed=$((passed + p)); skipped=$((skipped + s)); failed=$((failed + f))
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); echo "FAIL ${t##*/}: exited $rc"; fi
done
echo "e2e: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
