#!/usr/bin/env bash
# 18_ordinary_user.sh - the judge run by an ordinary user ("laptop mode": user namespaces
# of its own uid, no cgroup): strict isolation is refused before anything runs, by judge
# run, tournament, exec and compile alike, in one line that names the layers not fully on
# and both ways out (`judge doctor`, or best-effort), exit 3, with no result, no replay, no
# output directory and no compile; judge doctor's fix for cgroup.kill is the delegated cgroup
# it lacks. In best-effort, judge run says once on stderr which layers are not fully on and
# what stands in for each (--json: "isolation"), shows no cgroup memory figure without a
# cgroup, judge tournament says it once at the start, and judge results counts those matches
# (and standings.md and summary.md name the layers); as root with every layer on, nothing is
# said. As root the checks run as nobody; otherwise as the user running them. Each group is
# skipped by name where this machine cannot run it.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
STARTER=$ROOT/examples/starters/generals/c
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ ! -x "$BOTS/greedy" ] || [ ! -x "$BOTS/random" ]; then
    fail user "$BOTS/greedy or random is missing: run make programs"
    e2e_exit
fi
AS_USER=()
if [ "$(id -u)" = 0 ]; then
    if ! command -v setpriv >/dev/null; then
        skip user "setpriv (util-linux) is not installed: cannot run as nobody"
        e2e_exit
    fi
    AS_USER=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
mkdir "$T/u"
[ "$(id -u)" = 0 ] && chown 65534:65534 "$T/u"
# uj ARGS...: the judge as the ordinary user, from its own directory $T/u.
uj() { (cd "$T/u" && env -u XDG_RUNTIME_DIR "${AS_USER[@]}" "$JUDGE" "$@"); }
if ! (cd / && "${AS_USER[@]}" test -x "$BOTS/greedy" -a -r "$STARTER/bot.c" -a -x "$JUDGE"); then
    skip user "the ordinary user cannot reach the judge, $BOTS or $STARTER"
    e2e_exit
fi

{ printf 'game: generals\ngenerate: {rows: 6, cols: 6}\nseed: 3\nparams: {turn_limit: 20}\nplayers:\n'
  printf '  - {name: %s, dir: %s, command: [./%s]}\n' greedy "$BOTS" greedy random "$BOTS" random
} >"$T/match.yaml"
{ printf 'game: generals\ngenerate: {rows: 6, cols: 6}\nseeds: [1]\nparams: {turn_limit: 20}\nplayers:\n'
  printf '  - {name: %s, dir: %s, command: [./%s]}\n' greedy "$BOTS" greedy random "$BOTS" random
} >"$T/tournament.yaml"

# ---- judge doctor: the fix for what this user lacks ------------------------------------------

