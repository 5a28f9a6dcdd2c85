#!/usr/bin/env bash
# tests/hostile/run.sh - run every attack of tests/hostile/expect.txt under
# `$JUDGE exec`, check its exact verdict, and after every one check that
# nothing escaped (see expect.txt). Prints "ok hostile/NAME" or
# "FAIL hostile/NAME: why" per attack; exits 1 if any failed.
# Usage: JUDGE=bin/judge tests/hostile/run.sh [NAME...]   (default: all)
# HOSTILE_EXPECT=FILE uses another expectations file.
set -u
shopt -s globstar nullglob
: "${JUDGE:?set JUDGE to the judge binary}"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BOTS=$ROOT/build/hostile
EXPECT=${HOSTILE_EXPECT:-$ROOT/tests/hostile/expect.txt}  # another list: for testing this runner
JAIL_UID_FIRST=1900000000   # sandbox/jail_internal.h: JAIL_UID_BASE .. + JAIL_UID_SLOTS
JAIL_UID_LAST=1900004095
BASE_OPTS=(--cpu 2 --wall 4 --memory 64M --pids 16 --dir "$BOTS")
# HOSTILE_OPTS: more options for every jail (before each attack's own), e.g.
# "--isolation best-effort" for an ordinary user's run, or longer limits in an emulator.
# shellcheck disable=SC2206
BASE_OPTS+=(${HOSTILE_OPTS:-})
WATCHED_FILES=(/etc/shadow /etc/passwd /etc/hostname /etc/hosts)

