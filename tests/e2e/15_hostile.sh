#!/usr/bin/env bash
# 15_hostile.sh - the hostile-bot suite: every attack in tests/hostile/expect.txt
# gets its exact verdict under `judge exec`, and nothing escapes (tests/hostile/run.sh).
source "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" != 0 ]; then
    skip hostile "the suite plants root-owned set-user-id files and checks host cgroups: run as root"
    e2e_exit
fi
if [ ! -d "$ROOT/build/hostile" ]; then
    fail hostile "build/hostile is missing: run make programs"
    e2e_exit
fi
bash "$ROOT/tests/hostile/run.sh" || E2E_FAILED=1
e2e_exit
