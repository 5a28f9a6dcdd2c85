#!/usr/bin/env bash
# 25_bots_as_written.sh - bots as students write them, with no `profile:` key: a small bot in
# C, C++, Python 3, Java (every language the project ships a profile for), Perl and shell,
# run as `command: [python3, bot.py]` and the like in each game's process model (generals:
# one process talking for the whole match; warlight: a new process every turn, working in
# its data directory; sea battle: a board, then shots). Every bot must end OK. The Python
# bots also check the jail's own /etc (its user is named, nsswitch asks no daemon: the host
# here may say `passwd: files systemd`), and the warlight ones that what they write in their
# working directory is still there next turn.
source "$(dirname "$0")/../lib.sh"
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip bots_as_written "strict jails need root"
    e2e_exit
fi
LANGS="c cpp python java perl sh"
have_java=1
command -v javac >/dev/null && command -v java >/dev/null || have_java=0
[ $have_java = 1 ] || { skip bots_as_written/java "no javac/java on this machine"; LANGS="c cpp python perl sh"; }

# ---- generals: read "n m k id", then per state "1", k + n*m lines; answer -1 (pass) ----------
G=$T/generals; mkdir -p "$G"
cat >"$G/bot.c" <<'C'
#include <stdio.h>
int main(void) { int n, m, k, me, alive; char line[256];
    if (scanf("%d %d %d %d ", &n, &m, &k, &me) != 4) return 1;
    while (fgets(line, sizeof line, stdin) && sscanf(line, "%d", &alive) == 1 && alive == 1) {
        for (int i = 0; i < k + n * m; i++) if (!fgets(line, sizeof line, stdin)) return 0;
        printf("-1\n"); fflush(stdout); }
    return 0; }
C
cat >"$G/bot.cpp" <<'CPP'
#include <iostream>
#include <string>
int main() { int n, m, k, me; std::string line; std::cin >> n >> m >> k >> me; std::getline(std::cin, line);
    while (std::getline(std::cin, line) && line == "1") {
        for (int i = 0; i < k + n * m; i++) std::getline(std::cin, line);
        std::cout << -1 << std::endl; } }
CPP
cat >"$G/bot.py" <<'PY'
import os, pwd, sys
assert pwd.getpwuid(os.getuid()).pw_name == "bot" and "systemd" not in open("/etc/nsswitch.conf").read()
n, m, k, me = map(int, sys.stdin.readline().split())
while sys.stdin.readline().strip() == "1":
    for _ in range(k + n * m): sys.stdin.readline()
    print(-1, flush=True)
PY
cat >"$G/Bot.java" <<'JAVA'
import java.io.*;
public class Bot { public static void main(String[] a) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String[] h = in.readLine().trim().split(" ");
    int cells = Integer.parseInt(h[2]) + Integer.parseInt(h[0]) * Integer.parseInt(h[1]);
    for (String l; (l = in.readLine()) != null && l.trim().equals("1");) {
        for (int i = 0; i < cells; i++) in.readLine();
        System.out.println(-1); System.out.flush(); } } }
JAVA
cat >"$G/bot.pl" <<'PL'
$| = 1; my ($n, $m, $k) = split ' ', scalar <STDIN>;
while (defined(my $l = <STDIN>)) { last unless $l == 1; scalar <STDIN> for 1 .. $k + $n * $m; print "-1\n"; }
PL
cat >"$G/bot.sh" <<'SH'
read n m k me
while read alive && [ "$alive" = 1 ]; do
    i=0; while [ $i -lt $((k + n * m)) ]; do read line; i=$((i + 1)); done
    echo -1
done
SH

# ---- sea battle: 10 board lines, then shots "x y", row by row, reading each answer ----------
S=$T/seabattle; mkdir -p "$S"
BOARD='####______ __________ ###_###___ __________ ##_##_##__ __________ #_#_#_#___ __________ __________ __________'
cat >"$S/bot.c" <<C
#include <stdio.h>
int main(void) { const char *b = "$BOARD"; char line[64];
    for (int r = 0; r < 10; r++) printf("%.10s\n", b + 11 * r);
    for (int i = 0; i < 100; i++) { printf("%d %d\n", i % 10 + 1, i / 10 + 1); fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) return 0; } }
C
cat >"$S/bot.cpp" <<CPP
#include <iostream>
#include <sstream>
#include <string>
int main() { std::istringstream b("$BOARD"); std::string row;
    while (b >> row) std::cout << row << "\n";
    for (int i = 0; i < 100 && std::cout << i % 10 + 1 << " " << i / 10 + 1 << std::endl && std::getline(std::cin, row); i++) {} }
