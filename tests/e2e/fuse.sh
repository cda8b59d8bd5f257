#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fuse.sh ASYMU GUEST - the FUSE export end to end (and the seccomp sandbox,
# seen from the host while the emulator runs): mount, read from the host,
# offline a vCPU from the host while the guest runs, unmount at exit, on
# SIGTERM, SIGKILL (by the janitor) and a fatal host signal (with its report),
# and a leftover mount reported at the next start. Skips (with the reason) when /dev/fuse is missing.
set -u
asymu=$1 guest=$2
if [ ! -c /dev/fuse ]; then
    echo "SKIP: /dev/fuse is absent on this machine: the FUSE export cannot be tested"
    exit 77
fi
dir=$(mktemp -d)
. "$(dirname "$0")/check.sh"
wait_mount() {
    i=0
    while [ ! -e "$dir/sys/devices/system/cpu/online" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
mounted() { grep -q " $dir fuse" /proc/mounts && echo yes || echo no; }
# guard PID WHAT: a background watchdog that ends asymu (PID) if it still
# runs after 60 s, with a failure naming WHAT and where asymu and its
# janitor were (state, kernel wait channel, the end of asymu's output), so
# a regression fails the check that follows instead of hanging the test;
# unguard stops it.
guard() {
    (
        i=0
        while kill -0 "$1" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
        if kill -0 "$1" 2>/dev/null; then
            echo "FAIL: $2: asymu still runs after 60 s; killed. Its processes:"
            ps -o pid,ppid,stat,wchan:32,time,comm -p "$1" --ppid "$1"
            tail -c 2000 "$dir.out" "$dir.err" 2>/dev/null
            kill -KILL "$1"
        fi
    ) &
    watchdog=$!
}
unguard() { kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null; }
cleanup() { fusermount3 -u "$dir" 2>/dev/null; rm -rf "$dir" "$dir.out" "$dir.err"; }
trap cleanup EXIT

# 1. Read and hotplug from the host while the guest waits for it.
"$asymu" run --check-invariants --dmesg --cpus 8 --aarch32 0-3 --sysfs-mount "$dir" -- "$guest" \
    >"$dir.out" 2>"$dir.err" &
pid=$!
wait_mount
check "the running emulator is confined by seccomp (filter mode 2)" "2" \
    "$(awk '/^Seccomp:/ { print $2 }' /proc/$pid/status)"
check "aarch32_el0 read on the host" "0-3" "$(cat "$dir/sys/devices/system/cpu/aarch32_el0")"
check "cpu7 midr_el1" "0x00000000412fd480" "$(cat "$dir/sys/devices/system/cpu/cpu7/regs/identification/midr_el1")"
check "pid 1 status Name" "Name:	fuse-watch-aarc" "$(grep '^Name:' "$dir/proc/1/status")"
check "read-only file refuses writes" "no" "$( (echo 1 > "$dir/sys/devices/system/cpu/online") 2>/dev/null && echo yes || echo no)"
check "U5: the protected CPU cannot go offline" "no" "$( (echo 0 > "$dir/sys/devices/system/cpu/cpu0/online") 2>/dev/null && echo yes || echo no)"
echo 0 > "$dir/sys/devices/system/cpu/cpu2/online"
i=0
while ! grep -q "^offline 2" "$dir.out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the host reads vCPU 2 offline" "0" "$(cat "$dir/sys/devices/system/cpu/cpu2/online")"
echo 1 > "$dir/sys/devices/system/cpu/cpu2/online"
guard $pid "the guest waiting for the host's hotplug"
wait $pid
check "guest exit status" "0" "$?"
unguard
check "guest saw the host's hotplug, both ways" "offline 2
online 0-1,3-7
offline 
online 0-7" "$(cat "$dir.out")"
check "kernel log has the shutdown" "1" "$(grep -c '] psci: CPU2 killed (polled 0 ms)$' "$dir.err")"
check "kernel log has the boot" "1" "$(grep -c '] CPU2: Booted secondary processor 0x0000000002 \[0x412fd470\]$' "$dir.err")"
check "unmounted at exit" "no" "$(mounted)"

# 2. SIGTERM: orderly stop, status 143, unmounted (and --no-sandbox leaves
# the emulator unconfined).
"$asymu" run --check-invariants --no-sandbox --sysfs-mount "$dir" -- "$guest" >/dev/null 2>"$dir.err" &
pid=$!
wait_mount
check "--no-sandbox: no seccomp filter" "0" "$(awk '/^Seccomp:/ { print $2 }' /proc/$pid/status)"
kill -TERM $pid
guard $pid "SIGTERM"
wait $pid
check "SIGTERM status" "143" "$?"
unguard
check "unmounted after SIGTERM" "no" "$(mounted)"

# 3. SIGKILL: the janitor process asymu forked at boot unmounts the export
# and removes the guest's private /tmp once asymu is gone.
tmpbase=$(mktemp -d)
gone() { # waits up to 10 s for: no mount at $dir and an empty $tmpbase
    i=0
    while { [ "$(mounted)" = yes ] || [ -n "$(ls -A "$tmpbase")" ]; } && [ $i -lt 100 ]; do
        sleep 0.1; i=$((i + 1))
    done
}
TMPDIR=$tmpbase "$asymu" run --sysfs-mount "$dir" -- "$guest" >/dev/null 2>&1 &
pid=$!
wait_mount
check "the guest's /tmp exists while it runs" "1" "$(ls "$tmpbase" | grep -c '^asymu-tmp-')"
kill -KILL $pid
wait $pid 2>/dev/null
gone
check "SIGKILL: unmounted by the janitor" "no" "$(mounted)"
check "SIGKILL: the guest's /tmp removed by the janitor" "" "$(ls -A "$tmpbase")"

# 4. A fatal host signal: one report, status 125, and the same clean-up.
TMPDIR=$tmpbase "$asymu" run --sysfs-mount "$dir" -- "$guest" >/dev/null 2>"$dir.err" &
pid=$!
wait_mount
kill -SEGV $pid
guard $pid "SIGSEGV"
wait $pid
check "SIGSEGV status" "125" "$?"
unguard
check "SIGSEGV report" "1" "$(grep -c "^asymu: internal error: host SIGSEGV at host pc 0x[0-9a-f]*, sent by host pid $$; .*last guest syscall [a-z_0-9]* (aarch64 [0-9]*)\$" "$dir.err")"
gone
check "SIGSEGV: unmounted" "no" "$(mounted)"
check "SIGSEGV: the guest's /tmp removed" "" "$(ls -A "$tmpbase")"
rmdir "$tmpbase"

# 5. If the janitor dies too, the dead mount stays: the next start says how
# to remove it. (The guest's /tmp and /dev/shm stay too: in a directory of
# the test's own, removed here.)
tmpbase=$(mktemp -d)
TMPDIR=$tmpbase "$asymu" run --sysfs-mount "$dir" -- "$guest" >/dev/null 2>&1 &
pid=$!
wait_mount
i=0 janitor=
while [ -z "$janitor" ] && [ $i -lt 100 ]; do
    janitor=$(pgrep -P $pid asymu-janitor) || sleep 0.1
    i=$((i + 1))
done
check "the janitor runs" "yes" "$([ -n "$janitor" ] && echo yes || echo no)"
kill -KILL $janitor $pid
wait $pid 2>/dev/null
timeout -s KILL 60 "$asymu" run --sysfs-mount "$dir" -- "$guest" >/dev/null 2>"$dir.err"
check "leftover mount refused" "2" "$?"
check "leftover mount message" "1" "$(grep -c "fusermount3 -u $dir" "$dir.err")"
fusermount3 -u "$dir"
check "removed with the printed command" "no" "$(mounted)"
rm -rf "$tmpbase"

checks_done fuse
