# shellcheck shell=bash
# tests/docker/base_image.sh - what `docker build` needs where no registry is
# reachable (source it).
# base_tarball CACHE WORK: prints the path of a Debian bookworm minbase root
# tarball, made once with debootstrap from the host's mirror and kept in CACHE.
# stage_apt_dir DIR: the host's apt sources, keyrings and proxy settings in DIR
# (the Dockerfile's APT_DIR), so apt inside the build uses what the host uses.

# The host's Debian mirror: the first deb822 "URIs:" or one-line "deb" source for bookworm.
host_mirror() {
    local uri
    uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
    [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1)
    echo "${uri:-http://deb.debian.org/debian}"
}

# apt's proxy as an http_proxy value for debootstrap ("" when none).
host_apt_proxy() {
    cat /etc/apt/apt.conf /etc/apt/apt.conf.d/* 2>/dev/null |
        sed -n 's/^[[:space:]]*Acquire::http::Proxy[[:space:]]*"\([^"]*\)".*/\1/p' | head -1
}

base_tarball() {
    local cache=$1 work=$2 tar=$1/debian-bookworm-minbase.tar.gz
    if [ ! -s "$tar" ]; then
        local proxy rootfs=$work/rootfs
        proxy=$(host_apt_proxy)
        mkdir -p "$cache"
        http_proxy=${proxy:-${http_proxy:-}} debootstrap --variant=minbase bookworm "$rootfs" "$(host_mirror)" \
            >"$work/debootstrap.log" 2>&1 || { tail -3 "$work/debootstrap.log" >&2; return 1; }
        rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
        tar -C "$rootfs" --numeric-owner -c . | gzip -1 >"$tar.tmp" && mv "$tar.tmp" "$tar" || return 1
        rm -rf "$rootfs"
    fi
    echo "$tar"
}

stage_apt_dir() {
    local dir=$1 root=$2
    rm -rf "$dir"
    mkdir -p "$dir/sources.list.d" "$dir/apt.conf.d"
    cp -r "$root/tests/docker/apt-default/." "$dir/"
    [ -s /etc/apt/sources.list ] && grep -q '^deb ' /etc/apt/sources.list &&
        cp /etc/apt/sources.list "$dir/sources.list.d/host.list"
    local f
    for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources /etc/apt/apt.conf.d/*proxy*; do
        [ -f "$f" ] || continue
        case $f in *.list|*.sources) cp "$f" "$dir/sources.list.d/" ;; *) cp "$f" "$dir/apt.conf.d/" ;; esac
    done
    for f in keyrings trusted.gpg.d; do
        [ -d "/etc/apt/$f" ] && cp -r "/etc/apt/$f" "$dir/"
    done
    return 0
}