T=$(mktemp -d "${TMPDIR:-/tmp}/judge-hostile.XXXXXX")
chmod 0755 "$T"
FAILED=0
CANARY=
cleanup() {
    [ -n "$CANARY" ] && kill "$CANARY" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT

# The judge's environment holds a secret no jail may see (env_secret).
export JUDGE_HOSTILE_SECRET="hostile-secret-$$-$RANDOM"

pass() { echo "ok hostile/$1"; }
fail() { echo "FAIL hostile/$1: $2"; FAILED=1; }
# trim VAR: strip VAR's surrounding blanks in place (no subshell: this runs on every line).
trim() { local s=${!1}; s=${s#"${s%%[![:space:]]*}"}; printf -v "$1" '%s' "${s%"${s##*[![:space:]]}"}"; }

# ---- host-side observations -------------------------------------------------------

mount_table() { awk '{print $4, $5, $9, $10}' "/proc/$$/mountinfo" | sort; }
watched_sums() { sha256sum "${WATCHED_FILES[@]}" 2>/dev/null; }

hostile_names() {
    local f
    for f in "$BOTS"/*; do n=${f##*/}; printf '%s\n' "${n:0:15}"; done
}

# Processes running as a jail uid, or under a hostile program's name (one grep
# over /proc, not one per process: this runs after every attack).
leftover_processes() {
    awk -v lo=$JAIL_UID_FIRST -v hi=$JAIL_UID_LAST \
        '/^Uid:/ && $2 >= lo && $2 <= hi { print FILENAME }' /proc/[0-9]*/status 2>/dev/null
    grep -xFf <(hostile_names) /proc/[0-9]*/comm 2>/dev/null
}

# Every cgroup under the judge's parents must be empty (pooled ones may remain):
# v1, the hybrid twins, v2 as root, and HOSTILE_CGROUP_PARENTS (a glob: the
# judge's parents in a delegated subtree).
busy_cgroups() {
    local f
    # shellcheck disable=SC2086
    for f in /sys/fs/cgroup/{memory,pids,cpuacct,freezer,unified}/judge*/**/cgroup.procs \
             /sys/fs/cgroup/{memory,pids,cpuacct,freezer,unified}/judge*/cgroup.procs \
             /sys/fs/cgroup/judge/**/cgroup.procs ${HOSTILE_CGROUP_PARENTS:+$HOSTILE_CGROUP_PARENTS/**/cgroup.procs}; do
        [ -s "$f" ] && echo "$f"
    done
}

wait_until_clean() {  # gives killed processes a moment to be reaped
    local left
    for _ in $(seq 40); do
        left=$(leftover_processes; busy_cgroups)
        [ -z "$left" ] && return 0
        sleep 0.05
    done
    printf '%s' "$left" | head -3 | tr '\n' ' '
    return 1
}

# verdict|syscall|arch|cpu_ns|exit_code|signal from a report.
report_fields() {
    python3 -S -c 'import json,sys
r=json.load(open(sys.argv[1])); s=r["syscall"] or {}
print("|".join(str(x) for x in (r["verdict"], s.get("name",""), s.get("arch",""), r["cpu_ns"], r["exit_code"], r["signal"])))' "$1" 2>/dev/null
}

# ---- per-test set-up and checks -----------------------------------------------------

BIG=$T/big
head -c $((64 << 20)) /dev/zero > "$BIG"

start_holder() {  # another jail, running while the thief looks for it
    HOLDER_DIR=$T/holder
    mkdir -p "$HOLDER_DIR" && chmod 0777 "$HOLDER_DIR"
    "$JUDGE" exec "${BASE_OPTS[@]}" --rw-dir "$HOLDER_DIR" --report "$T/holder.json" \
        --stdout /dev/null --stderr /dev/null -- ./other_jail hold </dev/null &
    HOLDER_PID=$!
    for _ in $(seq 60); do [ -e "$HOLDER_DIR/secret" ] && return 0; sleep 0.05; done
    return 1
}

start_sender() {  # another jail, signalling through shared files while the receiver looks
    HOLDER_DIR=$T/sender
    mkdir -p "$HOLDER_DIR" && chmod 0777 "$HOLDER_DIR"
    "$JUDGE" exec "${BASE_OPTS[@]}" --rw-dir "$HOLDER_DIR" --report "$T/holder.json" \
        --stdout /dev/null --stderr "$T/sender.err" -- ./lock_channel send </dev/null &
    HOLDER_PID=$!
    for _ in $(seq 60); do [ -e "$HOLDER_DIR/ready" ] && return 0; sleep 0.05; done
    return 1
}

prepare_setuid_copy() {
    SUID_DIR=$T/suid
    mkdir -p "$SUID_DIR" && cp "$BOTS/setuid_binary" /usr/bin/id "$SUID_DIR/" &&
        chown root:root "$SUID_DIR/id" && chmod 4755 "$SUID_DIR/id"
}

# Before the run: set up what the checks need. Sets REPORT, DIR and the placeholders.
prepare() {
    local name=$1 checks=$2
    RW=$T/rw-$name; mkdir -p "$RW"; chmod 0777 "$RW"
    REPORT=$T/report-$name.json
    DIR=$BOTS
    VICTIM_DIR=$T/victim-$name; mkdir -p "$VICTIM_DIR"
    VICTIM=$VICTIM_DIR/victim
    HOLDER_DIR=$T/none
    echo "precious $name" > "$VICTIM"
    case " $checks " in
    *" report_swap "*) mkdir -p "$RW/sub" && chmod 0777 "$RW/sub"; REPORT=$RW/sub/report.json ;;
    *" report_hardlink "*) VICTIM=$RW/victim; echo "precious $name" > "$VICTIM"; chmod 0644 "$VICTIM"
                          REPORT=$RW/report.json ;;
    *" holder "*) start_holder || return 1 ;;
    *" sender "*) start_sender || return 1 ;;
    *" setuid_copy "*) prepare_setuid_copy || return 1; DIR=$SUID_DIR ;;
    esac
    VICTIM_SUM=$(sha256sum < "$VICTIM")
}

