#!/usr/bin/env bash
# 10_exec.sh - `judge exec` and `judge doctor` end to end: verdicts, exit codes,
# signals, metering, limits, the command's output escaped on the judge's own streams,
# the report's keys, usage errors, isolation modes, and what an unprivileged user gets.
source "$(dirname "$0")/../lib.sh"
PROGS=$ROOT/build/progs
T=$(e2e_tmpdir)
chmod 0755 "$T"
trap 'rm -rf "$T"' EXIT

if [ ! -x "$PROGS/exec_exit" ]; then
    fail exec "build/progs/exec_exit is missing: run make programs"
    e2e_exit
fi

# jexec NAME [OPTIONS...] -- CMD...: run with a report at $T/NAME.json, stdout at $T/NAME.out.
jexec() {
    local name=$1; shift
    "$JUDGE" exec --dir "$PROGS" --report "$T/$name.json" --stdout "$T/$name.out" --stderr "$T/$name.err" \
        "$@" </dev/null
}
field() { json_get "$T/$1.json" "$2"; }
has_line() { grep -qxF -- "$2" "$1"; }

# ---- running, exit codes, signals -------------------------------------------------

jexec c_ok -- ./exec_exit 0
check exec/c_program_ok [ $? = 0 -a "$(field c_ok verdict)" = OK -a "$(field c_ok exit_code)" = 0 ]
check exec/c_program_output has_line "$T/c_ok.out" "exit 0"

jexec py --profile interpreter -- /usr/bin/python3 -c 'import sys; print(6*7); sys.exit(0)'
check exec/python3_ok [ "$(field py verdict)" = OK -a "$(field py exit_code)" = 0 ]
check exec/python3_output has_line "$T/py.out" "42"

jexec exit3 -- ./exec_exit 3
check exec/exit_code_3 [ $? = 0 -a "$(field exit3 verdict)" = RUNTIME_ERROR -a "$(field exit3 exit_code)" = 3 \
                         -a "$(field exit3 signal)" = 0 ]

jexec segv -- ./exec_signal segv
check exec/signal_11 [ "$(field segv verdict)" = RUNTIME_ERROR -a "$(field segv signal)" = 11 \
                       -a "$(field segv exit_code)" = -1 ]

# ---- metering and limits --------------------------------------------------------------

jexec cpu300 --cpu 5 -- ./exec_cpu 300
measured=$(sed -n 's/^cpu_ns //p' "$T/cpu300.out")
at_main=$(sed -n 's/^main_ns //p' "$T/cpu300.out")
reported=$(field cpu300 cpu_ns)
# The judge's figure holds all the program spent from main to its last reading, and not the
# set-up's or the init's time on top (10% at most: its exit; how close it comes is a make bench
# figure). The program's own reading also holds the judge's set-up before execve, which the
# judge leaves out: hence "from main".
check exec/cpu_300ms_counted [ -n "$measured" -a -n "$at_main" -a "$(field cpu300 verdict)" = OK \
    -a "${reported:-0}" -ge $((measured - at_main)) -a "${reported:-0}" -le $((measured + measured / 10)) ]

jexec mem --memory 100M -- ./exec_touch 200
check exec/memory_200M_under_100M [ "$(field mem verdict)" = MEMORY_LIMIT ]
check exec/memory_peak_reported [ "$(field mem memory_peak_bytes)" -ge $((90 << 20)) ]

jexec memok --memory 100M -- ./exec_touch 20
check exec/memory_20M_under_100M [ "$(field memok verdict)" = OK ]
# Both figures: the cgroup's peak (what the limit is against) and the peak RSS beside it.
check exec/rss_peak_reported [ "$(field memok rss_peak_bytes)" -ge $((20 << 20)) ]

jexec cpulim --cpu 0.5 --wall 10 -- ./exec_cpu 5000
cpu=$(field cpulim cpu_ns)
check exec/cpu_limit [ "$(field cpulim verdict)" = CPU_LIMIT -a "$cpu" -ge 500000000 -a "$cpu" -lt 600000000 ]

jexec walllim --wall 0.5 -- ./exec_sleep 5000
wall=$(field walllim wall_ns)
check exec/wall_limit [ "$(field walllim verdict)" = WALL_LIMIT -a "$wall" -ge 500000000 -a "$wall" -lt 1500000000 ]

head -c 300000 /dev/urandom > "$T/input"
jexec cat --stdin "$T/input" -- ./exec_cat
check exec/stdin_to_stdout cmp -s "$T/input" "$T/cat.out"

jexec outlim --stdin "$T/input" --output-limit 100k -- ./exec_cat
check exec/output_limit [ "$(field outlim verdict)" = OUTPUT_LIMIT -a "$(stat -c %s "$T/outlim.out")" -le 102400 ]

# ---- environment, directories ---------------------------------------------------------

