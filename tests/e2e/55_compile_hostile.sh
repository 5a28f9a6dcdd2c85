#!/usr/bin/env bash
# 55_compile_hostile.sh - attacks at compile time (tests/hostile/compile/expect.txt):
# each gets its exact verdict under `judge compile`, and nothing escapes.
source "$(dirname "$0")/../lib.sh"
ATTACKS=$ROOT/tests/hostile/compile
EXPECT=${COMPILE_HOSTILE_EXPECT:-$ATTACKS/expect.txt}  # another list: a few attacks only
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip compile_hostile "strict jails need root"
    e2e_exit
fi
if [ ! -x /usr/bin/gcc ] || [ ! -x /usr/bin/g++ ] || [ ! -x /usr/bin/python3 ]; then
    fail compile_hostile "gcc, g++ or python3 is missing: run make deps"
    e2e_exit
fi

# The judge's environment holds a secret no compiler may see.
export JUDGE_HOSTILE_SECRET="compile-secret-$$-$RANDOM"
COMPILERS="cc1 cc1plus as ld collect2 gcc g++ python3 cp javac java"
JAIL_UID_FIRST=1900000000   # sandbox/jail_internal.h: JAIL_UID_BASE .. + JAIL_UID_SLOTS
JAIL_UID_LAST=1900004095

# Tightened copies of the shipped profiles (see expect.txt).
mkdir -p "$T/profiles" "$T/tmp"
for f in "$ROOT"/containers/*.yaml; do
    sed -e 's/^\( *memory_mb:\).*/\1 256/' -e 's/^\( *wall_ms:\).*/\1 60000/' "$f" >"$T/profiles/${f##*/}"
done
sed -i 's/^\( *cpu_ms:\).*/\1 2000/' "$T/profiles/c.yaml"

# The other submission, somewhere on the host.
OTHER=$T/other/bot.c
mkdir -p "$T/other" && echo 'int other_secret = 4242; /* OTHER-SECRET */' >"$OTHER"
OTHER_SUM=$(sha256sum <"$OTHER")
SHADOW_SUM=$(sha256sum </etc/shadow)

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
messages() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["messages"])' "$1"; }
record_verdict() { python3 -c 'import gzip,json,sys; print(json.loads(gzip.open(sys.argv[1],"rt").read())["verdict"])' "$1" 2>/dev/null; }

# Compiler processes running as a jail uid.
leftover_compilers() {
    awk -v lo=$JAIL_UID_FIRST -v hi=$JAIL_UID_LAST '/^Uid:/ && $2 >= lo && $2 <= hi { print FILENAME }' \
        /proc/[0-9]*/status 2>/dev/null | while read -r status; do
        local comm
        comm=$(cat "${status%/status}/comm" 2>/dev/null) || continue
        case " $COMPILERS " in *" $comm "*) echo "$comm" ;; esac
    done
}

no_leftovers() {
    for _ in $(seq 40); do
        [ -z "$(leftover_compilers)" ] && return 0
        sleep 0.05
    done
    return 1
}

# setup STEP...: one setup word list of the fourth column (before the run).
setup() {
    local sub=$1 file=$2 what=$3 a1=$4 a2=$5
    case $what in
    other) sed -i "s|@OTHER@|$OTHER|" "$sub/$file" ;;
    link) ln -s "$a2" "$sub/$a1" ;;
    zeros) head -c "$a2" /dev/zero >"$sub/$a1" ;;
    rename) mv "$sub/$file" "$sub/$a1" ;;
    copy) cp "$sub/$file" "$sub/$a1" ;;
    sparse) for i in $(seq "$a1"); do truncate -s "${a2}M" "$sub/sparse$i.bin"; done ;;
    broken) printf 'def broken(:\n' >"$sub/$a1" ;;
    pch) printf '#error "%s read: its precompiled copy was not used"\n' "$a1" >"$sub/$a1"
         printf 'int from_pch;\n' >"$T/pch.h" && gcc -std=gnu17 -O2 -o "$sub/$a1.gch" "$T/pch.h" ;;
    esac
}

# Lines of text a CI log would take for a command or a terminal for a control sequence:
# a GitHub Actions workflow command (a line starting, after blanks, with "::"), a
# legacy one ("##[" anywhere), or any control byte but newline and tab.
log_commands() {
    LC_ALL=C grep -naE $'^[[:space:]]*::|##\\[|[\x01-\x08\x0b-\x1f\x7f]' "$1" | head -3
}

