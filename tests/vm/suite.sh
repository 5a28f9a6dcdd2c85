#!/usr/bin/env bash
# tests/vm/suite.sh - run by tests/vm/stage2 with judge_guest=suite (`make
# test-vm-suite`): the whole unit suite and the whole end-to-end suite on the
# VM's kernel, as root, under cgroup v2 alone (no v1 hierarchy). Under TCG
# each command is several times slower: the unit tests that assert a duration
# are named skips there (guest_lib.sh), as in `make test-vm`. Result lines go
# to stdout, figures ("NAME VALUE") to $judge_out/figures.
export JUDGE=$judge_root/bin/judge
source "$judge_root/tests/lib.sh"
source "$ROOT/tests/vm/guest_lib.sh"
T=$(mktemp -d /tmp/vm-suite.XXXXXX)
chmod 0755 "$T" # the jails' users enter the e2e scripts' directories below it
export TMPDIR=$T
cd "$ROOT" || exit 1 # the tests read their data files from the tree
START=$SECONDS
figure kernel "$(uname -r)"
check vm/cgroup2_alone cgroup2_alone

units_start=$SECONDS
for t in "$ROOT"/build/release/tests/test_*; do
    [ -x "$t" ] && [ "${t%.d}" = "$t" ] && [ -z "${judge_only:-}" ] || continue
    run_unit "$t"
done
figure units_s $((SECONDS - units_start))

# Checks that need a real CPU's speed: the JVM's start-up, a C++ submission's
# compile (80_class.sh's bob, and what follows from bob and dave not playing)
# and the compile bombs run out of CPU time under TCG (emulated CPU time is
# many times the real one) before they do what is checked. Named skips there,
# as in guest_lib.sh.
TCG_SLOW_E2E="match/gen_java_bot_ok
match/java_replies_equal_c
match/sea_java_bot_ok
match/war_java_bot_ok
compile_hostile/include_zero.c
compile_hostile/macro_bomb.c
compile_hostile/template_bomb.cpp
compile/bob_ok
played/bob
played/dave
played/16_matches
audit/bob_clean
audit/dave_clean
standings/class_first
standings/frank_verdict
resume/bob_reused
run/both_ok"
tcg_slow() {  # NAME MESSAGE
    case $1 in
    bots_as_written/*) [ "${2#not OK: java:}" != "$2" ]; return ;;
    *-java/*) return 0 ;; # 85_starters.sh's Java starters
    esac
    grep -qxF -- "$1" <<<"$TCG_SLOW_E2E"
}
under_tcg() {
    local line name message
    while IFS= read -r line; do
        name=${line#FAIL }; name=${name%%:*}; message=${line#*: }
        if [ "${judge_accel:-}" = tcg ] && [ "${line#FAIL }" != "$line" ] && tcg_slow "$name" "$message"; then
            echo "skip $name: needs a real CPU's speed, not TCG's: $message"
        else
            echo "$line"
        fi
    done
}

# A script that outlives SCRIPT_TIMEOUT_S is named and the next one runs.
SCRIPT_TIMEOUT_S=${judge_script_timeout:-900}
e2e_start=$SECONDS
for s in tests/e2e/"${judge_only:-}"*.sh; do
    echo "== ${s##*/} at $((SECONDS - START)) s" >&2
    timeout -k 10 "$SCRIPT_TIMEOUT_S" bash "$s" 2>&1 | grep -E '^(ok|skip|FAIL) ' | under_tcg
    rc=${PIPESTATUS[0]}
    [ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "e2e/${s##*/}" "still running after $SCRIPT_TIMEOUT_S s"
done
figure e2e_s $((SECONDS - e2e_start))
figure root_s $((SECONDS - START))
e2e_exit
