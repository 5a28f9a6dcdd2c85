#!/usr/bin/env bash
# 50_compile.sh - `judge compile` with every language profile (c, cpp, python3, java): a
# real bot for every game compiled in the jail and then played in a match; compile
# errors with the compiler's messages and the compile record; bad input; the bot's files
# fsynced before its manifest is written.
# (Attacks at compile time: 55_compile_hostile.sh.)
source "$(dirname "$0")/../lib.sh"
SRC=$ROOT/examples/bots
OPP=$ROOT/build/bots
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip compile "strict jails need root"
    e2e_exit
fi
for tool in /usr/bin/gcc /usr/bin/g++ /usr/bin/python3 /usr/bin/javac /usr/bin/java; do
    if [ ! -x "$tool" ]; then
        fail compile "$tool is missing: run make deps"
        e2e_exit
    fi
done
for bin in generals/pass seabattle/hunter warlight/turtle; do
    if [ ! -x "$OPP/$bin" ]; then
        fail compile "$OPP/$bin is missing: run make programs"
        e2e_exit
    fi
done

# rq FILE EXPR: a python expression over the replay's lines L (R: the result line).
rq() {
    python3 - "$1" "$2" <<'EOF'
import gzip, json, sys
L = [json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
R = L[-1]
print(eval(sys.argv[2]))
EOF
}
# jq1 FILE KEY: one key of a one-line JSON file, or of the gzip one.
jq1() {
    python3 -c 'import gzip,json,sys
f=sys.argv[1]; d=json.loads((gzip.open(f,"rt") if f.endswith(".gz") else open(f)).read())
print(d[sys.argv[2]])' "$1" "$2"
}

# compile_bot NAME PROFILE FILE...: the files (from examples/bots) as one submission,
# compiled into $T/bot-NAME; checks it compiled.
compile_bot() {
    local name=$1 profile=$2; shift 2
    mkdir -p "$T/src-$name"
    for f in "$@"; do cp "$SRC/$f" "$T/src-$name/"; done
    "$JUDGE" compile --profile "$profile" "$T/src-$name" --out "$T/bot-$name" \
        --record "$T/rec-$name.jsonl.gz" >"$T/compile-$name.out" 2>&1
    check "compile/${name}_ok" [ $? = 0 ]
    check "compile/${name}_line" grep -qE "^OK profile=$profile exit=0 cpu=[0-9]+ ms wall=[0-9]+ ms -> $T/bot-$name\$" \
        "$T/compile-$name.out"
    check "compile/${name}_manifest" grep -qx "profile $profile" "$T/bot-$name/.judge-build"
    check "compile/${name}_record" [ "$(jq1 "$T/rec-$name.jsonl.gz" verdict)" = OK ]
}

# player NAME PROFILE: the match-file entry of the submission $T/src-NAME as a source player
# (`judge run` compiles it again, into a temporary directory, and runs what compiled_bot_load() makes).
player() { printf '  - name: %s\n    source: %s\n    language: %s\n' "$1" "$T/src-$1" "$2"; }
opponent() { printf '  - name: %s\n    dir: %s\n    command: [%s]\n' "$1" "$OPP/$2" "$3"; }

# play NAME YAML-HEAD PLAYERS...: plays the match; checks the compiled bot (player NAME) ended OK.
play() {
    local name=$1 head=$2; shift 2
    { printf '%s\nplayers:\n' "$head"; printf '%s\n' "$@"; } >"$T/match-$name.yaml"
    "$JUDGE" run "$T/match-$name.yaml" --replay "$T/match-$name.jsonl.gz" >"$T/match-$name.out" 2>&1
    check "match/${name}_exit_0" [ $? = 0 ]
    check "match/${name}_bot_ok" grep -qE "$(run_row "$name" OK '[1-9][0-9]*')" "$T/match-$name.out"
    check "match/${name}_verify" bash -c "'$JUDGE' replay verify '$T/match-$name.jsonl.gz' | grep -q ': ok ('"
}

# The replies of player 1, one per line.
replies() { rq "$1" '"\n".join(x["line"] for x in L if x["type"] == "reply" and x["player"] == 1)'; }

GENERALS="game: generals
map: $ROOT/examples/maps/generals/original.map
seed: 5
params: {turn_limit: 60}
limits: {memory_limit_mb: 448}"
SEABATTLE="game: seabattle
generate: {}
seed: 1
limits: {memory_limit_mb: 448}"
WARLIGHT="game: warlight
generate: {}
seed: 3
params: {rounds: 1, turn_limit: 4}
limits: {memory_limit_mb: 448}"

# ---- every profile, every game: compile a real bot, play it ----------------------------------

compile_bot gen_c c generals/random.c
compile_bot gen_cpp cpp generals/original_style.cpp
# Durability: a file copied into BOT_DIR is on disk before the manifest's rename says the
# bot is complete (the judge's own system calls, its jails untraced).
if command -v strace >/dev/null; then
    strace -qq -e trace=openat2,fsync,renameat,renameat2 -o "$T/fsync.trace" \
        "$JUDGE" compile --profile c "$T/src-gen_c" --out "$T/bot-fsync" >/dev/null 2>&1
    check compile/bot_file_fsynced_before_manifest python3 - "$T/fsync.trace" <<'EOF'
import re, sys
fd, synced = None, False
for line in open(sys.argv[1]).read().splitlines():
    m = re.match(r'openat2\(\d+, "bot", \{flags=O_WRONLY\|O_CREAT.* = (\d+)$', line)
    if m:
        fd = m.group(1)
    elif fd and line.startswith("fsync(%s)" % fd):
        synced = True
    elif line.startswith("rename") and '".judge-build"' in line:
        sys.exit(0 if synced else 1)
sys.exit(1)
EOF
else
    skip compile/bot_file_fsynced_before_manifest "strace is not installed (make deps installs it)"
fi
compile_bot gen_py python3 generals/random.py
compile_bot gen_java java generals/Random.java
compile_bot sea_c c seabattle/fixed.c
compile_bot sea_cpp cpp seabattle/columns.cpp
compile_bot sea_py python3 seabattle/fixed.py
compile_bot sea_java java seabattle/Fixed.java
compile_bot war_c c warlight/turtle.c warlight/warlight_bot.h
compile_bot war_cpp cpp warlight/stacker.cpp
compile_bot war_py python3 warlight/turtle.py
compile_bot war_java java warlight/Turtle.java
check compile/java_classes_delivered [ -f "$T/bot-gen_java/Random.class" ]
check compile/python_entry_recorded grep -qx "entry random.py" "$T/bot-gen_py/.judge-build"

for lang in c:c cpp:cpp py:python3 java:java; do
    IFS=: read -r tag profile <<<"$lang"
    play gen_$tag "$GENERALS" "$(player gen_$tag $profile)" "$(opponent pass generals ./pass)"
done
# random.py and Random.java are random.c line for line: the same 60 moves.
replies "$T/match-gen_c.jsonl.gz" >"$T/replies_c.txt"
replies "$T/match-gen_py.jsonl.gz" >"$T/replies_py.txt"
replies "$T/match-gen_java.jsonl.gz" >"$T/replies_java.txt"
check match/python_replies_equal_c cmp -s "$T/replies_c.txt" "$T/replies_py.txt"
check match/java_replies_equal_c cmp -s "$T/replies_c.txt" "$T/replies_java.txt"
check match/replies_are_moves grep -qE '^[12] [0-9]+ [0-9]+ [0-9]+ [0-9]+$' "$T/replies_c.txt"

for lang in c:c cpp:cpp py:python3 java:java; do
    IFS=: read -r tag profile <<<"$lang"
    play sea_$tag "$SEABATTLE" "$(player sea_$tag $profile)" "$(opponent hunter seabattle './hunter, "42"')"
done
for lang in c:c cpp:cpp py:python3 java:java; do
    IFS=: read -r tag profile <<<"$lang"
    play war_$tag "$WARLIGHT" "$(player war_$tag $profile)" "$(opponent turtle warlight ./turtle)"
done

# ---- the jvm seccomp profile: only what the JVM does at start-up is let through ----------------

# jvm_exec NAME CODE: python3 -c CODE under the jvm profile; sets V to "VERDICT syscall-name".
jvm_exec() {
    "$JUDGE" exec --profile jvm --report "$T/jvm-$1.json" --stderr "$T/jvm-$1.err" -- /usr/bin/python3 -c "$2" </dev/null
    V=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["verdict"], (r["syscall"] or {}).get("name", "-"))' "$T/jvm-$1.json")
}
jvm_exec inet 'import socket; socket.socket(socket.AF_INET6)'
check seccomp/jvm_inet_refused_not_reported [ "$V" = "RUNTIME_ERROR -" ]
check seccomp/jvm_inet_error grep -q "Address family not supported" "$T/jvm-inet.err"
# ctypes: the calls themselves, without what Python's socket objects add (getsockname).
LIBC='import ctypes; c = ctypes.CDLL(None); sv = (ctypes.c_int * 2)(); assert c.socketpair(1, 1, 0, sv) == 0'
jvm_exec pair "$LIBC"
check seccomp/jvm_socketpair_allowed [ "$V" = "OK -" ]
jvm_exec netlink 'import socket; socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)'
check seccomp/jvm_other_families_reported [ "$V" = "FORBIDDEN_SYSCALL socket" ]
jvm_exec connect "$LIBC; c.connect(sv[0], None, 0)"
check seccomp/jvm_connect_reported [ "$V" = "FORBIDDEN_SYSCALL connect" ]