jexec env --env GREETING=hello --env EMPTY= -- ./exec_env
check exec/environment_exact [ "$(sort "$T/env.out" | tr '\n' ' ')" = \
    "EMPTY= GREETING=hello PATH=/usr/local/bin:/usr/bin:/bin cwd /bot " ]

mkdir -p "$T/rw" && chmod 0777 "$T/rw" && echo "from the host" > "$T/stdin-rw"
jexec rw --rw-dir "$T/rw" --stdin "$T/stdin-rw" -- ./exec_cat /data/copy
check exec/rw_dir_written [ "$(cat "$T/rw/copy" 2>/dev/null)" = "from the host" ]

"$JUDGE" exec --dir "$PROGS" --report - --stdout /dev/null -- ./exec_exit 0 </dev/null > "$T/stdout-report"
check exec/report_to_stdout [ "$(json_get "$T/stdout-report" verdict)" = OK ]

# ---- the command's output on the judge's own stdout and stderr: escaped, whole lines -----------

# no_raw FILE: no ESC byte, and no line a CI runner takes for a command (:: after blanks, ##[).
no_raw() {
    python3 -c 'import re, sys
d = open(sys.argv[1], "rb").read()
sys.exit(1 if b"\x1b" in d or b"##[" in d or re.search(rb"(^|\n)[ \t]*::", d) else 0)' "$1"
}
"$JUDGE" exec --wall 2 --report /dev/null -- /usr/bin/printf '\x1b[31mRED\n::error::x\n' </dev/null \
    >"$T/relay.out" 2>"$T/relay.err"
check exec/relay_stdout_exit_0 [ $? = 0 ]
check exec/relay_stdout_escaped no_raw "$T/relay.out"
check exec/relay_stdout_text [ "$(cat "$T/relay.out")" = "$(printf '%s\n' '\x1b[31mRED' '\x3a:error::x')" ]
"$JUDGE" exec --wall 2 --report /dev/null -- /bin/sh -c 'printf "\033[2J  ::warning::w\n##[error]e\n" >&2' \
    </dev/null >"$T/relay2.out" 2>"$T/relay2.err"
check exec/relay_stderr_escaped no_raw "$T/relay2.err"
check exec/relay_stderr_text grep -qxF '##\x5berror]e' "$T/relay2.err"
# A line begun on stdout is not finished by stderr where a terminal or CI log shows both.
"$JUDGE" exec --wall 2 -- /bin/sh -c 'printf ":"; exec >&-; printf ":error::x\n" >&2' </dev/null >"$T/merged.out" 2>&1
check exec/relay_merged_streams no_raw "$T/merged.out"
# A long line is cut into lines of at most 4 KiB, between UTF-8 characters; nothing is lost.
"$JUDGE" exec --wall 5 -- /usr/bin/python3 -c 'print("x" + "\u00e9" * 5000, end="")' </dev/null >"$T/long.out"
check exec/relay_long_line_cut python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
assert d.endswith(b"\n") and max(len(l) for l in d.split(b"\n")) <= 4096
assert d.replace(b"\n", b"").decode() == "x" + "\u00e9" * 5000' "$T/long.out"
# --stdout FILE and --stderr FILE keep the bytes as they are.
"$JUDGE" exec --wall 2 --report /dev/null --stdout "$T/raw.out" --stderr "$T/raw.err" -- \
    /bin/sh -c 'printf "\033[31m::x"; printf "\033[2J" >&2' </dev/null
check exec/stdout_file_raw [ "$(od -An -c "$T/raw.out" | tr -d ' \n')" = '033[31m::x' ]
check exec/stderr_file_raw [ "$(od -An -c "$T/raw.err" | tr -d ' \n')" = '033[2J' ]
# Written again: each file replaced whole (never truncated in place), and said so.
ln "$T/raw.out" "$T/raw.out.link"
"$JUDGE" exec --wall 2 --report "$T/raw.json" --stdout "$T/raw.out" --stderr "$T/raw.err" -- \
    /bin/sh -c 'printf new' </dev/null 2>/dev/null
"$JUDGE" exec --wall 2 --report "$T/raw.json" --stdout "$T/raw.out" --stderr "$T/raw.err" -- \
    /bin/sh -c 'printf new' </dev/null 2>"$T/raw.notes"
check exec/output_file_replaced_whole [ "$(cat "$T/raw.out")" = new -a "$(od -An -c "$T/raw.out.link" | tr -d ' \n')" = '033[31m::x' ]
for opt in stdout:raw.out stderr:raw.err report:raw.json; do
    check "exec/replaced_${opt%%:*}_said" grep -qxF "judge exec: note: replaced the existing file $T/${opt#*:} (named by --${opt%%:*})" "$T/raw.notes"
done

# ---- the report's keys ------------------------------------------------------------------

