#!/usr/bin/env bash
# make bench: run every benchmark binary given, then every tests/bench/bench_*.sh
# script (figures printed, never asserted). Scripts get $JUDGE and run from the
# repository root.
set -eu
cd "$(dirname "$0")/../.."
runs=${BENCH_RUNS:-500}
for b in "$@"; do
    case "${b##*/}" in
        bench_jail) "$b" build/progs "$runs" ;;
        bench_match) "$b" build/bots/generals "${BENCH_MATCHES:-3}" ;;
        bench_bomberman) "$b" build/bots/bomberman "${BENCH_MATCHES:-3}" ;;
        *) "$b" ;;
    esac
    echo
done
for s in tests/bench/bench_*.sh; do
    [ -e "$s" ] || continue
    bash "$s"
    echo
done
