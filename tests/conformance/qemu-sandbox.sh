#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# qemu-sandbox.sh ROOT QEMU ARGS... - runs `QEMU ARGS...` (qemu-user) with
# the guest root ROOT as its /, where it cannot change the host.
#
# Not `qemu -L ROOT`: qemu-user hands every file syscall to the host kernel,
# a path the root lacks falls through to the host's own (/proc/sys, /sys,
# /home), and qemu 7.2's statx ignores -L altogether (armhf's glibc stats
# with statx, so Python finds none of its modules). Instead, in private mount
# and pid namespaces: every host mount is made read-only; ROOT is mounted as
# a read-only overlay (the overlay only adds mount points for the host's
# x86-64 libraries that qemu itself loads), with its own read-only /proc, the
# host's /dev and /sys read-only, and private tmpfs /tmp and /dev/shm: what
# asymu gives its guests. Then qemu runs chrooted in it. Needs root, or
# unprivileged user namespaces with overlayfs.
#
# qemu-sandbox.sh --steps FILE ROOT QEMU - runs one qemu per line of FILE
# (shell words: qemu-user options, then the program and its arguments) in
# the same sandbox, so that the steps share its /tmp, one after the other
# until one fails; the exit status is that step's (`sh -e`), else 0.
# tests/conformance/programs.py writes such files.
set -eu

steps=""
if [ "${1:-}" = --steps ]; then
    steps=$(realpath "$2")
    shift 2
fi

if [ "${QEMU_SANDBOX_INSIDE:-}" != 1 ]; then
    user=""
    [ "$(id -u)" -eq 0 ] || user="--user --map-root-user"
    export QEMU_SANDBOX_INSIDE=1
    # shellcheck disable=SC2086
    if [ -n "$steps" ]; then
        set -- --steps "$steps" "$@"
    fi
    # shellcheck disable=SC2086
    exec unshare $user --mount --pid --fork --kill-child --propagation private "$0" "$@"
fi
unset QEMU_SANDBOX_INSIDE
root=$(realpath "$1")
qemu=$(command -v "$2")
shift 2

die() {
    echo "qemu-sandbox: $*" >&2
    exit 1
}

# Deepest mounts first, so that a parent's remount does not hide a child.
# Mount points with spaces (\040 in mountinfo) are not expected here.
awk '{ print $5 }' /proc/self/mountinfo | sort -ru | while read -r m; do
    mount -o remount,bind,ro "$m" 2>/dev/null || die "cannot make $m read-only"
done

# The staging directory lives in a tmpfs of this namespace only.
stage=/run/qemu-sandbox
mount -t tmpfs -o mode=755 tmpfs /run || die "cannot mount a tmpfs"
mkdir -p $stage/upper $stage/work $stage/root
mount -t overlay overlay -o "lowerdir=$root,upperdir=$stage/upper,workdir=$stage/work" \
    $stage/root || die "cannot mount an overlay of $root"
new=$stage/root
host_libs="/lib64 /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu"
for d in $host_libs; do
    [ -d "$d" ] || continue
    mkdir -p "$new$d"
done
mkdir -p "$new/usr/libexec/qemu-sandbox" "$new/proc" "$new/sys" "$new/dev" "$new/tmp"
touch "$new/usr/libexec/qemu-sandbox/qemu"
mount -o remount,ro $stage/root
for d in $host_libs; do
    [ -d "$d" ] || continue
    mount --bind "$d" "$new$d"
    mount -o remount,bind,ro "$new$d"
done
mount --bind "$qemu" "$new/usr/libexec/qemu-sandbox/qemu"
mount -t proc -o ro,nosuid,nodev,noexec proc "$new/proc"
mount --rbind /sys "$new/sys"
mount --rbind /dev "$new/dev"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$new/dev/shm"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$new/tmp"
if [ -n "$steps" ]; then
    # The file was read-only-remounted with the rest, and is read here, on
    # the host's side of the chroot.
    while IFS= read -r line; do
        eval "set -- $line"
        status=0
        /usr/sbin/chroot "$new" /usr/libexec/qemu-sandbox/qemu "$@" </dev/null || status=$?
        [ "$status" -eq 0 ] || exit "$status"
    done < "$steps"
    exit 0
fi
exec /usr/sbin/chroot "$new" /usr/libexec/qemu-sandbox/qemu "$@"
