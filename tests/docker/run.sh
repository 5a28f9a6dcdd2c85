#!/usr/bin/env bash
# tests/docker/run.sh - `make test-docker`: the judge's image, built and run by
# a private Docker engine (tests/docker/engine.sh), with no registry: the base
# image is a debootstrap'ed bookworm (tests/docker/base_image.sh), cached in
# build/docker/ with the engine's layers, so a second run is fast.
# Checks: the Dockerfile lints; the image builds and holds every profile's
# toolchain; `judge doctor` inside names the layers, and names each missing
# flag when one of the documented set (docs/docker.md) is left out; without
# them strict mode refuses and best-effort runs with every degraded layer in
# the replay; with them a real match runs strict and its replay verifies
# outside with $JUDGE; `judge serve` listens inside (libwebsockets, loaded at its
# start, is in the image); the hostile suite passes inside.
# Prints ok/skip/FAIL lines and figures; exits 1 if anything failed. The one
# skip of the whole run is an engine that cannot start here (with the reason).
# Usage: JUDGE=bin/judge tests/docker/run.sh
source "$(dirname "$0")/../lib.sh"
source "$ROOT/tests/docker/engine.sh"
source "$ROOT/tests/docker/base_image.sh"

CACHE=$ROOT/build/docker
IMAGE=judge:test-docker
TEST_IMAGE=judge:test-docker-tests
BASE_IMAGE=judge-base:bookworm
# The documented strict set (docs/docker.md), one flag group per entry.
STRICT_FLAGS=("--cap-add SYS_ADMIN" "--cap-add SYS_PTRACE" "--security-opt seccomp=unconfined"
              "--cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw")
# Share the host's jail uid slots, so jails here never take a uid a host jail holds.
SLOTS=(-v /run/judge/uid-slots:/run/judge/uid-slots)
T=$(mktemp -d /tmp/judge-docker.XXXXXX)
chmod 0755 "$T"
trap 'engine_stop; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM   # through the EXIT trap: the engine never outlives the test
START=$SECONDS

phase() { echo "== $1 ($((SECONDS - START)) s so far)"; }
# in_container FLAGS ARGS...: run the image with FLAGS (one string, split) and no network.
in_container() {
    local flags=$1; shift
    # shellcheck disable=SC2086
    "${DOCKER[@]}" run --rm --network none $flags "$@"
}
flag_name() {
    case $1 in
    --cgroupns*) echo cgroup_rw ;;
    --security-opt*) local v=${1#--security-opt }; echo "${v/=/_}" ;;
    *) local v=${1#--}; echo "${v// /_}" ;;
    esac
}
strict_flags() { local skip=${1:-} f out=""; for f in "${STRICT_FLAGS[@]}"; do [ "$f" = "$skip" ] || out+=" $f"; done; echo "$out"; }

lint() {
    local lint_dir=$CACHE/lint bin=$CACHE/lint/node_modules/.bin/dockerfilelint
    if [ ! -x "$bin" ]; then
        mkdir -p "$lint_dir"
        if ! command -v npm >/dev/null || ! (cd "$lint_dir" && npm install --no-audit --no-fund --silent dockerfilelint \
            >"$T/npm.log" 2>&1); then
            skip docker/lint "npm could not install dockerfilelint: $(tail -1 "$T/npm.log" 2>/dev/null)"
            return
        fi
    fi
    if "$bin" -c "$ROOT/tests/docker" "$ROOT/Dockerfile" >"$T/lint.out" 2>&1; then
        ok docker/dockerfilelint
    else
        fail docker/dockerfilelint "$(grep -c '^Line' "$T/lint.out") issues:"
        sed 's/^/    /' "$T/lint.out"
    fi
}

# The build context: a copy of the tree as it is now, so both targets build the
# same sources while others edit (and unchanged sources hit the layer cache).
snapshot_context() {
    local ctx=$T/context
    mkdir -p "$ctx/build/docker"
    (cd "$ROOT" && tar -c --exclude=./.git --exclude=./build --exclude=./bin --exclude=./replays .) | tar -x -C "$ctx" &&
        stage_apt_dir "$ctx/build/docker/apt" "$ROOT" && echo "$ctx"
}

