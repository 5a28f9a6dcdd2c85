#!/usr/bin/env bash
# make bench: run every benchmark binary given (figures printed, never asserted).
set -eu
cd "$(dirname "$0")/../.."
runs=${BENCH_RUNS:-500}
for b in "$@"; do
    case "${b##*/}" in
        bench_jail) "$b" build/progs "$runs" ;;
        bench_match) "$b" build/bots/generals "${BENCH_MATCHES:-3}" ;;
        *) "$b" ;;
    esac
    echo
done
