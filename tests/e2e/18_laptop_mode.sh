#!/usr/bin/env bash
# 18_laptop_mode.sh - best-effort as an ordinary user with no cgroup of its own (nobody,
# as on a laptop without a delegated cgroup v2 subtree): the jail has its namespaces and
# seccomp, and rlimits stand in for the cgroup. A bot's death keeps its verdict there,
# in a match as in judge exec: a forbidden call is FORBIDDEN_SYSCALL, a fault or a kill
# RUNTIME_ERROR, never taken for the memory limit. The CPU of a bot's children counts,
# once reaped (no cgroup counts it while they run): those it waited for, and those left
# running at its end, which the jail's init kills and reaps; a total past the limit is
# CPU_LIMIT, in a match past the budget too, found at the bot's end. The judge's environment
# never shows through the jail's init. Memory is RLIMIT_DATA, which a runtime's reservations
# do not fill: Java compiles and runs. The hostile suite's attacks for an ordinary user get
# the verdicts of tests/hostile/expect_fallback.txt. A refused fork is never reported: no
# PROCESS_LIMIT, and the report's isolation note says so.
source "$(dirname "$0")/../lib.sh"
PROGS=$ROOT/build/progs
BOTS=$ROOT/build/bots/generals
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip laptop "run as root to become nobody (setpriv)"
    e2e_exit
fi
for bin in "$PROGS/gen_forbidden" "$PROGS/gen_fault" "$PROGS/gen_spin_child" "$PROGS/exec_signal" \
           "$PROGS/exec_kids" "$BOTS/pass" "$ROOT/build/hostile/env_secret"; do
    if [ ! -x "$bin" ]; then
        fail laptop "$bin is missing: run make programs"
        e2e_exit
    fi