check_report_keys() {
    python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
assert list(r) == ["verdict", "exit_code", "signal", "cpu_ns", "wall_ns", "memory_peak_bytes",
                   "rss_peak_bytes", "syscall", "isolation", "note"], list(r)
for k in ("exit_code", "signal", "cpu_ns", "wall_ns", "memory_peak_bytes", "rss_peak_bytes"):
    assert type(r[k]) is int, k
assert isinstance(r["verdict"], str) and isinstance(r["note"], str)
layers = ["user_ns", "pid_ns", "mount_ns", "net_ns", "ipc_ns", "uts_ns", "cgroup_ns", "pivot_root",
          "seccomp", "capabilities", "no_new_privs", "memory_limit", "pids_limit", "cpu_meter",
          "freezer", "rlimits"]
iso = r["isolation"]
assert list(iso) == layers + ["cgroup", "privileged", "degraded", "how"], list(iso)
assert all(iso[l] in ("on", "degraded", "off") for l in layers)
assert iso["cgroup"] in ("v1", "v2", "none") and type(iso["privileged"]) is bool
assert iso["degraded"] == any(iso[l] != "on" for l in layers)
assert sorted(iso["how"]) == sorted(l for l in layers if iso[l] != "on")
s = r["syscall"]
if s is not None:
    assert list(s) == ["name", "arch", "nr", "args"] and len(s["args"]) == 6
    assert all(type(a) is int for a in s["args"])
EOF
}
check exec/report_keys_ok check_report_keys "$T/c_ok.json"
check exec/report_keys_signal check_report_keys "$T/segv.json"
check exec/report_syscall_null [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["syscall"])' "$T/c_ok.json")" = None ]

# ---- usage errors: exit 2, one line naming the problem ------------------------------------

usage_case() {  # NAME EXPECTED-TEXT ARGS...
    local name=$1 text=$2; shift 2
    "$JUDGE" exec "$@" </dev/null >/dev/null 2>"$T/usage.err"
    local rc=$?
    if [ $rc = 2 ] && [ "$(wc -l < "$T/usage.err")" = 1 ] && grep -qF -- "$text" "$T/usage.err"; then
        ok "exec/usage_$name"
    else
        fail "exec/usage_$name" "exit $rc, stderr: $(head -2 "$T/usage.err")"
    fi
}
usage_case no_command "no command given"
usage_case no_command_after_dashes "no command given" --cpu 1 --
usage_case bad_cpu "--cpu: bad value 'abc'" --cpu abc -- /bin/true
usage_case negative_wall "--wall: bad value '-1'" --wall -1 -- /bin/true
usage_case bad_memory_suffix "--memory: bad value '12X'" --memory 12X -- /bin/true
usage_case memory_overflow "--memory: bad value '99999999999999G'" --memory 99999999999999G -- /bin/true
usage_case pids_too_many "--pids 4294967296: out of range (2 to 4194304)" --pids 4294967296 -- /bin/true
usage_case pids_too_few "--pids 1: out of range (2 to 4194304)" --pids 1 -- /bin/true
usage_case memory_too_small "--memory 1k: out of range (1M to 64T)" --memory 1k -- /bin/true
usage_case unknown_option "unknown option '--frobnicate'" --frobnicate -- /bin/true
usage_case unknown_profile "--profile: no run profile named 'nope'" --profile nope -- /bin/true
usage_case missing_value "option --cpu needs a value" --cpu
usage_case bad_isolation "--isolation is strict or best-effort, not 'lax'" --isolation lax -- /bin/true
usage_case bad_env "--env wants NAME=VALUE, got 'NOEQUALS'" --env NOEQUALS -- /bin/true
usage_case missing_dir "--dir $T/nope: No such file or directory" --dir "$T/nope" -- /bin/true
usage_case missing_stdin "cannot open --stdin $T/nope" --stdin "$T/nope" -- /bin/true
# A command that cannot be run is the user's mistake too (execve's ENOENT, EACCES, ENOEXEC, ENOTDIR,
# ELOOP, ENAMETOOLONG).
usage_case missing_command "cannot run /nonexistent in the jail: No such file or directory" -- /nonexistent
usage_case command_not_in_path "cannot run no-such-command in the jail: No such file or directory" -- no-such-command
usage_case command_not_executable "cannot run /etc/passwd in the jail: Permission denied" -- /etc/passwd
usage_case command_under_a_file "cannot run /etc/passwd/x in the jail: Not a directory" -- /etc/passwd/x
mkdir -p "$T/scripts" && printf 'echo hi\n' >"$T/scripts/no-shebang" && chmod 0755 "$T/scripts/no-shebang"
usage_case command_not_a_program "cannot run ./no-shebang in the jail: Exec format error" --dir "$T/scripts" -- ./no-shebang
ln -s loop "$T/scripts/loop"
usage_case command_a_symlink_loop "cannot run ./loop in the jail: Too many levels of symbolic links" --dir "$T/scripts" -- ./loop
long=/$(printf 'x%.0s' $(seq 5000))
usage_case command_name_too_long "cannot run $long in the jail: File name too long" -- "$long"
"$JUDGE" exec --report "$T/missing.json" -- /nonexistent </dev/null 2>/dev/null
check exec/missing_command_no_report [ $? = 2 -a ! -e "$T/missing.json" -a -z "$(ls -A "$T" | grep -F .missing.json)" ]
"$JUDGE" exec --help > "$T/help.out"
check exec/help_exits_0 [ $? = 0 -a "$(head -1 "$T/help.out")" = "usage: judge exec [OPTIONS] -- CMD [ARGS...]" ]
check exec/help_states_cpu_default grep -q 'default: no CPU limit' "$T/help.out"
check exec/help_states_wall_default grep -q 'default: no wall limit' "$T/help.out"