CPP
cat >"$S/bot.py" <<PY
import os, pwd, sys
assert pwd.getpwuid(os.getuid()).pw_name == "bot"
print("\n".join("$BOARD".split()), flush=True)
for i in range(100):
    print(i % 10 + 1, i // 10 + 1, flush=True)
    if not sys.stdin.readline(): break
PY
cat >"$S/Bot.java" <<JAVA
import java.io.*;
public class Bot { public static void main(String[] a) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    for (String row : "$BOARD".split(" ")) System.out.println(row);
    for (int i = 0; i < 100; i++) { System.out.println((i % 10 + 1) + " " + (i / 10 + 1)); System.out.flush();
        if (in.readLine() == null) break; } } }
JAVA
cat >"$S/bot.pl" <<PL
\$| = 1; print "\$_\n" for split ' ', '$BOARD';
for my \$i (0 .. 99) { printf "%d %d\n", \$i % 10 + 1, int(\$i / 10) + 1; last unless defined <STDIN>; }
PL
cat >"$S/bot.sh" <<SH
echo "$BOARD" | tr " " "\n"
y=1; while [ \$y -le 10 ]; do x=1; while [ \$x -le 10 ]; do
    echo "\$x \$y"; read answer || exit 0; x=\$((x + 1)); done; y=\$((y + 1)); done
SH

# ---- warlight: argv "id income territories bonuses [X]"; deploy everything on a territory of
# ours (r,c,bonus,owner,armies), attack nothing. Each keeps a file in its working directory
# (its data directory): missing on a later turn, it answers garbage, which is no OK verdict.
W=$T/warlight; mkdir -p "$W"
cat >"$W/bot.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) { if (argc < 5) return 1;
    if (argc == 5 && access("c.txt", F_OK) != 0) { puts("lost my file"); return 0; }
    FILE *f = fopen("c.txt", "a"); if (!f) return 1; fputs("turn\n", f); fclose(f);
    int r, c, owner; long a;
    for (char *t = strtok(argv[3], " "); t; t = strtok(NULL, " "))
        if (sscanf(t, "%d,%d,%*d,%d,%ld", &r, &c, &owner, &a) == 4 && owner == atoi(argv[1])) {
            printf("%d,%d,%s\n\n", r, c, argv[2]); return 0; }
    printf("\n\n"); return 0; }
C
sed -i 's/#include <unistd.h>/#include <unistd.h>\n#include <stdlib.h>/' "$W/bot.c"
cat >"$W/bot.cpp" <<'CPP'
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
int main(int argc, char **argv) { if (argc < 5) return 1;
    if (argc == 5 && !std::ifstream("cpp.txt")) { std::cout << "lost my file\n"; return 0; }
    std::ofstream("cpp.txt", std::ios::app) << "turn\n";
    std::istringstream ts(argv[3]); std::string t;
    while (ts >> t) { std::istringstream f(t); std::string r, c, b, owner;
        std::getline(f, r, ','); std::getline(f, c, ','); std::getline(f, b, ','); std::getline(f, owner, ',');
        if (owner == argv[1]) { std::cout << r << "," << c << "," << argv[2] << "\n\n"; return 0; } }
    std::cout << "\n\n"; }
