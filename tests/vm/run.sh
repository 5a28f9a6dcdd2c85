#!/usr/bin/env bash
# tests/vm/run.sh - `make test-vm`: boot the stock Debian kernel under QEMU
# (KVM when /dev/kvm is usable, TCG otherwise) with the host's / shared
# read-only over virtio-9p as the VM's root, tmpfs scratch, cgroup2 mounted
# alone with every controller, and run tests/vm/guest.sh there: the judge
# under cgroup v2 as root, then as an ordinary user in a delegated subtree.
# The initramfs (busybox-static, tests/vm/init, the kernel's 9p and virtio
# modules) is assembled here with cpio. The VM writes its result lines and
# figures to build/vm/out (a writable 9p share); this script decides.
# Prints ok/skip/FAIL lines and figures; exits 1 on failure. The one skip is
# QEMU or a Debian kernel that cannot be had here (`make deps-vm`).
# Usage: JUDGE=bin/judge tests/vm/run.sh
#   VM_KERNEL=/boot/vmlinuz-X picks the kernel (default: the newest in /boot
#   with its modules); VM_ACCEL=tcg forbids KVM; VM_HOSTILE=all|quick picks
#   the hostile suite (default: all under KVM, the quick subset under TCG);
#   VM_GUEST=bench runs tests/vm/bench.sh instead of the checks (make bench);
#   VM_GUEST=suite runs tests/vm/suite.sh, the whole unit and e2e suites
#   (make test-vm-suite; VM_SUITE_ONLY=PREFIX: only the e2e scripts whose
#   names start with it, no unit tests).
source "$(dirname "$0")/../lib.sh"
VM=$ROOT/build/vm
OUT=$VM/out
QEMU=qemu-system-x86_64
GUEST=${VM_GUEST:-guest}  # bench: tests/vm/bench.sh, whose output is printed as it is
if [ "$GUEST" = suite ]; then VM_TIMEOUT=${VM_TIMEOUT:-7200}; else VM_TIMEOUT=${VM_TIMEOUT:-1500}; fi

pick_kernel() {
    local k v
    if [ -n "${VM_KERNEL:-}" ]; then echo "$VM_KERNEL"; return; fi
    for k in $(ls -v /boot/vmlinuz-* 2>/dev/null | sort -rV); do
        v=${k#/boot/vmlinuz-}
        [ -r "$k" ] && [ -f "/lib/modules/$v/modules.dep" ] && { echo "$k"; return; }
    done
}

# modules_in_order KVER: the .ko files 9p over virtio-pci needs, dependencies first, once each.
modules_in_order() {
    modprobe -S "$1" -D -a 9p 9pnet_virtio virtio_pci 2>/dev/null | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

# build_initramfs KVER FILE: busybox, our init and the modules, as a newc cpio (gzip).
build_initramfs() {
    local kver=$1 file=$2 stage=$VM/initramfs m base
    rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/modules" || return 1
    cp /bin/busybox "$stage/bin/busybox" && ln -s busybox "$stage/bin/sh" &&
        cp "$ROOT/tests/vm/init" "$stage/init" || return 1
    : >"$stage/modules/order"
    for m in $(modules_in_order "$kver"); do
        base=${m##*/}
        case $m in
        *.ko) cp "$m" "$stage/modules/$base" ;;
        *.ko.xz) base=${base%.xz}; xz -dc "$m" >"$stage/modules/$base" ;;
        *.ko.zst) base=${base%.zst}; zstd -qdc "$m" >"$stage/modules/$base" ;;
        *) echo "unexpected module file $m" >&2; return 1 ;;
        esac || return 1
        echo "$base" >>"$stage/modules/order"
    done
    [ -s "$stage/modules/order" ] || { echo "no 9p/virtio modules found for $kver" >&2; return 1; }
    (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$file"
}

