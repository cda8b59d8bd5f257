#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# host-death.sh ASYMU GUEST - asymu's own end, seen from the host: SIGHUP is
# an orderly stop (129); SIGKILL leaves nothing behind because the janitor
# process removes the guest's private /tmp; a fatal host signal prints one
# report and exits 125, cleaned up the same way; --keep-tmp keeps the
# directory through all of it. GUEST waits on stdin (stdin-wait.c), so
# asymu runs until the script acts.
set -u
asymu=$1 guest=$2
. "$(dirname "$0")/check.sh"
waiting_guest_setup

# settle: waits up to 10 s for the private /tmp to go.
settle() {
    i=0
    while [ -n "$(ls "$base")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}

start
check "the private /tmp exists while the guest runs" "1" "$(ls "$base" | grep -c '^asymu-tmp-')"
kill -HUP $pid
finish
check "SIGHUP: status" "129" "$status"
check "SIGHUP: message" "asymu: stopped by SIGHUP" "$(cat "$base.err")"
check "SIGHUP: the private /tmp removed" "" "$(ls "$base")"

start
kill -KILL $pid
finish
settle
check "SIGKILL: status" "137" "$status"
check "SIGKILL: the janitor removed the private /tmp" "" "$(ls "$base")"

start
kill -ABRT $pid
finish
settle
check "SIGABRT: status" "125" "$status"
check "SIGABRT: one report" "1" "$(grep -c "^asymu: internal error: host SIGABRT at host pc 0x[0-9a-f]*, sent by host pid $$; .*; last guest syscall [a-z_0-9]* (aarch64 [0-9]*)\$" "$base.err")"
check "SIGABRT: the report says it is asymu's bug" "1" "$(grep -c '^asymu: this is a bug in asymu' "$base.err")"
check "SIGABRT: the private /tmp removed" "" "$(ls "$base")"

start --keep-tmp
kill -KILL $pid
finish
sleep 0.5
check "--keep-tmp: SIGKILL keeps the private /tmp" "1" "$(ls "$base" | grep -c '^asymu-tmp-')"

checks_done host-death
