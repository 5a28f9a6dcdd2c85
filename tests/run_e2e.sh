#!/usr/bin/env bash
# Run every end-to-end script in tests/e2e/ (sorted) against $JUDGE.
# Each script prints "ok NAME", "skip NAME: reason" or "FAIL NAME: reason" lines
# and exits non-zero on failure.
set -u
cd "$(dirname "$0")/.."
: "${JUDGE:?set JUDGE to the judge binary}"
export JUDGE
passed=0; failed=0; skipped=0
for t in tests/e2e/*.sh; do
    echo "== ${t##*/}"
    out=$(bash "$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    p=$(grep -c '^ok ' <<<"$out"); s=$(grep -c '^skip ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out")
    passed=$((passed + p)); skipped=$((skipped + s)); failed=$((failed + f))
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); echo "FAIL ${t##*/}: exited $rc"; fi
done
echo "e2e: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