expand() {  # placeholders in one word
    local w=$1
    w=${w//@RW@/$RW}; w=${w//@BIG@/$BIG}; w=${w//@JUDGE@/$JUDGE}; w=${w//@HOME@/${HOME:-/root}}
    w=${w//@VICTIM_DIR@/$VICTIM_DIR}; w=${w//@VICTIM@/$VICTIM}; w=${w//@HOLDER_DIR@/$HOLDER_DIR}
    printf '%s' "$w"
}

# Run the judge in a subshell that execs it, so @JUDGE_PID@ is the judge's own pid.
run_judge() {
    local name=$1 extra=$2
    (
        opts=(); args=(); in_args=0
        for word in $extra; do
            word=$(expand "$word"); word=${word//@JUDGE_PID@/$BASHPID}
            if [ "$word" = "--" ]; then in_args=1; elif [ $in_args = 1 ]; then args+=("$word"); else opts+=("$word"); fi
        done
        exec "$JUDGE" exec "${BASE_OPTS[@]}" --dir "$DIR" "${opts[@]}" --report "$REPORT" \
            --stdout "$T/stdout" --stderr "$T/stderr" -- "./$name" "${args[@]}" </dev/null
    )
}

file_size() { stat -c %s "$1" 2>/dev/null || echo -1; }

# One extra check of the fourth column; prints why it failed.
extra_check() {
    local check=$1 arg=$2
    case $check in
    common|judge_survives|holder|sender|setuid_copy|needs_int80) ;;
    cpu_at_least) [ "$CPU_NS" -ge "$arg" ] || echo "cpu_ns $CPU_NS < $arg" ;;
    stdout_at_most) [ "$(file_size "$T/stdout")" -le "$arg" ] || echo "stdout has $(file_size "$T/stdout") bytes" ;;
    stderr_at_most) [ "$(file_size "$T/stderr")" -le "$arg" ] || echo "stderr has $(file_size "$T/stderr") bytes" ;;
    host_tmp_clean) [ ! -e /tmp/hostile_fill_tmp ] || echo "the host's /tmp got hostile_fill_tmp" ;;
    orphan_stops) check_orphan_stopped ;;
    no_core) check_no_core ;;
    report_swap) check_report_swap ;;
    report_hardlink) check_report_hardlink ;;
    *) echo "unknown check '$check' in expect.txt" ;;
    esac
}

check_orphan_stopped() {
    local before after
    before=$(file_size "$RW/marker")
    sleep 0.3
    after=$(file_size "$RW/marker")
    [ "$before" -gt 0 ] || { echo "the orphan never wrote its marker"; return; }
    [ "$before" = "$after" ] || echo "the orphan still writes after the run ($before -> $after bytes)"
}

check_no_core() {
    local found
    found=$(find "$DIR" "$PWD" /tmp -maxdepth 1 -name 'core*' -newer "$BIG" 2>/dev/null | head -1)
    [ -z "$found" ] || echo "core file $found"
}

check_report_swap() {
    [ -f "$RW/sub.orig/report.json" ] && [ ! -L "$RW/sub.orig/report.json" ] ||
        { echo "no regular report in the original directory"; return; }
    [ "$(sha256sum < "$VICTIM")" = "$VICTIM_SUM" ] || echo "the victim file changed"
    [ "$(ls -A "$VICTIM_DIR")" = victim ] || echo "the victim's directory got: $(ls -A "$VICTIM_DIR" | tr '\n' ' ')"
}

check_report_hardlink() {
    [ "$(stat -c %i "$RW/report.json")" != "$(stat -c %i "$VICTIM")" ] || { echo "the report is the victim's inode"; return; }
    [ "$(sha256sum < "$VICTIM")" = "$VICTIM_SUM" ] || { echo "the victim changed"; return; }
    [ -L "$RW/out.txt" ] || { echo "the bot did not plant out.txt"; return; }
    # The bot's link is another's: replaced by the output's own file (written beside, renamed
    # over it), never followed, and said so.
    "$JUDGE" exec --dir "$BOTS" --stdout "$RW/out.txt" -- ./hostname </dev/null 2>"$T/second.err"
    local rc=$?
    [ $rc = 0 ] || echo "a --stdout planted as a symlink gave exit $rc, not 0 ($(head -1 "$T/second.err"))"
    [ -f "$RW/out.txt" ] && [ ! -L "$RW/out.txt" ] || echo "the planted --stdout link is still there"
    grep -qxF "judge exec: note: replaced the existing file $RW/out.txt (named by --stdout)" "$T/second.err" ||
        echo "replacing the planted link was not said"
    [ "$(sha256sum < "$VICTIM")" = "$VICTIM_SUM" ] || echo "the victim changed through --stdout"
}

# The verdict column: VERDICT [syscall arch] or RUNTIME_ERROR signal N.
# Uses the report's fields, already read into V SC ARCH SIGNAL.
verdict_mismatch() {
    local want=$1 w1 w2
    read -r w1 w2 _ <<<"$want"
    local got="$V"
    case $w1 in
    FORBIDDEN_SYSCALL) got="$V $SC $ARCH" ;;
    RUNTIME_ERROR) [ "$w2" = signal ] && got="$V signal $SIGNAL" ;;
    esac
    [ "$got" = "$want" ] || echo "expected $want got $got"
}