CPP
cat >"$W/bot.py" <<'PY'
import os, sys
if len(sys.argv) == 5 and not os.path.exists("python.txt"): sys.exit(print("lost my file"))
open("python.txt", "a").write("turn\n")
mine = [t.split(",") for t in sys.argv[3].split() if t.split(",")[3] == sys.argv[1]]
print("%s,%s,%s\n" % (mine[0][0], mine[0][1], sys.argv[2]) if mine else "\n")
PY
cat >"$W/Bot.java" <<'JAVA'
import java.io.*;
import java.nio.file.*;
public class Bot { public static void main(String[] a) throws IOException {
    Path mine = Paths.get("java.txt");
    if (a.length == 4 && !Files.exists(mine)) { System.out.println("lost my file"); return; }
    Files.write(mine, "turn\n".getBytes(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    for (String t : a[2].split(" ")) { String[] f = t.split(",");
        if (f[3].equals(a[0])) { System.out.print(f[0] + "," + f[1] + "," + a[1] + "\n\n"); return; } }
    System.out.print("\n\n"); } }
JAVA
cat >"$W/bot.pl" <<'PL'
my ($me, $income, $ts) = @ARGV;
if (@ARGV == 4 && !-e "perl.txt") { print "lost my file\n"; exit 0; }
open(my $f, ">>", "perl.txt") or die; print $f "turn\n"; close $f;
for (split ' ', $ts) { my @f = split /,/; if ($f[3] == $me) { print "$f[0],$f[1],$income\n\n"; exit 0; } }
print "\n\n";
PL
cat >"$W/bot.sh" <<'SH'
me=$1 income=$2
if [ $# = 4 ] && [ ! -e sh.txt ]; then echo "lost my file"; exit 0; fi
echo turn >>sh.txt
for t in $3; do
    owner=${t#*,*,*,}; owner=${owner%%,*}
    if [ "$owner" = "$me" ]; then printf '%s,%s\n\n' "${t%,*,*,*}" "$income"; exit 0; fi
done
printf '\n\n'
SH

# ---- build the compiled ones as a student would, then the match files ---------------------
for d in "$G" "$S" "$W"; do
    cc -O2 -o "$d/c_bot" "$d/bot.c" && c++ -O2 -o "$d/cpp_bot" "$d/bot.cpp" ||
        { fail bots_as_written/build "cc or c++ failed in $d"; e2e_exit; }
    if [ $have_java = 1 ]; then (cd "$d" && javac Bot.java) || { fail bots_as_written/build "javac failed in $d"; e2e_exit; }; fi
done
chmod -R a+rX "$T"

# command_of LANG JAVA_COMMAND: the command a student writes for it (run from the bot's directory).
command_of() {
    case $1 in
    c) echo './c_bot' ;; cpp) echo './cpp_bot' ;; python) echo '[python3, bot.py]' ;;
    java) echo "$2" ;; perl) echo '[perl, bot.pl]' ;; sh) echo '[sh, bot.sh]' ;;
    esac
}
players() {  # DIR JAVA_COMMAND LANG...
    local dir=$1 java=$2 lang; shift 2
    echo "players:"
    for lang in "$@"; do printf '  - {name: %s, dir: %s, command: %s}\n' "$lang" "$dir" "$(command_of "$lang" "$java")"; done
}
# all_ok NAME OUT LANG...: the judge exited 0 and each player's line says OK.
all_ok() {
    local name=$1 out=$2 lang bad=; shift 2
    for lang in "$@"; do grep -qE "$(run_row "$lang" OK)" "$out" || bad="$bad $lang"; done
    if [ -z "$bad" ] && [ "$(cat "$out.rc")" = 0 ]; then ok "$name"; else
        fail "$name" "not OK:${bad:- (exit $(cat "$out.rc"))}: $(tr '\n' ' ' <"$out" | cut -c1-400) $(tr '\n' ' ' <"$out.err" | cut -c1-300)"
    fi
}
run() {  # NAME: plays T/NAME.yaml
    "$JUDGE" run "$T/$1.yaml" --replay "$T/$1.jsonl.gz" >"$T/$1.out" 2>"$T/$1.out.err"; echo $? >"$T/$1.out.rc"
}

# java Bot.java in generals: the launcher compiles in the jail and reads the JVM's /etc config.
{ printf 'game: generals\ngenerate: {rows: 8, cols: 8, mountains: 0, cities: 0}\nseed: 3\n'
  printf 'params: {turn_limit: 6}\nlimits: {move_wall_ms: 20000}\n'
  players "$G" '[java, Bot.java]' $LANGS; } >"$T/generals.yaml"
run generals
all_ok bots_as_written/generals_dialogue "$T/generals.out" $LANGS

{ printf 'game: warlight\nseed: 5\nparams: {rounds: 1, turn_limit: 3}\nlimits: {turn_wall_ms: 20000}\n'
  players "$W" '[java, Bot]' $LANGS; } >"$T/warlight.yaml"
run warlight
all_ok bots_as_written/warlight_process_per_turn "$T/warlight.out" $LANGS

