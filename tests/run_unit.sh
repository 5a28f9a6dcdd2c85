#!/usr/bin/env bash
# Run every Check unit-test binary given; fail if any fails.
set -u
failed=0
for t in "$@"; do
    echo "== ${t##*/}"
    if ! CK_FORK=yes "$t"; then
        echo "FAILED: $t"
        failed=1
    fi
done
exit $failed
