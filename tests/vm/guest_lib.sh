# tests/vm/guest_lib.sh - what tests/vm/guest.sh and guest_user.sh share
# (source it after tests/lib.sh, with $judge_out and $T set).
BOTS=$ROOT/build/bots/generals
PROGS=$ROOT/build/progs
MAPS=$ROOT/examples/maps/generals

figure() { echo "$1 $2" >>"${FIGURES:-$judge_out/figures}"; }

cgroup2_alone() {
    grep -q '^cgroup2 /sys/fs/cgroup cgroup2 ' /proc/mounts && ! grep -q ' cgroup ' /proc/mounts
}

# Every FAIL line counted, so a section can show its files when it failed.
FAILS=0
fail() { echo "FAIL $1: $2"; E2E_FAILED=1; FAILS=$((FAILS + 1)); }

# Unit tests that assert how fast something happens (a CPU overshoot within
# 1 or 10 ms, a wall limit met while the sleeper still sleeps): meaningful
# on a real CPU, not under TCG's emulation, where each is a named skip if it fails.
# The same for the CPU a task still burns between reporting frozen and leaving
# its CPU, or during its exit after its rusage was taken (nanoseconds to
# microseconds on hardware, milliseconds on a loaded emulator).
TCG_TIMED="core:test_freeze_stops_cpu core:test_cpu_matches_rusage limits:cpu_limit_stops_within_one_millisecond limits:cpu_limit_counts_every_process
limits:wall_limit_stops_a_sleeper wait:cpu_limit_leaves_the_jail_frozen unprivileged:best_effort_jail_without_root"

