#!/usr/bin/env bash
# 32_run_says_why.sh - what `judge run` prints: a table with a header and each player's
# number beside its place; under a player that broke a rule, the reason and the last line of
# its stderr (escaped: a bot's colour codes never reach the terminal); for a bot that never
# flushes its output, a hint naming the likely cause, and another for a reply without its newline
# or a bot computing all along; "1 round", not "1 rounds". A warlight or
# bomberman bot plays on after a violation: it gets its why and stderr line all the same.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ]; then
    skip run_says_why "strict jails need root"
    e2e_exit
fi
if [ ! -x "$BOTS/greedy" ] || [ ! -x /usr/bin/gcc ]; then
    fail run_says_why "build/bots/generals/greedy or gcc is missing: run make programs and make deps"
    e2e_exit
fi

mkdir "$T/bots"
# Says something on stderr with an ANSI colour code and a C1 CSI (U+009B, valid UTF-8 a
# terminal obeys as ESC [), then answers garbage.
cat >"$T/bots/chatty.c" <<'C'
#include <stdio.h>
int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        fprintf(stderr, "thinking\nabout to move \x1b[31mnow\x1b[0m\xc2\x9b" "2J\n");
        printf("hello\n");
        fflush(stdout);
    }
    return 0;
}
C
# Prints its move and waits for the next state without flushing: the judge sees nothing.
cat >"$T/bots/buffered.c" <<'C'
#include <stdio.h>
int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin))
        printf("0 0 0 0\n");
    return 0;
}
C
# Prints its move without the newline, flushes, and reads on, waiting for the next state.
cat >"$T/bots/nonl.c" <<'C'
#include <stdio.h>
int main(void)
{
    char line[4096];
    if (fgets(line, sizeof line, stdin)) {
        printf("0 0 0 0");
        fflush(stdout);
    }
    while (fgets(line, sizeof line, stdin))
        ;
    return 0;
}
C
# Computes forever from its first state on, on three threads.
cat >"$T/bots/spin.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static void *spin(void *arg)
{
    for (volatile unsigned long i = 0;; i++)
        ;
    return arg;
}
int main(void)
{
    char line[4096];
    pthread_t t;
    if (!fgets(line, sizeof line, stdin))
        return 1;
    pthread_create(&t, NULL, spin, NULL);
    pthread_create(&t, NULL, spin, NULL);
    spin(NULL);
    return 0;
}
C
# Bomberman: answers every tick in lower case, which the game refuses (the bot plays on, still).
cat >"$T/bots/lower.c" <<'C'
#include <stdio.h>
#include <string.h>
int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin))
        if (!strncmp(line, "END", 3)) {
            fprintf(stderr, "said wait\n");
            printf("wait\n");
            fflush(stdout);
        }
    return 0;
}
C
# Warlight, a process per turn: complains on stderr and prints nothing.
cat >"$T/bots/silent.c" <<'C'
#include <stdio.h>
int main(void)
{
    fprintf(stderr, "nothing to say\n");
    return 0;
}
C
for b in chatty buffered nonl spin lower silent; do gcc -O2 -pthread -o "$T/bots/$b" "$T/bots/$b.c" || fail build "$b"; done
chmod 755 "$T" "$T/bots"

match() {
    printf 'game: generals\nmap: %s\nseed: 5\nparams:\n  turn_limit: 20\n  move_wall_ms: %s\n%splayers:\n' \
        "$ROOT/examples/maps/generals/tiny.map" "${2:-500}" "${3:-}"
    printf '  - name: %s\n    dir: %s\n    command: [./%s]\n' greedy "$BOTS" greedy "$1" "$T/bots" "$1"
}
match chatty >"$T/chatty.yaml"
match buffered >"$T/buffered.yaml"
match nonl >"$T/nonl.yaml"
match spin 1000 $'  budget_base_ms: 0\n' >"$T/spin.yaml"

