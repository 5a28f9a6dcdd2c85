#!/usr/bin/env bash
# bench_tournament.sh - tournament throughput: the same round-robin played with
# --jobs 1 and with --jobs 2 in this run, matches per second for each and their
# ratio (the target on two cores is 1.8x or more). Figures are printed, never
# asserted. Each is the best of BENCH_TOURNAMENT_REPEAT runs (default 2, taken
# alternately) so that a burst of other work on a shared machine skews neither.
# Beside the ratio: the ceiling it can reach (the CPU one job keeps busy against
# the CPUs there are, and against those other processes left free during the
# run), and, with strace installed, what waits longer per call when two
# matches run at once (a lock or device both contend for), per match.
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
    printf "  --jobs 1   %7.2f s   %7.2f matches/s   (baseline)   CPU %.0f ms per match, %.2f CPUs busy, other processes %.2f CPUs\n",
           x[1], n / x[1], 1000 * x[2] / n, x[2] / x[1], x[3] / x[1]
    printf "  --jobs 2   %7.2f s   %7.2f matches/s   %.2fx the baseline (target >= 1.8x on 2 cores)   CPU %.0f ms per match, %.2f CPUs busy, other processes %.2f CPUs\n",
           y[1], n / y[1], x[1] / y[1], 1000 * y[2] / n, y[2] / y[1], y[3] / y[1]
    busy = x[2] / x[1]; free2 = cpus - y[3] / y[1]
    quiet = cpus / busy; loaded = free2 / busy
    printf "  ceiling of the ratio: %.2fx on %d idle CPUs (one job keeps %.2f busy), %.2fx with the %.2f CPUs other processes left free in the --jobs 2 run\n",
           (quiet < 2 ? quiet : 2), cpus, busy, (loaded < 2 ? loaded : 2), free2
}'
if cmp -s <(sort "$T/out1/journal.jsonl") <(sort "$T/out2/journal.jsonl"); then
    echo "  results of the two runs: identical"
else
    echo "  results of the two runs: DIFFERENT (a bot or the machine is not deterministic)"
fi

# What waits longer when two matches run at once: every syscall's time per
# call under strace -f -c -w with --jobs 1 and 2 (strace slows both alike; the
# ratio is what counts). Waits for a bot or a child (poll, read, wait4, ...)
# are left out: they grow with the other match's CPU use, not with a lock. The
# growth of calls that share nothing (write, close, clock_gettime) is what CPU
# contention alone costs; a call growing more waits for something shared.
syscall_times() {
    rm -rf "$T/trace$1"
    strace -f -c -w -o "$T/strace$1" "$JUDGE" tournament "$T/t.yaml" --out "$T/trace$1" --jobs "$1" >/dev/null 2>&1
    awk 'NR > 2 && $NF != "total" && $4 ~ /^[0-9]+$/ { print $NF, $2, $4 }' "$T/strace$1" | sort
}
if ! command -v strace >/dev/null; then
    echo "  serialising cost: not measured (strace is not installed)"
    exit 0
fi
join <(syscall_times 1) <(syscall_times 2) | awk -v n="$matches" '
    BEGIN {
        split("poll ppoll select pselect6 epoll_wait epoll_pwait read readv wait4 waitid rt_sigtimedwait " \
              "rt_sigsuspend pause nanosleep clock_nanosleep futex restart_syscall", w, " ")
        for (i in w) wait[w[i]] = 1
        split("write close clock_gettime", f, " ")
        for (i in f) free[f[i]] = 1
        what["pwrite64"] = "cgroup file writes (freeze and thaw around every reply, limits)"
        what["pread64"] = "cgroup and /proc reads (CPU counters, freezer state)"
        what["mkdirat"] = "cgroup and jail directory creation"; what["mkdir"] = what["mkdirat"]
        what["rmdir"] = "cgroup removal"; what["unlinkat"] = "cgroup and jail directory removal"
        what["fsync"] = "fsync of replays and the journal"; what["fdatasync"] = what["fsync"]
        what["unshare"] = "namespace creation"; what["clone3"] = "jail process creation"
        what["umount2"] = "jail unmount"; what["mount"] = "jail mounts"
    }
    !($1 in wait) && $3 > 0 && $5 > 0 { s1[$1] = $2; c1[$1] = $3; s2[$1] = $4; c2[$1] = $5 }
    $1 in free { fs1 += $2; fc1 += $3; fs2 += $4; fc2 += $5 }
    END {
        base = fc1 && fc2 && fs1 > 0 ? (fs2 / fc2) / (fs1 / fc1) : 1
        for (k in s1) {
            a1 = s1[k] / c1[k]; a2 = s2[k] / c2[k]; extra = c2[k] * (a2 - a1 * base) / n
            if (extra > best) { best = extra; name = k; b1 = a1; b2 = a2; calls = c2[k] / n }
        }
        printf "  CPU contention alone: calls that share nothing take %.2fx as long per call with --jobs 2\n", base
        if (name == "")
            print "  serialising cost: none found (no syscall waits longer per call than that)"
        else
            printf "  biggest serialising cost: %s%s%s: %.0f us per call with --jobs 1, %.0f us with --jobs 2 (%.2fx), %.0f calls per match: %.1f ms per match beyond CPU contention (times under strace)\n",
                   name, name in what ? ", " : "", name in what ? what[name] : "", 1e6 * b1, 1e6 * b2, b2 / b1, calls, 1000 * best
    }'
