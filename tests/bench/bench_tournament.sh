#!/usr/bin/env bash
# bench_tournament.sh - tournament throughput: the same round-robin played with
# --jobs 1 and with --jobs 2 in this run, matches per second for each and their
# ratio (the target on two cores is 1.8x or more). Figures are printed, never
# asserted. Each is the best of BENCH_TOURNAMENT_REPEAT runs (default 2, taken
# alternately) so that a burst of other work on a shared machine skews neither.
# Beside the ratio: the ceiling it can reach (the CPU one job keeps busy against
# the CPUs there are; the CPU the --jobs 2 run needed against the CPUs other
# processes left free during it), and, with perf installed, the kernel lock
# the two jobs wait for most.
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

# The machine's busy CPU time so far, in seconds (every CPU, any process).
machine_busy() {
    awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat
}
# run JOBS: "WALL CPU OTHERS" seconds of a whole run into a fresh directory,
# out$JOBS; CPU counts the judge, its workers and the bots (every process it
# waited for), OTHERS the CPU time the rest of the machine used meanwhile.
run() {
    rm -rf "$T/out$1"
    local TIMEFORMAT='%R %U %S' t before after
    before=$(machine_busy)
    t=$( { time "$JUDGE" tournament "$T/t.yaml" --out "$T/out$1" --jobs "$1" >/dev/null 2>&1; } 2>&1 )
    after=$(machine_busy)
    awk -v b="$before" -v a="$after" '{ o = a - b - $2 - $3; printf "%.3f %.3f %.3f", $1, $2 + $3, (o > 0 ? o : 0) }' <<<"$t"
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
awk -v n="$matches" -v a="$r1" -v b="$r2" -v cpus="$(nproc)" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    # The ceiling of the ratio: two jobs at best halve the wall time, on idle
    # CPUs as long as two jobs find the CPU they keep busy, and here no faster
    # than the CPU time the --jobs 2 run needed on the CPUs others left free.
    busy = x[2] / x[1]; free2 = cpus - y[3] / y[1]
    idle = cpus / busy; if (idle > 2) idle = 2
    fastest2 = x[1] / 2; if (free2 > 0 && y[2] / free2 > fastest2) fastest2 = y[2] / free2
    printf "  --jobs 1   %7.2f s   %7.2f matches/s   (baseline)   CPU %.0f ms per match, %.2f CPUs busy, other processes %.2f CPUs\n",
           x[1], n / x[1], 1000 * x[2] / n, busy, x[3] / x[1]
    printf "  --jobs 2   %7.2f s   %7.2f matches/s   %.2fx the baseline (ceiling %.2fx in this run, %.2fx on idle CPUs; target >= 1.8x on 2 cores)   CPU %.0f ms per match, %.2f CPUs busy, other processes %.2f CPUs\n",
           y[1], n / y[1], x[1] / y[1], x[1] / fastest2, idle, 1000 * y[2] / n, y[2] / y[1], y[3] / y[1]
    printf "  the ceiling: one job keeps %.2f CPUs busy (%d CPUs: %.2fx); other processes left %.2f CPUs free in the --jobs 2 run\n",
           busy, cpus, idle, free2
}'
if cmp -s <(sort "$T/out1/journal.jsonl") <(sort "$T/out2/journal.jsonl"); then
    echo "  results of the two runs: identical"
else
    echo "  results of the two runs: DIFFERENT (a bot or the machine is not deterministic)"
fi

# What the two workers wait for: kernel lock contention (perf lock: every
# contended lock's wait, by the kernel function that wanted it, the first frame
# of its stack past the locking helpers) in a --jobs 1 and a --jobs 2 run. What
# grows with --jobs 2 is what serialises them; the biggest is named, per match,
# beside its figure with --jobs 1 (where only other processes contend).
lock_waits() {
    rm -rf "$T/locks$1"
    perf lock record -o "$T/perf$1.data" -- "$JUDGE" tournament "$T/t.yaml" --out "$T/locks$1" --jobs "$1" \
        >/dev/null 2>&1 || return 1
    perf lock contention -v -i "$T/perf$1.data" -E 30 2>&1 | awk '
        function ms(v, unit) { return unit == "s" ? v * 1000 : unit == "us" ? v / 1000 : unit == "ns" ? v / 1e6 : v }
        $1 ~ /^[0-9]+$/ && NF >= 9 { wait = ms($2, $3); who = ""; next }
        $1 ~ /^0x/ && wait > 0 && who == "" {
            f = $2; sub(/\+0x[0-9a-f]+$/, "", f); sub(/\.(isra|constprop|part)\..*$/, "", f)
            if (f !~ /^(_*mutex_lock|_*down|percpu_down|_*raw_spin|rwsem|cgroup_kn_lock_live|cgroup_lock|lock_)/) {
                who = f; w[who] += wait; wait = 0
            }
        }
        END { for (c in w) printf "%s %.3f\n", c, w[c] }' | sort
}
if ! command -v perf >/dev/null || ! lock_waits 1 >"$T/locks1.txt" || ! lock_waits 2 >"$T/locks2.txt" ||
    [ ! -s "$T/locks2.txt" ]; then
    echo "  serialising cost: not measured (needs root and perf with lock tracepoints: Debian linux-perf)"
    exit 0
fi
join -a 2 -e 0 -o 0,1.2,2.2 "$T/locks1.txt" "$T/locks2.txt" | awk -v n="$matches" '
    BEGIN {
        what["__cgroup1_procs_write"] = "moving jail processes into the v1 cgroups, under the kernel'"'"'s one cgroup_mutex"
        what["__cgroup_procs_write"] = "moving jail processes into the v2 cgroup, under cgroup_mutex"
        what["cgroup_freeze_write"] = "cgroup freeze and thaw around replies, under cgroup_mutex"
        what["freezer_write"] = "v1 freezer writes around replies (freezer_mutex)"
        what["cgroup_mkdir"] = "cgroup creation, under cgroup_mutex"
        what["cgroup_rmdir"] = "cgroup removal, under cgroup_mutex"
        what["setup_net"] = "network namespace creation (pernet_ops_rwsem)"
    }
    { total1 += $2; total2 += $3; if ($3 - $2 > grow) { grow = $3 - $2; name = $1; w1 = $2; w2 = $3 } }
    END {
        printf "  kernel lock waits: %.1f ms per match with --jobs 2, %.1f ms with --jobs 1 (perf lock)\n", total2 / n, total1 / n
        if (name == "") { print "  serialising cost: none found (no lock waits longer with --jobs 2)"; exit }
        printf "  biggest serialising cost: %s [%s]: %.1f ms per match waiting with --jobs 2, %.1f ms with --jobs 1\n",
               name in what ? what[name] : "a kernel lock", name, w2 / n, w1 / n
    }'