"$JUDGE" run "$T/chatty.yaml" --replay "$T/chatty.jsonl.gz" >"$T/chatty.out" 2>"$T/chatty.err"
check chatty/exit_0 [ $? = 0 ]
check table/header grep -qE '^place +player +name +verdict +moves +cpu/budget +memory: cgroup peak / peak RSS$' "$T/chatty.out"
check table/both_memory_figures grep -qE '^1 +1 +greedy +OK +[0-9]+ +[0-9]+/[0-9]+ ms +[0-9.]+ / [0-9.]*[1-9][0-9.]* MiB$' "$T/chatty.out"
check table/number_beside_place grep -qE "$(run_row chatty INVALID_OUTPUT 0 2)" "$T/chatty.out"
check table/player_number grep -qE '^2 +2 +chatty ' "$T/chatty.out"
check why/reason_under_the_player grep -qE '^ +why: round 1, reply 1: .*; sent "hello"$' "$T/chatty.out"
check why/stderr_last_line_escaped grep -qxE ' +stderr \(its last line\): about to move \\x1b\[31mnow\\x1b\[0m\\xc2\\x9b2J' "$T/chatty.out"
check why/no_escape_byte_printed [ "$(grep -c $'\x1b' "$T/chatty.out")" = 0 ]
check why/no_c1_control_printed [ "$(grep -c $'\xc2\x9b' "$T/chatty.out")" = 0 ]
check why/in_order [ "$(grep -A2 -E '^2 +2 +chatty ' "$T/chatty.out" | tail -2 | sed -E 's/^ +([a-z]+).*/\1/' | tr '\n' ' ')" = "why stderr " ]
check result/singular grep -qx 'result: greedy wins after 1 round' "$T/chatty.out"
check why/no_hint_when_something_arrived [ "$(grep -c 'hint:' "$T/chatty.out")" = 0 ]

"$JUDGE" run "$T/buffered.yaml" --replay "$T/buffered.jsonl.gz" >"$T/buffered.out" 2>"$T/buffered.err"
check buffered/exit_0 [ $? = 0 ]
check buffered/wall_limit grep -qE "$(run_row buffered WALL_LIMIT 0 2)" "$T/buffered.out"
check buffered/hint_names_flush grep -qE '^ +hint: not a byte of the reply arrived.*' "$T/buffered.out"
check buffered/hint_says_how grep -q 'fflush(stdout)' "$T/buffered.out"
check buffered/waited grep -qE '^ +why: round 1, reply 1: no complete reply within move_wall_ms \(limit 500 ms, waited [0-9]+ ms\)$' "$T/buffered.out"
"$JUDGE" run "$T/buffered.yaml" --replay "$T/buffered2.jsonl.gz" --json >"$T/buffered.json" 2>/dev/null
check buffered/json_hint python3 -c 'import json,sys; p=[p for p in json.load(open(sys.argv[1]))["players"] if p["name"]=="buffered"][0]
assert "flush" in p["hint"] and p["reason"].startswith("no complete reply"), p' "$T/buffered.json"

# Part of the reply came, flushed, with no newline: shown, and kept in the replay; no flush hint.
"$JUDGE" run "$T/nonl.yaml" --replay "$T/nonl.jsonl.gz" >"$T/nonl.out" 2>"$T/nonl.err"
check cut_short/exit_0 [ $? = 0 ]
check cut_short/wall_limit grep -qE "$(run_row nonl WALL_LIMIT 0 2)" "$T/nonl.out"
check cut_short/why_shows_the_bytes grep -qE '^ +why: round 1, reply 1: no complete reply within move_wall_ms \(limit 500 ms, waited [0-9]+ ms\); sent "0 0 0 0" and no newline after it$' "$T/nonl.out"
check cut_short/hint_names_the_newline grep -qE '^ +hint: part of the reply arrived .*but not its end' "$T/nonl.out"
check cut_short/no_flush_hint [ "$(grep -c 'not a byte' "$T/nonl.out")" = 0 ]
check cut_short/replay_evidence python3 -c 'import gzip,json,sys
v=[l for l in map(json.loads, gzip.open(sys.argv[1])) if l["type"]=="violation"][0]
assert v["evidence"]["line"] == "0 0 0 0", v' "$T/nonl.jsonl.gz"
"$JUDGE" replay verify "$T/nonl.jsonl.gz" >/dev/null
check cut_short/replay_verifies [ $? = 0 ]
"$JUDGE" run "$T/nonl.yaml" --replay "$T/nonl2.jsonl.gz" --json >"$T/nonl.json" 2>/dev/null
check cut_short/json_hint python3 -c 'import json,sys; p=[p for p in json.load(open(sys.argv[1]))["players"] if p["name"]=="nonl"][0]
assert "newline" in p["hint"], p' "$T/nonl.json"

