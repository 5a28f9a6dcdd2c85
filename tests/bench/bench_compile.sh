#!/usr/bin/env bash
# bench_compile.sh - what compiling in the jail costs: `judge compile` against the same
# compiler run directly on the host, per language profile, on the example generals bots.
# Prints wall-clock medians and the ratio; nothing is asserted. Needs root (strict jails).
# Removing the previous run's output (judge compile's BOT_DIR, the host's Python copy) is
# done before the clock starts, on both sides: it is the bench's tidying, not compiling.
set -u
: "${JUDGE:?set JUDGE to the judge binary}"
RUNS=${BENCH_COMPILE_RUNS:-7}
SRC=examples/bots/generals
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-compile.XXXXXX")
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    echo "bench_compile: skipped (strict jails need root)"
    exit 0
fi

now() { date +%s%N; }
# elapsed_us CMD...: one run's wall time, in microseconds.
elapsed_us() {
    local t0 t1
    rm -rf "$T/out" "$T/host-py"
    t0=$(now)
    "$@" >/dev/null 2>&1
    t1=$(now)
    echo $(((t1 - t0) / 1000))
}
# median_ms US...: the median of the figures, in ms.
median_ms() {
    printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p" | awk '{ printf "%.1f", $1 / 1000 }'
}
# host_and_jailed HOST_FN ARGS...: "HOST JAILED", the median wall times (ms) of RUNS runs of
# HOST_FN and of `jailed ARGS...`, taking turns so that the machine's drift hits both alike.
host_and_jailed() {
    local host_fn=$1 host=() jail=()
    shift
    for _ in $(seq "$RUNS"); do
        host+=("$(elapsed_us "$host_fn")")
        jail+=("$(elapsed_us jailed "$@")")
    done
    echo "$(median_ms "${host[@]}") $(median_ms "${jail[@]}")"
}

jailed() { "$JUDGE" compile --profile "$1" "$T/src-$2" --out "$T/out"; }
host_c() { /usr/bin/gcc -std=gnu17 -O2 -fmax-errors=20 -o "$T/host-bot" "$T/src-c/random.c" -lm; }
host_cpp() { /usr/bin/g++ -std=gnu++17 -O2 -fmax-errors=20 -o "$T/host-bot" "$T/src-cpp/original_style.cpp" -lm; }
# As on a student's machine: the bytecode beside the source (a prefix, PYTHONPYCACHEPREFIX,
# would also send the standard library's bytecode there, compiled anew at every run).
host_python3() {
    cp -R "$T/src-python3" "$T/host-py" && /usr/bin/python3 -m py_compile "$T/host-py/random.py"
}
host_java() {
    /usr/bin/javac -J-Xmx384m -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:ActiveProcessorCount=1 -J-Xshare:auto \
        -proc:none -encoding UTF-8 -d "$T/host-java" "$T/src-java/Random.java"
}

# The judge's own cost per compile: a profile like c's whose compiler is /bin/true.
host_true() { /bin/true; }
sed -e 's|^  command: \[/usr/bin/gcc.*|  command: [/bin/true]|' -e 's|^name: c$|name: true|' containers/c.yaml >"$T/true.yaml"

mkdir -p "$T/src-c" "$T/src-cpp" "$T/src-python3" "$T/src-java" "$T/host-java"
cp "$SRC/random.c" "$T/src-c/"
cp "$SRC/original_style.cpp" "$T/src-cpp/"
cp "$SRC/random.py" "$T/src-python3/"
cp "$SRC/Random.java" "$T/src-java/"

echo "bench_compile: judge compile vs the same compiler on the host, median of $RUNS runs each, taking turns (wall ms)"
printf '  %-8s %10s %10s %8s\n' profile host jailed ratio
for p in c cpp python3 java; do
    read -r host jail <<<"$(host_and_jailed "host_$p" "$p" "$p")"
    printf '  %-8s %10s %10s %8s\n' "$p" "$host" "$jail" "$(awk -v a="$jail" -v b="$host" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
done
if grep -q '^  command: \[/bin/true\]' "$T/true.yaml" && rm -rf "$T/out" && jailed "$T/true.yaml" c >/dev/null 2>&1; then
    read -r host jail <<<"$(host_and_jailed host_true "$T/true.yaml" c)"
    printf '  the judge'"'"'s own cost per compile (a profile compiling with /bin/true): %s ms, /bin/true on the host %s ms\n' \
        "$(awk -v a="$jail" -v b="$host" 'BEGIN { printf "%.1f", a - b }')" "$host"
else
    echo "  the judge's own cost per compile: no /bin/true profile made from containers/c.yaml, or judge compile failed"
fi
