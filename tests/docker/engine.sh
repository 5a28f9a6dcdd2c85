# shellcheck shell=bash
# tests/docker/engine.sh - a private Docker engine for the tests (source it).
# engine_start DIR STATE: dockerd with its socket, exec root and pid file in DIR
# (short: socket paths are limited to 108 bytes) and its images in STATE (kept
# between runs, so the second build reuses its layers). No bridge, no iptables:
# builds use --network host, containers --network none. Sets DOCKER (the
# client command, an array) and ENGINE_WHY (why it did not start).
# engine_stop: stops it and every container it ran, even after a failure.

ENGINE_PID=
ENGINE_DIR=
ENGINE_STATE=
ENGINE_WHY=

engine_installed() { command -v dockerd >/dev/null 2>&1; }

engine_install() {
    engine_installed && command -v debootstrap >/dev/null 2>&1 && return 0
    [ "$(id -u)" = 0 ] || { ENGINE_WHY="not root: cannot install docker.io and debootstrap"; return 1; }
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap; } \
        >"${ENGINE_DIR:-/tmp}/apt.log" 2>&1; then
        ENGINE_WHY="apt-get install docker.io debootstrap failed: $(tail -1 "${ENGINE_DIR:-/tmp}/apt.log")"
        return 1
    fi
}

# The client shipped with this dockerd (another one earlier in PATH may be newer than its API).
engine_client() {
    local d; d=$(dirname "$(command -v dockerd)")
    if [ -x "$d/docker" ]; then echo "$d/docker"; else command -v docker; fi
}

# dockerd with one storage driver; 0 once it answers, 1 if it died or did not answer in 60 s.
engine_try() {
    local driver=$1 state=$2
    dockerd --data-root "$state" --exec-root "$ENGINE_DIR/exec" --pidfile "$ENGINE_DIR/dockerd.pid" \
        --host "unix://$ENGINE_DIR/docker.sock" --iptables=false --ip-masq=false --bridge=none \
        --storage-driver "$driver" --log-level warn >"$ENGINE_DIR/dockerd-$driver.log" 2>&1 &
    ENGINE_PID=$!
    for _ in $(seq 120); do
        "${DOCKER[@]}" info >/dev/null 2>&1 && return 0
        kill -0 "$ENGINE_PID" 2>/dev/null || break
        sleep 0.5
    done
    ENGINE_WHY="dockerd ($driver): $(grep -m1 -iE 'level=(fatal|error)|failed' "$ENGINE_DIR/dockerd-$driver.log" \
        || tail -1 "$ENGINE_DIR/dockerd-$driver.log")"
    engine_stop
    return 1
}

# overlay2 first; vfs (slow, but works on any filesystem) where overlay cannot mount.
engine_start() {
    ENGINE_DIR=$1
    ENGINE_STATE=$2
    mkdir -p "$ENGINE_DIR" "$ENGINE_STATE"
    engine_install || return 1
    DOCKER=("$(engine_client)" --host "unix://$ENGINE_DIR/docker.sock")
    engine_try overlay2 "$ENGINE_STATE/overlay2-root" && return 0
    local why=$ENGINE_WHY
    engine_try vfs "$ENGINE_STATE/vfs-root" && return 0
    ENGINE_WHY="$why; then $ENGINE_WHY"
    return 1
}

# Stops dockerd (it stops its containers and its containerd), SIGKILL after 20 s,
# then unmounts whatever it left under its exec root and its state.
engine_stop() {
    [ -n "$ENGINE_PID" ] || return 0
    if kill -0 "$ENGINE_PID" 2>/dev/null; then
        "${DOCKER[@]}" ps -q 2>/dev/null | xargs -r "${DOCKER[@]}" rm -f >/dev/null 2>&1
        kill -TERM "$ENGINE_PID" 2>/dev/null
        for _ in $(seq 40); do kill -0 "$ENGINE_PID" 2>/dev/null || break; sleep 0.5; done
        kill -KILL "$ENGINE_PID" 2>/dev/null
    fi
    wait "$ENGINE_PID" 2>/dev/null
    local containerd_pid
    containerd_pid=$(cat "$ENGINE_DIR/exec/containerd/containerd.pid" 2>/dev/null)
    [ -n "$containerd_pid" ] && kill -KILL "$containerd_pid" 2>/dev/null
    awk -v a="$ENGINE_DIR/" -v b="$ENGINE_STATE/" 'index($2, a) == 1 || index($2, b) == 1 { print $2 }' \
        /proc/self/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null
    ENGINE_PID=
}