# Nothing came from a bot computing all along (no CPU budget): no flush hint, but what it did.
"$JUDGE" run "$T/spin.yaml" --replay "$T/spin.jsonl.gz" >"$T/spin.out" 2>"$T/spin.err"
check busy/exit_0 [ $? = 0 ]
check busy/wall_limit grep -qE "$(run_row spin WALL_LIMIT 0 2)" "$T/spin.out"
check busy/hint_says_computing grep -qE '^ +hint: the bot was computing, not waiting for input: it used [0-9]+ ms of CPU in the [0-9]+ ms$' "$T/spin.out"
check busy/no_flush_hint [ "$(grep -c 'not a byte' "$T/spin.out")" = 0 ]

# Violations that leave the bot in the match: the table and --json give their why all the same.
{ printf 'game: bomberman\nmap: %s\nseed: 3\nparams: {game_ticks_max: 5}\nplayers:\n' "$ROOT/examples/maps/bomberman/duel.map"
  printf '  - name: %s\n    dir: %s\n    command: [./%s]\n' lower "$T/bots" lower waiter "$ROOT/build/bots/bomberman" waiter
} >"$T/lower.yaml"
"$JUDGE" run "$T/lower.yaml" --replay "$T/lower.jsonl.gz" >"$T/lower.out" 2>"$T/lower.err"
check plays_on/bomberman_exit_0 [ $? = 0 ]
check plays_on/bomberman_row grep -qE "$(run_row lower INVALID_OUTPUT 0)" "$T/lower.out"
check plays_on/bomberman_why grep -qE "^ +why: round [0-9]+, reply [0-9]+: 'wait' is not one of WAIT, .*; sent \"wait\"$" "$T/lower.out"
check plays_on/bomberman_stderr grep -qE '^ +stderr \(its last line\): said wait$' "$T/lower.out"
"$JUDGE" run "$T/lower.yaml" --replay "$T/lower2.jsonl.gz" --json >"$T/lower.json" 2>/dev/null
check plays_on/bomberman_json_reason python3 -c 'import json,sys; p=[p for p in json.load(open(sys.argv[1]))["players"] if p["name"]=="lower"][0]
assert p["reason"].startswith("\x27wait\x27 is not one of"), p' "$T/lower.json"
{ printf 'game: warlight\nseed: 7\nparams: {rounds: 1, turn_limit: 2}\nplayers:\n'
  printf '  - name: %s\n    dir: %s\n    command: [./%s]\n' silent "$T/bots" silent grabber "$ROOT/build/bots/warlight" grabber
} >"$T/silent.yaml"
"$JUDGE" run "$T/silent.yaml" --replay "$T/silent.jsonl.gz" >"$T/silent.out" 2>"$T/silent.err"
check plays_on/warlight_exit_0 [ $? = 0 ]
check plays_on/warlight_why grep -qE '^ +why: round 1, reply [0-9]+: skip-nooutput: printed nothing' "$T/silent.out"
check plays_on/warlight_stderr grep -qE '^ +stderr \(its last line\): nothing to say$' "$T/silent.out"

# A fork bomb: its verdict is what followed (here its CPU budget ran out), and the why says
# that its process limit was reached first.
{ printf 'game: generals\nmap: %s\nseed: 1\nparams: {turn_limit: 3}\nplayers:\n' "$ROOT/examples/maps/generals/tiny.map"
  printf '  - name: %s\n    dir: %s\n    command: [./%s]\n' bomb "$ROOT/build/hostile" fork_bomb greedy "$BOTS" greedy
} >"$T/bomb.yaml"
"$JUDGE" run "$T/bomb.yaml" --replay "$T/bomb.jsonl.gz" >"$T/bomb.out" 2>"$T/bomb.err"
check process_limit/exit_0 [ $? = 0 ]
check process_limit/why_says_so grep -qE "^ +why: round 1, reply 1: .* \(its process limit of 64 was reached\)" "$T/bomb.out"
e2e_exit
