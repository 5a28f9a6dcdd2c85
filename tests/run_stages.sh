#!/usr/bin/env bash
# tests/run_stages.sh - `make test`: run every stage named (make targets), each to its end
# even when an earlier one failed, streaming what it prints, then each stage's time and one summary line
# counting every test of every stage: "make test: N passed, N failed, N skipped". Exits 1
# if anything failed. Tests are counted from the lines the runners print: "ok NAME",
# "FAIL NAME: why", "skip NAME: why" (e2e and hostile), Check's "Checks: N, Failures: F,
# Errors: E" (unit; a named "skip" line of a unit test counts as skipped, not passed), and
# "valgrind ok/FAIL NAME", and node's TAP ("ok N - NAME", "not ok N - NAME" at the top
# level: a failing subtest fails its suite). A stage that fails without naming a test counts as one failure.
# Usage: MAKE=make tests/run_stages.sh STAGE...
set -u
MAKE=${MAKE:-make}
LOG=$(mktemp "${TMPDIR:-/tmp}/judge-stages.XXXXXX")
trap 'rm -f "$LOG"' EXIT
passed=0 failed=0 skipped=0 failed_stages=() timings=()

count() {  # PATTERN: lines of the stage's log matching it
    grep -cE -- "$1" "$LOG"
}

for stage in "$@"; do
    echo "== stage $stage"
    start=$SECONDS
    $MAKE --no-print-directory "$stage" 2>&1 | tee "$LOG"
    rc=${PIPESTATUS[0]}
    timings+=("$stage $((SECONDS - start)) s")
    p=$(count '^ok '); f=$(( $(count '^FAIL ') + $(count '^not ok ') )); s=$(count '^skip ')
    read -r checks check_failed < <(awk '/Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
        gsub(/,/, ""); for (i = 1; i <= NF; i++) { if ($i == "Checks:") c += $(i + 1)
        if ($i == "Failures:" || $i == "Errors:") e += $(i + 1) } } END { print c + 0, e + 0 }' "$LOG")
    # A unit test that skips returns early and is also one of Check's passed checks.
    [ "$checks" = 0 ] || p=$((p + checks - check_failed - s))
    f=$((f + check_failed))
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        echo "FAIL stage $stage: exited $rc without naming a failed test"
        f=1
    fi
    [ "$f" = 0 ] || failed_stages+=("$stage")
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
done
echo "stage times: $(IFS=,; echo "${timings[*]}" | sed 's/,/, /g')"
echo "make test: $passed passed, $failed failed, $skipped skipped${failed_stages[*]:+ (failed in: ${failed_stages[*]})}"
[ "$failed" = 0 ]
