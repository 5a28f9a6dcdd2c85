# tests/lib.sh - helpers for the end-to-end scripts in tests/e2e/ (source it).
# Each check prints one line: "ok NAME", "skip NAME: why" or "FAIL NAME: why".
: "${JUDGE:?set JUDGE to the judge binary}"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
E2E_FAILED=0
ok()   { echo "ok $1"; }
skip() { echo "skip $1: $2"; }
fail() { echo "FAIL $1: $2"; E2E_FAILED=1; }
# check NAME CONDITION-COMMAND... : ok if the command succeeds, FAIL otherwise.
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name" "$*"; fi; }
# rq REPLAY EXPR: a python expression over the replay's lines L, violations V, result R.
rq() {
    python3 - "$1" "$2" <<'PY'
import gzip, json, sys
L = [json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
V = [x for x in L if x["type"] == "violation"]
R = L[-1]
print(eval(sys.argv[2]))
PY
}
# json_get FILE KEY: one top-level value of a JSON object (python3 is on every Debian CI image we use).
json_get() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v[k]
print(v)' "$1" "$2"; }
# run_row NAME VERDICT [MOVES] [PLACE]: an ERE for a player's row of `judge run`'s table
# (place, player number, name, verdict, moves, cpu/budget, memory).
run_row() { printf '^%s +[0-9]+ +%s +%s +%s +' "${4:-[0-9-]+}" "$1" "$2" "${3:-[0-9]+}"; }
# mktemp -d makes it 0700; bots placed in it must be reachable by the jails' own users.
e2e_tmpdir() { local d; d=$(mktemp -d "${TMPDIR:-/tmp}/judge-e2e.XXXXXX") && chmod 0755 "$d" && echo "$d"; }
e2e_exit() { exit $E2E_FAILED; }
