#!/usr/bin/env bash
# tests/vm/bench.sh - run by tests/vm/stage2 with judge_guest=bench: the
# jail's spawn and per-reply benchmarks under cgroup v2 in the VM, for
# tests/bench/bench_vm.sh to set next to the host's. Output as printed.
cd "$judge_root" || exit 1
echo "kernel $(uname -r)" >>"$judge_out/figures"
build/release/bench/bench_jail build/progs "${judge_bench_runs:-100}" || exit 1
build/release/bench/bench_match build/bots/generals 1