# Sea battle has no map: no `generate: {}` either. Two players a match: in pairs.
set -- $LANGS
[ $(($# % 2)) = 0 ] || set -- "$@" c
while [ $# -ge 2 ]; do
    { printf 'game: seabattle\nseed: 1\nparams: {shot_limit: 30}\nlimits: {move_wall_ms: 20000}\n'
      players "$S" '[java, Bot]' "$1" "$2"; } >"$T/sea-$1.yaml"
    run "sea-$1"
    all_ok "bots_as_written/seabattle_$1_$2" "$T/sea-$1.out" "$1" "$2"
    shift 2
done

# A match file written beside the bots, with no `dir:`: they run from the match file's directory
# (they ran from /, where python3 found no bot.py and ./c_bot was "not found ((no dir)/c_bot)").
{ printf 'game: seabattle\nseed: 1\nparams: {shot_limit: 30}\nlimits: {move_wall_ms: 20000}\nplayers:\n'
  printf '  - {name: python, command: [python3, bot.py]}\n  - {name: c, command: ./c_bot}\n'; } >"$S/nodir.yaml"
"$JUDGE" run "$S/nodir.yaml" --replay "$T/nodir.jsonl.gz" >"$T/nodir.out" 2>"$T/nodir.out.err"
echo $? >"$T/nodir.out.rc"
all_ok bots_as_written/no_dir_runs_beside_the_match_file "$T/nodir.out" python c

# ---- mistakes students make: the verdict's lines say what went wrong ----------------------
# mistake NAME FILE LIMITS: plays S/FILE (python3, or java when it ends in .class) against c_bot.
mistake() {
    local cmd="[python3, $2]"
    case $2 in *.class) cmd="[java, ${2%.class}]" ;; esac
    printf 'game: seabattle\nseed: 1\nlimits: {%s}\nplayers:\n  - {name: %s, command: %s}\n  - {name: c, command: ./c_bot}\n' \
        "$3" "$1" "$cmd" >"$S/$1.yaml"
    "$JUDGE" run "$S/$1.yaml" --replay "$T/$1.jsonl.gz" >"$T/$1.out" 2>&1
}
# sys.stdin.read() waits for the end of the game: the wall limit's hint names it, not only flushing.
printf '%s\nprint("\\n".join("%s".split()), flush=True)\nsys.stdin.read()\n' 'import sys' "$BOARD" >"$S/readall.py"
mistake readall readall.py 'move_wall_ms: 300'
check mistakes/read_all_stdin_wall_limit grep -qE "$(run_row readall WALL_LIMIT)" "$T/readall.out"
check mistakes/read_all_stdin_hint python3 -c 'import sys; t = " ".join(open(sys.argv[1]).read().split())
assert "read one line at a time" in t and "sys.stdin.read()" in t, t' "$T/readall.out"
if [ $have_java = 1 ]; then
    # A Java exception: the line naming it, not the last frame of its stack trace ("\tat Main...").
    cat >"$S/Thrower.java" <<JAVA
public class Thrower { public static void main(String[] a) {
    for (String row : "$BOARD".split(" ")) System.out.println(row);
    int[] shots = new int[1]; System.out.println(shots[a.length + 1]); } }
JAVA
    # Nothing on stderr: no line shown, not the JVM's "Picked up JAVA_TOOL_OPTIONS" (the judge's option).
    printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$S/Hello.java"
    (cd "$S" && javac Thrower.java Hello.java && chmod a+r Thrower.class Hello.class)
    mistake thrower Thrower.class 'move_wall_ms: 20000'
    check mistakes/java_exception_runtime_error grep -qE "$(run_row thrower RUNTIME_ERROR)" "$T/thrower.out"
    check mistakes/java_exception_named grep -qE '^ +stderr \(above its stack trace\): Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 1$' "$T/thrower.out"
    mistake hello Hello.class 'move_wall_ms: 20000'
    check mistakes/java_silent_shows_no_stderr [ "$(grep -c 'stderr\|Picked up' "$T/hello.out")" = 0 ]
    check mistakes/java_silent_invalid_output grep -qE "$(run_row hello INVALID_OUTPUT)" "$T/hello.out"
fi

# ---- output paths that are not regular files are written in place -------------------------
"$JUDGE" exec --dir "$S" --report /dev/null --stdout /dev/null -- ./c_bot </dev/null 2>"$T/null.err"
echo $? >"$T/null.rc"
check outputs/report_to_dev_null_exit_0 [ "$(cat "$T/null.rc")" = 0 ]
check outputs/dev_null_stays_a_character_device [ -c /dev/null ]
mkfifo "$T/report.fifo"
cat "$T/report.fifo" >"$T/fifo.got" &
"$JUDGE" exec --dir "$S" --report "$T/report.fifo" --stdout - -- ./c_bot </dev/null >"$T/fifo.stdout" 2>"$T/fifo.err"
wait
check outputs/report_to_a_fifo grep -q '"verdict":"OK"' "$T/fifo.got"
check outputs/fifo_stays_a_fifo [ -p "$T/report.fifo" ]
check outputs/stdout_dash_is_the_judges grep -q '^####______$' "$T/fifo.stdout"

# ---- set-ups a user gets wrong: one line naming the file and the fix, exit 2, no match --------
# refused NAME YAML-BODY PATTERN: `judge run` exits 2 and its message matches PATTERN.
refused() {
    printf 'game: seabattle\nseed: 1\n%s' "$2" >"$T/$1.yaml"
    "$JUDGE" run "$T/$1.yaml" --replay "$T/$1.jsonl.gz" >"$T/$1.out" 2>"$T/$1.err"; local rc=$?
    if [ $rc = 2 ] && grep -qE -- "$3" "$T/$1.err" && [ ! -e "$T/$1.jsonl.gz" ]; then ok "bots_as_written/$1"; else
        fail "bots_as_written/$1" "exit $rc, wanted 2 and /$3/: $(head -c 300 "$T/$1.err")"; fi
}
sea_pair() { printf 'players:\n  - {name: a, dir: %s, command: %s}\n  - {name: b, dir: %s, command: ./c_bot}\n' "$1" "$2" "$S"; }

# A bot directory only its owner can read (what mktemp -d makes): refused before the match.
PRIVATE=$(mktemp -d "$T/private.XXXXXX"); cp "$S/c_bot" "$PRIVATE/"
refused private_dir "$(sea_pair "$PRIVATE" ./c_bot)" \
    "private_dir.yaml:[0-9]+:[0-9]+: player 'a': .*cannot enter $PRIVATE \(mode 0700\).*fix: chmod a\+rx $PRIVATE"
"$JUDGE" exec --dir "$PRIVATE" --report "$T/private.json" -- ./c_bot </dev/null >/dev/null 2>"$T/exec-private.err"
echo $? >"$T/exec-private.rc"
check bots_as_written/exec_private_dir_exit_2 [ "$(cat "$T/exec-private.rc")" = 2 ]
check bots_as_written/exec_private_dir_says_fix grep -q "cannot enter $PRIVATE (mode 0700).*fix: chmod a+rx $PRIVATE" "$T/exec-private.err"
chmod 0711 "$PRIVATE"; chmod 0700 "$PRIVATE/c_bot"
refused private_file "$(sea_pair "$PRIVATE" ./c_bot)" "cannot execute $PRIVATE/c_bot \(mode 0700\); fix: chmod a\+rx"
# A script without the execute bit: said so, with the fix (it used to be "not found").
cp "$S/bot.py" "$PRIVATE/bot.py"; chmod 0644 "$PRIVATE/bot.py"; chmod 0755 "$PRIVATE"
refused not_executable "$(sea_pair "$PRIVATE" ./bot.py)" "'./bot.py' \($PRIVATE/bot.py\) is not executable; fix: chmod \+x"
# An executable script with no #! line: execve would refuse it in the jail (it was INTERNAL_ERROR, exit 3).
printf 'while read line; do echo 1 1; done\n' >"$PRIVATE/bot.sh"; chmod 0755 "$PRIVATE/bot.sh"
refused no_shebang "$(sea_pair "$PRIVATE" ./bot.sh)" \
    "no_shebang.yaml:[0-9]+:[0-9]+: player 'a': './bot.sh' \($PRIVATE/bot.sh\) is neither a program nor a script with a #! line; fix: make its first line #!/bin/sh"
# A script saved on Windows: its #! line names 'python3\r', and the jail said only "exit 127"
# with env's "use -[v]S to pass options in shebang lines".
printf '#!/usr/bin/env python3\r\nprint("1 1")\r\n' >"$PRIVATE/crlf.py"; chmod 0755 "$PRIVATE/crlf.py"
refused crlf_shebang "$(sea_pair "$PRIVATE" ./crlf.py)" \
    "player 'a': './crlf.py' \($PRIVATE/crlf.py\) has Windows line endings \(CRLF\).*fix: sed -i 's/\\\\r\\$//' $PRIVATE/crlf.py"
chmod 0600 "$PRIVATE/bot.py"
refused unreadable_script "$(sea_pair "$PRIVATE" '[python3, bot.py]')" "cannot read $PRIVATE/bot.py \(mode 0600\); fix: chmod a\+r"
# profile: names a seccomp profile; a language there is a file error listing the valid ones.
refused profile_python "players:
  - name: a
    dir: $S
    command: [python3, bot.py]
    profile: python
  - {name: b, dir: $S, command: ./c_bot}
" "profile_python.yaml:7:14: unknown run profile 'python' \\(valid: default, interpreter, compiler, jvm\\)"
e2e_exit