# ---- compile errors: the verdict, the compiler's words, the record ---------------------------

# broken NAME PROFILE FILE TEXT: the submission FILE holding TEXT fails to compile.
broken() {
    local name=$1 profile=$2 file=$3 text=$4
    mkdir -p "$T/bad-$name" && printf '%b' "$text" >"$T/bad-$name/$file"
    "$JUDGE" compile --profile "$profile" "$T/bad-$name" --out "$T/badbot-$name" --player "$name" \
        --record "$T/badrec-$name.jsonl.gz" >"$T/bad-$name.out" 2>&1
    check "error/${name}_exit_1" [ $? = 1 ]
    check "error/${name}_verdict_line" grep -qE "^COMPILE_ERROR profile=$profile exit=" "$T/bad-$name.out"
    check "error/${name}_record" [ "$(jq1 "$T/badrec-$name.jsonl.gz" verdict)/$(jq1 "$T/badrec-$name.jsonl.gz" player)" = "COMPILE_ERROR/$name" ]
    check "error/${name}_nothing_delivered" [ -z "$(ls -A "$T/badbot-$name")" ]
}
broken c_syntax c bot.c 'int main(void) { return 0 }\n'
check error/c_messages_name_the_line grep -qE "^bot.c:1:[0-9]+: error: expected ';'" "$T/bad-c_syntax.out"
check error/c_record_messages python3 -c 'import gzip,json,sys; d=json.loads(gzip.open(sys.argv[1],"rt").read())
assert "bot.c:1:" in d["messages"] and d["exit_code"] == 1 and d["profile"] == "c" and d["cpu_ns"] > 0
assert d["type"] == "compile" and d["format"] == "judge-compile" and d["version"] == 1 and d["judge_version"]' "$T/badrec-c_syntax.jsonl.gz"
broken cpp_type cpp bot.cpp '#include <string>\nint main() { std::string s = 5.0; }\n'
check error/cpp_messages grep -q "error: conversion from" "$T/bad-cpp_type.out"
broken py_syntax python3 bot.py 'def f(:\n    pass\n'
check error/python_messages grep -q "SyntaxError" "$T/bad-py_syntax.out"
broken java_type java Main.java 'public class Main { public static void main(String[] a) { int x = "s"; } }\n'
check error/java_messages grep -q "error: incompatible types" "$T/bad-java_type.out"
broken no_source c notes.txt 'not a program\n'
check error/no_source_message grep -qx "judge: no source file (\*.c) in the submission" "$T/bad-no_source.out"
mkdir -p "$T/two" && echo 'class A {}' >"$T/two/A.java" && echo 'class B {}' >"$T/two/B.java"
"$JUDGE" compile --profile java "$T/two" --out "$T/two-bot" >"$T/two.out" 2>&1
check error/no_entry_exit_1 [ $? = 1 ]
check error/no_entry_message grep -qx "judge: 2 source files and none is the entry: name the main one Main.java or Bot.java" "$T/two.out"
# Bytes that are not UTF-8 reach the record as valid JSON text.
broken bad_utf8 c bot.c '#error "\xff\xfe bytes"\n'
check error/bad_utf8_record_is_json python3 -c 'import gzip,json,sys; d=json.loads(gzip.open(sys.argv[1],"rb").read().decode("utf-8"))
assert "bytes" in d["messages"]' "$T/badrec-bad_utf8.jsonl.gz"
# Long messages are cut to 16 KiB, and say so.
long=$(printf 'x%.0s' $(seq 3000))
broken long_messages c bot.c "$(for i in $(seq 15); do printf 'int f%s(void) { return %s; }\\n' "$i" "$long"; done)"
check error/messages_cut_to_16k python3 -c 'import gzip,json,sys; d=json.loads(gzip.open(sys.argv[1],"rt").read())
assert len(d["messages"].encode()) <= 16384 and "more bytes of messages not shown" in d["messages"]' "$T/badrec-long_messages.jsonl.gz"

