#!/usr/bin/env bash
# tests/vm/guest.sh - run by tests/vm/stage2 inside the VM (cgroup2 alone,
# every controller on, the host's / read-only, tmpfs scratch). As root: the
# doctor, the sandbox unit tests (the cgroup backend and CPU meters among
# them), the hostile suite, generals matches with the CPU budget and the
# memory limit enforced, a tournament with --jobs 2 and `judge results`.
# Then tests/vm/guest_user.sh as an ordinary user in a delegated subtree.
# Result lines go to stdout, figures ("NAME VALUE") to $judge_out/figures.
export JUDGE=$judge_root/bin/judge
source "$judge_root/tests/lib.sh"
source "$ROOT/tests/vm/guest_lib.sh"
T=$(mktemp -d /tmp/vm-root.XXXXXX)
cd "$T" || exit 1
START=$SECONDS

figure kernel "$(uname -r)"
check vm/cgroup2_alone cgroup2_alone

# ---- judge doctor -------------------------------------------------------------------
"$JUDGE" doctor >"$T/doctor.out" 2>&1
check doctor/exit_0 [ $? = 0 ]
doctor_has() { grep -qE "^$1 +\| $2 +\| $3" "$T/doctor.out"; }
check doctor/cgroup_in_use_v2 doctor_has cgroup on "in use: v2"
check doctor/v2_memory_pids_cpu_freezer doctor_has cgroup_v2 on "usable: memory yes, pids yes, cpu yes, freezer yes"
check doctor/v1_absent doctor_has cgroup_v1 off
for row in memory_limit memory_swap pids_limit cpu_meter freezer cgroup_kill; do
    check "doctor/$row" doctor_has "$row" on ""
done
check doctor/strict_available grep -qx "strict mode: available" "$T/doctor.out"
[ $E2E_FAILED = 0 ] || sed 's/^/    /' "$T/doctor.out"

# ---- the sandbox unit tests ------------------------------------------------------------
units_start=$SECONDS
for t in "$ROOT"/build/release/tests/test_sandbox_*; do
    [ -x "$t" ] && [ "${t%.d}" = "$t" ] || continue
    run_unit "$t"
done
figure units_s $((SECONDS - units_start))

# ---- the hostile suite ------------------------------------------------------------------
hostile_start=$SECONDS
# shellcheck disable=SC2086
HOSTILE_OPTS=$(hostile_time_opts) bash "$ROOT/tests/hostile/run.sh" $(hostile_subset "$HOSTILE_QUICK") || E2E_FAILED=1
figure hostile_s $((SECONDS - hostile_start))

# ---- generals matches: the budget and the memory limit ------------------------------------
match_start=$SECONDS
generals_matches strict
figure matches_s $((SECONDS - match_start))

# ---- a tournament with --jobs 2, then judge results -------------------------------------
tour_start=$SECONDS
tournament_and_results
figure tournament_s $((SECONDS - tour_start))
figure root_s $((SECONDS - START))

# ---- an ordinary user in a delegated subtree ----------------------------------------------
user_start=$SECONDS
as_delegated_user bash "$ROOT/tests/vm/guest_user.sh" || E2E_FAILED=1
figure user_s $((SECONDS - user_start))
e2e_exit
