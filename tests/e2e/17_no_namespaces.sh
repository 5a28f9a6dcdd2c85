#!/usr/bin/env bash
# 17_no_namespaces.sh - best-effort jails where no namespace can be made, as in a
# Docker container started with no extra flags, emulated without Docker by
# build/progs/no_ns_wrapper (read-only /sys/fs/cgroup, Docker's default
# capabilities, a seccomp filter refusing namespaces and mounts): `judge doctor`
# names the missing flags, strict refuses, best-effort runs with the right
# verdicts, leaves nothing running, and a generals match records every degraded
# layer in its replay header.
source "$(dirname "$0")/../lib.sh"
PROGS=$ROOT/build/progs
HOSTILE=$ROOT/build/hostile
BOTS=$ROOT/build/bots/generals
WRAP=$PROGS/no_ns_wrapper
T=$(e2e_tmpdir)
chmod 0755 "$T"
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip no_ns "the emulation needs root (a private mount namespace for a read-only cgroupfs)"
    e2e_exit
fi
for bin in "$WRAP" "$PROGS/exec_exit" "$HOSTILE/fork_bomb" "$BOTS/greedy"; do
    if [ ! -x "$bin" ]; then
        fail no_ns "$bin is missing: run make programs"
        e2e_exit
    fi
done
if ! "$WRAP" true 2>"$T/wrap.err"; then
    skip no_ns "cannot emulate a flagless container here: $(cat "$T/wrap.err")"
    e2e_exit
fi
nj() { "$WRAP" "$JUDGE" "$@"; }
# jexec NAME DIR [OPTIONS...] -- CMD...: best-effort, report at $T/NAME.json.
jexec() {
    local name=$1 dir=$2; shift 2
    nj exec --isolation best-effort --dir "$dir" --report "$T/$name.json" --stdout "$T/$name.out" \
        --stderr "$T/$name.err" "$@" </dev/null
}
field() { json_get "$T/$1.json" "$2"; }
# Processes still running a program of DIR (zombies aside): a flat jail's exe
# is its host path (namespaced jails of other tests show /bot/...).
left_from() {
    local n=0 p
    for p in /proc/[0-9]*; do
        case $(readlink "$p/exe" 2>/dev/null) in "$1"/*) grep -q '^State:.Z' "$p/status" 2>/dev/null || n=$((n + 1)) ;; esac
    done
    echo $n
}

# ---- judge doctor and strict mode ----------------------------------------------------

nj doctor >"$T/doctor.out" 2>&1
check no_ns/doctor_exit_1 [ $? = 1 ]
check no_ns/doctor_names_sys_admin grep -q 'missing docker flag: --cap-add SYS_ADMIN' "$T/doctor.out"
check no_ns/doctor_names_seccomp grep -q 'missing docker flag: --security-opt seccomp=unconfined' "$T/doctor.out"
check no_ns/doctor_names_cgroup grep -q 'missing docker flag: --cgroupns=host' "$T/doctor.out"
check no_ns/doctor_mount_ns_off grep -qE '^mount_ns +\| off ' "$T/doctor.out"

nj exec --isolation strict --dir "$PROGS" -- ./exec_exit 0 >"$T/strict.out" 2>"$T/strict.err" </dev/null
check no_ns/strict_exit_3 [ $? = 3 ]
check no_ns/strict_refused grep -q 'strict isolation refused: user_ns is degraded' "$T/strict.err"
check no_ns/strict_ran_nothing [ ! -s "$T/strict.out" ]

# ---- best-effort verdicts ----------------------------------------------------------------

jexec ok "$PROGS" -- ./exec_exit 0
check no_ns/ok [ $? = 0 -a "$(field ok verdict)" = OK -a "$(grep -c 'exit 0' "$T/ok.out")" = 1 ]
check no_ns/ok_uid_slot [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["isolation"]["how"]["user_ns"])' \
                             "$T/ok.json" | grep -c 'no user namespace')" = 1 ]
check no_ns/ok_layers_recorded [ "$(field ok isolation.mount_ns)" = off -a "$(field ok isolation.pivot_root)" = off \
                                 -a "$(field ok isolation.pid_ns)" = degraded -a "$(field ok isolation.cgroup)" = none ]

jexec exit3 "$PROGS" -- ./exec_exit 3
check no_ns/exit_3 [ "$(field exit3 verdict)" = RUNTIME_ERROR -a "$(field exit3 exit_code)" = 3 ]

jexec cpu "$PROGS" --cpu 0.5 --wall 10 -- ./exec_cpu 5000
cpu=$(field cpu cpu_ns)
check no_ns/cpu_limit [ "$(field cpu verdict)" = CPU_LIMIT -a "$cpu" -ge 500000000 -a "$cpu" -lt 700000000 ]

jexec mem "$PROGS" --memory 100M -- ./exec_touch 200
check no_ns/memory_limit_rlimit [ "$(field mem verdict)" = MEMORY_LIMIT ]
jexec memok "$PROGS" --memory 100M -- ./exec_touch 20
check no_ns/memory_20M_ok [ "$(field memok verdict)" = OK ]

jexec bomb "$HOSTILE" --cpu 1 --wall 3 -- ./fork_bomb
check no_ns/fork_bomb_process_limit [ "$(field bomb verdict)" = PROCESS_LIMIT ]
check no_ns/pids_limit_named [ "$(field bomb isolation.how.pids_limit)" = \
    "rlimit RLIMIT_NPROC; PROCESS_LIMIT from its uid's tasks" ]

# A daemon in its own session outlives the command: the uid sweep ends it.
jexec orphan "$PROGS" --profile interpreter --wall 5 -- /bin/sh -c 'setsid sleep 60 & setsid sleep 61 & exit 0'
uid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["isolation"]["how"]["user_ns"].split()[2])' "$T/orphan.json")
uid_left() { local n=0 f; for f in /proc/[0-9]*/status; do
    awk -v u="$1" '/^State:/{z=($2=="Z")} /^Uid:/{m=($2==u)} END{exit !(m && !z)}' "$f" 2>/dev/null && n=$((n + 1)); done; echo $n; }