# --json: the record's fields on stdout; the player defaults to SRC_DIR's name.
"$JUDGE" compile --profile c "$T/bad-c_syntax" --out "$T/json-bot" --json >"$T/json.out" 2>&1
check json/exit_1 [ $? = 1 ]
check json/fields [ "$(jq1 "$T/json.out" verdict)/$(jq1 "$T/json.out" player)/$(jq1 "$T/json.out" source)" = "COMPILE_ERROR/bad-c_syntax/$T/bad-c_syntax" ]

# ---- docs/compile.md's examples, run from a fresh directory ----------------------------------

mkdir -p "$T/fresh/submissions" && cp -R "$T/src-gen_c" "$T/fresh/submissions/alice"
(cd "$T/fresh" && "$JUDGE" compile --profile c submissions/alice --out bots/alice) >"$T/fresh-alice.out" 2>&1
check fresh/bot_dir_parents_made [ $? = 0 -a -f "$T/fresh/bots/alice/.judge-build" ]
(cd "$T/fresh" && "$JUDGE" compile --profile c submissions/alice --out bots/bob --record compile/bob.jsonl.gz \
    --json) >"$T/fresh-bob.out" 2>&1
check fresh/record_dirs_made [ $? = 0 -a "$(jq1 "$T/fresh/compile/bob.jsonl.gz" verdict)" = OK ]
check fresh/record_json_printed [ "$(jq1 "$T/fresh-bob.out" verdict)" = OK ]
(cd "$T/fresh" && "$JUDGE" compile --profile c submissions/alice --out bots/bob2 --record compile/bob.jsonl.gz) \
    >/dev/null 2>"$T/fresh-bob2.err"