# run_unit BINARY: one Check binary, "ok unit/NAME" or FAIL with its failures.
run_unit() {
    local name=${1##*/} log=$T/${1##*/}.log start=$SECONDS failed t untimed=""
    CK_FORK=yes "$1" >"$log" 2>&1
    local rc=$? checks
    checks=$(grep -oE '[0-9]+%: Checks: [0-9]+' "$log" | sed 's/.*: //')
    failed=$(grep -E ':[EF]:' "$log" | cut -d: -f4,5 | sort -u)
    for t in $failed; do
        if [ "${judge_accel:-}" = tcg ] && grep -qw -- "$t" <<<"$TCG_TIMED"; then
            skip "unit/$name/${t#*:}" "asserts a duration, meaningless under TCG: $(grep -F ":$t:" "$log" | head -1 | cut -d: -f7-)"
        else
            untimed+=" $t"
        fi
    done
    if [ $rc = 0 ] || { [ -n "$failed" ] && [ -z "$untimed" ]; }; then
        ok "unit/$name ($checks checks, $((SECONDS - start)) s)"
    else
        fail "unit/$name" "$(grep -E ':[EF]:' "$log" | head -5 | tr '\n' ' ')"
    fi
}

# The hostile suite under TCG (every command is tens of times slower): the
# attacks on what cgroup v2 provides (memory.max, pids.max, cpu.stat,
# cgroup.freeze, cgroup.kill, the cgroup namespace) and one of each other
# kind; the whole suite under KVM, or with VM_HOSTILE=all.
HOSTILE_QUICK="fork_bomb threads_burn memory_bomb sleep_forever orphan_setsid kill_all kill_judge
other_jail cgroup_write mountinfo_leak read_shadow fill_tmp ptrace_attach socket_inet x32_syscall int80"
HOSTILE_QUICK_USER="fork_bomb threads_burn memory_bomb sleep_forever orphan_setsid kill_all
other_jail cgroup_write mountinfo_leak unshare_user x32_syscall int80"
# Under TCG a 64 MiB memory bomb alone takes seconds of CPU: the default CPU
# and wall limits of the suite grow (an attack's own limits still apply).
hostile_time_opts() { [ "${judge_accel:-}" != tcg ] || echo "--cpu 20 --wall 40"; }
# hostile_subset LIST: the names to run (none: all of them).
hostile_subset() { [ "${judge_hostile:-all}" = all ] || echo "$1"; }

# match_file FILE ROWS PLAYERS TURNS PLAYER...: generals on a generated map (seed 9).
match_file() {
    local file=$1 rows=$2 k=$3 turns=$4; shift 4
    { printf 'game: generals\ngenerate:\n  rows: %s\n  cols: %s\n  players: %s\n' "$rows" "$rows" "$k"
      printf 'seed: 9\nparams:\n  turn_limit: %s\nplayers:\n' "$turns"
      printf '%s\n' "$@"; } >"$file"
}
player() { printf '  - name: %s\n    dir: %s\n    command: [%s]\n' "$1" "$2" "$3"; }

verified() { "$JUDGE" replay verify "$1" 2>&1 | grep -q ': ok ('; }

# generals_matches MODE (strict or best-effort): a whole match, then a bot over
# its CPU budget and one over its memory limit, each caught at its 3rd reply.
generals_matches() {
    local mode=$1 m=$T/match-$1 fails=$FAILS
    mkdir -p "$m"
    match_file "$m/play.yaml" 10 2 60 "$(player greedy "$BOTS" ./greedy)" "$(player random "$BOTS" ./random)"
    "$JUDGE" run "$m/play.yaml" --isolation "$mode" --replay "$m/play.jsonl.gz" >"$m/play.out" 2>&1
    check "match/$mode/exit_0" [ $? = 0 ]
    check "match/$mode/both_ok" [ "$(grep -cE '^[0-9-]+ +[0-9]+ +(greedy|random) +OK +' "$m/play.out")" = 2 ]
    check "match/$mode/isolation_recorded" [ "$(rq "$m/play.jsonl.gz" 'L[0]["isolation_mode"]')" = "$mode" ]
    check "match/$mode/verify" verified "$m/play.jsonl.gz"
    bad_bot "$mode" cpu_burn CPU_LIMIT budget_base_ms=1500
    check "match/$mode/cpu_budget_is_limit" [ "$(rq "$M" 'V[0]["evidence"]["limit_ns"]')" = 1503000000 ]
    check "match/$mode/cpu_used_reaches_budget" [ "$(rq "$M" 'V[0]["evidence"]["figure_ns"] >= V[0]["evidence"]["limit_ns"]')" = True ]
    bad_bot "$mode" alloc MEMORY_LIMIT memory_limit_mb=64 budget_base_ms=20000
    check "match/$mode/memory_evidence" [ "$(rq "$M" 'V[0]["kind"], V[0]["evidence"]["limit_bytes"]')" = "('memory_limit', 67108864)" ]
    [ $FAILS = "$fails" ] || tail -n 5 "$m"/*.out | sed 's/^/    /'
}

# bad_bot MODE NAME VERDICT PARAM...: gen_NAME against pass and greedy; sets M to the replay.
bad_bot() {
    local mode=$1 name=$2 verdict=$3 m=$T/match-$1 p params=()
    shift 3
    for p in "$@"; do params+=(--param "$p"); done
    M=$m/$name.jsonl.gz
    match_file "$m/$name.yaml" 8 3 15 "$(player bad "$PROGS" ./gen_$name)" \
        "$(player pass "$BOTS" ./pass)" "$(player greedy "$BOTS" ./greedy)"
    "$JUDGE" run "$m/$name.yaml" --isolation "$mode" --replay "$M" "${params[@]}" >"$m/$name.out" 2>&1
    check "match/$mode/${name}_exit_0" [ $? = 0 ]
    check "match/$mode/${name}_$verdict" grep -qE "^[0-9-]+ +[0-9]+ +bad +$verdict +2 +" "$m/$name.out"
    check "match/$mode/${name}_at_reply_3" [ "$(rq "$M" 'len(V), V[0]["reply"], V[0]["verdict"]')" = "(1, 3, '$verdict')" ]
}

# A round robin of three bots on two maps (12 matches), two at a time, then results.
tournament_and_results() {
    local d=$T/tour fails=$FAILS
    mkdir -p "$d"
    { printf 'game: generals\nmaps: [%s/tiny.map]\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\n' "$MAPS"
      printf 'params: {turn_limit: 30}\nplayers:\n'
      printf '  - {name: %s, dir: %s, command: ./%s}\n' greedy "$BOTS" greedy random "$BOTS" random pass "$BOTS" pass
    } >"$d/t.yaml"
    "$JUDGE" tournament "$d/t.yaml" --out "$d/out" --jobs 2 >"$d/t.out" 2>"$d/t.err"
    check tournament/exit_0 [ $? = 0 ]
    check tournament/all_played grep -qE '^played 12 matches in [0-9.]+ s \([0-9.]+/s\); 12/12 finished' "$d/t.out"
    check tournament/a_replay_per_match [ "$(ls "$d/out/replays" | wc -l)" = 12 ]
    "$JUDGE" results "$d/out" --out "$d/results" >"$d/r.out" 2>&1
    check results/exit_0 [ $? = 0 ]
    check results/standings_of_three [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["players"]))' "$d/results/standings.json" 2>&1)" = 3 ]
    check results/junit_written [ -s "$d/results/junit.xml" ]
    [ $FAILS = "$fails" ] || tail -n 5 "$d"/*.out "$d"/*.err | sed 's/^/    /'
}

# as_delegated_user CMD...: run CMD as nobody the way systemd gives a user
# a delegated subtree (user@.service, Delegate=yes): DELEGATED owned by the
# user (the directory and its cgroup.procs, cgroup.subtree_control,
# cgroup.threads), cpu, memory and pids enabled in it, the user's own
# processes in its leaf init.scope. judge_scope (below) is then what
# `systemd-run --user --scope -p Delegate=yes` does. Figures go to the
# user's own file, copied after.
STUDENT_UID=65534
DELEGATED=/sys/fs/cgroup/user.slice/user@65534.service
as_delegated_user() {
    local home=/tmp/student rc f
    mkdir -p "$DELEGATED/init.scope" "$home" || return 1
    echo "+cpu +memory +pids" >/sys/fs/cgroup/user.slice/cgroup.subtree_control || return 1
    for f in "$DELEGATED" "$DELEGATED"/cgroup.{procs,subtree_control,threads} "$DELEGATED/init.scope" \
             "$DELEGATED"/init.scope/cgroup.{procs,subtree_control,threads} "$home"; do
        chown "$STUDENT_UID:$STUDENT_UID" "$f" || return 1
    done
    sh -c 'echo $$ >"$0/init.scope/cgroup.procs" && echo "+cpu +memory +pids" >"$0/cgroup.subtree_control" &&
           exec "$@"' "$DELEGATED" \
        setpriv --reuid="$STUDENT_UID" --regid="$STUDENT_UID" --clear-groups --inh-caps=-all \
        env -u XDG_RUNTIME_DIR HOME="$home" FIGURES="$home/figures" "$@"
    rc=$?
    cat "$home/figures" >>"$judge_out/figures" 2>/dev/null
    return $rc
}

# make_judge_scope FILE: a script that runs the judge in a new cgroup of its
# own under DELEGATED, as `systemd-run --user --scope -p Delegate=yes` does
# (exec all the way: the judge keeps the script's pid).
make_judge_scope() {
    cat >"$1" <<SH
#!/bin/sh
scope=$DELEGATED/run-\$\$.scope
mkdir "\$scope" && echo \$\$ >"\$scope/cgroup.procs" || exit 3
exec $JUDGE "\$@"
SH
    chmod +x "$1"
}
