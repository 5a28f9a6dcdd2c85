#!/usr/bin/env bash
# bench_vm.sh - (make bench) the jail's spawn cost and the judge's CPU per
# reply under cgroup v2 (Debian's kernel in QEMU: tests/vm/run.sh with
# VM_GUEST=bench) next to this host's cgroup backend. Under emulation absolute
# times mean nothing: compare the ratios, each to a baseline of its own run
# (spawn: jail / fork+exec of the same static program; per reply: judge CPU /
# the raw pipe exchange). Skipped where the VM cannot run (make deps-vm).
set -u
cd "$(dirname "$0")/../.."
B=build/release/bench
for b in bench_jail bench_match; do
    [ -x "$B/$b" ] || { echo "bench_vm: $B/$b is not built (make bench builds it)"; exit 0; }
done
ratios() { grep -E '^(skip|FAIL) |^== |ratio jail / fork|ratio judge/raw|per read' ; }
echo "== bench_vm: this host, Linux $(uname -r)"
{ "$B/bench_jail" build/progs 100; "$B/bench_match" build/bots/generals 1; } 2>&1 | ratios
echo "== bench_vm: in the VM (cgroup v2 alone)"
VM_GUEST=bench JUDGE=$PWD/bin/judge bash tests/vm/run.sh 2>&1 | ratios
grep -hE '^(kernel|boot_ms) ' build/vm/out/figures 2>/dev/null | sed 's/^/  vm /'