# Without a cgroup of its own, cgroup.kill is missing for that reason alone on a kernel that has
# it (5.14 on): the fix is the delegated subtree (or root), as for the other cgroup rows.
uj doctor --json >"$T/doctor.json" 2>/dev/null
row() { python3 -c 'import json,sys
print(next((r[sys.argv[3]] for r in json.load(open(sys.argv[1]))["rows"] if r["layer"] == sys.argv[2]), ""))' \
    "$T/doctor.json" "$1" "$2"; }
kernel=$(uname -r | awk -F. '{ print $1 * 100 + $2 }')
if [ "$(row cgroup status)" != off ] || [ "$(row cgroup_kill status)" = on ] || [ "$kernel" -lt 514 ]; then
    skip user/doctor_cgroup_kill_fix "this user has a cgroup here, or the kernel is older than 5.14"
else
    check user/doctor_cgroup_kill_fix_delegates [ "$(row cgroup_kill fix)" = "$(row cgroup fix)" ]
    check user/doctor_cgroup_kill_fix_names_delegation grep -q 'Delegate=yes' <<<"$(row cgroup_kill fix)"
fi

# ---- strict mode refused, before anything runs -------------------------------------------

uj doctor >"$T/doctor.out" 2>&1
strict_rc=$?
# refused NAME FILE-WORDS: the one line of $T/NAME.err and exit 3 ($T/NAME.rc).
refused() {
    local name=$1 file=$2
    check "user/${name}_exit_3" [ "$(cat "$T/$name.rc")" = 3 ]
    check "user/${name}_one_line" [ "$(wc -l <"$T/$name.err")" = 1 ]
    check "user/${name}_names_layers" \
        grep -qE "^judge [a-z]+: strict isolation refused: [a-z_]+ is (degraded|off) \(" "$T/$name.err"
    check "user/${name}_says_doctor" grep -qF '`judge doctor` says how to get' "$T/$name.err"
    check "user/${name}_says_best_effort" grep -qF 'or run with --isolation best-effort' "$T/$name.err"
    [ -z "$file" ] ||
        check "user/${name}_says_the_key" grep -qF "(or \`isolation: best-effort\` in $file)" "$T/$name.err"
    check "user/${name}_not_an_internal_error" [ "$(grep -c 'internal error' "$T/$name.err")" = 0 ]
}

if [ $strict_rc = 0 ]; then
    skip user/strict_refused "strict mode is available to this user here (judge doctor)"
else
    uj run "$T/match.yaml" --replay "$T/u/strict.jsonl.gz" >"$T/run.out" 2>"$T/run.err"
    echo $? >"$T/run.rc"
    refused run "the match file"
    check user/run_no_table [ ! -s "$T/run.out" ]
    check user/run_no_replay [ -z "$(ls -A "$T/u")" ]

    uj run "$T/match.yaml" --json --replay "$T/u/strict.jsonl.gz" >"$T/json.out" 2>"$T/json.err"
    echo $? >"$T/json.rc"
    refused json "the match file"
    check user/json_no_result [ ! -s "$T/json.out" ]

    uj tournament "$T/tournament.yaml" --out "$T/u/t" >"$T/tournament.out" 2>"$T/tournament.err"
    echo $? >"$T/tournament.rc"
    refused tournament "the tournament file"
    check user/tournament_no_smoke_test_or_match [ "$(grep -cE 'smoke|giving up' "$T/tournament.err")" = 0 ]
    check user/tournament_no_summary [ ! -s "$T/tournament.out" ]
    check user/tournament_no_output_directory [ ! -e "$T/u/t" ]

    uj exec --dir "$BOTS" -- ./greedy </dev/null >"$T/exec.out" 2>"$T/exec.err"
    echo $? >"$T/exec.rc"
    refused exec ""
    uj compile --profile c "$STARTER" --out "$T/u/bot" >"$T/compile.out" 2>"$T/compile.err"
    echo $? >"$T/compile.rc"
    refused compile ""
    check user/compile_nothing_made [ ! -e "$T/u/bot" ]
fi

# ---- root, every layer on: nothing to say ---------------------------------------------------

if [ "$(id -u)" != 0 ] || ! "$JUDGE" doctor >/dev/null 2>&1; then
    skip user/strict_says_nothing "not root, or strict mode is not available to root here"
else
    "$JUDGE" run "$T/match.yaml" --json --replay "$T/strict.jsonl.gz" >"$T/root.json" 2>"$T/root.err"
    check user/strict_run_says_nothing [ $? = 0 -a "$(grep -c '^isolation: ' "$T/root.err")" = 0 ]
    check user/strict_run_json_isolation [ "$(json_get "$T/root.json" isolation.mode 2>/dev/null)" = strict \
        -a "$(json_get "$T/root.json" isolation.degraded 2>/dev/null)" = False ]
fi

# ---- best-effort: what is not fully on is said, in run, tournament and results ----------------

if ! uj exec --isolation best-effort -- /bin/true </dev/null >/dev/null 2>&1; then
    skip user/best_effort "best-effort jails do not run for this user here"
    e2e_exit
fi
if [ "$(json_get "$T/doctor.json" isolation.degraded)" != True ]; then
    skip user/best_effort_said "every layer is on for this user here (judge doctor): nothing to say"
    e2e_exit
fi
uj run "$T/match.yaml" --isolation best-effort --replay "$T/u/be.jsonl.gz" >"$T/be.out" 2>"$T/be.err"
check user/best_effort_run_exit_0 [ $? = 0 ]
uj run "$T/match.yaml" --isolation best-effort --json --replay "$T/u/be.jsonl.gz" >"$T/be.json" 2>/dev/null
check user/run_one_isolation_line [ "$(grep -c '^isolation: ' "$T/be.err")" = 1 ]
check user/run_isolation_line_names_each_layer python3 -c 'import json,sys
iso = json.load(open(sys.argv[1]))["isolation"]; line = open(sys.argv[2]).read()
assert all(f"{layer} {iso[layer]}: {how}" in line for layer, how in iso["how"].items()), line' \
    "$T/doctor.json" "$T/be.err"
check user/run_json_isolation [ "$(json_get "$T/be.json" isolation.mode 2>/dev/null)" = best-effort \
    -a "$(json_get "$T/be.json" isolation.user_ns 2>/dev/null)" = "$(json_get "$T/doctor.json" isolation.user_ns)" ]
if [ "$(json_get "$T/doctor.json" isolation.memory_limit)" != on ]; then
    check user/run_no_cgroup_memory_figure [ "$(grep -cE '  - / [0-9]+\.[0-9] MiB$' "$T/be.out")" = 2 ]
fi

# A student's `command: [java, Bot]` in best-effort, with bomberman's 64 MiB: the JVM sized its
# heap from the host's memory and, under the RLIMIT_DATA that stands in for the cgroup, could not
# commit it (nor start with G1 on two processors); its fatal error's "#" lines on stdout were
# judged as its replies (INVALID_OUTPUT).
if command -v javac >/dev/null && command -v java >/dev/null; then
    mkdir "$T/java"
    cat >"$T/java/Bot.java" <<'JAVA'
import java.io.*;
public class Bot { public static void main(String[] a) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    for (String line; (line = in.readLine()) != null && !line.trim().equals("OVER");)
        if (line.trim().equals("END")) System.out.println("WAIT"); } }
