#!/usr/bin/env bash
# bench_serve.sh - `judge serve seabattle` (tests/bench/bench_serve.py): calls per second and
# the server's CPU per shot at 1, 10 and 100 concurrent games, next to `judge run` playing the
# same shots; memory per idle connection. Figures only, never asserted. Needs root for the
# strict jails of the `judge run` baseline; run from the repository root (make bench does).
set -u
: "${JUDGE:?set JUDGE to the judge binary}"
if [ "$(id -u)" != 0 ]; then
    echo "bench_serve: skipped (the judge run baseline needs strict jails, so root)"
    exit 0
fi
/usr/bin/python3 tests/bench/bench_serve.py
