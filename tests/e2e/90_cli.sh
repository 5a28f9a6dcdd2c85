#!/usr/bin/env bash
# 90_cli.sh - the command line helps: `judge help run` is `judge run --help`, which lists the
# match file's keys; a misspelt command, key, game or profile gets "did you mean"; a tab in
# YAML is explained in words; libwebsockets is not loaded unless serving; judge(1) is written
# from the commands' --help texts and renders;
# `make install` installs the binary, the profiles, the man page, the docs and the examples,
# and `make uninstall` removes them.
source "$(dirname "$0")/../lib.sh"
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

"$JUDGE" help run >"$T/help_run.txt"
check help/exit_0 [ $? = 0 ]
"$JUDGE" run --help >"$T/run_help.txt"
check help/run_is_run_help cmp -s "$T/help_run.txt" "$T/run_help.txt"
for key in game map generate seed params limits players name dir command profile source replay isolation freeze; do
    check "help/run_lists_key_$key" grep -qE "^ +(- )?$key:" "$T/run_help.txt"
done
"$JUDGE" help rnu >/dev/null 2>"$T/cmd.err"
check typo/command_exit_2 [ $? = 2 ]
check typo/command_suggests grep -qx "judge: unknown command 'rnu'; did you mean 'run'? (see judge help)" "$T/cmd.err"
"$JUDGE" tournment x.yaml 2>"$T/cmd2.err"
check typo/command_direct grep -q "did you mean 'tournament'?" "$T/cmd2.err"
"$JUDGE" hlep 2>"$T/cmd3.err"
check typo/help grep -q "did you mean 'help'?" "$T/cmd3.err"

# libwebsockets (and the libssl and libcrypto it needs) is loaded by `judge serve` alone: every
# other run of the judge starts without them (tests/e2e/65_network.sh serves through it).
LD_DEBUG=files "$JUDGE" --version >/dev/null 2>"$T/ld.txt"
check startup/loader_traced grep -q 'file=libc.so' "$T/ld.txt"
check startup/no_websockets_unless_serving [ "$(grep -cE 'file=lib(websockets|ssl|crypto)' "$T/ld.txt")" = 0 ]

# bad NAME TEXT WANT: a match file holding TEXT fails with exit 2 and exactly FILE:WANT.
bad() {
    printf '%b' "$2" >"$T/$1.yaml"
    "$JUDGE" run "$T/$1.yaml" >/dev/null 2>"$T/$1.err"
    check "$1/exit_2" [ $? = 2 ]
    check "$1/message" grep -qxF "$T/$1.yaml:$3" "$T/$1.err"
}
PLAYERS='players:\n  - {name: a, command: [/bin/true]}\n  - {name: b, command: [/bin/true]}\n'
bad key "game: generals\nseeed: 3\n$PLAYERS" "2:1: unknown key 'seeed' (did you mean 'seed'?)"
bad game "game: genrals\n$PLAYERS" "1:7: unknown game 'genrals' (did you mean 'generals'?) (games: generals, warlight, seabattle, bomberman)"
bad far_game "game: chess\n$PLAYERS" "1:7: unknown game 'chess' (games: generals, warlight, seabattle, bomberman)"
bad tab "game: generals\nparams:\n\tturn_limit: 3\n$PLAYERS" "3:1: a tab character: YAML indents with spaces only, never tabs; replace it with spaces"
printf 'game: generals\ngenerate: {rows: 5, cols: 5}\nplayers:\n  - {name: a, source: %s, profile: pyhton3}\n  - {name: b, command: [/bin/true]}\n' \
    "$ROOT/examples/starters/generals/c" >"$T/profile.yaml"
"$JUDGE" run "$T/profile.yaml" >/dev/null 2>"$T/profile.err"
check profile/exit_2 [ $? = 2 ]
check profile/suggests grep -qE "^$T/profile.yaml:4:[0-9]+: no language profile 'pyhton3' \(did you mean 'python3'\?\) in .* \(profiles: c, cpp, java, python3\)$" "$T/profile.err"

# judge(1): one source with --help.
"$JUDGE" help --man >"$T/judge.1"
check man/exit_0 [ $? = 0 ]
for cmd in run exec doctor mapgen replay tournament results compile; do
    check "man/section_$cmd" grep -qx ".SS $cmd" "$T/judge.1"
done
check man/holds_run_help grep -qF 'game: NAME                the game: generals, seabattle, warlight or bomberman' "$T/judge.1"
if command -v man >/dev/null; then
    MANWIDTH=100 man -l "$T/judge.1" >"$T/judge.txt" 2>"$T/man.err"
    check man/renders grep -q 'usage: judge run MATCH.yaml' "$T/judge.txt"
    check man/no_warnings [ ! -s "$T/man.err" ]
else
    skip man/renders "man is not installed"
fi

# make install / uninstall into a scratch root (the binary under test is the tree's bin/judge).
if [ "$JUDGE" != "$ROOT/bin/judge" ]; then
    skip install "JUDGE is not this tree's bin/judge"
elif [ ! -w "$ROOT" ]; then
    skip install "the tree is read-only (make install may build in it): $ROOT"
else
    make -s -C "$ROOT" install DESTDIR="$T/root" PREFIX=/usr >"$T/install.out" 2>&1
    check install/exit_0 [ $? = 0 ]
    for f in bin/judge share/man/man1/judge.1 share/judge/containers/python3.yaml share/doc/judge/README.md \
             share/doc/judge/docs/games/generals.md share/doc/judge/examples/starters/generals/c/bot.c; do
        check "install/$f" [ -s "$T/root/usr/$f" ]
    done
    check install/binary_runs "$T/root/usr/bin/judge" help run >/dev/null
    # The example match files need `make programs`' bots; the installed starters' match compiles its own.
    if [ -x /usr/bin/gcc ] && [ -x /usr/bin/python3 ]; then
        iso=(); [ "$(id -u)" = 0 ] || iso=(--isolation best-effort)
        "$T/root/usr/bin/judge" run "$T/root/usr/share/doc/judge/examples/starters/generals-match.yaml" "${iso[@]}" \
            --replay "$T/starters.jsonl.gz" >"$T/starters.out" 2>&1
        check install/starters_match_runs_installed [ $? = 0 -a "$(grep -cE ' OK +[1-9][0-9]* ' "$T/starters.out")" = 2 ]
    else
        skip install/starters_match_runs_installed "gcc or python3 is not installed"
    fi
    make -s -C "$ROOT" uninstall DESTDIR="$T/root" PREFIX=/usr >"$T/uninstall.out" 2>&1
    check uninstall/exit_0 [ $? = 0 ]
    check uninstall/nothing_left [ -z "$(find "$T/root" -type f)" ]
    check uninstall/no_directory_it_made_left [ -z "$(find "$T/root" -mindepth 1 -type d)" ]
    # A directory that was there before stays, empty or not.
    mkdir -p "$T/root2/usr/bin" "$T/root2/usr/share/man"
    touch "$T/root2/usr/share/man/other"
    make -s -C "$ROOT" install DESTDIR="$T/root2" PREFIX=/usr >/dev/null 2>&1 &&
        make -s -C "$ROOT" uninstall DESTDIR="$T/root2" PREFIX=/usr >/dev/null 2>&1
    check uninstall/keeps_what_it_found [ $? = 0 -a "$(cd "$T/root2" && find . -mindepth 1 | sort | tr '\n' ' ')" = \
        "./usr ./usr/bin ./usr/share ./usr/share/man ./usr/share/man/other " ]
fi
e2e_exit