check no_ns/orphan_ok [ "$(field orphan verdict)" = OK ]
check no_ns/orphan_swept [ "$uid" -ge 1900000000 -a "$(uid_left "$uid")" = 0 ]
check no_ns/nothing_left_running [ "$(left_from "$HOSTILE")" = 0 ]

# ---- a generals match --------------------------------------------------------------------

{ printf 'game: generals\ngenerate:\n  rows: 10\n  cols: 10\n  players: 2\nseed: 3\nparams:\n  turn_limit: 100\nplayers:\n'
  printf '  - name: %s\n    dir: %s\n    command: [%s]\n' greedy "$BOTS" ./greedy random "$BOTS" ./random
} >"$T/match.yaml"
nj run "$T/match.yaml" --isolation best-effort --replay "$T/match.jsonl.gz" >"$T/match.out" 2>&1
check no_ns/match_exit_0 [ $? = 0 ]
check no_ns/match_both_ok [ "$(grep -cE "$(run_row '(greedy|random)' OK)" "$T/match.out")" = 2 ]
header() { python3 -c 'import gzip,json,sys; h=json.loads(gzip.open(sys.argv[1],"rt").readline()); print(eval(sys.argv[2]))' \
           "$T/match.jsonl.gz" "$1"; }
check no_ns/replay_header_degraded [ "$(header 'json.dumps(h).count("jail without namespaces") > 0')" = True ]
check no_ns/replay_verifies_outside "$JUDGE" replay verify "$T/match.jsonl.gz"
check no_ns/nothing_left_after_match [ "$(left_from "$BOTS")" = 0 ]
e2e_exit