# A kernel feature the attack needs, probed outside any jail; prints why it is missing.
missing_feature() {
    case " $1 " in
    *" needs_int80 "*) ( "$ROOT/build/progs/probe_int80" ) 2>/dev/null ||
        echo "this kernel does not deliver int \$0x80 even outside a jail (no IA32 emulation)" ;;
    esac
}

run_one() {
    local name=$1 want=$2 extra=$3 checks=$4 missing
    if [ ! -x "$BOTS/$name" ]; then fail "$name" "$BOTS/$name is not built (make programs)"; return; fi
    missing=$(missing_feature "$checks")
    if [ -n "$missing" ]; then echo "skip hostile/$name: $missing"; return; fi
    prepare "$name" "$checks" || { fail "$name" "set-up failed"; return; }
    local mounts_before sums_before rc problems=()
    mounts_before=$(mount_table); sums_before=$(watched_sums)
    run_judge "$name" "$extra" 2>"$T/judge.err"
    rc=$?
    if [ -n "${HOLDER_PID:-}" ]; then
        wait "$HOLDER_PID"; HOLDER_PID=
        [ "$(report_fields "$T/holder.json" | cut -d'|' -f1)" = OK ] ||
            problems+=("the holder (or sender) jail did not end OK: $(report_fields "$T/holder.json")")
    fi
    # The bot moved the report's directory: the judge must have written it where it was.
    case " $checks " in *" report_swap "*) REPORT=$RW/sub.orig/report.json ;; esac
    local fields V SC ARCH CPU_NS SIGNAL
    fields=$(report_fields "$REPORT")
    IFS='|' read -r V SC ARCH CPU_NS _ SIGNAL <<<"$fields"
    [ $rc = 0 ] || problems+=("judge exited $rc: $(head -1 "$T/judge.err")")
    [ -n "$fields" ] || problems+=("no readable report")
    if [ -n "$fields" ]; then
        local m; m=$(verdict_mismatch "$want"); [ -z "$m" ] || problems+=("$m")
        local c arg why
        for c in ${checks//,/ }; do
            [[ $c =~ ^[0-9]+$ ]] && continue
            arg=$(sed -n "s/.*$c \([0-9]*\).*/\1/p" <<<"$checks")
            why=$(extra_check "$c" "$arg"); [ -z "$why" ] || problems+=("$why")
        done
    fi
    local left; left=$(wait_until_clean) || problems+=("left behind: $left")
    [ "$(mount_table)" = "$mounts_before" ] || problems+=("the host's mount table changed")
    [ "$(watched_sums)" = "$sums_before" ] || problems+=("a watched host file changed")
    kill -0 "$CANARY" 2>/dev/null || problems+=("the host canary process died")
    if [ ${#problems[@]} = 0 ]; then pass "$name"; else
        fail "$name" "$(IFS=';'; echo "${problems[*]}") ($(report_summary "$REPORT"))"
    fi
}

# The report's note, and the isolation layers not fully on, for a failure's line.
report_summary() {
    python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
iso = r.get("isolation", {})
layers = ["%s %s (%s)" % (k, v, iso.get("how", {}).get(k, "")) for k, v in iso.items()
          if v in ("degraded", "off")]
print("note: %s; layers not on: %s" % (r["note"], ", ".join(layers) or "none"))' "$1" 2>/dev/null
}

# ---- main ------------------------------------------------------------------------------

sleep 100000 &
CANARY=$!
count=0
declare -A wanted=()
for name in "$@"; do wanted[$name]=1; done
while IFS='|' read -r -u 3 name want extra checks; do
    trim name
    case $name in ''|'#'*) continue ;; esac
    if [ $# -gt 0 ] && [ -z "${wanted[$name]:-}" ]; then continue; fi
    trim want; trim extra; trim checks
    run_one "$name" "$want" "$extra" "$checks"
    count=$((count + 1))
done 3< "$EXPECT"
[ $count -gt 0 ] || fail "suite" "no attack ran"
exit $FAILED
