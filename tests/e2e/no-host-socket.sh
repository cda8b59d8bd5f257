#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# no-host-socket.sh ASYMU GUEST - the guest's connect() to 10.0.0.1:80 fails
# with ENETUNREACH, and the emulator opens no host socket: strace -f on the
# host records no socket, socketpair or connect call. Skips (77) without strace.
set -u
command -v strace >/dev/null 2>&1 || { echo "strace is not installed: skipped"; exit 77; }
# LeakSanitizer cannot stop threads under ptrace: a sanitized build checks
# for leaks in the other tests.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
out=$(strace -f -qq -e trace=socket,socketpair,connect -o "$log" \
      "$1" run --check-invariants -- "$2" netunreach)
status=$?
case "$out" in
*"TCP connect to 10.0.0.1:80 = ENETUNREACH"*) ;;
*) printf 'FAIL: the guest did not see ENETUNREACH:\n%s\n' "$out"; exit 1 ;;
esac
if [ $status -ne 0 ] || [ -s "$log" ]; then
    printf 'FAIL: status %s, host socket calls:\n' "$status"
    cat "$log"
    exit 1
fi
echo "no-host-socket: 1 passed, 0 failed"