done
OUT=$T/nobody
mkdir "$OUT" && chown 65534:65534 "$OUT"
as_nobody() { (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }
as_nobody "$JUDGE" exec --isolation best-effort --report "$OUT/probe.json" -- /bin/true </dev/null >/dev/null 2>&1
if [ "$(json_get "$OUT/probe.json" isolation.cgroup 2>/dev/null)" != none ]; then
    skip laptop "nobody has a cgroup here: the rlimit fallback is not what runs"
    e2e_exit
fi
field() { json_get "$OUT/$1.json" "$2"; }
# jexec NAME [OPTIONS...] -- CMD...: judge exec as nobody, best-effort, in build/progs.
jexec() {
    local name=$1; shift
    as_nobody "$JUDGE" exec --isolation best-effort --dir "$PROGS" --report "$OUT/$name.json" \
        --stdout /dev/null --stderr /dev/null "$@" </dev/null
}
verified() { "$JUDGE" replay verify "$1" >/dev/null 2>&1; }
refused() { ! verified "$1"; }
# laptop_match NAME BOT [judge run options...]: build/progs/BOT against pass for 10 rounds, as
# nobody; the replay is $OUT/NAME.jsonl.gz.
laptop_match() {
    local name=$1 bot=$2; shift 2
    { printf 'game: generals\ngenerate:\n  rows: 8\n  cols: 8\n  players: 2\nseed: 4\n'
      printf 'params:\n  turn_limit: 10\nplayers:\n'
      printf '  - name: bad\n    dir: %s\n    command: [./%s]\n' "$PROGS" "$bot"
      printf '  - name: pass\n    dir: %s\n    command: [./pass]\n' "$BOTS"; } >"$T/$name.yaml"
    as_nobody "$JUDGE" run "$T/$name.yaml" --isolation best-effort --replay "$OUT/$name.jsonl.gz" "$@" \
        >"$T/$name.out" 2>&1
}

# ---- a death keeps its verdict under a memory rlimit ---------------------------------------

laptop_match forbidden gen_forbidden
check laptop/match_forbidden_call [ "$(rq "$OUT/forbidden.jsonl.gz" 'V[0]["verdict"], V[0]["evidence"]["syscall"]["name"]')" = \
    "('FORBIDDEN_SYSCALL', 'socket')" ]
laptop_match fault gen_fault
check laptop/match_fault_is_a_crash [ "$(rq "$OUT/fault.jsonl.gz" 'V[0]["verdict"], V[0]["evidence"]["reason"]')" = \
    "('RUNTIME_ERROR', 'killed by signal 11 (SEGV) before the reply was complete')" ]
for name in forbidden fault; do
    check laptop/match_${name}_verifies verified "$OUT/$name.jsonl.gz"
done

jexec segv --memory 256M -- ./exec_signal segv
check laptop/exec_fault_is_a_crash [ "$(field segv verdict) $(field segv signal)" = "RUNTIME_ERROR 11" ]
jexec self_kill --memory 256M -- ./exec_signal 9
check laptop/exec_self_kill_is_a_crash [ "$(field self_kill verdict) $(field self_kill signal)" = "RUNTIME_ERROR 9" ]
jexec touch --memory 64M -- ./exec_touch 200
check laptop/exec_allocation_guessed [ "$(field touch verdict)" = MEMORY_LIMIT ]

# ---- the CPU of children ------------------------------------------------------------------

jexec reaped --cpu 1 --wall 30 -- ./exec_kids reaped 4 300
check laptop/exec_reaped_children_counted [ "$(field reaped verdict)" = CPU_LIMIT -a "$(field reaped cpu_ns)" -ge 1200000000 ]
jexec left --cpu 1 --wall 30 -- ./exec_kids left 2 600
check laptop/exec_children_left_counted [ "$(field left verdict)" = CPU_LIMIT -a "$(field left cpu_ns)" -ge 1200000000 ]
check laptop/exec_children_left_note grep -q "ms counted at its end, its children's included" "$OUT/left.json"
jexec few --cpu 1 --wall 30 -- ./exec_kids reaped 1 100
check laptop/exec_children_under_the_limit_ok [ "$(field few verdict)" = OK -a "$(field few cpu_ns)" -ge 100000000 ]
check laptop/isolation_says_children_late grep -q 'children counted at its end, not as they run' "$OUT/few.json"
# Killed by the judge (its output past the cap, after its kids had burnt 300 ms each): the
# init, left to end the rest, counts them.
jexec killed --cpu 100 --wall 30 --output-limit 1k -- /bin/sh -c './exec_kids left 2 300; exec yes'
check laptop/exec_children_of_a_killed_jail_counted [ "$(field killed verdict)" = OUTPUT_LIMIT \
    -a "$(field killed cpu_ns)" -ge 600000000 ]
check laptop/freezer_named [ "$(field few isolation.how.freezer)" = "SIGSTOP of its init and command; children run on" ]

# gen_spin_child's child burns 600 ms before its 3rd reply and on to the end: over a budget of
# 310 ms, unseen while it ran, counted at the end.
laptop_match spin gen_spin_child --param budget_base_ms=300
check laptop/match_children_cpu_over_budget [ "$(rq "$OUT/spin.jsonl.gz" \
    'len(V), R["players"][0]["verdict"], R["players"][0]["cpu_ns"] > R["players"][0]["budget_ns"] == 310000000')" = \
    "(0, 'CPU_LIMIT', True)" ]
check laptop/match_children_cpu_why grep -q 'why: round 10, reply 10: CPU time over the budget, found at its end' \
    "$T/spin.out"
check laptop/match_spin_verifies verified "$OUT/spin.jsonl.gz"
# The verifier takes that CPU_LIMIT from the result's own figures: under the budget, it is refused.
python3 - "$OUT/spin.jsonl.gz" "$T/spin-cut.jsonl.gz" <<'PY'
import gzip, json, sys
lines = [json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
lines[-1]["players"][0]["cpu_ns"] = lines[-1]["players"][0]["budget_ns"]
with gzip.open(sys.argv[2], "wt") as f:
    f.writelines(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
PY
check laptop/match_cpu_limit_needs_its_figures refused "$T/spin-cut.jsonl.gz"

# ---- the judge's environment ---------------------------------------------------------------

# Until the command's execve its init, of the user's own uid, is readable to it: the judge's
# environment must be gone from the init's memory before then (tests/hostile/env_secret).
leaks=0
for n in $(seq 20); do
    as_nobody env JUDGE_HOSTILE_SECRET=laptop-secret "$JUDGE" exec --isolation best-effort \
        --dir "$ROOT/build/hostile" --report "$OUT/env$n.json" --stdout /dev/null --stderr /dev/null \
        -- ./env_secret </dev/null
    [ "$(field "env$n" verdict)" = OK ] || leaks=$((leaks + 1))
done
check laptop/judge_environment_never_seen [ $leaks = 0 ]

# ---- memory: RLIMIT_DATA leaves a runtime's reservations alone --------------------------

check laptop/memory_limit_named [ "$(field few isolation.how.memory_limit)" = \
    "rlimit RLIMIT_DATA per process; MEMORY_LIMIT a guess" ]
if [ -x /usr/bin/javac ] && [ -x /usr/bin/java ]; then
    as_nobody "$JUDGE" compile --isolation best-effort --profile java "$ROOT/examples/starters/generals/java" \
        --out "$OUT/java" >"$T/javac.out" 2>&1
    check laptop/java_compiles [ $? = 0 -a "$(head -c 3 "$T/javac.out")" = "OK " -a -f "$OUT/java/Bot.class" ]
    { printf 'game: generals\ngenerate:\n  rows: 8\n  cols: 8\n  players: 2\nseed: 4\n'
      printf 'params:\n  turn_limit: 10\nplayers:\n'
      printf '  - name: java\n    source: %s\n    language: java\n' "$ROOT/examples/starters/generals/java"
      printf '  - name: pass\n    dir: %s\n    command: [./pass]\n' "$BOTS"; } >"$T/java.yaml"
    as_nobody "$JUDGE" run "$T/java.yaml" --isolation best-effort --replay "$OUT/java.jsonl.gz" >"$T/java.out" 2>&1
    check laptop/java_plays [ "$(rq "$OUT/java.jsonl.gz" '[(p["verdict"], p["moves"]) for p in R["players"]]')" = \
        "[('OK', 10), ('OK', 10)]" ]
else
    skip laptop/java "no JDK here (make deps)"
fi

# ---- processes: RLIMIT_NPROC refuses a fork, and nothing tells the judge -------------------

check laptop/pids_limit_named [ "$(field few isolation.how.pids_limit)" = \
    "rlimit RLIMIT_NPROC; PROCESS_LIMIT never reported" ]
as_nobody "$JUDGE" exec --isolation best-effort --cpu 1 --wall 3 --pids 16 --dir "$ROOT/build/hostile" \
    --report "$OUT/bomb.json" --stdout /dev/null --stderr /dev/null -- ./fork_bomb </dev/null
check laptop/fork_bomb_ends_on_a_limit [ "$(field bomb verdict | grep -xE 'CPU_LIMIT|WALL_LIMIT|RUNTIME_ERROR')" != "" ]
check laptop/fork_bomb_left_nothing [ -z "$(grep -lx fork_bomb /proc/[0-9]*/comm 2>/dev/null)" ]

# ---- the hostile suite for an ordinary user ---------------------------------------------

as_nobody env JUDGE="$JUDGE" HOSTILE_EXPECT="$ROOT/tests/hostile/expect_fallback.txt" \
    HOSTILE_OPTS="--isolation best-effort" bash "$ROOT/tests/hostile/run.sh" | sed 's|hostile/|laptop/hostile_|'
[ "${PIPESTATUS[0]}" = 0 ] || E2E_FAILED=1
e2e_exit
