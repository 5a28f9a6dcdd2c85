#!/usr/bin/env bash
# bench_tournament.sh - tournament throughput: the same round-robin played with
# --jobs 1 and with --jobs 2 in this run, matches per second for each and their
# ratio (the target on two cores is 1.8x or more). Figures are printed, never
# asserted. Each is the best of BENCH_TOURNAMENT_REPEAT runs (default 2, taken
# alternately) so that a burst of other work on a shared machine skews neither.
# Needs $JUDGE, root (strict jails) and `make programs`; run from the repository
# root (make bench does). BENCH_TOURNAMENT_SEEDS (default 2) scales it.
set -u
: "${JUDGE:?set JUDGE to the judge binary}"
BOTS=$PWD/build/bots/generals
MAPS=$PWD/examples/maps/generals
seeds=${BENCH_TOURNAMENT_SEEDS:-2}
repeat=${BENCH_TOURNAMENT_REPEAT:-2}
echo "bench_tournament: judge tournament, round-robin of 4 bots, --jobs 1 vs --jobs 2"
if [ "$(id -u)" != 0 ] || [ ! -x "$BOTS/greedy" ]; then
    echo "  skipped: needs root and make programs"
    exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-tournament.XXXXXX")
trap 'rm -rf "$T"' EXIT

seed_list=$(seq -s, 1 "$seeds")
{
    printf 'game: generals\nmaps: [%s/original.map]\ngenerate: {rows: 12, cols: 12, cities: 6}\n' "$MAPS"
    printf 'seeds: [%s]\nparams: {turn_limit: 300}\nplayers:\n' "$seed_list"
    for b in greedy random original_style pass; do
        printf '  - {name: %s, dir: %s, command: ./%s}\n' "$b" "$BOTS" "$b"
    done
} >"$T/t.yaml"
matches=$("$JUDGE" tournament "$T/t.yaml" --list | wc -l)

# run JOBS: "WALL CPU" seconds of a whole run into a fresh directory, out$JOBS; CPU
# counts the judge, its workers and the bots (every process it waited for).
run() {
    rm -rf "$T/out$1"
    local TIMEFORMAT='%R %U %S' t
    t=$( { time "$JUDGE" tournament "$T/t.yaml" --out "$T/out$1" --jobs "$1" >/dev/null 2>&1; } 2>&1 )
    awk '{ printf "%.3f %.3f", $1, $2 + $3 }' <<<"$t"
}
# best "WALL CPU" "WALL CPU": the one with the shorter wall time.
best() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " "); print (a == "" || y[1] < x[1]) ? b : a }'; }
echo "  $matches matches (original.map and a generated 12x12, $seeds seeds, 300 rounds), $(nproc) CPUs," \
     "best of $repeat runs each, load average at start $(cut -d' ' -f1 /proc/loadavg)"
r1= r2=
for _ in $(seq "$repeat"); do
    r1=$(best "$r1" "$(run 1)")
    r2=$(best "$r2" "$(run 2)")
done
awk -v n="$matches" -v a="$r1" -v b="$r2" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "  --jobs 1   %7.2f s   %7.2f matches/s   (baseline)   CPU %.0f ms per match, %.2f CPUs busy\n",
           x[1], n / x[1], 1000 * x[2] / n, x[2] / x[1]
    printf "  --jobs 2   %7.2f s   %7.2f matches/s   %.2fx the baseline (target >= 1.8x on 2 cores)   CPU %.0f ms per match, %.2f CPUs busy\n",
           y[1], n / y[1], x[1] / y[1], 1000 * y[2] / n, y[2] / y[1]
}'
if cmp -s <(sort "$T/out1/journal.jsonl") <(sort "$T/out2/journal.jsonl"); then
    echo "  results of the two runs: identical"
else
    echo "  results of the two runs: DIFFERENT (a bot or the machine is not deterministic)"
fi
