#!/usr/bin/env bash
# 40_tournament.sh - `judge tournament`: the plan (--list, shards, formats), bad
# files, then real matches: an uninterrupted run as the reference, SIGKILLs at
# random moments with resumes, 3 shards merged, a half-written replay, stray
# journal lines, the internal-error retry, a changed file (or --isolation) and a busy directory
# refused, and a tournament match reproduced by `judge run` with its seed.
source "$(dirname "$0")/../lib.sh"
BOTS=$ROOT/build/bots/generals
PROGS=$ROOT/build/progs
MAPS=$ROOT/examples/maps/generals
T=$(e2e_tmpdir)
trap 'rm -rf "$T"' EXIT

for bin in "$BOTS/greedy" "$BOTS/random" "$BOTS/pass" "$PROGS/gen_crash"; do
    if [ ! -x "$bin" ]; then
        fail tournament "$bin is missing: run make programs"
        e2e_exit
    fi
done

player() { printf '  - {name: %s, dir: %s, command: ./%s}\n' "$1" "$2" "$3"; }
# tournament FILE EXTRA-YAML...: 4 players, tiny.map and a generated 6x6 map, 3 seeds, 30 rounds.
tournament() {
    local file=$1; shift
    { printf 'game: generals\nmaps: [%s/tiny.map]\ngenerate: {rows: 6, cols: 6}\nseeds: [1, 2, 3]\n' "$MAPS"
      printf 'params: {turn_limit: 30}\nplayers:\n'
      player greedy "$BOTS" greedy; player random "$BOTS" random; player pass "$BOTS" pass
      player crash "$PROGS" gen_crash
      printf '%s\n' "$@"; } >"$file"
}
# ids FILE: the sorted ids of a journal's complete lines; replays DIR: the sorted ids of DIR/replays.
ids() { python3 -c 'import json,sys
print("\n".join(sorted(json.loads(l)["id"] for l in open(sys.argv[1]) if l.endswith("\n"))))' "$1"; }
replays() { ls "$1/replays" | sed 's/\.jsonl\.gz$//' | sort; }
same() { cmp -s "$1" "$2"; }

# ---- the plan: no jail needed ------------------------------------------------------------

tournament "$T/t.yaml"
"$JUDGE" tournament "$T/t.yaml" --list >"$T/all.ids" 2>"$T/list.err"
check plan/list_exit_0 [ $? = 0 ]
check plan/round_robin_count [ "$(wc -l <"$T/all.ids")" = 72 ]   # 4*3 ordered pairs x 2 arenas x 3 seeds
check plan/ids_unique [ "$(sort -u "$T/all.ids" | wc -l)" = 72 ]
check plan/id_form grep -qx '0000-tiny-s1-greedy-vs-random' "$T/all.ids"
check plan/id_form_generated grep -qx '0023-gen6x6-s1-crash-vs-pass' "$T/all.ids"
for i in 1 2 3; do "$JUDGE" tournament "$T/t.yaml" --list --shard $i/3 >"$T/shard$i.ids"; done
cat "$T"/shard[123].ids | sort >"$T/shards.ids"
sort "$T/all.ids" >"$T/all.sorted"
check plan/shards_partition_the_matches same "$T/shards.ids" "$T/all.sorted"
check plan/shards_balanced [ "$(wc -l <"$T/shard1.ids")" = 24 -a "$(wc -l <"$T/shard3.ids")" = 24 ]
check plan/shards_disjoint [ -z "$(comm -12 <(sort "$T/shard1.ids") <(sort "$T/shard2.ids"))" ]

tournament "$T/g.yaml" 'format: gauntlet' 'references:' "$(player ref "$BOTS" greedy)"
check plan/gauntlet_count [ "$("$JUDGE" tournament "$T/g.yaml" --list | wc -l)" = 48 ]  # 4 x 1 ref x 2 seats x 2 x 3
{ printf 'game: generals\nformat: free-for-all\nplayers_per_match: 3\ngenerate: {rows: 8, cols: 8}\n'
  printf 'seeds: [1, 2, 3]\nplayers:\n'
  for b in greedy random pass original_style; do player $b "$BOTS" $b; done; } >"$T/f.yaml"
"$JUDGE" tournament "$T/f.yaml" --list >"$T/f.ids" 2>"$T/f.err"
check plan/free_for_all_every_combination [ "$(wc -l <"$T/f.ids")" = 12 ]  # C(4,3) x 3 seeds
listed='-(greedy-vs-random-vs-pass|greedy-vs-random-vs-original_style|greedy-vs-pass-vs-original_style|random-vs-pass-vs-original_style)$'
check plan/free_for_all_seats_shuffled [ "$(grep -cE -- "$listed" "$T/f.ids")" -lt 12 ]
echo 'sample: 2' >>"$T/f.yaml"
"$JUDGE" tournament "$T/f.yaml" --list >"$T/f2.ids"
"$JUDGE" tournament "$T/f.yaml" --list >"$T/f3.ids"
check plan/free_for_all_sample [ "$(wc -l <"$T/f2.ids")" = 6 ]
check plan/sample_is_seeded same "$T/f2.ids" "$T/f3.ids"
quiet() { "$@" >/dev/null 2>&1; }
for f in "$ROOT"/examples/tournaments/*.yaml; do
    check "plan/example_$(basename "$f" .yaml)_is_valid" quiet "$JUDGE" tournament "$f" --list
done

# ---- bad input: one line naming FILE:LINE:COL, exit 2 --------------------------------------

# bad NAME REGEX FILE [options...]
bad() {
    local name=$1 regex=$2 file=$3; shift 3
    "$JUDGE" tournament "$file" "$@" >"$T/$name.out" 2>"$T/$name.err"
    local rc=$?
    check bad_input/${name}_exit_2 [ $rc = 2 ]
    check bad_input/${name}_one_line [ "$(wc -l <"$T/$name.err")" = 1 ]
    check bad_input/${name}_message grep -qE "$regex" "$T/$name.err"
}
tournament "$T/b1.yaml" 'format: knockout'
bad format "^$T/b1.yaml:[0-9]+:9: format must be 'round-robin', 'free-for-all' or 'gauntlet', got 'knockout'$" "$T/b1.yaml" --list
tournament "$T/b2.yaml" 'players_per_match: 3'
bad round_robin_pairs "^$T/b2.yaml:[0-9]+:20: round-robin plays pairs: players_per_match must be 2$" "$T/b2.yaml" --list
tournament "$T/b3.yaml" 'references:' "$(player ref "$BOTS" greedy)"
bad references_outside_gauntlet "^$T/b3.yaml:[0-9]+:1: 'references' is for format 'gauntlet' only$" "$T/b3.yaml" --list
tournament "$T/b4.yaml"
sed -i 's/^seeds: .*$/seeds: [1, 1]/' "$T/b4.yaml"
bad duplicate_seed "^$T/b4.yaml:4:12: duplicate seed 1$" "$T/b4.yaml" --list
tournament "$T/b5.yaml"
sed -i "s#^maps: .*#maps: [$MAPS/original.map, $T/three.map]#" "$T/b5.yaml"
"$JUDGE" mapgen generals --rows 5 --cols 5 --players 3 --seed 1 >"$T/three.map" 2>/dev/null
bad map_seats "^$T/b5.yaml:2:[0-9]+: the map is for 3 players but round-robin seats 2 per match$" "$T/b5.yaml" --list
tournament "$T/b6.yaml"
sed -i 's#command: ./pass#command: ./no_such_bot#' "$T/b6.yaml"
bad missing_bot "^$T/b6.yaml:[0-9]+:5: player 'pass': command './no_such_bot' not found" "$T/b6.yaml" --list
bad missing_bot_when_playing "player 'pass': command './no_such_bot' not found" "$T/b6.yaml" --out "$T/never"
check bad_input/missing_bot_when_playing_makes_no_directory [ ! -e "$T/never" ]
tournament "$T/b7.yaml"
bad no_output "no output directory" "$T/b7.yaml"
mkdir "$T/stray"
echo 'not a judge journal' | tee "$T/stray/journal.jsonl" >"$T/stray.want"
bad stray_journal "^$T/stray/journal.jsonl: a journal without tournament.json beside it, so not a judge \
tournament's: left as it is; use another output directory$" "$T/t.yaml" --out "$T/stray"
check bad_input/stray_journal_kept same "$T/stray/journal.jsonl" "$T/stray.want"
check bad_input/stray_journal_no_state [ ! -e "$T/stray/tournament.json" ]
rm -r "$T/stray"
bad bad_shard "^judge tournament: --shard 4/3: expected I/N" "$T/t.yaml" --shard 4/3
bad bad_jobs "^judge tournament: --jobs 0: expected a number" "$T/t.yaml" --jobs 0
bad bad_isolation "^judge tournament: --isolation loose: expected strict or best-effort$" "$T/t.yaml" --isolation loose

if [ "$(id -u)" != 0 ]; then
    skip tournament_matches "strict jails need root"
    e2e_exit
fi

# ---- the reference: one uninterrupted run -----------------------------------------------

"$JUDGE" tournament "$T/t.yaml" --out "$T/ref" --jobs 2 >"$T/ref.out" 2>"$T/ref.err"
check run/exit_0 [ $? = 0 ]
check run/summary grep -qE '^played 72 matches in [0-9.]+ s \([0-9.]+/s\); 72/72 finished; journal ' "$T/ref.out"
check run/a_line_per_match_when_not_a_terminal [ "$(grep -cE '^[0-9]+/72 [0-9]{4}-' "$T/ref.err")" = 72 ]
check run/no_sanitizer_report [ "$(grep -c 'Sanitizer' "$T/ref.err")" = 0 ]
check run/match_line_form grep -qE '^[0-9]+/72 0004-tiny-s1-greedy-vs-crash: greedy wins after 3 rounds \(greedy 1 OK, crash 2 RUNTIME_ERROR\)$' "$T/ref.err"
ids "$T/ref/journal.jsonl" >"$T/ref.ids"
check run/journal_names_every_match same "$T/ref.ids" "$T/all.sorted"
replays "$T/ref" >"$T/ref.replays"
check run/a_replay_per_match same "$T/ref.replays" "$T/all.sorted"
sort "$T/ref/journal.jsonl" >"$T/ref.lines"
"$JUDGE" replay verify "$T/ref/replays/0004-tiny-s1-greedy-vs-crash.jsonl.gz" >"$T/verify.out" 2>&1
check run/replay_verifies grep -q ': ok (' "$T/verify.out"
"$JUDGE" tournament "$T/t.yaml" --out "$T/ref" >"$T/again.out" 2>&1
check run/second_run_plays_nothing grep -q '^played 0 matches' "$T/again.out"

# `judge run` with a tournament match's seed plays the same match.
{ printf 'game: generals\ngenerate: {rows: 6, cols: 6}\nseed: 2\nparams: {turn_limit: 30}\nplayers:\n'
  player random "$BOTS" random; player greedy "$BOTS" greedy; } >"$T/one.yaml"
"$JUDGE" run "$T/one.yaml" --replay "$T/one.jsonl.gz" >/dev/null 2>&1
strip() { python3 - "$1" <<'EOF'
import gzip, json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if not (k.endswith("_ns") or k in ("timing", "memory_peak_bytes", "figure_bytes", "match_id"))}
    return [strip(x) for x in v] if isinstance(v, list) else v
for line in gzip.open(sys.argv[1], "rt"):
    print(json.dumps(strip(json.loads(line)), separators=(",", ":")))
EOF
}
strip "$T/one.jsonl.gz" >"$T/one.txt"
strip "$T/ref/replays/0037-gen6x6-s2-random-vs-greedy.jsonl.gz" >"$T/t37.txt"
check run/judge_run_with_the_seed_reproduces_a_match same "$T/one.txt" "$T/t37.txt"
check run/replay_header_names_the_match [ "$(zcat "$T/ref/replays/0037-gen6x6-s2-random-vs-greedy.jsonl.gz" | head -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["match_id"])')" = 0037-gen6x6-s2-random-vs-greedy ]

# ---- killed with SIGKILL at random moments, then resumed -----------------------------------

for k in 1 2 3 4; do
    "$JUDGE" tournament "$T/t.yaml" --out "$T/kill" --jobs 2 >/dev/null 2>&1 &
    pid=$!
    sleep "0.$(printf '%02d' $((RANDOM % 60 + 5)))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ -f "$T/kill/journal.jsonl" ]; then
        ids "$T/kill/journal.jsonl" >"$T/kill$k.ids"
        check kill/${k}_journal_lines_have_replays [ -z "$(comm -23 "$T/kill$k.ids" <(replays "$T/kill" | grep -v '^\.'))" ]
    fi
done
sleep 0.5   # workers and their jails die with the judge (jail inits carry the judge's command line)
check kill/nothing_left_running [ -z "$(pgrep -f -- "--out $T/kill")" ]
"$JUDGE" tournament "$T/t.yaml" --out "$T/kill" --jobs 2 >"$T/kill.out" 2>"$T/kill.err"
check kill/resume_exit_0 [ $? = 0 ]
check kill/resume_finishes grep -q '72/72 finished' "$T/kill.out"
check kill/no_temporary_file_left [ -z "$(ls -A "$T/kill/replays" | grep '^\.')" -a -z "$(ls -A "$T/kill" | grep '\.tmp-')" ]
check kill/no_match_doubled [ "$(wc -l <"$T/kill/journal.jsonl")" = 72 -a "$(ids "$T/kill/journal.jsonl" | sort -u | wc -l)" = 72 ]
replays "$T/kill" >"$T/kill.replays"
check kill/no_replay_lost_or_doubled same "$T/kill.replays" "$T/all.sorted"
sort "$T/kill/journal.jsonl" >"$T/kill.lines"
check kill/results_equal_an_uninterrupted_run same "$T/kill.lines" "$T/ref.lines"

# SIGTERM (a cancelled CI job, an evicted pod) once a match is finished: the judge says what it
# kept and how to go on, dies of the signal (143), and the same command finishes the rest.
"$JUDGE" tournament "$T/t.yaml" --out "$T/term" --jobs 2 >/dev/null 2>"$T/term.err" &
pid=$!
for _ in $(seq 200); do [ -s "$T/term/journal.jsonl" ] && break; sleep 0.1; done
kill -TERM $pid
wait $pid
check term/dies_of_the_signal [ $? = 143 ]
check term/says_what_is_kept [ "$(tail -1 "$T/term.err")" = "judge tournament: interrupted by SIGTERM: \
$T/term: every finished match is kept there (journal.jsonl, replays/); run the same command again to play \
the rest" ]
# tournament.json says the shard is not played to the end; the results stage names it (exit 2).
check term/state_not_complete grep -q '"complete":false}$' "$T/term/tournament.json"
"$JUDGE" results "$T/term" --out "$T/term-results" >/dev/null 2>"$T/term-results.err"
check term/results_exit_2 [ $? = 2 ]
check term/results_name_the_unfinished_shard grep -qx "judge results: $T/term/tournament.json: shard 1/1 \
was not played to the end (its run was stopped, killed or failed): its unfinished matches are not in the \
standings; run it again, it resumes" "$T/term-results.err"
# A tournament.json from a judge older than "complete" says nothing of it: not taken as unfinished.
cp -r "$T/term" "$T/older"
sed -i 's/,"complete":false//' "$T/older/tournament.json"
"$JUDGE" results "$T/older" --out "$T/older-results" >/dev/null 2>&1
check term/state_without_complete_not_named [ $? = 0 ]
"$JUDGE" tournament "$T/t.yaml" --out "$T/term" --jobs 2 >"$T/term.out" 2>"$T/term2.err"
check term/resume_finishes grep -q '72/72 finished' "$T/term.out"
check term/state_complete grep -q '"complete":true}$' "$T/term/tournament.json"
"$JUDGE" results "$T/term" --out "$T/term-results" >/dev/null 2>&1
check term/results_of_the_whole_exit_0 [ $? = 0 ]
check term/resume_kept_the_finished [ -z "$(grep ', 0 already finished' "$T/term2.err")" ]
check term/results_equal_an_uninterrupted_run same <(sort "$T/term/journal.jsonl") "$T/ref.lines"
# The judge as a container's PID 1 (docker run, a pod): the kernel never gives a namespace's init a
# signal its default action would take, so SIGTERM ended nothing and the pod waited for SIGKILL.
# Bots unfrozen: with the v1 freezer alone, a bot frozen when its namespace's init dies cannot die.
if unshare -fp --mount-proc true 2>/dev/null; then
    { cat "$T/t.yaml"; echo 'freeze: false'; } >"$T/pid1.yaml"
    unshare -fp --mount-proc "$JUDGE" tournament "$T/pid1.yaml" --out "$T/pid1" --jobs 2 \
        >/dev/null 2>"$T/pid1.err" &
    pid=$!
    for _ in $(seq 200); do [ -s "$T/pid1/journal.jsonl" ] && break; sleep 0.1; done
    kill -TERM "$(pgrep -P $pid)"
    wait $pid
    check term/as_pid_1_ends [ $? = 143 ]
    check term/as_pid_1_says_so grep -q '^judge tournament: interrupted by SIGTERM: ' "$T/pid1.err"
else
    skip term/as_pid_1 "unshare --pid is not available"
fi

# ---- 3 shards in separate directories, merged ------------------------------------------------

for i in 1 2 3; do
    "$JUDGE" tournament "$T/t.yaml" --out "$T/shard$i" --shard $i/3 --jobs 2 >"$T/shard$i.out" 2>&1
    check shard/${i}_exit_0 [ $? = 0 ]
done
check shard/each_plays_its_third grep -q '24/24 finished' "$T/shard2.out"
cat "$T"/shard[123]/journal.jsonl | sort >"$T/merged.lines"
check shard/merged_results_equal_one_run same "$T/merged.lines" "$T/ref.lines"
cat <(replays "$T/shard1") <(replays "$T/shard2") <(replays "$T/shard3") | sort >"$T/merged.replays"
check shard/merged_replays_equal_one_run same "$T/merged.replays" "$T/all.sorted"
"$JUDGE" tournament "$T/t.yaml" --out "$T/shard1" --shard 2/3 >/dev/null 2>"$T/othershard.err"
check shard/another_shard_into_the_same_directory_refused [ $? = 2 ]

# The results stage's standings: equal for the reference, the killed-and-resumed
# run and the merged shards (CPU and memory figures left out: they are measured).
if "$JUDGE" results --help >/dev/null 2>&1; then
    standings() {
        "$JUDGE" results "${@:2}" --out "$T/results-$1" >/dev/null 2>&1 &&
        python3 - "$T/results-$1/standings.json" >"$T/standings-$1.txt" <<'EOF'
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if not (k.endswith("_ns") or k.endswith("_bytes") or k == "timing")}
    return [strip(x) for x in v] if isinstance(v, list) else v
print(json.dumps(strip(json.load(open(sys.argv[1]))), sort_keys=True, indent=1))
EOF
    }
    standings ref "$T/ref"
    standings kill "$T/kill"
    standings shards "$T/shard1" "$T/shard2" "$T/shard3"
    check results/standings_exist [ -s "$T/standings-ref.txt" ]
    check results/killed_run_standings_equal same "$T/standings-kill.txt" "$T/standings-ref.txt"
    check results/merged_shards_standings_equal same "$T/standings-shards.txt" "$T/standings-ref.txt"
    # Merging shards that are not one whole tournament's is named, and exits 2 with the outputs written.
    merge() { "$JUDGE" results "${@:2}" --out "$T/merge-$1" >"$T/merge-$1.out" 2>"$T/merge-$1.err"; }
    merge missing "$T/shard1" "$T/shard3"
    check results/missing_shard_exit_2 [ $? = 2 ]
    check results/missing_shard_named grep -qx "judge results: shard 2 of 3 of the tournament in \
$T/shard1/tournament.json (fingerprint [0-9a-f]*) is missing: its matches are not in the standings" \
        "$T/merge-missing.err"
    check results/missing_shard_in_the_summary grep -q '^- shard 2 of 3 of the tournament in' \
        "$T/merge-missing/summary.md"
    cp -r "$T/shard2" "$T/shard2-again"
    merge twice "$T/shard1" "$T/shard2" "$T/shard2-again" "$T/shard3"
    check results/shard_given_twice_exit_2 [ $? = 2 ]
    check results/shard_given_twice_named grep -qx "judge results: $T/shard2-again/tournament.json: shard \
2/3 again, as in $T/shard2/tournament.json: its matches are counted once" "$T/merge-twice.err"
    sed -i 's/"fingerprint":"[0-9a-f]*"/"fingerprint":"0123456789abcdef"/' "$T/shard2-again/tournament.json"
    merge other "$T/shard1" "$T/shard2-again" "$T/shard3"
    check results/another_tournaments_shard_exit_2 [ $? = 2 ]
    check results/another_tournaments_shard_named grep -q "^judge results: $T/shard2-again/tournament.json: \
another tournament than $T/shard1/tournament.json (fingerprint 0123456789abcdef, not " "$T/merge-other.err"
    rm -r "$T/shard2-again"
else
    skip results/standings "judge results is not built"
fi

# ---- a half-written replay never counts; an internal error is retried once ------------------

cp -r "$T/ref" "$T/half"
victim=0010-tiny-s1-pass-vs-crash
head -c 100 "$T/ref/replays/$victim.jsonl.gz" >"$T/half/replays/$victim.jsonl.gz"
grep -v "\"$victim\"" "$T/ref/journal.jsonl" >"$T/half/journal.jsonl"
head -c 50 "$T/ref/replays/$victim.jsonl.gz" >"$T/half/replays/.0011-tiny-s1-crash-vs-pass.jsonl.gz.tmp-0badf00d"
"$JUDGE" tournament "$T/t.yaml" --out "$T/half" >"$T/half.out" 2>"$T/half.err"
check half/cut_replay_played_again grep -qE "^72/72 $victim: " "$T/half.err"
check half/temporary_file_removed [ ! -e "$T/half/replays/.0011-tiny-s1-crash-vs-pass.jsonl.gz.tmp-0badf00d" ]
sort "$T/half/journal.jsonl" >"$T/half.lines"
check half/results_equal same "$T/half.lines" "$T/ref.lines"
check half/cut_replay_kept_aside cmp -s <(head -c 100 "$T/ref/replays/$victim.jsonl.gz") "$T/half/replays/$victim.jsonl.gz.damaged"
check half/kept_aside_said grep -qF "$victim: its replay (with no journal line) is damaged or another match's: the match played again; the file is kept as $T/half/replays/$victim.jsonl.gz.damaged" "$T/half.err"
# The same with its journal line kept: the line dropped, the file kept aside, the match played again.
cp -r "$T/ref" "$T/half2"
head -c 100 "$T/ref/replays/$victim.jsonl.gz" >"$T/half2/replays/$victim.jsonl.gz"
"$JUDGE" tournament "$T/t.yaml" --out "$T/half2" >"$T/half2.out" 2>"$T/half2.err"
check half/lined_cut_replay_played_again grep -qE "^72/72 $victim: " "$T/half2.err"
check half/lined_cut_replay_kept_aside cmp -s <(head -c 100 "$T/ref/replays/$victim.jsonl.gz") "$T/half2/replays/$victim.jsonl.gz.damaged"
check half/lined_kept_aside_said grep -qF "$victim: its replay is damaged or another match's: the line is dropped, the match played again; the file is kept as $T/half2/replays/$victim.jsonl.gz.damaged" "$T/half2.err"

# Complete lines that are not JSON or name no match: each shown once with its number, the resume goes on.
cp -r "$T/ref" "$T/stray"
{ head -3 "$T/ref/journal.jsonl"; echo 'not json'; sed -n 4,10p "$T/ref/journal.jsonl"
  echo '{"id":"9999-nowhere"}'; tail -n +11 "$T/ref/journal.jsonl"; } >"$T/stray/journal.jsonl"
"$JUDGE" tournament "$T/t.yaml" --out "$T/stray" >"$T/stray.out" 2>"$T/stray.err"
check stray/exit_0 [ $? = 0 ]
check stray/not_json_shown grep -qx "$T/stray/journal.jsonl:4: not a journal line: \"not json\" (ignored)" "$T/stray.err"
check stray/unknown_id_shown \
    grep -qx "$T/stray/journal.jsonl:12: no match of this tournament: \"9999-nowhere\" (ignored)" "$T/stray.err"
check stray/nothing_played grep -qE '^played 0 matches .*; 72/72 finished' "$T/stray.out"
sort "$T/stray/journal.jsonl" >"$T/stray.lines"
check stray/journal_without_them same "$T/stray.lines" "$T/ref.lines"
"$JUDGE" tournament "$T/t.yaml" --out "$T/stray" >/dev/null 2>"$T/stray2.err"
check stray/shown_once [ -z "$(grep -F '(ignored)' "$T/stray2.err")" ]

cp -r "$T/ref" "$T/retry"
grep -v "\"$victim\"" "$T/ref/journal.jsonl" >"$T/retry/journal.jsonl"
rm "$T/retry/replays/$victim.jsonl.gz"
mkdir "$T/retry/replays/$victim.jsonl.gz"   # the replay cannot be renamed into place
"$JUDGE" tournament "$T/t.yaml" --out "$T/retry" >"$T/retry.out" 2>"$T/retry.err"
check retry/exit_3 [ $? = 3 ]
check retry/played_again_once grep -q "^$victim: internal error, playing it again: " "$T/retry.err"
check retry/then_reported grep -q "^$victim: internal error again, giving up: " "$T/retry.err"
check retry/summary_counts_it grep -q '71/72 finished; 1 failed twice' "$T/retry.out"

# A worker killed mid-match: its match fails, is played again by a new worker, and nothing is lost.
"$JUDGE" tournament "$T/t.yaml" --out "$T/wkill" --jobs 2 >"$T/wkill.out" 2>"$T/wkill.err" &
pid=$!
for _ in $(seq 500); do
    [ "$(cat "$T/wkill/journal.jsonl" 2>/dev/null | wc -l)" -ge 2 ] && break
    sleep 0.01
done
worker=$(pgrep -P $pid | head -1)
[ -n "$worker" ] && kill -9 "$worker"
wait $pid
check worker/killed_one_exit_0 [ $? = 0 ]
if grep -q "died of signal 9" "$T/wkill.err"; then
    check worker/killed_ones_match_played_again \
        grep -q ": internal error, playing it again: the worker process died of signal 9" "$T/wkill.err"
else
    skip worker/killed_ones_match_played_again "the worker was killed between two matches, or after the last"
fi
check worker/killed_one_all_finished grep -q '72/72 finished' "$T/wkill.out"
sort "$T/wkill/journal.jsonl" >"$T/wkill.lines"
check worker/killed_one_results_equal_an_uninterrupted_run same "$T/wkill.lines" "$T/ref.lines"

# ---- a changed file or a busy directory is refused --------------------------------------------

sed 's/turn_limit: 30/turn_limit: 31/' "$T/t.yaml" >"$T/changed.yaml"
bad changed_file "^$T/ref/tournament.json: this directory holds another tournament .*the file \(or --isolation\) changed" "$T/changed.yaml" --out "$T/ref"
# --isolation stands for the file's `isolation:` (strict by default), in what a resume must match.
bad other_isolation "^$T/ref/tournament.json: this directory holds another tournament .*the file \(or --isolation\) changed" \
    "$T/t.yaml" --out "$T/ref" --isolation best-effort
"$JUDGE" tournament "$T/t.yaml" --out "$T/ref" --isolation strict >"$T/strict.out" 2>&1
check resume/isolation_strict_is_the_files_default [ $? = 0 -a "$(grep -c '^played 0 matches.*; 72/72 finished' "$T/strict.out")" = 1 ]
if command -v flock >/dev/null; then
    flock "$T/ref/.lock" sleep 1 &
    sleep 0.3
    bad busy_directory "another judge tournament is using this directory" "$T/t.yaml" --out "$T/ref"
    wait
fi

# ---- an example runs whole ----------------------------------------------------------------------

"$JUDGE" tournament "$ROOT/examples/tournaments/free-for-all.yaml" --out "$T/ffa" >"$T/ffa.out" 2>&1
check example/free_for_all_runs grep -q '6/6 finished' "$T/ffa.out"

e2e_exit
