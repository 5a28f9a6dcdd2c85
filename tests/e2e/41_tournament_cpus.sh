#!/usr/bin/env bash
# 41_tournament_cpus.sh - where a tournament's matches run: with fewer workers than CPUs,
# a worker keeps a match of cheap replies on its own CPU (README, metering); with a worker
# on every CPU, matches stay spread. The bots write their Cpus_allowed_list at every reply
# and break the rules at their 10th, so that the replay's violation keeps what they wrote.
source "$(dirname "$0")/../lib.sh"
PROGS=$ROOT/build/progs
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ ! -x "$PROGS/gen_cpus" ]; then
    fail tournament_cpus "$PROGS/gen_cpus is missing: run make programs"
    e2e_exit
fi
cpus=$(nproc)
if [ "$cpus" -lt 2 ]; then
    skip tournament_cpus/one_cpu_per_worker "one CPU here: nothing to keep a match to"
    e2e_exit
fi

{ printf 'game: generals\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\nparams: {turn_limit: 30}\nplayers:\n'
  printf '  - {name: a, dir: %s, command: ./gen_cpus}\n' "$PROGS"
  printf '  - {name: b, dir: %s, command: ./gen_cpus}\n' "$PROGS"; } >"$T/t.yaml"

# seen DIR: for the violation of every replay (the first bot to break the rules ends its
# match), "FIRST LAST" of what the bot wrote: its CPUs at its 1st and 10th reply.
seen() { python3 - "$1" <<'PY'
import glob, gzip, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/replays/*.jsonl.gz")):
    for line in gzip.open(path, "rt"):
        v = json.loads(line)
        if v.get("type") != "violation":
            continue
        cpus = dict(l.split(":", 1) for l in v.get("stderr_tail", "").splitlines() if ":" in l)
        print(cpus.get("1", "?"), cpus.get("10", "?"))
PY
}

"$JUDGE" tournament "$T/t.yaml" --out "$T/one" --jobs 1 >"$T/one.out" 2>"$T/one.err"
check tournament_cpus/jobs_1_exit_0 [ $? = 0 ]
seen "$T/one" >"$T/one.seen"
check tournament_cpus/jobs_1_two_violations [ "$(wc -l <"$T/one.seen")" = 2 ]
# Started spread; kept on the first CPU it may use once three rounds were cheap.
first=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
check tournament_cpus/jobs_1_starts_spread [ -z "$(awk '$1 !~ /[-,]/' "$T/one.seen")" ]
check tournament_cpus/jobs_1_kept_on_its_cpu [ -z "$(awk -v c="$first" '$2 != c' "$T/one.seen")" ]

"$JUDGE" tournament "$T/t.yaml" --out "$T/all" --jobs "$cpus" >"$T/all.out" 2>"$T/all.err"
check tournament_cpus/worker_per_cpu_exit_0 [ $? = 0 ]
seen "$T/all" >"$T/all.seen"
check tournament_cpus/worker_per_cpu_two_violations [ "$(wc -l <"$T/all.seen")" = 2 ]
check tournament_cpus/worker_per_cpu_stays_spread [ -z "$(awk '$1 != $2 || $2 !~ /[-,]/' "$T/all.seen")" ]
e2e_exit