# KVM only where it really runs a guest: a nested /dev/kvm may open and then
# hang the guest, so a kernel without root must reach its panic quickly.
kvm_works() {
    [ "${VM_ACCEL:-}" != tcg ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
    timeout 8 "$QEMU" -nodefaults -no-reboot -display none -monitor none -machine q35 -accel kvm \
        -cpu host -m 256 -kernel "$1" -append "console=ttyS0 panic=-1" -serial stdio 2>/dev/null |
        grep -q "Kernel panic"
}

boot() {
    local kernel=$1 initrd=$2 hostile=$3
    # shellcheck disable=SC2046
    timeout "$VM_TIMEOUT" "$QEMU" -nodefaults -no-reboot -display none -monitor none \
        -machine q35 $ACCEL -smp 2 -m 2048 \
        -kernel "$kernel" -initrd "$initrd" \
        -append "console=ttyS0 panic=-1 quiet judge_root=$ROOT judge_out=$OUT judge_hostile=$hostile judge_accel=$ACCEL_NAME judge_guest=$GUEST judge_only=${VM_SUITE_ONLY:-}" \
        -virtfs "local,path=/,mount_tag=host,security_model=passthrough,readonly=on,multidevs=remap" \
        -virtfs "local,path=$OUT,mount_tag=out,security_model=none" \
        -serial "file:$VM/console.log" 2>"$VM/qemu.err"
}

count() { local n; n=$(grep -c "^$1 " "$OUT/results" 2>/dev/null); echo "${n:-0}"; }
figure() { sed -n "s/^$1 //p" "$OUT/figures" 2>/dev/null | tail -1; }

main() {
    if [ "$(uname -m)" != x86_64 ]; then skip vm "not an x86_64 host"; return; fi
    # The VM mounts its own file systems on these (a tree below /tmp, /var/tmp or
    # /run is carried over by tests/vm/init; below these it would not be seen).
    case $ROOT/ in /dev/*|/proc/*|/sys/*)
        skip vm "the tree is at $ROOT, under a directory the VM mounts its own file system on"; return ;;
    esac
    command -v "$QEMU" >/dev/null || { skip vm "$QEMU is not installed (make deps-vm)"; return; }
    [ -x /bin/busybox ] || { skip vm "busybox-static is not installed (make deps-vm)"; return; }
    local kernel kver
    kernel=$(pick_kernel)
    [ -n "$kernel" ] || { skip vm "no /boot/vmlinuz-* with its modules (make deps-vm installs linux-image-amd64)"; return; }
    kver=${kernel#/boot/vmlinuz-}
    rm -rf "$OUT" && mkdir -p "$OUT" || { fail vm "cannot make $OUT"; return; }
    build_initramfs "$kver" "$VM/initramfs.cpio.gz" || { fail vm/initramfs "could not be built"; return; }
    local hostile=${VM_HOSTILE:-} accel=tcg
    if kvm_works "$kernel"; then accel=kvm ACCEL="-accel kvm -cpu host"; else ACCEL="-accel tcg,thread=multi -cpu max"; fi
    ACCEL_NAME=$accel
    [ -n "$hostile" ] || { [ $accel = kvm ] && hostile=all || hostile=quick; }
    echo "== booting $kernel under $accel (hostile suite: $hostile)"
    local start=$SECONDS rc
    boot "$kernel" "$VM/initramfs.cpio.gz" "$hostile"
    rc=$?
    local wall=$((SECONDS - start))
    if [ ! -s "$OUT/figures" ]; then
        fail vm/boot "the VM never reached its tests (qemu exit $rc): $(tail -c 600 "$VM/qemu.err" "$VM/console.log" 2>/dev/null | tr '\n' ' ')"
        return
    fi
    cat "$OUT/results" 2>/dev/null
    if [ "$GUEST" = bench ]; then
        [ "$(figure guest_exit)" = 0 ] || fail vm/bench "$(tail -c 400 "$OUT/guest.err" | tr '\n' ' ')"
        return
    fi
    grep -q '^FAIL ' "$OUT/results" 2>/dev/null && E2E_FAILED=1
    local guest_exit
    guest_exit=$(figure guest_exit)
    if [ -z "$guest_exit" ]; then
        fail vm/finished "the VM stopped before its tests ended (qemu exit $rc, after ${wall} s); console: $(tail -c 400 "$VM/console.log" | tr '\n' ' ')"
    elif [ "$guest_exit" != 0 ] && [ $E2E_FAILED = 0 ]; then
        fail vm/guest "exited $guest_exit: $(tail -c 400 "$OUT/guest.err" | tr '\n' ' ')"
    fi
    [ "$(count ok)" -gt 0 ] || fail vm/checks "no check passed in the VM"
    if [ "$GUEST" = suite ]; then
        echo "figures: kernel $(figure kernel) under $ACCEL_NAME, boot $(figure boot_ms) ms; units $(figure units_s) s, e2e $(figure e2e_s) s; qemu wall ${wall} s"
        echo "vm: $(count ok) passed, $(count FAIL) failed, $(count skip) skipped in the VM"
        return
    fi
    echo "figures: kernel $(figure kernel) under $ACCEL_NAME, boot $(figure boot_ms) ms to the tests;" \
         "root $(figure root_s) s (units $(figure units_s), hostile $(figure hostile_s), matches $(figure matches_s)," \
         "tournament $(figure tournament_s)); user $(figure user_s) s (hostile $(figure user_hostile_s)); qemu wall ${wall} s"
    echo "vm: $(count ok) passed, $(count FAIL) failed, $(count skip) skipped in the VM"
}

main
e2e_exit