# printed_safe: `judge compile` without --json (the text a CI log shows), and `judge run`
# of a match with the submission as a source player (its messages on stderr), hold no command.
check_printed() {
    local sub=$1 profile=$2 out=$T/printed.txt
    rm -rf "$T/printed-bot"
    TMPDIR=$T/tmp "$JUDGE" compile --profiles "$T/profiles" --profile "$profile" "$sub" \
        --out "$T/printed-bot" >"$out" 2>&1
    local found; found=$(log_commands "$out")
    [ -z "$found" ] || echo "judge compile printed a command: $found"
    grep -q . "$out" || echo "judge compile printed nothing"
    printf 'game: generals\ngenerate: {rows: 6, cols: 6}\nplayers:\n  - {name: attacker, source: %s, profile: %s}\n  - {name: ref, source: %s, profile: c}\n' \
        "$sub" "$profile" "$ROOT/examples/class/references/random" >"$T/printed.yaml"
    TMPDIR=$T/tmp "$JUDGE" run "$T/printed.yaml" --replay "$T/printed.jsonl.gz" >"$out" 2>&1
    local rc=$?
    [ $rc = 1 ] || echo "judge run exited $rc, not 1 (the attacker does not compile)"
    found=$(log_commands "$out")
    [ -z "$found" ] || echo "judge run printed a command: $found"
    grep -q "player 'attacker' did not compile" "$out" || echo "judge run did not say the attacker did not compile"
}

# check_text JSON WHAT TEXT: prints why it failed.
check_text() {
    local text=${3//@SECRET@/$JUDGE_HOSTILE_SECRET}
    local found=no
    messages "$1" >"$T/messages.txt"
    grep -qF -- "$text" "$T/messages.txt" && found=yes
    case $2 in
    absent) [ $found = no ] || echo "the messages contain '$text'" ;;
    present) [ $found = yes ] || echo "the messages lack '$text'" ;;
    esac
}

run_one() {
    local file=$1 profile=$2 want=$3 steps=$4 problems=() step
    local sub=$T/sub-$file bot=$T/bot-$file json=$T/$file.json rec=$T/$file.jsonl.gz
    mkdir -p "$sub" && cp "$ATTACKS/$file" "$sub/"
    IFS=';' read -ra list <<<"$steps"
    for step in "${list[@]}"; do setup "$sub" "$file" $step; done
    local sub_sum
    sub_sum=$(cd "$sub" && find . -printf '%p %l %s\n' | sort | sha256sum)
    TMPDIR=$T/tmp "$JUDGE" compile --profiles "$T/profiles" --profile "$profile" "$sub" --out "$bot" \
        --record "$rec" --json >"$json" 2>"$T/judge.err"
    local rc=$? got
    got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$json" 2>/dev/null)
    [ "$got" = "$want" ] || problems+=("expected $want got ${got:-nothing} ($(head -c 200 "$T/judge.err"))")
    [ $rc = "$([ "$want" = OK ] && echo 0 || echo 1)" ] || problems+=("judge exited $rc")
    [ "$(record_verdict "$rec")" = "$want" ] || problems+=("the record says '$(record_verdict "$rec")'")
    for step in "${list[@]}"; do
        read -r what text <<<"$step"
        local why=
        case $what in
        absent | present) why=$(check_text "$json" "$what" "$text") ;;
        printed_safe) why=$(check_printed "$sub" "$profile") ;;
        disk_full) messages "$json" >"$T/messages.txt"
            grep -qE 'File size limit exceeded|File too large|No space left on device' "$T/messages.txt" ||
                why="the messages name no full disk or file-size limit" ;;
        esac
        [ -z "$why" ] || problems+=("$why")
    done
    [ "$want" = OK ] || [ -z "$(ls -A "$bot" 2>/dev/null)" ] || problems+=("BOT_DIR holds $(ls -A "$bot" | tr '\n' ' ')")
    [ ! -e "$bot/evil" ] || problems+=("the link was delivered into BOT_DIR")
    [ "$(cd "$sub" && find . -printf '%p %l %s\n' | sort | sha256sum)" = "$sub_sum" ] || problems+=("the submission changed")
    [ "$(sha256sum <"$OTHER")" = "$OTHER_SUM" ] || problems+=("the other submission changed")
    [ "$(sha256sum </etc/shadow)" = "$SHADOW_SUM" ] || problems+=("/etc/shadow changed")
    [ -z "$(ls -A "$T/tmp")" ] || problems+=("TMPDIR holds $(ls -A "$T/tmp" | tr '\n' ' ')")
    no_leftovers || problems+=("compilers left running: $(leftover_compilers | tr '\n' ' ')")
    if [ ${#problems[@]} = 0 ]; then ok "compile_hostile/$file"; else
        fail "compile_hostile/$file" "$(IFS=';'; echo "${problems[*]}")"
    fi
}

count=0
while IFS='|' read -r -u 3 file profile want steps; do
    file=$(trim "$file")
    case $file in '' | '#'*) continue ;; esac
    run_one "$file" "$(trim "$profile")" "$(trim "$want")" "$(trim "$steps")"
    count=$((count + 1))
done 3<"$EXPECT"
[ $count -gt 0 ] || fail compile_hostile "no attack ran"
e2e_exit
