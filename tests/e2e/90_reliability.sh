#!/usr/bin/env bash
# 90_reliability.sh - a finished match is never lost nor silently replaced:
# default replay names that never collide, --replay that says what it
# replaced, a full disk (a small tmpfs) found before a match and survived
# during one, a tournament journal never torn, a killed worker's temporary
# replay removed, journal lines checked against their replays on resume.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
PROGS=$ROOT/build/progs
MAPS=$ROOT/examples/maps/generals
T=$(e2e_tmpdir)
MOUNTED=()
cleanup() { for m in "${MOUNTED[@]}"; do umount "$m" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT

if [ "$(id -u)" != 0 ]; then
    skip reliability "strict jails need root"
    e2e_exit
fi
for bin in "$BOTS/greedy" "$BOTS/random" "$PROGS/gen_sleep"; do
    if [ ! -x "$bin" ]; then
        fail reliability "$bin is missing: run make programs"
        e2e_exit
    fi
done

quiet() { "$@" >/dev/null 2>&1; }
player() { printf '  - {name: %s, dir: %s, command: ./%s}\n' "$1" "$2" "$3"; }
# match FILE TURNS PLAYER-LINES...: a generals match on tiny.map, the README's way (relative paths).
match() {
    local file=$1 turns=$2; shift 2
    cp "$MAPS/tiny.map" "$(dirname "$file")/tiny.map"
    { printf 'game: generals\nmap: tiny.map\nseed: 5\nparams: {turn_limit: %s, move_wall_ms: 1500}\nplayers:\n' "$turns"
      printf '%s\n' "$@"; } >"$file"
}
# wait_for GLOB: until a file matching GLOB exists (at most 20 s).
wait_for() { for _ in $(seq 200); do compgen -G "$1" >/dev/null && return 0; sleep 0.1; done; return 1; }
# wait_for_reserved GLOB: until a file matching GLOB holds the 1 MiB a replay reserves as it is
# created (fallocate, just after the file appears), so what fills the disk next cannot take it.
wait_for_reserved() {
    local f
    for _ in $(seq 200); do
        for f in $1; do [ -f "$f" ] && [ "$(( $(stat -c %b "$f") * $(stat -c %B "$f") ))" -ge 1048576 ] && return 0; done
        sleep 0.1
    done
    return 1
}
# fill DIR: use up every free byte of DIR's file system.
fill() { dd if=/dev/zero of="$1/fill" bs=64k >/dev/null 2>&1; dd if=/dev/zero of="$1/fill2" bs=1k >/dev/null 2>&1; true; }
# small_disk NAME SIZE: a tmpfs of SIZE at $T/NAME, or a named skip.
small_disk() {
    mkdir -p "$T/$1"
    if ! mount -t tmpfs -o size="$2" tmpfs "$T/$1" 2>"$T/mount.err"; then
        skip "disk_full/$1" "cannot mount a tmpfs: $(head -1 "$T/mount.err")"
        return 1
    fi
    MOUNTED+=("$T/$1")
}

# ---- replay names ------------------------------------------------------------------------

mkdir -p "$T/names"
match "$T/names/m.yaml" 20 "$(player greedy "$BOTS" greedy)" "$(player random "$BOTS" random)"
( cd "$T/names" && for i in 1 2 3 4; do "$JUDGE" run m.yaml >/dev/null 2>&1 & done; wait )
check names/four_parallel_runs_leave_four_replays [ "$(ls "$T/names/replays" | grep -c '\.jsonl\.gz$')" = 4 ]
( cd "$T/names" && for i in 1 2 3 4 5 6; do "$JUDGE" run m.yaml >/dev/null 2>&1; done )
check names/six_runs_in_a_row_leave_six_more [ "$(ls "$T/names/replays" | grep -c '\.jsonl\.gz$')" = 10 ]
ok=1; for f in "$T"/names/replays/*.jsonl.gz; do "$JUDGE" replay verify "$f" >/dev/null 2>&1 || ok=0; done
check names/every_replay_verifies [ $ok = 1 ]

echo 'replay: kept.jsonl.gz' >>"$T/names/m.yaml"
( cd "$T/names" && "$JUDGE" run m.yaml >/dev/null 2>&1 && "$JUDGE" run m.yaml >"$T/names/second.out" 2>&1 )
check names/match_file_replay_is_not_replaced [ -f "$T/names/kept.jsonl.gz" -a -f "$T/names/kept-2.jsonl.gz" ]
check names/the_name_taken_is_printed grep -q '^replay: kept-2.jsonl.gz$' "$T/names/second.out"

"$JUDGE" run "$T/names/m.yaml" --replay "$T/names/given.jsonl.gz" >/dev/null 2>"$T/names/first.err"
"$JUDGE" run "$T/names/m.yaml" --replay "$T/names/given.jsonl.gz" >/dev/null 2>"$T/names/given.err"
check names/explicit_replay_replaces [ ! -e "$T/names/given-2.jsonl.gz" ]
check names/explicit_replay_says_so grep -q "replaced the existing file $T/names/given.jsonl.gz" "$T/names/given.err"
check names/a_new_file_is_not_called_replaced [ ! -s "$T/names/first.err" ]
check names/space_set_aside_is_given_back [ "$(du -k "$T/names/given.jsonl.gz" | cut -f1)" -lt 256 ]

# ---- judge results: a match's identity is its whole header but timing and host facts ------

# edit FILE OUT PYTHON: rewrite a replay's header H (a dict) with PYTHON, gzip again.
edit() {
    python3 - "$1" "$2" "$3" <<'EOF'
import gzip, json, sys
L = gzip.open(sys.argv[1], "rb").read().split(b"\n")[:-1]
H = json.loads(L[0])
exec(sys.argv[3])
L[0] = json.dumps(H).encode()
with gzip.open(sys.argv[2], "wb") as f:
    f.write(b"".join(x + b"\n" for x in L))
EOF
}
R=$T/results
mkdir -p "$R/a" "$R/b"
cp "$T/names/given.jsonl.gz" "$R/a/m.jsonl.gz"
edit "$R/a/m.jsonl.gz" "$R/a/longer.jsonl.gz" 'H["params"]["turn_limit"] = 40'
edit "$R/a/m.jsonl.gz" "$R/a/tighter.jsonl.gz" 'H["limits"]["pids"] = 32'
edit "$R/a/m.jsonl.gz" "$R/b/elsewhere.jsonl.gz" 'H["kernel"] = "Linux 9"; H["timing"] = {"started_unix": 1}; H["players"][0]["dir"] = "/elsewhere"'
"$JUDGE" results "$R/a" "$R/b" --out "$R/out" >/dev/null 2>"$R/err"
check results/exit_0 [ $? = 0 ]
check results/other_params_and_limits_count [ "$(json_get "$R/out/standings.json" matches)" = 3 ]
check results/host_facts_make_no_new_match [ "$(json_get "$R/out/standings.json" skipped.duplicate)" = 1 ]
check results/duplicate_in_summary_with_both_paths grep -qF "$R/b/elsewhere.jsonl.gz: the same match (its whole header but timing and host facts) as $R/a/m.jsonl.gz" "$R/out/summary.md"

# ---- error messages: one line, what the replay holds escaped --------------------------------

# message NAME SHOWN COMMAND...: exit 1, one line on stderr, no control byte
# and no C1 control in it, and the replay's escape shown as the text SHOWN.
message() {
    local name=$1 shown=$2; shift 2
    "$@" >/dev/null 2>"$T/msg.err"
    local rc=$?
    check messages/${name}_exit_1 [ $rc = 1 ]
    check messages/${name}_one_line [ "$(wc -l <"$T/msg.err")" = 1 ]
    check messages/${name}_no_raw_bytes python3 -c 'import sys; b = open(sys.argv[1], "rb").read()[:-1]
sys.exit(any(c < 0x20 or c == 0x7f for c in b) or b"\xc2\x9b" in b or b"\x1b" in b)' "$T/msg.err"
    check messages/${name}_escaped grep -qF -- "$shown" "$T/msg.err"
}
M=$T/names/given.jsonl.gz
mkdir -p "$T/msg"
edit "$M" "$T/msg/game.jsonl.gz" 'H["game"] = "\x1b]0;owned\x07generals\nsecond line"'
message verify_unknown_game '\x1b' "$JUDGE" replay verify "$T/msg/game.jsonl.gz"
message export_unknown_game '\x1b' "$JUDGE" replay export --format generals-log "$T/msg/game.jsonl.gz"
edit "$M" "$T/msg/param.jsonl.gz" 'H["params"]["\x1b[2J\nturn_limit"] = "x"'
message verify_param_name '\x1b' "$JUDGE" replay verify "$T/msg/param.jsonl.gz"
edit "$M" "$T/msg/type.jsonl.gz" 'o = json.loads(L[2]); o["type"] = "\x1b[31mreply\nFAKE: ok" * 20; L[2] = json.dumps(o).encode()'
message verify_line_type '\x1b' "$JUDGE" replay verify "$T/msg/type.jsonl.gz"
check messages/verify_line_type_shortened grep -qF '"...' "$T/msg.err"
edit "$M" "$T/msg/event.jsonl.gz" 'o = json.loads(L[1]); o["event"]["t"] = "\x1b[2J\u009b31m\udcff"; L[1] = json.dumps(o).encode()'
message verify_event '\xc2\x9b' "$JUDGE" replay verify "$T/msg/event.jsonl.gz"

# ---- a full disk ---------------------------------------------------------------------------

if small_disk before 512k; then
    match "$T/m.yaml" 20 "$(player greedy "$BOTS" greedy)" "$(player random "$BOTS" random)"
    fill "$T/before"
    "$JUDGE" run "$T/m.yaml" --replay "$T/before/r.jsonl.gz" >"$T/before.out" 2>"$T/before.err"
    rc=$?
    check disk_full/before_exit_4 [ $rc = 4 ]
    check disk_full/before_one_line [ "$(wc -l <"$T/before.err")" = 1 ]
    check disk_full/before_errno_in_words grep -q "No space left on device" "$T/before.err"
    check disk_full/before_names_the_path grep -qF "$T/before/" "$T/before.err"
    check disk_full/before_no_match_played [ ! -s "$T/before.out" ]
    check disk_full/before_no_temporary_left [ -z "$(ls -A "$T/before" | grep '\.tmp-')" ]
fi

if small_disk readonly 1m && mount -o remount,ro "$T/readonly"; then
    "$JUDGE" run "$T/m.yaml" --replay "$T/readonly/r.jsonl.gz" >"$T/ro.out" 2>"$T/ro.err"
    check disk_full/read_only_exit_4 [ $? = 4 ]
    check disk_full/read_only_in_words grep -q "^judge run: $T/readonly/r.jsonl.gz: .*Read-only file system" "$T/ro.err"
fi

if small_disk during 4m; then
    match "$T/slow.yaml" 30 "$(player greedy "$BOTS" greedy)" "$(player sleeper "$PROGS" gen_sleep)"
    "$JUDGE" run "$T/slow.yaml" --replay "$T/during/r.jsonl.gz" >"$T/during.out" 2>"$T/during.err" &
    pid=$!
    wait_for_reserved "$T/during/.r.jsonl.gz.tmp-*" && fill "$T/during"   # the sleeper holds the match 1.5 s
    wait $pid
    rc=$?
    check disk_full/during_exit_0 [ $rc = 0 ]
    check disk_full/during_replay_kept quiet "$JUDGE" replay verify "$T/during/r.jsonl.gz"
    check disk_full/during_result_printed grep -q '^result: greedy wins' "$T/during.out"
fi

# A tournament whose disk fills up mid-match: the match's replay is kept (its
# space was set aside), the next cannot start: exit 4 naming the file and why,
# the journal whole, and a resume with room again finishes the rest.
if small_disk tour 4m; then
    { printf 'game: generals\nmaps: [%s/tiny.map]\nseeds: [1]\n' "$MAPS"
      printf 'params: {turn_limit: 30, move_wall_ms: 1500}\nplayers:\n'
      player greedy "$BOTS" greedy; player sleeper "$PROGS" gen_sleep; } >"$T/tour.yaml"
    "$JUDGE" tournament "$T/tour.yaml" --out "$T/tour/out" --jobs 1 >"$T/tour.out" 2>"$T/tour.err" &
    pid=$!
    wait_for_reserved "$T/tour/out/replays/.*.tmp-*" && fill "$T/tour"
    wait $pid
    rc=$?
    check disk_full/tournament_exit_4 [ $rc = 4 ]
    check disk_full/tournament_errno_in_words grep -q "^judge tournament: $T/tour/out/.*: No space left on device" "$T/tour.err"
    check disk_full/tournament_first_replay_kept quiet "$JUDGE" replay verify "$T/tour/out/replays/0000-tiny-s1-greedy-vs-sleeper.jsonl.gz"
    check disk_full/tournament_journal_whole python3 -c 'import json,sys
for l in open(sys.argv[1]): assert l.endswith("\n"); json.loads(l)' "$T/tour/out/journal.jsonl"
    rm -f "$T/tour/fill" "$T/tour/fill2"
    "$JUDGE" tournament "$T/tour.yaml" --out "$T/tour/out" --jobs 1 >"$T/tour2.out" 2>"$T/tour2.err"
    check disk_full/tournament_resume_exit_0 [ $? = 0 ]
    check disk_full/tournament_resume_finishes grep -q '2/2 finished' "$T/tour2.out"
fi

# Before any match, too, the output directory's disk is the machine's trouble (exit 4), not a
# wrong file (2) nor the judge's error (3): its state file, a compile record, a read-only disk.
{ printf 'game: generals\nmaps: [%s/tiny.map]\nseeds: [1]\nparams: {turn_limit: 30}\nplayers:\n' "$MAPS"
  player greedy "$BOTS" greedy
  printf '  - {name: passer, source: %s, language: c}\n' "$ROOT/examples/class/references/pass"
} >"$T/src.yaml"
# tournament_disk NAME: a tournament into the disk $T/NAME, with exit 4 and the system's reason.
tournament_disk() {
    "$JUDGE" tournament "$T/src.yaml" --out "$T/$1/out" --jobs 1 >"$T/$1.out" 2>"$T/$1.err"
    check disk_full/${1}_exit_4 [ $? = 4 ]
    check disk_full/${1}_says_why grep -qE "$T/$1/out.*: (No space left on device|Read-only file system)" \
        "$T/$1.err"
}
if small_disk tstate 256k; then
    fill "$T/tstate"
    tournament_disk tstate
fi
if small_disk tcompile 512k; then   # the compile record sets aside 1 MiB: it cannot
    tournament_disk tcompile
    check disk_full/tcompile_names_the_record grep -q "compiling player 'passer': compile record: " \
        "$T/tcompile.err"
fi
if small_disk tro 1m && mount -o remount,ro "$T/tro"; then
    tournament_disk tro
fi

# ---- judge run as a container's PID 1, stopped ------------------------------------------

# The kernel never gives a namespace's init a signal its default action would take: `docker stop`
# of `docker run judge run` removed the temporary replay and the match went on until SIGKILL.
# (Bots unfrozen: with the v1 freezer alone, a bot frozen when the init dies cannot die.)
if unshare -fp --mount-proc true 2>/dev/null; then
    mkdir -p "$T/pid1"
    match "$T/pid1/m.yaml" 200 "$(player greedy "$BOTS" greedy)" "$(player sleeper "$PROGS" gen_sleep)"
    echo 'freeze: false' >>"$T/pid1/m.yaml"
    ( cd "$T/pid1" && exec unshare -fp --mount-proc "$JUDGE" run m.yaml --replay r.jsonl.gz ) \
        >/dev/null 2>&1 &
    pid=$!
    wait_for "$T/pid1/.r.jsonl.gz.tmp-*"
    kill -TERM "$(pgrep -P $pid)"
    wait $pid
    check run_pid_1/ends_on_sigterm [ $? = 143 ]
    check run_pid_1/no_temporary_replay_left [ -z "$(ls -A "$T/pid1" | grep '\.tmp-')" ]
else
    skip run_pid_1 "unshare --pid is not available"
fi

# ---- a tournament worker killed mid-match -----------------------------------------------

{ printf 'game: generals\nmaps: [%s/tiny.map]\nseeds: [1]\n' "$MAPS"
  printf 'params: {turn_limit: 30, move_wall_ms: 1500}\nplayers:\n'
  player greedy "$BOTS" greedy; player sleeper "$PROGS" gen_sleep; } >"$T/kw.yaml"
"$JUDGE" tournament "$T/kw.yaml" --out "$T/kw" --jobs 1 >"$T/kw.out" 2>"$T/kw.err" &
pid=$!
if wait_for "$T/kw/replays/.*.tmp-*"; then
    worker=$(pgrep -P $pid | head -1)
    [ -n "$worker" ] && kill -9 "$worker"
fi
wait $pid
check killed_worker/tournament_exit_0 [ $? = 0 ]
check killed_worker/death_reported grep -q 'died of signal 9' "$T/kw.err"
check killed_worker/no_temporary_replay_left [ -z "$(ls -A "$T/kw/replays" | grep '\.tmp-')" ]
check killed_worker/every_match_finished [ "$(wc -l <"$T/kw/journal.jsonl")" = 2 ]

# ---- journal lines that disagree with their replays ------------------------------------

cp "$T/kw/journal.jsonl" "$T/kw.journal"
python3 - "$T/kw/journal.jsonl" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
lines[0]["winner"] = "nobody"          # a wrong winner
lines[1]["replay"] = lines[0]["replay"] # another match's replay
open(sys.argv[1], "w").write("".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines))
EOF
"$JUDGE" tournament "$T/kw.yaml" --out "$T/kw" --jobs 1 >"$T/kw2.out" 2>"$T/kw2.err"
check journal/resume_exit_0 [ $? = 0 ]
check journal/fix_reported [ "$(grep -c 'the line disagreed with its replay: rebuilt from the replay' "$T/kw2.err")" = 2 ]
check journal/nothing_replayed grep -q '^played 0 matches' "$T/kw2.out"
check journal/lines_rebuilt cmp -s <(sort "$T/kw/journal.jsonl") <(sort "$T/kw.journal")

e2e_exit
