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
export TMPDIR=$T
START=$SECONDS
figure kernel "$(uname -r)"
check vm/cgroup2_alone cgroup2_alone

units_start=$SECONDS
for t in "$ROOT"/build/release/tests/test_*; do
    [ -x "$t" ] && [ "${t%.d}" = "$t" ] || continue
    run_unit "$t"
done
figure units_s $((SECONDS - units_start))

e2e_start=$SECONDS
cd "$ROOT" || exit 1
for s in tests/e2e/*.sh; do
    echo "== ${s##*/}" >&2
    bash "$s" 2>&1 | grep -E '^(ok|skip|FAIL) '
done
figure e2e_s $((SECONDS - e2e_start))
figure root_s $((SECONDS - START))
e2e_exit
