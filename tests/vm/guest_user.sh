#!/usr/bin/env bash
# tests/vm/guest_user.sh - inside the VM, as an ordinary user (nobody) in a
# delegated cgroup v2 subtree (tests/vm/guest_lib.sh: as_delegated_user): the
# doctor finds the subtree, best-effort matches get their CPU budget and
# memory limit from it, and the attacks that make sense without root
# (tests/vm/expect_user.txt) get their verdicts with nothing escaping.
export JUDGE=$judge_root/bin/judge
source "$judge_root/tests/lib.sh"
source "$ROOT/tests/vm/guest_lib.sh"
T=$(mktemp -d "$HOME/vm-user.XXXXXX")
cd "$T" || exit 1

check user/not_root [ "$(id -u)" = "$STUDENT_UID" ]
check user/in_the_delegated_subtree grep -qx "0::${DELEGATED#/sys/fs/cgroup}/init.scope" /proc/self/cgroup
make_judge_scope "$T/judge"
JUDGE=$T/judge

"$JUDGE" doctor >"$T/doctor.out" 2>&1
check user/doctor_refuses_strict [ $? != 0 ]
doctor_has() { grep -qE "^$1 +\| $2 +\| $3" "$T/doctor.out"; }
check user/doctor_cgroup_in_use_v2 doctor_has cgroup on "in use: v2"
check user/doctor_v2_memory_pids_cpu_freezer doctor_has cgroup_v2 on "usable: memory yes, pids yes, cpu yes, freezer yes"
check user/doctor_cgroup_kill doctor_has cgroup_kill on ""
check user/doctor_delegation doctor_has delegation on "own cgroup $DELEGATED/run-[0-9]+.scope"
check user/jails_go_below_the_scope [ -n "$(ls -d "$DELEGATED"/run-*.scope/judge 2>/dev/null)" ]
[ $E2E_FAILED = 0 ] || sed 's/^/    /' "$T/doctor.out"

# Every judge start gets its cgroup: a probe child still in the scope's cgroup once made the
# controllers' enabling fail ("no internal processes"), and that jail ran on rlimits.
cgroup_layers_on() {
    python3 -c 'import json,sys
iso = json.load(open(sys.argv[1]))["isolation"]
sys.exit(any(iso[k] != "on" for k in ("memory_limit", "pids_limit", "cpu_meter", "freezer")))' "$1"
}
starts_without=""
for i in $(seq 12); do
    "$JUDGE" exec --isolation best-effort --report "$T/start-$i.json" --stdout /dev/null -- /bin/true
    cgroup_layers_on "$T/start-$i.json" || starts_without+=" $i"
done
check user/every_start_has_its_cgroup [ -z "$starts_without" ]
[ -z "$starts_without" ] || echo "    starts without their cgroup:$starts_without"

# A scope the judge shares with another process (a shell started in it): no controllers can be
# enabled below it, and the doctor says to start the judge alone in a scope of its own.
crowded=$DELEGATED/crowded.scope
mkdir "$crowded" && sh -c 'echo $$ >"$1/cgroup.procs" && { sleep 600 & echo $! >"$2"; } && exec "$3" doctor' \
    sh "$crowded" "$T/crowded.pid" "$judge_root/bin/judge" >"$T/crowded.out" 2>&1
check user/doctor_names_a_crowded_scope grep -qF "| cgroup v2: other processes share the judge's cgroup $crowded: start the judge alone" "$T/crowded.out"
kill "$(cat "$T/crowded.pid")"
[ $E2E_FAILED = 0 ] || sed 's/^/    /' "$T/crowded.out"

generals_matches best-effort

hostile_start=$SECONDS

HOSTILE_EXPECT=$ROOT/tests/vm/expect_user.txt HOSTILE_OPTS="--isolation best-effort $(hostile_time_opts)" \
    HOSTILE_CGROUP_PARENTS="$DELEGATED/run-*.scope/judge" bash "$ROOT/tests/hostile/run.sh" \
    $(hostile_subset "$HOSTILE_QUICK_USER") | sed 's|^ok hostile/|ok user/hostile/|; s|^FAIL hostile/|FAIL user/hostile/|'
[ "${PIPESTATUS[0]}" = 0 ] || E2E_FAILED=1
figure user_hostile_s $((SECONDS - hostile_start))
e2e_exit
