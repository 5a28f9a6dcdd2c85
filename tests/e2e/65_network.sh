#!/usr/bin/env bash
# 65_network.sh - `judge serve seabattle` end to end, with real WAMP clients (Debian's
# python3-autobahn, run by Debian's /usr/bin/python3): whole games to each end, the rules of
# the network interface, 50 concurrent games checked against the engine, hostile clients
# (tests/network/*.py; each prints its own ok/FAIL line).
source "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
if ! [ -x "$PY" ] || ! "$PY" -c 'import autobahn.asyncio.wamp' 2>/dev/null; then
    skip network "Debian python3-autobahn is not installed (make deps installs it)"
    e2e_exit
fi
for t in games rules many_games hostile house; do
    out=$(timeout 600 "$PY" "$ROOT/tests/network/$t.py" 2>&1); rc=$?
    printf '%s\n' "$out" | grep -E '^(ok|skip|FAIL|#) ' || true
    if [ $rc -ne 0 ] && ! grep -q '^FAIL ' <<<"$out"; then
        fail "network/$t" "exited $rc: $(tail -3 <<<"$out" | tr '\n' ' ')"
    elif grep -q '^FAIL ' <<<"$out"; then
        E2E_FAILED=1
    fi
done
# The human page in headless chromium (tests/browser, playwright-core from its package-lock).
if ! [ -d "$ROOT/tests/browser/node_modules/playwright-core" ] || ! command -v node >/dev/null || ! [ -x /usr/bin/chromium ]; then
    skip network/human_page "playwright-core (npm ci in tests/browser), node or /usr/bin/chromium missing"
elif out=$(cd "$ROOT/tests/browser" && timeout 300 node --test serve_page.test.js 2>&1); then
    ok network/human_page
else
    fail network/human_page "$(grep -E 'not ok|Error|expected|actual' <<<"$out" | head -5 | tr '\n' ' ')"
fi
e2e_exit