check fresh/record_replaced_said grep -qxF "judge compile: note: replaced the existing file compile/bob.jsonl.gz (named by --record)" "$T/fresh-bob2.err"

# A record that cannot be written after the compile: the verdict is printed all the same, exit 4.
"$JUDGE" compile --profile c "$T/src-gen_c" --out "$T/full-bot" --record /dev/full >"$T/full.out" 2>"$T/full.err"
check record/disk_full_exit_4 [ $? = 4 ]
check record/disk_full_verdict_printed grep -qE "^OK profile=c exit=0 " "$T/full.out"
check record/disk_full_said grep -qx "judge compile: compile record: /dev/full: write: No space left on device" \
    "$T/full.err"

# ---- bad input: one line naming the problem, exit 2 ------------------------------------------

# refuse NAME REGEX ARGS...
refuse() {
    local name=$1 regex=$2; shift 2
    "$JUDGE" compile "$@" >"$T/refuse-$name.out" 2>"$T/refuse-$name.err"
    check "bad_input/${name}_exit_2" [ $? = 2 ]
    check "bad_input/${name}_one_line" [ "$(wc -l <"$T/refuse-$name.err")" = 1 -a ! -s "$T/refuse-$name.out" ]
    check "bad_input/${name}_message" grep -qE "$regex" "$T/refuse-$name.err"
}
refuse unknown_profile "^judge compile: no language profile 'cobol' in .*/containers \(profiles: c, cpp, java, python3\)$" \
    --profile cobol "$T/src-gen_c" --out "$T/x1"
refuse no_out "^judge compile: --out BOT_DIR is required " --profile c "$T/src-gen_c"
refuse missing_src "^judge compile: SRC_DIR $T/nope: No such file or directory$" --profile c "$T/nope" --out "$T/x2"
refuse bot_dir_not_empty "^judge compile: BOT_DIR $T/bot-gen_c: not empty " --profile c "$T/src-gen_c" --out "$T/bot-gen_c"
touch "$T/plain"
refuse bot_dir_under_a_file "^judge compile: BOT_DIR: $T/plain: not a directory$" --profile c "$T/src-gen_c" --out "$T/plain/bot"
# A record that cannot be is refused before compiling: no BOT_DIR made.
refuse record_under_a_file "^judge compile: compile record: $T/plain: not a directory$" \
    --profile c "$T/src-gen_c" --out "$T/x6" --record "$T/plain/r.jsonl.gz"
check bad_input/record_refused_before_compiling [ ! -e "$T/x6" ]
printf 'name: broken\nsources: [*.c]\n' >"$T/broken.yaml"
refuse broken_profile "^judge compile: $T/broken.yaml:2:12: " --profile "$T/broken.yaml" "$T/src-gen_c" --out "$T/x3"
printf 'name: broken2\nsources: ["*.c"]\ncompile:\n  command: [/usr/bin/gcc, "${OUTPUT}"]\n  seccomp: compiler\nrun:\n  command: [./bot]\n  seccomp: default\n' >"$T/broken2.yaml"
refuse unknown_variable "^judge compile: $T/broken2.yaml:4:27: unknown variable '\\$\\{OUTPUT\\}' here$" \
    --profile "$T/broken2.yaml" "$T/src-gen_c" --out "$T/x4"
refuse unknown_option "^judge compile: unknown option '--fast' " --fast --profile c "$T/src-gen_c" --out "$T/x5"

e2e_exit