build_images() {
    local tar version
    phase "base image"
    tar=$(base_tarball "$CACHE" "$T") || { fail docker/base_image "debootstrap failed (see above)"; return 1; }
    "${DOCKER[@]}" image inspect "$BASE_IMAGE" >/dev/null 2>&1 ||
        "${DOCKER[@]}" import "$tar" "$BASE_IMAGE" >/dev/null || { fail docker/base_image "docker import $tar"; return 1; }
    ok docker/base_image
    version=$(cd "$ROOT" && git describe --always --dirty 2>/dev/null || echo unknown)
    local target tag ctx
    ctx=$(snapshot_context) || { fail docker/context "cannot copy the tree to $T/context"; return 1; }
    for target in runtime test; do
        phase "docker build --target $target"
        tag=$IMAGE; [ $target = test ] && tag=$TEST_IMAGE
        if ! "${DOCKER[@]}" build --network host --build-arg BASE="$BASE_IMAGE" --build-arg APT_DIR=build/docker/apt \
            --build-arg JUDGE_VERSION="$version" --target $target -t $tag "$ctx" >"$T/build-$target.log" 2>&1; then
            fail "docker/build_$target" "$(grep -m3 -E ' error:|failed|^E:' "$T/build-$target.log" | tr '\n' ' ')"
            return 1
        fi
        ok "docker/build_$target"
    done
    echo "figure: runtime image $(("$("${DOCKER[@]}" image inspect -f '{{.Size}}' $IMAGE)" >> 20)) MiB"
}

