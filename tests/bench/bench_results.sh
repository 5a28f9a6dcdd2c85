#!/usr/bin/env bash
# bench_results.sh - `judge results` over 10 000 small replays: wall time, replays per
# second and peak memory (the largest resident set of the process, ru_maxrss), next to
# a baseline measured in the same run: `zcat` of the same files (decompression alone);
# once with --jobs 1 (everything on one thread), once with a reading thread per CPU.
# The replays are copies of two real matches (one with an invalid move) with the seed
# and the player names varied (40 players), so the standings are real and the audit has
# entries. Peak memory is also shown for 1 000 replays: it should not grow with the count.
# The outputs include the match pages (matches/, 64 matches a page) and the re-run files: they are
# written without an fsync each and put on disk together at the end (ci/file_batch.h).
# Figures are printed, never asserted. Needs $JUDGE, root (the two matches are played in
# strict jails) and `make programs`; run from the repository root (make bench does).
# BENCH_RESULTS_REPLAYS (default 10000) scales it.
set -u
: "${JUDGE:?set JUDGE to the judge binary}"
BOTS=$PWD/build/bots/generals
PROGS=$PWD/build/progs
MAPS=$PWD/examples/maps/generals
count=${BENCH_RESULTS_REPLAYS:-10000}
echo "bench_results: judge results over $count replays, against zcat of the same files"
if [ "$(id -u)" != 0 ] || [ ! -x "$BOTS/greedy" ] || [ ! -x "$PROGS/gen_wrong_cell" ]; then
    echo "  skipped: needs root and make programs"
    exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-results.XXXXXX")
trap 'rm -rf "$T"' EXIT

play() { # play NAME DIR2 CMD2
    printf 'game: generals\nmap: %s/original.map\nseed: 1\nparams: {turn_limit: 60}\nplayers:\n' "$MAPS" >"$T/$1.yaml"
    printf '  - {name: greedy, dir: %s, command: ./greedy}\n  - {name: other, dir: %s, command: %s}\n' \
        "$BOTS" "$2" "$3" >>"$T/$1.yaml"
    "$JUDGE" run "$T/$1.yaml" --replay "$T/$1.jsonl.gz" >/dev/null 2>&1
}
play clean "$BOTS" ./random && play violation "$PROGS" ./gen_wrong_cell || { echo "  skipped: judge run failed"; exit 0; }

# N copies, each with its own seed and two of 40 player names (a round robin's worth of pairs).
python3 - "$T" "$count" <<'EOF'
import gzip, json, os, sys
root, count = sys.argv[1], int(sys.argv[2])
templates = [gzip.open(os.path.join(root, n + ".jsonl.gz"), "rt").read().split("\n")[:-1] for n in ("clean", "violation")]
names = ["student%02d" % i for i in range(40)]
for k in (1000, count):
    os.makedirs(os.path.join(root, "r%d" % k), exist_ok=True)
for i in range(count):
    lines = list(templates[i % 7 == 0])
    a, b = names[i % 40], names[(i // 40 + i + 1) % 40]
    if a == b:
        b = names[(i + 7) % 40]
    for n, line in enumerate(lines):
        if n == 0 or line.startswith('{"type":"result"'):
            o = json.loads(line)
            if n == 0:
                o["seed"] = i + 1
            for p, name in zip(o["players"], (a, b)):
                p["name"] = name
            lines[n] = json.dumps(o, separators=(",", ":"))
    data = gzip.compress(("\n".join(lines) + "\n").encode(), 6)
    for k in (1000, count):
        if i < k:
            with open(os.path.join(root, "r%d" % k, "%05d.jsonl.gz" % i), "wb") as f:
                f.write(data)
EOF

# measure CMD...: "SECONDS MAXRSS_KIB STATUS" of one run. A tiny C helper forks and execs the
# command, then reads its children's ru_maxrss (an interpreter would lend the child its own size).
cc -O2 -o "$T/measure" -x c - <<'EOF'
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    (void)argc;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    printf("%.3f %ld %d\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9, ru.ru_maxrss,
           WIFEXITED(status) ? WEXITSTATUS(status) : 128);
    return 0;
}
EOF
bytes=$(du -sb "$T/r$count" | cut -f1)
results() { # results DIR OUT [OPTION...]: judge results quietly, under measure
    "$T/measure" sh -c 'dir=$1 out=$2; shift 2; exec "$JUDGE" results "$dir" --out "$out" "$@" >/dev/null 2>&1' sh "$@"
}
export JUDGE
sync
read -r zt zm _ <<<"$("$T/measure" sh -c 'cat "$1"/*.jsonl.gz | zcat >/dev/null' sh "$T/r$count")"
read -r rt1 rm1 rc1 <<<"$(results "$T/r$count" "$T/out1" --jobs 1)"
read -r rt rm rc <<<"$(results "$T/r$count" "$T/out")"
read -r st sm _ <<<"$(results "$T/r1000" "$T/out1000")"
awk -v n="$count" -v mb="$bytes" -v zt="$zt" -v zm="$zm" -v rt1="$rt1" -v rm1="$rm1" -v rc1="$rc1" -v rt="$rt" \
    -v rm="$rm" -v rc="$rc" -v st="$st" -v sm="$sm" -v cpus="$(nproc)" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "  %d replays, %.1f MiB compressed, %d CPUs, load average %s\n", n, mb / 1048576, cpus, load
    printf "  zcat (baseline)            %7.2f s  %7.0f replays/s   peak %6.1f MiB\n", zt, n / zt, zm / 1024
    printf "  judge results --jobs 1     %7.2f s  %7.0f replays/s   peak %6.1f MiB   %.1fx the baseline time (exit %d)\n", rt1, n / rt1, rm1 / 1024, rt1 / zt, rc1
    printf "  judge results (1 per CPU)  %7.2f s  %7.0f replays/s   peak %6.1f MiB   %.1fx the baseline time (exit %d)\n", rt, n / rt, rm / 1024, rt / zt, rc
    printf "  a reading thread per CPU is %.2fx as fast as --jobs 1\n", rt1 / rt
    printf "  judge results, 1000 replays: %.2f s, peak %.1f MiB: %.2fx the memory for %dx the replays\n", st, sm / 1024, rm / sm, n / 1000
}'
echo "  outputs for $count replays: $(ls "$T/out" | tr '\n' ' ')($(du -sh "$T/out" | cut -f1))"