JAVA
    (cd "$T/java" && javac Bot.java) && chmod -R a+rX "$T/java"
    printf 'game: bomberman\ngenerate: {players: 2}\nseed: 1\nparams: {game_ticks_max: 5}\nplayers:\n%s\n%s\n' \
        '  - {name: java, command: [java, Bot]}' '  - {name: java2, command: [java, Bot]}' >"$T/java/m.yaml"
    uj run "$T/java/m.yaml" --isolation best-effort --replay "$T/u/java.jsonl.gz" >"$T/java.out" 2>&1
    check user/best_effort_java_command_ok [ "$(grep -cE "$(run_row 'java2?' OK)" "$T/java.out")" = 2 ]
else
    skip user/best_effort_java_command_ok "no javac/java on this machine"
fi

# Run where the user cannot write, with no --replay: the way out is said before the match.
mkdir "$T/ro" && chmod 0755 "$T/ro" && cp "$T/match.yaml" "$T/ro/"
(cd "$T/ro" && env -u XDG_RUNTIME_DIR "${AS_USER[@]}" "$JUDGE" run match.yaml --isolation best-effort) >"$T/ro.out" 2>&1
echo $? >"$T/ro.rc"
if [ "$(id -u)" = 0 ]; then  # the directory is root's: nobody cannot write it
    check user/unwritable_dir_exit_4 [ "$(cat "$T/ro.rc")" = 4 ]
    check user/unwritable_dir_says_the_way_out grep -qF "judge run: cannot make the directory replays in $T/ro: \
Permission denied; run the judge in a directory you can write to, or name the replay: --replay PATH" "$T/ro.out"
fi

uj tournament "$T/tournament.yaml" --isolation best-effort --out "$T/u/t" >"$T/bet.out" 2>"$T/bet.err"
check user/tournament_best_effort_exit_0 [ $? = 0 ]
check user/tournament_isolation_line_once_first [ "$(grep -c '^isolation: best-effort: ' "$T/bet.err")" = 1 \
    -a "$(head -1 "$T/bet.err" | cut -c1-24)" = "isolation: best-effort: " ]
uj results "$T/u/t" --out "$T/u/results" >"$T/results.out" 2>"$T/results.err"
check user/results_exit_0 [ $? = 0 ]
check user/results_says_best_effort grep -qE '^results: 2 of 2 matches ran with best-effort isolation \(not fully on: ' \
    "$T/results.out"
for f in standings.md summary.md; do
    check "user/results_${f%.md}_notes_best_effort" grep -qF '**Isolation:** 2 of 2 matches ran with best-effort isolation' \
        "$T/u/results/$f"
done
e2e_exit