# Every absolute program and mount a profile names is in the runtime image.
check_toolchains() {
    local paths
    paths=$(cat "$ROOT"/containers/*.yaml | grep -oE '(/usr/bin|/bin|/etc)/[A-Za-z0-9_.+-]+' | sort -u | tr '\n' ' ')
    # shellcheck disable=SC2086
    check docker/profile_toolchains in_container "" --entrypoint /bin/sh $IMAGE -c \
        'for p; do [ -e "$p" ] || { echo "missing $p"; exit 1; }; done' sh $paths
}

check_doctor() {
    phase "judge doctor inside"
    in_container "$(strict_flags) ${SLOTS[*]}" $IMAGE doctor >"$T/doctor.out" 2>&1
    check docker/doctor_strict_exit_0 [ $? = 0 ]
    check docker/doctor_strict_available [ "$(tail -1 "$T/doctor.out")" = "strict mode: available" ]
    local layer missing=""
    for layer in user_ns pid_ns mount_ns net_ns ipc_ns uts_ns cgroup_ns pivot_root proc_mount seccomp \
                 seccomp_pidfd_getfd capabilities no_new_privs memory_limit pids_limit cpu_meter freezer; do
        grep -qE "^$layer +\| on " "$T/doctor.out" || missing+=" $layer"
    done
    check docker/doctor_names_every_layer_on [ -z "$missing" ]
    [ -z "$missing" ] || sed 's/^/    /' "$T/doctor.out"
    check docker/doctor_no_hint_with_the_set [ "$(grep -c '^missing docker flag' "$T/doctor.out")" = 0 ]

    in_container "" $IMAGE doctor >"$T/doctor-plain.out" 2>&1
    check docker/doctor_plain_exit_1 [ $? = 1 ]
    check docker/doctor_plain_refused grep -q '^strict mode: refused (missing: user_ns, ' "$T/doctor-plain.out"
    local flag
    for flag in "${STRICT_FLAGS[@]}" "--security-opt systempaths=unconfined"; do
        check "docker/doctor_plain_names_$(flag_name "$flag")" grep -qF -- "missing docker flag: $flag (" "$T/doctor-plain.out"
    done
}

# Each flag of the set left out in turn: doctor refuses strict mode and names that flag.
check_each_flag_needed() {
    phase "each flag left out"
    local flag name out
    for flag in "${STRICT_FLAGS[@]}"; do
        name=_$(flag_name "$flag")
        out=$T/doctor-without$name.out
        in_container "$(strict_flags "$flag") ${SLOTS[*]}" $IMAGE doctor >"$out" 2>&1
        check "docker/without$name/doctor_exit_1" [ $? = 1 ]
        check "docker/without$name/doctor_names_it" grep -qF -- "missing docker flag: $flag (" "$out"
    done
}

# rq FILE EXPR: a python expression over the replay's header H and result R.
rq() {
    python3 - "$1" "$2" <<'EOF'
import gzip, json, sys
L = [json.loads(x) for x in gzip.open(sys.argv[1], "rt")]
H, R = L[0], L[-1]
print(eval(sys.argv[2]))
EOF
}

verified() { "$JUDGE" replay verify "$1" >"$T/verify.out" 2>&1 && grep -q ': ok (' "$T/verify.out"; }

check_matches() {
    phase "matches inside"
    local out=$T/out match=examples/generals-greedy-vs-random.yaml
    mkdir -p "$out"
    in_container "" $IMAGE run $match --isolation strict >"$T/plain-strict.out" 2>&1
    check docker/plain/strict_refused [ $? = 3 ]
    check docker/plain/strict_says_why grep -q 'strict isolation refused' "$T/plain-strict.out"

    # No flag at all: jails without namespaces (sandbox/jail_flat.h), every loss in the header.
    in_container "-v $out:/out ${SLOTS[*]}" $IMAGE run $match --isolation best-effort \
        --replay /out/flagless.jsonl.gz >"$T/flagless.out" 2>&1
    check docker/flagless/match_runs [ $? = 0 ]
    check docker/flagless/replay_verifies_outside verified "$out/flagless.jsonl.gz"
    # Each player has its own uid slot, so the header holds one isolation object per player.
    check docker/flagless/replay_mount_ns_off [ "$(rq "$out/flagless.jsonl.gz" \
        '" | ".join(sorted(set(i["mount_ns"] + " " + i["how"]["pivot_root"] for i in (H["isolation"] if isinstance(H["isolation"], list) else [H["isolation"]]))))')" = "off bot sees the container's files, cwd its dir" ]

    # The smallest set a jail starts with at all, no capability added: best-effort.
    in_container "--security-opt seccomp=unconfined --security-opt systempaths=unconfined -v $out:/out" \
        $IMAGE run $match --isolation best-effort --replay /out/best-effort.jsonl.gz >"$T/best.out" 2>&1
    check docker/best_effort/match_runs [ $? = 0 ]
    check docker/best_effort/replay_verifies_outside verified "$out/best-effort.jsonl.gz"
    check docker/best_effort/replay_records_mode [ "$(rq "$out/best-effort.jsonl.gz" 'H["isolation_mode"]')" = best-effort ]
    check docker/best_effort/replay_records_every_degraded_layer [ "$(rq "$out/best-effort.jsonl.gz" \
        'sorted(H["isolation"]["how"]) == sorted(k for k, v in H["isolation"].items() if v in ("degraded", "off")) != []')" = True ]
    check docker/best_effort/replay_user_ns_degraded [ "$(rq "$out/best-effort.jsonl.gz" 'H["isolation"]["user_ns"]')" = degraded ]

    in_container "$(strict_flags) ${SLOTS[*]} -v $out:/out" \
        $IMAGE run $match --isolation strict --replay /out/strict.jsonl.gz >"$T/strict.out" 2>&1
    check docker/strict/match_runs [ $? = 0 ]
    check docker/strict/two_ok_players [ "$(grep -cE '^[0-9-]+ +[0-9]+ +(greedy|random) +OK ' "$T/strict.out")" = 2 ]
    check docker/strict/replay_verifies_outside verified "$out/strict.jsonl.gz"
    check docker/strict/replay_not_degraded [ "$(rq "$out/strict.jsonl.gz" 'H["isolation"]["degraded"]')" = False ]
    [ $E2E_FAILED = 0 ] || tail -n 8 "$T"/*.out | sed 's/^/    /'
}

# judge serve loads libwebsockets when it starts (judge/serve/serve_lws.h), by the SONAME of
# the build stage's library: the runtime image must hold that library.
check_serve() {
    phase "serve inside"
    in_container "--entrypoint timeout" $IMAGE 3 /opt/judge/bin/judge serve seabattle \
        --listen 127.0.0.1:0 --replays /tmp/served >"$T/serve.out" 2>&1
    check docker/serve_listens grep -q '^judge serve: listening on ws://127.0.0.1:[0-9]*/ws' "$T/serve.out"
}

check_hostile() {
    phase "hostile suite inside"
    in_container "$(strict_flags) ${SLOTS[*]}" $TEST_IMAGE tests/hostile/run.sh >"$T/hostile.out" 2>&1
    local rc=$?
    grep -E '^(FAIL|skip) ' "$T/hostile.out" | sed 's/^/    /'
    check docker/hostile_suite [ $rc = 0 -a "$(grep -c '^ok hostile/' "$T/hostile.out")" -gt 50 ]
    echo "figure: hostile suite inside: $(grep -c '^ok hostile/' "$T/hostile.out") attacks ok"
}

lint
mkdir -p /run/judge/uid-slots 2>/dev/null
phase "engine"
if ! engine_start "$T/engine" "$CACHE/engine"; then
    skip docker "no container engine can start here: $ENGINE_WHY"
    e2e_exit
fi
ok docker/engine_started
if build_images; then
    check_toolchains
    check_doctor
    check_each_flag_needed
    check_matches
    check_serve
    check_hostile
fi
echo "figure: make test-docker took $((SECONDS - START)) s"
e2e_exit