# ---- isolation: strict as root, then what an unprivileged user gets -------------------------

if [ "$(id -u)" = 0 ]; then
    jexec strict --isolation strict -- ./exec_exit 0
    check exec/strict_mode_as_root [ $? = 0 -a "$(field strict verdict)" = OK \
        -a "$(field strict isolation.degraded)" = False -a "$(field strict isolation.privileged)" = True \
        -a "$(field strict isolation.cgroup | grep -xE 'v1|v2')" != "" ]

    "$JUDGE" doctor > "$T/doctor.out"
    rc=$?
    check exec/doctor_as_root_exits_0 [ $rc = 0 ]
    check exec/doctor_table_header grep -qE '^layer +\| status +\| detail +\| fix$' "$T/doctor.out"
    check exec/doctor_strict_available [ "$(tail -1 "$T/doctor.out")" = "strict mode: available" ]
    for layer in user_ns pid_ns mount_ns net_ns ipc_ns uts_ns cgroup_ns pivot_root seccomp capabilities \
                 no_new_privs cgroup memory_limit pids_limit cpu_meter freezer; do
        check "exec/doctor_layer_$layer" grep -qE "^$layer +\| on " "$T/doctor.out"
    done
    "$JUDGE" doctor --json > "$T/doctor.json"
    check exec/doctor_json [ "$(json_get "$T/doctor.json" strict)" = available -a "$(json_get "$T/doctor.json" missing)" = "[]" ]

    # As nobody: no writable cgroup, so strict mode is refused and best-effort runs degraded.
    AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    (cd / && "${AS_NOBODY[@]}" "$JUDGE" doctor > "$T/doctor-nobody.out" 2>&1)
    rc=$?
    check exec/doctor_as_nobody_exits_1 [ $rc = 1 ]
    check exec/doctor_as_nobody_unprivileged grep -qE '^root +\| info +\| running as uid 65534 \(unprivileged\)' "$T/doctor-nobody.out"
    check exec/doctor_as_nobody_verdict [ "$(tail -1 "$T/doctor-nobody.out")" = \
        "strict mode: refused (missing: user_ns, memory_limit, pids_limit, cpu_meter, freezer)" ]

    (cd / && "${AS_NOBODY[@]}" "$JUDGE" exec --isolation strict --dir "$PROGS" -- ./exec_exit 0 \
        </dev/null >/dev/null 2>"$T/strict-nobody.err")
    rc=$?
    check exec/strict_as_nobody_refused [ $rc = 3 -a "$(wc -l < "$T/strict-nobody.err")" = 1 ]
    check exec/strict_as_nobody_names_layer grep -qF 'user_ns is degraded' "$T/strict-nobody.err"

    (cd / && "${AS_NOBODY[@]}" "$JUDGE" exec --isolation best-effort --dir "$PROGS" --report - \
        --stdout /dev/null -- ./exec_exit 0 </dev/null > "$T/nobody.json" 2>"$T/nobody.err")
    rc=$?
    check exec/best_effort_as_nobody_runs [ $rc = 0 -a "$(json_get "$T/nobody.json" verdict)" = OK ]
    check exec/best_effort_as_nobody_unprivileged [ "$(json_get "$T/nobody.json" isolation.privileged)" = False \
        -a "$(json_get "$T/nobody.json" isolation.degraded)" = True -a "$(json_get "$T/nobody.json" isolation.cgroup)" = none ]
    check exec/best_effort_as_nobody_names_layers [ "$(python3 -c 'import json,sys
print(", ".join(sorted(json.load(open(sys.argv[1]))["isolation"]["how"])))' "$T/nobody.json")" = \
        "cpu_meter, freezer, memory_limit, pids_limit, user_ns" ]
else
    skip exec/isolation "run as root to check strict mode, doctor, and the unprivileged view"
fi

e2e_exit
