#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sandbox.sh ASYMU GUEST [sanitized] - the confinement of a running emulator, seen from
# the host: --version names it; while the guest waits on stdin (a fifo), the
# emulator's /proc/PID/status shows a seccomp filter in force and
# no_new_privs (which Landlock needs), and its janitor child is not confined
# (it must be able to unmount and remove the private /tmp); the confined
# emulator still serves the console, and at exit the janitor has removed the
# private /tmp; as root, the emulator has its own read-only mount namespace.
# --no-sandbox leaves the emulator unconfined. What the loaded
# policy refuses is proved by the unit test unit-sandbox (tests/unit/test-sandbox.c).
set -u
asymu=$1 guest=$2 build=${3:-release} # sanitized: a -DASYMU_SANITIZE build
. "$(dirname "$0")/check.sh"
waiting_guest_setup
field() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$2/status"; }

version=$("$asymu" --version | sed -n 2p)
case "$version" in
"confinement: seccomp (argument-checked) + landlock ABI "[1-9]*) ok=yes ;;
"confinement: seccomp (argument-checked) only (landlock unavailable: "*")") ok=yes ;;
*) ok="no: $version" ;;
esac
check "--version names the confinement" "yes" "$ok"
check "run --help names it too" "1" "$("$asymu" run --help | grep -c "^  $version\$")"

janitor() { grep -l "^PPid:	$pid\$" /proc/[0-9]*/status 2>/dev/null | head -1 | cut -d/ -f3; }

start
check "confined: seccomp filter mode" "2" "$(field Seccomp $pid)"
check "confined: one filter" "1" "$(field Seccomp_filters $pid)"
check "confined: no_new_privs" "1" "$(field NoNewPrivs $pid)"
j=$(janitor)
check "the janitor is asymu's child" "asymu-janitor" "$(field Name "$j")"
check "the janitor is not confined" "0 0" "$(field Seccomp "$j") $(field NoNewPrivs "$j")"
# As root: its own mount namespace, every mount read-only but the private
# /tmp and /dev/shm (emu/machine/mountns.c); the janitor stays in the host's.
if [ "$(id -u)" = 0 ]; then
    check "own mount namespace" "yes" \
        "$([ "$(readlink /proc/$pid/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] && echo yes)"
    check "the janitor in the host's" "$(readlink /proc/self/ns/mnt)" "$(readlink /proc/$j/ns/mnt)"
    check "every mount read-only but /tmp's and /dev/shm's" "2" \
        "$(awk '$6 !~ /(^|,)ro(,|$)/' /proc/$pid/mountinfo | wc -l)"
    check "the private /tmp read-write" "1" \
        "$(awk -v d="$(ls -d "$base"/*tmp* | head -1)" '$5 == d && $6 ~ /^rw/' /proc/$pid/mountinfo | wc -l)"
fi
echo hi >&3
finish
check "the confined emulator serves the console: status" "0" "$status"
check "the confined emulator serves the console: output" "child done
parent read: hi
child exited 0" "$(cat "$base.out")"
check "nothing on stderr" "" "$(cat "$base.err")"
check "the janitor removed the private /tmp before asymu exited" "" "$(ls "$base")"

# As root with a --sysroot, the emulator's root holds its places and
# nothing else (emu/machine/newroot.c), each at its own host path; seen
# from the host through /proc/PID/root: the sysroot's file, the private
# /tmp, /proc/PID/fd, and no /etc (docs/security.md, issue 24 item 1).
if [ "$(id -u)" = 0 ]; then
    sysroot=$(mktemp -d)
    echo inside >"$sysroot/marker"
    start --sysroot "$sysroot"
    r=/proc/$pid/root
    check "new root: the sysroot's file at its own path" "inside" "$(cat "$r$sysroot/marker")"
    check "new root: no /etc" "no" "$([ -e "$r/etc" ] && echo yes || echo no)"
    check "new root: the private /tmp at its own path" "1" \
        "$(ls -d "$r$base"/*tmp* 2>/dev/null | wc -l)"
    if [ "$build" = sanitized ]; then # LeakSanitizer reads /proc by path at exit
        check "new root: its fd directory in /proc" "yes" "$([ -d "$r/proc/$pid/fd" ] && echo yes)"
    else
        check "new root: of /proc, its own fd directory" "$pid fd" \
            "$(ls "$r/proc") $(ls "$r/proc/$pid")"
    fi
    check "new root: its top is a read-only tmpfs" "tmpfs ro" \
        "$(awk '$5 == "/" { for (i = 7; $i != "-"; i++); print $(i + 1), substr($6, 1, 2) }' \
            /proc/$pid/mountinfo)"
    echo hi >&3
    finish
    check "new root: the confined emulator serves the console: status" "0" "$status"
    check "new root: output" "child done
parent read: hi
child exited 0" "$(cat "$base.out")"
    check "new root: nothing on stderr" "" "$(cat "$base.err")"
    check "new root: the janitor removed the private /tmp" "" "$(ls "$base")"
    rm -rf "$sysroot"
fi

start --no-sandbox
check "--no-sandbox: no seccomp filter" "0" "$(field Seccomp $pid)"
check "--no-sandbox: no no_new_privs" "0" "$(field NoNewPrivs $pid)"
check "--no-sandbox: the host's mount namespace" "$(readlink /proc/self/ns/mnt)" \
    "$(readlink /proc/$pid/ns/mnt)"
echo hi >&3
finish
check "--no-sandbox: status" "0" "$status"
check "--no-sandbox: the private /tmp removed" "" "$(ls "$base")"

checks_done sandbox
