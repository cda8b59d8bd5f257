# SPDX-License-Identifier: GPL-2.0-or-later
# check.sh - sourced by the end-to-end shell tests.
# check WHAT EXPECTED ACTUAL: counts the check and prints a failure with both
# values; checks_done NAME: prints the counts and returns 0 if all passed.
fail=0 passed=0
check() {
    if [ "$2" = "$3" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL: $1: expected [$2], got [$3]"
        fail=$((fail + 1))
    fi
}
checks_done() {
    echo "$1: $passed passed, $fail failed"
    [ $fail -eq 0 ]
}

# For a guest that waits on stdin (tests/guest/stdin-wait.c) after its child
# prints "child done", with TMPDIR=$base so the private /tmp is made there.
# waiting_guest_setup: $base (a fresh directory) and the fifo $fifo the
# guest reads, both removed with asymu's output files at exit.
waiting_guest_setup() {
    base=$(mktemp -d)
    fifo=$base.fifo
    trap 'rm -rf "$base" "$fifo" "$base.out" "$base.err"' EXIT
    mkfifo "$fifo"
}
# start [OPTIONS]: asymu in the background ($pid), its stdin the fifo $fifo
# held open on fd 3; returns once the private /tmp exists and the guest has
# made syscalls (its child printed), or after 10 s.
start() {
    TMPDIR=$base "$asymu" run "$@" -- "$guest" <"$fifo" >"$base.out" 2>"$base.err" &
    pid=$!
    exec 3>"$fifo"
    i=0
    while { [ -z "$(ls "$base")" ] || ! grep -q "child done" "$base.out"; } && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}
# finish: waits for asymu (answer the guest on fd 3 first, or stop asymu),
# leaving its status in $status, and closes the fifo.
finish() {
    wait $pid 2>/dev/null
    status=$?
    exec 3>&-
}
