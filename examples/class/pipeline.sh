#!/bin/sh
# pipeline.sh [OUT] - the class's grading pipeline on this machine, the steps
# ci/examples/github-grading.yml and gitlab-grading.yml run: compile every
# submission and play the gauntlet (judge tournament), then the results stage
# with the grading file. Exits non-zero only when the judge fails (exit 3) or
# a file is wrong (exit 2): a student's compile error, loss or violation is a
# grade. $JUDGE is the judge (default: bin/judge); `make demo-class` runs this.
set -eu
JUDGE=${JUDGE:-bin/judge}
class=$(dirname "$0")
out=${1:-class-out}
"$JUDGE" tournament "$class/tournament.yaml" --out "$out/tournament" --jobs "${JOBS:-2}"
# The replays, the compile records and the smoke test's: OUT/bots holds what submissions made.
"$JUDGE" results "$out/tournament/replays" "$out/tournament/compile" "$out/tournament/smoke" --out "$out/results" \
    --grading "$class/grading.yaml"
echo "report: $out/results/summary.md (grades.md, standings.md, audit.md, junit.xml beside it)"
